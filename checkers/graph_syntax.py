"""Python that MindSpore's graph compiler rejects at every jit_syntax_level.

Measured on MindSpore 2.10, GRAPH_MODE, under both STRICT and LAX
(tests/oracle/test_graph_syntax.py):

- try/except and try/finally, ``del``, ``yield``/``yield from``, set literals and
  set comprehensions, ``:=``, ``nonlocal``, ``match``, ``async def``, a class
  defined inside, ``for``/``while ... else``, a comprehension with two ``for``
  clauses and complex literals fail to compile ("Unsupported statement 'Try'",
  "The 'for...else...' statement is not supported now", ...), also inside a
  nested function that is never called;
- ``Parameter(...)``, ``self.trainable_params()`` and the other Cell methods on
  MindSpore's jit_forbidden list, ``mindspore.common.initializer`` classes,
  context setters and getters, ``ms.set_seed`` and ``mindspore.log`` fail to
  compile ("Failed to compile in GRAPH_MODE because ... is not supported in
  'construct' or function with @jit decorator");
- a variable first bound inside a ``for``/``while`` body, or in one branch of an
  ``if`` on a tensor, and read after it fails to compile ("The local variable 'y'
  defined in the 'for' loop body cannot be used outside of the loop"), even for
  ``for i in range(3)`` where Python always binds it.

Accepted, so not flagged: ``global``, ``assert``, ``raise``, lambdas, ``with`` on a
@jit_class object, one-``for`` comprehensions and generator expressions (nested
ones too), annotated local assignment, ``self.cells()``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, resolve, scope, values
from mslint.checkers.follow import GraphModeNote
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

SYNTAX = "ms-unsupported-syntax-in-graph"
FORBIDDEN = "ms-forbidden-api-in-graph"
LOOP_VARIABLE = "ms-loop-variable-after-loop"

_COMPREHENSIONS = (nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp)
_NESTED_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)
_TERMINATORS = (nodes.Return, nodes.Raise, nodes.Break, nodes.Continue)


class GraphSyntaxChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-syntax"
    msgs = {
        "E7401": (
            "%s in graph code fails to compile at every jit_syntax_level; %s%s",
            SYNTAX,
            "Python syntax MindSpore's graph parser rejects under both STRICT and LAX: "
            "try/except/finally, del, yield, set literals and comprehensions, the walrus "
            "operator, nonlocal, match, async def, a class defined inside, for/while ... "
            "else, a comprehension with more than one for, complex literals.",
        ),
        "E7402": (
            "%s() is refused in graph code and fails to compile at every jit_syntax_level; %s%s",
            FORBIDDEN,
            "An API MindSpore refuses inside construct/@jit: creating a Parameter, "
            "Cell.trainable_params/get_parameters/parameters_dict and the other Cell "
            "methods on MindSpore's jit_forbidden list, mindspore.common.initializer "
            "classes, context setters and getters, set_seed, mindspore.log. "
            "initializer(...) is reported by ms-parameter-init-in-construct instead.",
        ),
        "E7403": (
            "'%s' is bound only inside %s on line %d and read after it: graph code fails to "
            "compile at every jit_syntax_level, even when Python would run it; %s%s",
            LOOP_VARIABLE,
            "A variable first bound inside a for/while body (the loop variable too), or in only "
            "one branch of an if whose condition is a tensor, and read after the loop or the if. "
            "MindSpore's graph compiler rejects it even when Python always binds it.",
        ),
    }

    # -- ms-unsupported-syntax-in-graph ----------------------------------------
    def _syntax(self, node: nodes.NodeNG, key: str, where: nodes.NodeNG | None = None, count: int = 0) -> None:
        analysis = scope.analysis(node.root())
        target = where if where is not None else node
        if not analysis.in_graph(target) or analysis.bytecode_only(target):
            return  # @jit(capture_mode="bytecode") runs what it cannot compile as Python
        construct, rewrite = apis.UNSUPPORTED_GRAPH_SYNTAX[key]
        if "%d" in construct:
            construct = construct % count
        self.add_message(SYNTAX, node=node, args=(construct, rewrite))

    @only_required_for_messages(SYNTAX)
    def visit_try(self, node: nodes.Try) -> None:
        self._syntax(node, "try" if node.handlers else "try-finally")

    @only_required_for_messages(SYNTAX)
    def visit_trystar(self, node: nodes.TryStar) -> None:
        self._syntax(node, "try")

    @only_required_for_messages(SYNTAX)
    def visit_delete(self, node: nodes.Delete) -> None:
        self._syntax(node, "del")

    @only_required_for_messages(SYNTAX)
    def visit_yield(self, node: nodes.Yield) -> None:
        self._syntax(node, "yield")

    @only_required_for_messages(SYNTAX)
    def visit_yieldfrom(self, node: nodes.YieldFrom) -> None:
        self._syntax(node, "yield-from")

    @only_required_for_messages(SYNTAX)
    def visit_set(self, node: nodes.Set) -> None:
        self._syntax(node, "set")

    @only_required_for_messages(SYNTAX)
    def visit_setcomp(self, node: nodes.SetComp) -> None:
        self._syntax(node, "set-comprehension")

    @only_required_for_messages(SYNTAX)
    def visit_namedexpr(self, node: nodes.NamedExpr) -> None:
        self._syntax(node, "walrus")

    @only_required_for_messages(SYNTAX)
    def visit_nonlocal(self, node: nodes.Nonlocal) -> None:
        self._syntax(node, "nonlocal")

    @only_required_for_messages(SYNTAX)
    def visit_match(self, node: nodes.Match) -> None:
        self._syntax(node, "match")

    @only_required_for_messages(SYNTAX)
    def visit_asyncfunctiondef(self, node: nodes.AsyncFunctionDef) -> None:
        analysis = scope.analysis(node.root())
        if analysis.kinds.get(node) == scope.GRAPH and isinstance(node.parent, nodes.ClassDef):
            # ``async def construct``: the compiled method itself
            construct, rewrite = apis.UNSUPPORTED_GRAPH_SYNTAX["async"]
            self.add_message(SYNTAX, node=node, args=(construct, rewrite))
            return
        self._syntax(node, "async", where=node.parent)

    @only_required_for_messages(SYNTAX)
    def visit_classdef(self, node: nodes.ClassDef) -> None:
        if node.parent is not None and not isinstance(node.parent, nodes.Module):
            self._syntax(node, "class", where=node.parent)

    @only_required_for_messages(SYNTAX)
    def visit_for(self, node: nodes.For) -> None:
        if node.orelse:
            self._syntax(node, "for-else")

    @only_required_for_messages(SYNTAX)
    def visit_while(self, node: nodes.While) -> None:
        if node.orelse:
            self._syntax(node, "while-else")

    @only_required_for_messages(SYNTAX)
    def visit_listcomp(self, node: nodes.ListComp | nodes.DictComp | nodes.GeneratorExp) -> None:
        if len(node.generators) > 1:
            self._syntax(node, "comprehension", count=len(node.generators))

    visit_dictcomp = visit_listcomp
    visit_generatorexp = visit_listcomp

    @only_required_for_messages(SYNTAX)
    def visit_const(self, node: nodes.Const) -> None:
        if isinstance(node.value, complex):
            self._syntax(node, "complex")

    # -- ms-forbidden-api-in-graph -------------------------------------------
    @only_required_for_messages(FORBIDDEN)
    def visit_call(self, node: nodes.Call) -> None:
        analysis = scope.graph_call_analysis(node)
        if analysis is None or analysis.bytecode_only(node):
            return  # bytecode capture runs these as Python (measured: a graph break, ms-graph-break's)
        func = node.func
        qname = resolve.qualified_name(func)
        if qname is not None:
            fix = self._forbidden_call(qname)
            if fix is not None:
                self.add_message(FORBIDDEN, node=node, args=(spelled(func), fix))
            return
        if isinstance(func, nodes.Attribute) and self._forbidden_method(func, analysis):
            self.add_message(FORBIDDEN, node=node, args=(spelled(func), apis.GRAPH_FORBIDDEN_METHOD_FIX))
        elif isinstance(func, nodes.Attribute) and self._used_cell_list(node, func, analysis):
            self.add_message(FORBIDDEN, node=node, args=(spelled(func), apis.GRAPH_CELL_LIST_FIX))

    @staticmethod
    def _forbidden_call(qname: str) -> str | None:
        if qname in apis.GRAPH_FORBIDDEN_EXEMPT:
            return None  # initializer(...): ms-parameter-init-in-construct
        fix = apis.GRAPH_FORBIDDEN_CALLS.get(qname)
        if fix is not None:
            return fix
        for module, module_fix in apis.GRAPH_FORBIDDEN_MODULES.items():
            if qname.startswith(module + "."):
                return module_fix
        return None

    @staticmethod
    def _forbidden_method(func: nodes.Attribute, analysis: scope.ModuleAnalysis) -> bool:
        name = func.attrname
        specific = name in apis.GRAPH_FORBIDDEN_CELL_METHODS
        if not specific and name not in apis.GRAPH_FORBIDDEN_SELF_METHODS:
            return False
        on_self = astutil.is_self(func.expr)
        if not on_self:
            # ``self.backbone.trainable_params()``: only names no other class has
            return specific and not (isinstance(func.expr, nodes.Name) and resolve.binding(func.expr) is None)
        found = astutil.enclosing_method(func)
        if found is None:
            return False
        _, cls = found
        # a Cell's own method, not one the user class defines under that name
        return analysis.is_cell_class(cls) and resolve.find_method(cls, name) is None

    @staticmethod
    def _used_cell_list(node: nodes.Call, func: nodes.Attribute, analysis: scope.ModuleAnalysis) -> bool:
        """``self.cells()``/``self.name_cells()`` whose result is used (iterated,
        measured, indexed): graph mode folds away only an unused one."""
        if func.attrname not in apis.GRAPH_FORBIDDEN_WHEN_USED_METHODS or not astutil.is_self(func.expr):
            return False
        found = astutil.enclosing_method(func)
        if found is None or not analysis.is_cell_class(found[1]) or resolve.find_method(found[1], func.attrname):
            return False
        statement = node.parent
        if isinstance(statement, nodes.Expr):
            return False
        if isinstance(statement, nodes.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], nodes.AssignName):
            name = statement.targets[0].name
            return any(read.name == name for read in found[0].nodes_of_class(nodes.Name))
        return True

    # -- ms-loop-variable-after-loop -------------------------------------------
    @only_required_for_messages(LOOP_VARIABLE)
    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        analysis = scope.analysis(node.root())
        if analysis.kinds.get(node) != scope.GRAPH or analysis.bytecode_only(node):
            return  # bytecode capture binds names as Python does (measured)
        _BindingFlow(self, analysis, node).run()


class _State:
    """Names definitely bound at a point of a graph function, and names bound
    only inside a loop body or one branch of a tensor ``if`` (with that origin)."""

    __slots__ = ("defined", "pending")

    def __init__(self, defined: set[str], pending: dict[str, tuple[str, nodes.NodeNG, str]]) -> None:
        self.defined = defined
        self.pending = pending

    def copy(self) -> _State:
        return _State(set(self.defined), dict(self.pending))

    def bind(self, name: str) -> None:
        self.defined.add(name)
        self.pending.pop(name, None)


_LOOP_FIX = "give it a value before the loop"
_IF_FIX = "give it a value before the if, or in every branch"


class _BindingFlow:
    """Walks one graph function's statements in order, tracking which names
    graph mode considers bound (it rejects names that only a loop body, or one
    branch of an ``if`` on a tensor, binds)."""

    def __init__(self, checker: GraphSyntaxChecker, analysis: scope.ModuleAnalysis, func: nodes.FunctionDef) -> None:
        self.checker = checker
        self.analysis = analysis
        self.func = func
        self.reported: set[tuple[str, int]] = set()
        self.nonlocal_names: set[str] = set()

    def run(self) -> None:
        params = {arg.name for arg in astutil.all_params(self.func)}
        for extra in (self.func.args.vararg, self.func.args.kwarg):
            if extra:
                params.add(extra)
        for node in self.func.nodes_of_class((nodes.Global, nodes.Nonlocal), skip_klass=_NESTED_SCOPES):
            self.nonlocal_names.update(node.names)
        self._block(self.func.body, _State(params, {}))

    # -- statements ------------------------------------------------------------
    def _block(self, body: list[nodes.NodeNG], state: _State) -> tuple[_State, bool]:
        """Process statements; returns the state after them and whether the block
        always leaves (return/raise/break/continue as its last statement)."""
        for stmt in body:
            state = self._statement(stmt, state)
        terminated = bool(body) and isinstance(body[-1], _TERMINATORS)
        return state, terminated

    def _statement(self, stmt: nodes.NodeNG, state: _State) -> _State:  # noqa: C901 - one case per statement kind
        if isinstance(stmt, nodes.If):
            return self._if(stmt, state)
        if isinstance(stmt, (nodes.For, nodes.While)):
            return self._loop(stmt, state)
        if isinstance(stmt, nodes.With):
            for expr, target in stmt.items:
                self._reads(expr, state)
                if target is not None:
                    self._bind_targets(target, state)
            state, _ = self._block(stmt.body, state)
            return state
        if isinstance(stmt, nodes.Try):
            state, _ = self._block(stmt.body, state)
            state, _ = self._block(stmt.orelse, state)
            state, _ = self._block(stmt.finalbody, state)
            return state
        if isinstance(stmt, (nodes.FunctionDef, nodes.ClassDef)):
            for decorator in stmt.decorators.nodes if stmt.decorators else ():
                self._reads(decorator, state)
            state.bind(stmt.name)
            return state
        if isinstance(stmt, (nodes.Import, nodes.ImportFrom)):
            for name, alias in stmt.names:
                state.bind((alias or name).split(".", 1)[0])
            return state
        if isinstance(stmt, nodes.Match):
            return state  # rejected anyway (ms-unsupported-syntax-in-graph)
        # simple statements: reads first, then bindings
        self._reads(stmt, state)
        if isinstance(stmt, nodes.AnnAssign) and stmt.value is None:
            return state  # ``y: int`` binds nothing
        self._bind_targets(stmt, state)
        return state

    def _if(self, stmt: nodes.If, state: _State) -> _State:
        self._reads(stmt.test, state)
        body_state, body_leaves = self._block(stmt.body, state.copy())
        else_state, else_leaves = self._block(stmt.orelse, state.copy())
        known = self.analysis.values_at(stmt)
        if known is None or not known.is_tensor(stmt.test):
            # a constant condition is folded: the branch taken binds as in Python
            merged = state.copy()
            for branch in (body_state, else_state):
                for name in branch.defined:
                    merged.bind(name)
            for branch in (body_state, else_state):
                for name, origin in branch.pending.items():
                    if name not in merged.defined:
                        merged.pending[name] = origin
            return merged
        flowing = [s for s, leaves in ((body_state, body_leaves), (else_state, else_leaves)) if not leaves]
        if not flowing:
            return state
        if len(flowing) == 1:
            return flowing[0]
        merged = _State(body_state.defined & else_state.defined, {})
        for branch in (body_state, else_state):
            for name, origin in branch.pending.items():
                if name not in merged.defined:
                    merged.pending[name] = origin
        for name in (body_state.defined ^ else_state.defined) - state.defined:
            merged.pending[name] = ("one branch of the if on a tensor", stmt, _IF_FIX)
        return merged

    def _loop(self, stmt: nodes.For | nodes.While, state: _State) -> _State:
        if isinstance(stmt, nodes.For):
            self._reads(stmt.iter, state)
            kind = "the for loop"
        else:
            self._reads(stmt.test, state)
            kind = "the while loop"
        inner = state.copy()
        if isinstance(stmt, nodes.For):
            self._bind_targets(stmt.target, inner)
        inner, _ = self._block(stmt.body, inner)
        after = _State(set(state.defined), dict(state.pending))
        for name, origin in inner.pending.items():
            if name not in after.defined:
                after.pending[name] = origin
        for name in inner.defined - state.defined:
            after.pending[name] = (kind, stmt, _LOOP_FIX)
        after, _ = self._block(stmt.orelse, after)  # rejected anyway; runs after the loop
        return after

    # -- names -----------------------------------------------------------------
    def _bind_targets(self, node: nodes.NodeNG, state: _State) -> None:
        for target in node.nodes_of_class(nodes.AssignName, skip_klass=_NESTED_SCOPES + _COMPREHENSIONS):
            state.bind(target.name)

    def _reads(self, node: nodes.NodeNG, state: _State) -> None:
        if not state.pending:
            return
        candidates = list(node.nodes_of_class(nodes.Name, skip_klass=_NESTED_SCOPES))
        if isinstance(node, nodes.AugAssign) and isinstance(node.target, nodes.AssignName):
            candidates.append(node.target)  # ``y += 1`` reads y
        for name_node in candidates:
            name = name_node.name
            origin = state.pending.get(name)
            if origin is None or name in self.nonlocal_names:
                continue
            if _comprehension_variable(name_node):
                continue  # the comprehension's own variable
            kind, where, fix = origin
            key = (name, where.lineno)
            if key in self.reported or values.never_compiled(name_node, self.analysis.class_facts):
                continue
            self.reported.add(key)
            self.checker.add_message(LOOP_VARIABLE, node=name_node, args=(name, kind, where.lineno, fix))


def _comprehension_variable(name_node: nodes.Name) -> bool:
    """Whether ``name_node`` reads a variable a comprehension around it binds, in
    that comprehension or one nested in it (``slots`` in ``{k: [s for s in slots]
    for k, slots in pairs}``), not a name of the function. The first iterable of a
    comprehension is evaluated outside it (``[x for x in x]`` reads the function's
    ``x``), though astroid puts it in the comprehension's scope."""
    name = name_node.name
    inner: nodes.NodeNG = name_node
    comprehension = name_node.scope()
    while isinstance(comprehension, _COMPREHENSIONS):
        first = comprehension.generators[0].iter
        outside = inner is first or any(ancestor is first for ancestor in inner.node_ancestors())
        if name in comprehension.locals and not outside:
            return True
        inner, comprehension = comprehension, comprehension.parent.scope()
    return False


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphSyntaxChecker(linter))
