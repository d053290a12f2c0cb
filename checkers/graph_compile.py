"""Graph code MindSpore refuses to compile, the mistakes its FAQ on network
compilation and its static-graph syntax guide list (issue 28, 83xx).

Measured on MindSpore 2.10, CPU, GRAPH_MODE under STRICT and LAX, and under
``@jit(capture_mode="bytecode")`` (tests/oracle/test_graph_compile.py):

- a variable (or the returned value) that is a tensor of one dtype in one branch
  of an ``if`` on a tensor and another dtype, a Python number or a tuple in the
  other fails at both levels ("Type Join Failed"); tensor-or-None fails under
  STRICT only; different ranks join (2.10 no longer reports "Shape Join Failed");
- ``a is b`` with b a Cell, a function or a tuple fails at both levels; with two
  tensors it fails under STRICT and is always False under LAX; ``t in (0, 1)``
  with t a tensor is always False at both levels; ``1 in t`` fails under STRICT;
- a sub-cell called with arguments its construct does not take fails at both
  levels (and in PyNative); the ``*args`` forms compile;
- a ``bprop`` whose parameters are not the construct inputs plus ``out`` and
  ``dout`` fails when differentiated, in every mode; ``*args`` or a bare tensor
  returned fail in graph mode;
- two Parameters of one Cell with the same ``name=`` make the optimizer refuse
  the network and save_checkpoint keep one of them (mode-independent);
- ``set_train``/``set_grad``/``to_float`` inside construct fail under STRICT and
  change nothing under LAX; a hook registered on a sub-cell there fails at both;
- a ``for`` over ``range(n)`` is unrolled: from 500 iterations (nested loops:
  their product) it fails with "Exceed function call depth limit 1000".

Under bytecode capture the branch, the comparison and the loop run in Python
(graph breaks, ms-graph-break's): these rules are silent there.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, compiled, edits, resolve, scope, sites, values
from mslint.checkers.follow import GraphModeNote
from mslint.checkers.messages import jit_syntax_level, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

BRANCH_TYPES = "ms-branch-type-mismatch"
IDENTITY = "ms-identity-comparison-in-graph"
MEMBERSHIP = "ms-tensor-membership-in-graph"
CALL_MISMATCH = "ms-cell-call-mismatch"
BPROP = "ms-bprop-signature"
DUPLICATE_NAME = "ms-duplicate-parameter-name"
CELL_STATE = "ms-cell-state-in-graph"
UNROLL = "ms-loop-unroll-too-deep"

_TERMINATORS = (nodes.Return, nodes.Raise, nodes.Break, nodes.Continue)
_NESTED_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)
_EVERY_LEVEL = 'fails to compile at every jit_syntax_level ("Type Join Failed")'


class GraphCompileChecker(GraphModeNote, BaseChecker):
    name = "mindspore-graph-compile"
    msgs = {
        "E8301": (
            "%s: graph mode cannot join the branches of an if on a tensor and %s; %s%s",
            BRANCH_TYPES,
            "A variable or a returned value that is a tensor of one dtype in one branch of an if on "
            "a tensor and a tensor of another dtype, a Python number or a tuple in the other (or "
            "before the if): 'Type Join Failed' at every jit_syntax_level (a tensor or None: STRICT).",
        ),
        "E8302": (
            "%s compares by identity in graph code: %s; %s%s",
            IDENTITY,
            "`a is b` / `a is not b` in graph code where b is a Cell, a function or a tuple (fails "
            "at every level: b may only be an int, bool, string, None or a type) or both are "
            "tensors (STRICT fails; LAX says False even for the same tensor).",
        ),
        "E8303": (
            "%s in graph code %s; %s%s",
            MEMBERSHIP,
            "`t in (0, 1)` with t a tensor: always False in graph mode at every level (`not in`: "
            "always True), where Python and PyNative compare values; `v in t` with t a tensor "
            "fails to compile under STRICT.",
        ),
        "E8304": (
            "%s passes %s, but %s: fails to compile at every jit_syntax_level (and raises TypeError "
            "in PyNative); pass what construct takes%s",
            CALL_MISMATCH,
            "A user Cell called in graph code with more positional arguments than its construct "
            "takes, a keyword it does not have, or without a required argument.",
        ),
        "E8305": (
            "%s; %s%s",
            BPROP,
            "A Cell's bprop whose parameters are not the construct inputs followed by out and "
            "dout (fails when differentiated, in every mode), that takes *args, or that returns "
            "a tensor instead of a tuple of gradients (fails in graph mode).",
        ),
        "E8306": (
            "Parameter name %r is also given to the Parameter %s of this Cell: building an "
            "optimizer over its parameters raises ValueError (\"its name %r already exists\") and "
            "save_checkpoint keeps only one of them; give each Parameter its own name%s",
            DUPLICATE_NAME,
            "Two Parameters with the same literal name= created in the __init__ of one Cell (and "
            "its base classes) that may be a root: a parent that keeps auto_prefix renames a "
            "sub-cell's parameters to their attribute paths, but the root keeps the names given.",
        ),
        "E8307": (
            "%s inside graph code %s; %s%s",
            CELL_STATE,
            "Cell.set_train, set_grad or to_float called inside construct/@jit (STRICT fails, LAX "
            "runs the graph as compiled: the call changes nothing), or a hook registered on a "
            "sub-cell there (fails at every level).",
        ),
        "E8308": (
            "this loop is unrolled %d times when the graph compiles: graph mode fails at every "
            "jit_syntax_level (\"Exceed function call depth limit 1000\", from %d iterations on); loop "
            "with a while on a tensor counter (not unrolled), or raise ms.set_context(max_call_depth=...)%s",
            UNROLL,
            "A for loop over a constant range in graph code (nested loops: the product of their "
            "counts) with at least 500 iterations: graph mode unrolls it, two call levels per "
            "iteration, past MindSpore's max_call_depth of 1000.",
        ),
    }

    # -- where the rules apply -------------------------------------------------
    @staticmethod
    def _ast_graph(node: nodes.NodeNG) -> scope.ModuleAnalysis | None:
        """The module's analysis when ``node`` is graph code AST capture compiles
        (not only through capture_mode="bytecode", where these lines run in Python)."""
        analysis = scope.analysis(node.root())
        if not analysis.in_graph(node) or analysis.bytecode_only(node):
            return None
        if values.never_compiled(node, analysis.class_facts):
            return None
        return analysis

    # -- ms-branch-type-mismatch -----------------------------------------------
    @only_required_for_messages(BRANCH_TYPES)
    def visit_if(self, node: nodes.If) -> None:
        analysis = self._ast_graph(node)
        if analysis is None:
            return
        known = analysis.values_at(node)
        if known is None or not known.is_tensor(node.test):
            return
        self._join_assignments(node, known)
        self._join_returns(node, known)

    @only_required_for_messages(BRANCH_TYPES)
    def visit_ifexp(self, node: nodes.IfExp) -> None:
        analysis = self._ast_graph(node)
        if analysis is None:
            return
        known = analysis.values_at(node)
        if known is None or not known.is_tensor(node.test):
            return
        mismatch = _mismatch(node.body, node.orelse, known, jit_syntax_level(self))
        if mismatch is not None:
            what, consequence, fix = mismatch
            self.add_message(BRANCH_TYPES, node=node, args=(f"the value is {what}", consequence, fix))

    def _join_assignments(self, node: nodes.If, known: values.FunctionValues) -> None:
        body, body_others = _branch_bindings(node.body)
        orelse, else_others = _branch_bindings(node.orelse)
        level = jit_syntax_level(self)
        reported: set[str] = set()
        for name, (statement, value) in body.items():
            held_by = ""
            if name in orelse:
                other = orelse[name][1]
            elif name not in else_others:
                other, held_by = _value_before(node, name), name
            else:
                continue
            if other is None or not _read_after(node, name):
                continue
            mismatch = _mismatch(value, other, known, level, held_by)
            if mismatch is not None:
                reported.add(name)
                self._report_join(statement, name, mismatch)
        for name, (statement, value) in orelse.items():
            if name in body or name in body_others or name in reported:
                continue
            other = _value_before(node, name)
            if other is None or not _read_after(node, name):
                continue
            mismatch = _mismatch(value, other, known, level, name)
            if mismatch is not None:
                self._report_join(statement, name, mismatch)

    def _report_join(self, statement: nodes.NodeNG, name: str, mismatch: tuple[str, str, str]) -> None:
        what, consequence, fix = mismatch
        self.add_message(BRANCH_TYPES, node=statement, args=(f"'{name}' is {what}", consequence, fix))

    def _join_returns(self, node: nodes.If, known: values.FunctionValues) -> None:
        if not node.body or not isinstance(node.body[-1], nodes.Return):
            return
        here = node.body[-1]
        if node.orelse:
            other = node.orelse[-1] if isinstance(node.orelse[-1], nodes.Return) else None
        else:
            other = _next_return(node)
        if other is None:
            return
        mismatch = _mismatch(_returned(here), _returned(other), known, jit_syntax_level(self))
        if mismatch is not None:
            what, consequence, fix = mismatch
            self.add_message(BRANCH_TYPES, node=here, args=(f"the value returned is {what}", consequence, fix))

    # -- ms-identity-comparison-in-graph, ms-tensor-membership-in-graph --------
    @only_required_for_messages(IDENTITY, MEMBERSHIP)
    def visit_compare(self, node: nodes.Compare) -> None:
        if not any(op in ("is", "is not", "in", "not in") for op, _ in node.ops):
            return
        analysis = self._ast_graph(node)
        if analysis is None:
            return
        known = analysis.values_at(node)
        if known is None:
            return
        left = node.left
        for op, right in node.ops:
            if op in ("is", "is not"):
                self._identity(node, op, left, right, known, analysis)
            elif op in ("in", "not in"):
                self._membership(node, op, left, right, known)
            left = right

    def _identity(  # noqa: PLR0913
        self, node: nodes.Compare, op: str, left: nodes.NodeNG, right: nodes.NodeNG,
        known: values.FunctionValues, analysis: scope.ModuleAnalysis,
    ) -> None:
        what = f"'{spelled(left)} {op} {spelled(right)}'"
        refused = _refused_identity_operand(right, analysis)
        if refused is not None:
            outcome = "it fails to compile at every jit_syntax_level"
            if refused == "a function":
                outcome += " (or, when the function is also called there, compiles as always False)"
            self.add_message(
                IDENTITY,
                node=node,
                args=(
                    what,
                    f"the right side is {refused}, and graph mode accepts only an int, a bool, a string, None "
                    f"or a type there: {outcome}",
                    "compare values with ==" if refused in ("a tuple", "a list", "a dict", "a set")
                    else "compare a flag set in __init__ (self.use_act = act is not None)",
                ),
            )
            return
        evident = compiled.evident_tensors(known.func)
        if compiled.tensorish(left, known, evident) and compiled.tensorish(right, known, evident):
            if jit_syntax_level(self) == "strict":
                consequence = "on two tensors it fails to compile under jit_syntax_level STRICT"
            else:
                outcome = "False" if op == "is" else "True"
                consequence = (
                    f"on two tensors it is always {outcome} under the default LAX level, even for the same tensor "
                    "(STRICT: compile error)"
                )
            self.add_message(IDENTITY, node=node, args=(what, consequence, "compare values with == or a flag set in __init__"))

    def _membership(
        self, node: nodes.Compare, op: str, left: nodes.NodeNG, right: nodes.NodeNG, known: values.FunctionValues
    ) -> None:
        what = f"'{spelled(left)} {op} {spelled(right)}'"
        constants = _constant_sequence(right)
        evident = compiled.evident_tensors(known.func)
        if constants and compiled.tensorish(left, known, evident):
            outcome = "False" if op == "in" else "True"
            self.add_message(
                MEMBERSHIP,
                node=node,
                args=(
                    what,
                    f"is always {outcome} at every jit_syntax_level: graph mode compares a tensor with the "
                    "elements by identity, not value (PyNative compares values)",
                    "compare values: " + " | ".join(f"({spelled(left)} == {item})" for item in constants[:3])
                    + (" | ..." if len(constants) > 3 else ""),
                ),
            )
            return
        if jit_syntax_level(self) == "strict" and compiled.tensorish(right, known, evident) \
                and not compiled.tensorish(left, known, evident):
            self.add_message(
                MEMBERSHIP,
                node=node,
                args=(what, "fails to compile under jit_syntax_level STRICT (a tensor on the right of in)",
                      f"compare values: ({spelled(right)} == {spelled(left)}).any()"),
            )

    # -- calls: ms-cell-call-mismatch, ms-cell-state-in-graph -------------------
    @only_required_for_messages(CALL_MISMATCH, CELL_STATE)
    def visit_call(self, node: nodes.Call) -> None:
        func = node.func
        if not isinstance(func, nodes.Attribute):
            return
        analysis = scope.analysis(node.root())
        if not analysis.in_graph(node):
            return
        if values.never_compiled(node, analysis.class_facts):
            return
        attr = astutil.self_attribute(func)
        if attr is not None:
            self._cell_call(node, attr, analysis)
        if not analysis.bytecode_only(node):
            self._cell_state(node, func, analysis)

    def _cell_call(self, node: nodes.Call, attr: str, analysis: scope.ModuleAnalysis) -> None:
        found = astutil.enclosing_method(node)
        if found is None or not analysis.is_cell_class(found[1]):
            return
        callee = _sub_cell_class(analysis.class_facts(found[1]), attr)
        if callee is None:
            return
        construct = resolve.find_method(callee, "construct")
        if construct is None or resolve.find_method(callee, "__call__") is not None or _decorated(construct):
            return
        if _rewrites_construct(callee):
            return  # a base rewrites construct when built (mindspore_gl's GNNCell expands g: Graph into four inputs)
        problem = _call_problem(node, construct)
        if problem is not None:
            passed, takes = problem
            self.add_message(CALL_MISMATCH, node=node, args=(f"self.{attr}(...)", passed, f"{callee.name}.construct {takes}"))

    def _cell_state(self, node: nodes.Call, func: nodes.Attribute, analysis: scope.ModuleAnalysis) -> None:
        method = func.attrname
        if method not in apis.CELL_STATE_METHODS and method not in apis.CELL_HOOK_METHODS:
            return
        found = astutil.enclosing_method(node)
        if found is None or not analysis.is_cell_class(found[1]):
            return
        receiver = func.expr
        if astutil.is_self(receiver):
            if method in apis.CELL_HOOK_METHODS or resolve.find_method(found[1], method) is not None:
                return  # on self: ms-forbidden-api-in-graph; or the class's own method
        else:
            attr = astutil.self_attribute(receiver)
            if attr is None or not _holds_cells(analysis.class_facts(found[1]), attr):
                return
        call = f"{spelled(func)}()"
        if method in apis.CELL_HOOK_METHODS:
            self.add_message(CELL_STATE, node=node, args=(call, "fails to compile at every jit_syntax_level", apis.CELL_HOOK_FIX))
            return
        if jit_syntax_level(self) == "strict":
            consequence = "fails to compile under jit_syntax_level STRICT (under LAX it changes nothing)"
        else:
            consequence = (
                "changes nothing under the default LAX level (the graph runs as it was compiled, with the flags "
                "the Cell had then) and fails to compile under STRICT"
            )
        self.add_message(CELL_STATE, node=node, args=(call, consequence, apis.CELL_STATE_METHODS[method]))

    # -- ms-bprop-signature, ms-duplicate-parameter-name ------------------------
    @only_required_for_messages(BPROP, DUPLICATE_NAME)
    def visit_classdef(self, node: nodes.ClassDef) -> None:
        analysis = scope.analysis(node.root())
        if not analysis.is_cell_class(node):
            return
        self._bprop(node, analysis)
        self._duplicate_names(node, analysis)

    def _bprop(self, cls: nodes.ClassDef, analysis: scope.ModuleAnalysis) -> None:
        bprop = astutil.own_method(cls, apis.BPROP_METHOD)
        construct = resolve.find_method(cls, "construct")
        if bprop is None or construct is None:
            return
        graph = analysis.kinds.get(construct) == scope.GRAPH
        params = [param.name for param in astutil.positional_params(bprop)[1:]]
        inputs = construct.args
        if bprop.args.vararg:
            if graph and not params and not inputs.vararg:
                self.add_message(
                    BPROP, node=bprop,
                    args=("bprop(self, *args) fails to compile when the Cell is differentiated in graph mode, at every "
                          "jit_syntax_level (\"requires at least 2 params 'out' and 'dout'\")",
                          "name the construct inputs, then out and dout"),
                )
            return
        if inputs.vararg or inputs.kwarg or inputs.kwonlyargs:
            return
        every = len(astutil.positional_params(construct)) - 1
        required = every - len(inputs.defaults or [])
        if not required + 2 <= len(params) <= every + 2:
            names = [param.name for param in astutil.positional_params(construct)[1:]]
            expected = ", ".join(names + ["out", "dout"])
            edit = None
            if not inputs.defaults and params[:-1] == names and "out" not in params:
                # bprop(self, x, dout): only out is missing, before the gradient
                edit = edits.insert_before(astutil.positional_params(bprop)[-1], "out, ")
            edits.offer(BPROP, bprop, [edit] if edit else None)
            self.add_message(
                BPROP, node=bprop,
                args=(f"bprop takes {len(params)} argument{'s' if len(params) != 1 else ''} ({', '.join(params)}), "
                      f"but MindSpore passes the {every} construct input{'s' if every != 1 else ''}, out and dout: "
                      "differentiating the Cell fails in every mode and at every jit_syntax_level",
                      f"write def bprop(self, {expected})"),
            )
            return
        if graph:
            for statement in bprop.nodes_of_class(nodes.Return, skip_klass=_NESTED_SCOPES):
                if _tensor_expression(statement.value, cls, analysis):
                    self.add_message(
                        BPROP, node=statement,
                        args=("bprop returns a tensor, not a tuple of gradients: differentiating the Cell fails to "
                              "compile in graph mode at every jit_syntax_level (\"output should be a tuple\")",
                              f"return a tuple, one gradient per input: return ({spelled(statement.value)},)"),
                    )

    def _duplicate_names(self, cls: nodes.ClassDef, analysis: scope.ModuleAnalysis) -> None:
        if not _spells_parameter(cls.root()):
            return  # no construction of a Parameter can be in this module
        init_calls = (call for method in cls.locals.get("__init__", ()) if isinstance(method, nodes.FunctionDef)
                      for call in method.nodes_of_class(nodes.Call))  # (ClassBody's init_calls, without the rest of it)
        # (the literal name first: resolving every call of every __init__ was a twentieth of the rules' time)
        if not any(_literal_name(call) and resolve.qualified_name(call.func) in apis.PARAMETER_CLASSES
                   for call in init_calls):
            return  # the class's own __init__ names no Parameter: nothing of it to report
        created: dict[str, tuple[nodes.Call, str]] = {}
        held: list[bool] = []  # whether every instance in sight is a renamed sub-cell, asked once
        for call in _init_parameters(cls, analysis):
            name = astutil.argument(call, 1, "name")
            attr = _assigned_attribute(call)
            if not (isinstance(name, nodes.Const) and isinstance(name.value, str)) or attr is None:
                continue
            first = created.get(name.value)
            if first is None:
                created[name.value] = (call, attr)
            elif first[1] != attr and not _exclusive(first[0], call) and call.root() is cls.root() \
                    and (values.requires_grad(first[0]) is not False or values.requires_grad(call) is not False):
                # (two frozen buffers, a KV cache: no optimizer takes them, no checkpoint needs them)
                # (the same attribute assigned again replaces the Parameter: one name, one Parameter)
                if not held:
                    held.append(sites.always_a_subcell(cls))
                if held[0]:
                    return  # the parent renames them to their attribute paths (gate.in_w, gate.rec_w)
                where = f"on line {first[0].lineno}"
                if first[0].root() is not call.root():
                    where += f" of {os.path.basename(first[0].root().file or first[0].root().name)}"
                self.add_message(DUPLICATE_NAME, node=call, args=(name.value, where, name.value))

    # -- ms-loop-unroll-too-deep -------------------------------------------------
    @only_required_for_messages(UNROLL)
    def visit_for(self, node: nodes.For) -> None:
        analysis = self._ast_graph(node)
        if analysis is None or compiled.enclosing_counted_loop(node, analysis) is not None:
            return
        iterations = compiled.unrolled_iterations(node, analysis)
        if iterations is not None and iterations >= apis.UNROLL_FAILS_AT:
            self.add_message(UNROLL, node=node, args=(iterations, apis.UNROLL_FAILS_AT))


# ---------------------------------------------------------------------------
# Branches and their types
# ---------------------------------------------------------------------------


def _branch_bindings(block: list[nodes.NodeNG]) -> tuple[dict[str, tuple[nodes.NodeNG, nodes.NodeNG]], set[str]]:
    """The names a branch binds by a plain ``name = value`` statement of its own
    (the last one), with the statement and value; and every other name it binds
    some other way (loops, nested ifs, unpacking, ``+=``). A branch that always
    leaves (return, raise, break, continue) binds nothing that flows on."""
    plain: dict[str, tuple[nodes.NodeNG, nodes.NodeNG]] = {}
    others: set[str] = set()
    if block and isinstance(block[-1], _TERMINATORS):
        return {}, {target.name for stmt in block for target in stmt.nodes_of_class(nodes.AssignName)}
    for statement in block:
        if isinstance(statement, nodes.Assign) and len(statement.targets) == 1 \
                and isinstance(statement.targets[0], nodes.AssignName):
            name = statement.targets[0].name
            plain[name] = (statement, statement.value)
            others.discard(name)
            continue
        for target in statement.nodes_of_class(nodes.AssignName, skip_klass=_NESTED_SCOPES):
            others.add(target.name)
            plain.pop(target.name, None)
    return plain, others


def _value_before(node: nodes.If, name: str) -> nodes.NodeNG | None:
    """The value ``name = value`` gave ``name`` last before the ``if``, in the same
    block, with nothing else binding it in between; None when unsure."""
    previous = node.previous_sibling()
    while previous is not None:
        if isinstance(previous, nodes.Assign) and len(previous.targets) == 1 \
                and isinstance(previous.targets[0], nodes.AssignName) and previous.targets[0].name == name:
            return previous.value
        if any(target.name == name for target in previous.nodes_of_class(nodes.AssignName, skip_klass=_NESTED_SCOPES)):
            return None
        previous = previous.previous_sibling()
    return None


def _read_after(node: nodes.If, name: str) -> bool:
    end = node.tolineno or node.lineno
    return any(
        read.name == name and (read.lineno or 0) > end
        for read in node.frame().nodes_of_class(nodes.Name, skip_klass=_NESTED_SCOPES)
    )


def _next_return(node: nodes.If) -> nodes.Return | None:
    """The ``return`` the function reaches after an ``if`` without ``else`` when
    the branch is not taken: the next statement of the same block that returns,
    with only plain statements before it."""
    following = node.next_sibling()
    while following is not None:
        if isinstance(following, nodes.Return):
            return following
        if not isinstance(following, (nodes.Assign, nodes.Expr, nodes.AugAssign, nodes.AnnAssign)):
            return None
        following = following.next_sibling()
    return None


def _returned(statement: nodes.Return) -> nodes.NodeNG:
    return statement.value if statement.value is not None else nodes.Const(None)


def _dtype(node: nodes.NodeNG | None) -> str | None:
    """The MindSpore dtype ``node`` names (``ms.float16``, ``mstype.half``), normalised."""
    name = values.dtype_name(node) if node is not None and node is not astutil.UNKNOWN else None
    if name is None:
        return None
    name = apis.DTYPE_SYNONYMS.get(name, name)
    if name in apis.MINDSPORE_FLOAT_DTYPES.values() or name in apis.INTEGER_DTYPES:
        return apis.DTYPE_SYNONYMS.get(name, name)
    return None


def _cast(expr: nodes.NodeNG, known: values.FunctionValues) -> tuple[str, nodes.NodeNG] | None:
    """(dtype, the value cast) for ``x.astype(ms.float16)``, ``x.half()``,
    ``ops.cast(x, ms.float16)``, ``ops.Cast()(x, ...)``, ``self.cast(x, ...)``."""
    if not isinstance(expr, nodes.Call):
        return None
    func = expr.func
    if isinstance(func, nodes.Call):  # ops.Cast()(x, dtype)
        if resolve.qualified_name(func.func) != "mindspore.ops.Cast" or len(expr.args) != 2:
            return None
        source, dtype = expr.args[0], _dtype(expr.args[1])
    elif isinstance(func, nodes.Attribute) and astutil.self_attribute(func) is not None \
            and known.op_attrs.get(astutil.self_attribute(func) or "") == "Cast":
        if len(expr.args) != 2:
            return None
        source, dtype = expr.args[0], _dtype(expr.args[1])
    elif isinstance(func, nodes.Attribute) and resolve.qualified_name(func) == "mindspore.ops.cast":
        if len(expr.args) != 2:
            return None
        source, dtype = expr.args[0], _dtype(expr.args[1])
    elif isinstance(func, nodes.Attribute) and func.attrname in ("astype", "to") and len(expr.args) == 1 \
            and not expr.keywords:
        source, dtype = func.expr, _dtype(expr.args[0])
    elif isinstance(func, nodes.Attribute) and func.attrname in apis.DTYPE_CAST_METHODS and not expr.args \
            and not expr.keywords:
        source, dtype = func.expr, apis.DTYPE_CAST_METHODS[func.attrname]
    else:
        return None
    if dtype is None or not known.depends(source):
        return None
    return dtype, source


def _kind(expr: nodes.NodeNG, known: values.FunctionValues, evident: frozenset[str]) -> tuple:
    """("tensor", dtype or None, the value cast or None), ("constant tensor",),
    ("number", type name), ("tuple",), ("none",); ("unsure",) otherwise."""
    if isinstance(expr, nodes.Const):
        if expr.value is None:
            return ("none",)
        if isinstance(expr.value, (bool, int, float)):
            return ("number", type(expr.value).__name__)
        return ("unsure",)
    if isinstance(expr, nodes.Tuple):
        return ("tuple",)
    cast = _cast(expr, known)
    if cast is not None:
        return ("tensor", cast[0], cast[1])
    if _foldable(expr):
        return ("constant tensor",)
    if compiled.tensorish(expr, known, evident):
        return ("tensor", None, None)
    return ("unsure",)


def _foldable(expr: nodes.NodeNG) -> bool:
    """A tensor built from shapes and constants (``ops.ones_like(x)``, ``Tensor(0.0)``)."""
    if not isinstance(expr, nodes.Call) or not isinstance(expr.func, (nodes.Name, nodes.Attribute)):
        return False
    qname = resolve.qualified_name(expr.func)
    return qname is not None and qname.startswith("mindspore.") and qname.rsplit(".", 1)[-1] in apis.FOLDABLE_TENSOR_CALLS


def _mismatch(  # noqa: C901, PLR0911 - one case per pair of kinds
    here: nodes.NodeNG, other: nodes.NodeNG, known: values.FunctionValues, level: str, held_by: str = ""
) -> tuple[str, str, str] | None:
    """(what differs, the consequence, the fix) when the two values cannot be
    joined (measured); None when they can or mslint is unsure. ``held_by``: the
    name that holds ``other`` (its value before the ``if``), so that
    ``y = y.astype(ms.float16)`` is a cast of that value."""
    evident = compiled.evident_tensors(known.func)
    first, second = _kind(here, known, evident), _kind(other, known, evident)
    if first[0] != "tensor" and second[0] == "tensor":
        first, second, here, other = second, first, other, here
    if first[0] != "tensor":
        return None
    if second[0] == "number":
        return (
            f"a tensor in one branch and a Python {second[1]} in the other",
            _EVERY_LEVEL,
            "make both tensors (ops.zeros_like(x), ops.full_like(x, value))",
        )
    if second[0] == "tuple":
        return (
            "a tensor in one branch and a tuple in the other",
            _EVERY_LEVEL,
            "give both branches the same structure",
        )
    if second[0] == "none":
        if level != "strict":
            return None
        return (
            "a tensor in one branch and None in the other",
            'fails to compile under jit_syntax_level STRICT ("Type Join Failed")',
            "give both branches a tensor",
        )
    if second[0] == "unsure":
        # ``x.astype(ms.float16)`` against ``x`` itself: the cast says x is a tensor,
        # and not a float16 one (or the cast would do nothing)
        _, dtype, source = first
        if dtype in apis.LOW_PRECISION_DTYPES and source is not None and _same_value(source, other, held_by):
            return _uncast(dtype, source)
        return None
    if second[0] != "tensor":
        return None  # a tensor of constants (ops.ones_like(x)) against a tensor: MindSpore folds it
    _, dtype, source = first
    _, other_dtype, other_source = second
    if dtype and other_dtype and dtype != other_dtype:
        return (
            f"a {dtype} tensor in one branch and a {other_dtype} tensor in the other",
            _EVERY_LEVEL,
            "cast both branches to the same dtype",
        )
    for cast_to, cast_source, plain, holder in ((dtype, source, other, held_by), (other_dtype, other_source, here, "")):
        if cast_to in apis.LOW_PRECISION_DTYPES and cast_source is not None and _same_value(cast_source, plain, holder):
            return _uncast(cast_to, cast_source)
    return None


def _uncast(dtype: str, source: nodes.NodeNG) -> tuple[str, str, str]:
    return (
        f"{spelled(source)} cast to {dtype} in one branch and {spelled(source)} uncast in the other",
        _EVERY_LEVEL,
        f"cast it in both branches (or in neither): the other branch keeps {spelled(source)}'s dtype",
    )


def _same_value(cast_source: nodes.NodeNG, plain: nodes.NodeNG, held_by: str) -> bool:
    """The value cast is ``plain`` itself: the same expression, or the name holding it."""
    if held_by and isinstance(cast_source, nodes.Name) and cast_source.name == held_by:
        return True
    return _same_expression(cast_source, plain)


def _same_expression(first: nodes.NodeNG, second: nodes.NodeNG) -> bool:
    try:
        return first.as_string() == second.as_string()
    except Exception:  # noqa: BLE001 - as_string on hostile trees
        return False


# ---------------------------------------------------------------------------
# is / in
# ---------------------------------------------------------------------------


def _refused_identity_operand(right: nodes.NodeNG, analysis: scope.ModuleAnalysis) -> str | None:
    """What the right side of ``is`` is, when graph mode refuses it there (a
    tuple, a list, a dict, a Cell, a function); None when it accepts it or mslint is unsure."""
    if isinstance(right, nodes.Tuple):
        return "a tuple"
    if isinstance(right, (nodes.List, nodes.Dict, nodes.Set)):
        return "a " + type(right).__name__.lower()
    attr = astutil.self_attribute(right)
    if attr is not None:
        found = astutil.enclosing_method(right)
        if found is not None and analysis.is_cell_class(found[1]) and _holds_cells(analysis.class_facts(found[1]), attr):
            return "a Cell"
        return None
    if isinstance(right, nodes.Lambda):
        return "a function"
    if isinstance(right, nodes.Name):
        bound = resolve.binding(right)
        return "a function" if isinstance(bound, nodes.FunctionDef) else None
    if isinstance(right, nodes.Attribute):
        qname = resolve.qualified_name(right)
        if qname is not None and values.is_op_function(qname):
            return "a function"
    return None


def _constant_sequence(node: nodes.NodeNG) -> list[str]:
    """The elements of a tuple or list of Python numbers (literal, or a name
    bound once to one), as written; [] when it is not one."""
    value = node
    if isinstance(node, nodes.Name):
        value = resolve.assigned_value(node, sole=True)
    if not isinstance(value, (nodes.Tuple, nodes.List)) or not value.elts:
        return []
    elements = []
    for element in value.elts:
        literal = astutil.literal(element)
        if isinstance(literal, bool) or not astutil.is_number(literal):
            return []
        elements.append(element.as_string())
    return elements


# ---------------------------------------------------------------------------
# Calls of sub-cells, Cell state
# ---------------------------------------------------------------------------


def _sub_cell_class(facts: values.ClassFacts, attr: str) -> nodes.ClassDef | None:
    """The user Cell class every assignment of ``self.<attr>`` builds (None aside)."""
    found = None
    for value in facts.values(attr):
        if isinstance(value, nodes.Const) and value.value is None:
            continue
        if not isinstance(value, nodes.Call):
            return None
        cls = resolve.user_class_of_call(value)
        if cls is None or (found is not None and cls is not found):
            return None
        found = cls
    if found is None or not resolve.is_cell_class(found):
        return None
    return found


def _holds_cells(facts: values.ClassFacts, attr: str) -> bool:
    """Whether every assignment of ``self.<attr>`` builds a Cell (MindSpore's or the user's)."""
    assigned = [value for value in facts.values(attr) if not (isinstance(value, nodes.Const) and value.value is None)]
    if not assigned:
        return False
    for value in assigned:
        if not isinstance(value, nodes.Call):
            return False
        qname = resolve.qualified_name(value.func) if isinstance(value.func, (nodes.Name, nodes.Attribute)) else None
        if qname is not None and resolve.is_cell_qname(qname):
            continue
        cls = resolve.user_class_of_call(value)
        if cls is None or not resolve.is_cell_class(cls):
            return False
    return True


def _rewrites_construct(cls: nodes.ClassDef) -> bool:
    """A class of ``cls``'s ancestry replaces construct when an instance is built
    (``translate(self, "construct", ...)`` in mindspore_gl's GNNCell, ``self.construct =
    ...``, ``setattr(self, "construct", ...)``): the parameters construct spells are
    then not what a call passes."""
    user, _ = resolve.class_hierarchy(cls)
    return any(_replaces_construct(current) for current in user)


_REPLACES: dict[nodes.ClassDef, bool] = {}  # each class's body walked once (cleared with the trees: forget())


def forget() -> None:
    """Drop the per-class and per-module memos (mslint.run.compat, when astroid's trees are dropped)."""
    _REPLACES.clear()
    _SPELLS_PARAMETER.clear()


def _replaces_construct(cls: nodes.ClassDef) -> bool:
    known = _REPLACES.get(cls)
    if known is None:
        if len(_REPLACES) > 10_000:
            _REPLACES.clear()
        known = _REPLACES[cls] = any(
            (isinstance(node, nodes.AssignAttr) and node.attrname == "construct")
            or (isinstance(node, nodes.Const) and node.value == "construct" and isinstance(node.parent, nodes.Call))
            for node in cls.nodes_of_class((nodes.Const, nodes.AssignAttr))
        )
    return known


def _decorated(func: nodes.FunctionDef) -> bool:
    """Decorated by something other than jit (which keeps the signature)."""
    decorators = func.decorators.nodes if func.decorators else []
    return any(resolve.qualified_name(
        decorator.func if isinstance(decorator, nodes.Call) else decorator) not in apis.JIT_DECORATORS
        for decorator in decorators)


def _call_problem(call: nodes.Call, construct: nodes.FunctionDef) -> tuple[str, str] | None:
    """(what the call passes, what construct takes) when Python would refuse
    the call; None when it binds or mslint cannot tell (``*args``, ``**kwargs``)."""
    if any(isinstance(arg, nodes.Starred) for arg in call.args) or any(kw.arg is None for kw in call.keywords or ()):
        return None
    args = construct.args
    positional = [param.name for param in astutil.positional_params(construct)[1:]]
    posonly = {param.name for param in args.posonlyargs or []}
    keywords_allowed = [name for name in positional if name not in posonly] + [param.name for param in args.kwonlyargs or []]
    shown = ", ".join(positional + ([f"*{args.vararg}"] if args.vararg else []) + [p.name for p in args.kwonlyargs or []])
    takes = f"takes ({shown})"
    if len(call.args) > len(positional) and not args.vararg:
        count = len(call.args)
        return f"{count} positional argument{'s' if count != 1 else ''}", takes
    for keyword in call.keywords or ():
        if keyword.arg not in keywords_allowed and not args.kwarg:
            return f"the keyword {keyword.arg}=", takes
    given = set(positional[: len(call.args)]) | {keyword.arg for keyword in call.keywords or ()}
    with_default = len(args.defaults or [])
    required = positional[: len(positional) - with_default] if with_default else positional
    required += [param.name for param, default in zip(args.kwonlyargs or [], args.kw_defaults or []) if default is None]
    missing = [name for name in required if name not in given]
    if missing:
        return f"no {', '.join(missing)}", takes
    return None


def _tensor_expression(value: nodes.NodeNG | None, cls: nodes.ClassDef, analysis: scope.ModuleAnalysis) -> bool:
    """Arithmetic or a MindSpore op on values: certainly a tensor in bprop (``dout * 2``,
    ``ops.mul(dout, 2)``, ``self.mul(dout, x)``), not a tuple or a name."""
    if isinstance(value, (nodes.BinOp, nodes.UnaryOp)):
        return any(isinstance(child, (nodes.Name, nodes.Call, nodes.BinOp, nodes.Attribute))
                   for child in value.get_children())
    if not isinstance(value, nodes.Call):
        return False
    qname = resolve.qualified_name(value.func) if isinstance(value.func, (nodes.Name, nodes.Attribute)) else None
    if qname is not None:
        return values.is_op_function(qname)
    attr = astutil.self_attribute(value.func)
    return attr is not None and attr in analysis.class_facts(cls).op_attrs


def _init_parameters(cls: nodes.ClassDef, analysis: scope.ModuleAnalysis) -> list[nodes.Call]:
    """The Parameter(...) calls of the ``__init__`` of the class and its user
    bases (not in nested functions), in order."""
    facts = analysis.class_facts(cls)
    found = []
    for body in reversed(facts.bodies):  # the base classes' __init__ runs first
        for call, method in body.init_calls:
            if call.scope() is method and resolve.qualified_name(call.func) in apis.PARAMETER_CLASSES:
                found.append(call)
    return found


def _assigned_attribute(call: nodes.Call) -> str | None:
    """``w`` for ``self.w = Parameter(...)``; None for any other use of the call."""
    statement = call.parent
    if not (isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1):
        return None
    return astutil.self_attribute(statement.targets[0])


def _literal_name(call: nodes.Call) -> bool:
    name = astutil.argument(call, 1, "name")
    return isinstance(name, nodes.Const) and isinstance(name.value, str)


def _exclusive(first: nodes.NodeNG, second: nodes.NodeNG) -> bool:
    """Whether the two nodes sit in different branches of one ``if`` (only one runs),
    or either runs in a loop or a comprehension (mslint cannot count the instances)."""
    for node in (first, second):
        parent = node.parent
        while parent is not None and not isinstance(parent, nodes.FunctionDef):
            if isinstance(parent, (nodes.For, nodes.While, nodes.ListComp, nodes.GeneratorExp)):
                return True
            parent = parent.parent
    branches = {}
    child, parent = first, first.parent
    while parent is not None and not isinstance(parent, nodes.FunctionDef):
        if isinstance(parent, (nodes.If, nodes.IfExp, nodes.Try)):
            branches[id(parent)] = _branch_of(parent, child)
        child, parent = parent, parent.parent
    child, parent = second, second.parent
    while parent is not None and not isinstance(parent, nodes.FunctionDef):
        if id(parent) in branches and branches[id(parent)] != _branch_of(parent, child):
            return True
        child, parent = parent, parent.parent
    return False


def _branch_of(parent: nodes.NodeNG, child: nodes.NodeNG) -> str:
    if isinstance(parent, nodes.IfExp):
        return "body" if child is parent.body else "orelse" if child is parent.orelse else "test"
    if isinstance(parent, nodes.If):
        return "body" if child in parent.body else "orelse" if child in parent.orelse else "test"
    return "body" if child in parent.body else "other"  # try: body vs handlers


def register(linter: PyLinter) -> None:
    linter.register_checker(GraphCompileChecker(linter))


_SPELLS_PARAMETER: dict[nodes.Module, bool] = {}


def _spells_parameter(module: nodes.Module) -> bool:
    """Whether the module names ``Parameter`` at all: imported (``from mindspore
    import Parameter as P``) or as an attribute (``ms.Parameter``), the only ways
    its code can reach mindspore.Parameter (or a star import). Asked once per module: building
    each class's ClassBody to find out was a tenth of the rule's time."""
    known = _SPELLS_PARAMETER.get(module)
    if known is None:
        if len(_SPELLS_PARAMETER) > 256:
            _SPELLS_PARAMETER.clear()
        known = _SPELLS_PARAMETER[module] = any(
            node.attrname == "Parameter" for node in astutil.module_nodes(module, nodes.Attribute)
        ) or any(
            name in ("Parameter", "*") for node in astutil.module_nodes(module, (nodes.ImportFrom, nodes.Import))
            for dotted, _ in node.names for name in [dotted.rpartition(".")[2]]
        )
    return known
