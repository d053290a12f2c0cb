"""Inputs that graph code proves Python integers by how it uses them.

mslint.analysis.values takes every parameter of graph code for a runtime tensor
unless its declaration says otherwise (a constant default, an ``int``
annotation), and so every part of a tuple parameter (``n_qubit, state =
args[0]``). A compiled ``range()`` overturns that guess: MindSpore refuses a
runtime tensor there at every jit_syntax_level ("For 'make_range', the 0th input
should be a int scalar", tests/oracle/test_graph_syntax.py), and in PyNative a
tensor given to ``range()`` holds integers, which have no gradient. So an input
that graph code gives to ``range()`` (alone or in arithmetic: ``range(n - 1)``)
is a Python int wherever that ``range()`` is compiled with it; a numpy call on
it (``np.roll(range(n), k)``) is folded at compile time, and if it were a
tensor the ``range()`` would fail first.

Only inputs count (a parameter, or a part unpacked from one: ``n, s = args[0]``),
read where the ``range()`` is compiled too: in the same branch or one nested in
it. A value the function computes (``k = int(t)``) is left to what it is computed
from.
"""

from __future__ import annotations

from astroid import nodes

from mslint.analysis import astutil, resolve

# Conditional parts of a statement or expression: code there may not be compiled
# with the rest of the function (a branch a constant test folds away, a loop or a
# comprehension over nothing, the operands a short-circuit skips).
_Condition = tuple[int, str]

_ARITHMETIC = frozenset({"+", "-", "*", "//", "%", "<<", ">>", "&", "|", "^"})


class RangeInputs:
    """Per function: which inputs a ``range()`` call bounds, and under which conditions."""

    def __init__(self) -> None:
        # frame -> name -> the conditions of each ``range()`` that takes it
        self._bounds: dict[nodes.NodeNG, dict[str, list[frozenset[_Condition]]]] = {}
        self._inputs: dict[tuple[nodes.NodeNG, str], bool] = {}

    def proven_int(self, name: nodes.Name) -> bool:
        """Whether ``name`` reads an input of its function that a ``range()`` of
        the same function takes, compiled wherever this read is."""
        frame = name.frame()
        if not isinstance(frame, (nodes.FunctionDef, nodes.Lambda)):
            return False
        bounds = self._bounds_of(frame).get(name.name)
        if not bounds or not self._is_input(frame, name.name):
            return False
        here = _conditions(name, frame)
        return any(bound <= here for bound in bounds)

    def _bounds_of(self, frame: nodes.NodeNG) -> dict[str, list[frozenset[_Condition]]]:
        known = self._bounds.get(frame)
        if known is None:
            known = self._bounds[frame] = {}
            for call in frame.nodes_of_class(nodes.Call):
                if call.frame() is not frame or not _is_builtin_range(call):
                    continue
                conditions = _conditions(call, frame)
                for argument in call.args:
                    for read in _arithmetic_names(argument):
                        known.setdefault(read.name, []).append(conditions)
        return known

    def _is_input(self, frame: nodes.NodeNG, name: str) -> bool:
        key = (frame, name)
        known = self._inputs.get(key)
        if known is None:
            known = self._inputs[key] = _bound_from_inputs(frame, name)
        return known


def _is_builtin_range(call: nodes.Call) -> bool:
    func = call.func
    return isinstance(func, nodes.Name) and func.name == "range" and resolve.binding(func) is None


def _arithmetic_names(expr: nodes.NodeNG) -> list[nodes.Name]:
    """The names an integer expression reads when it is names and constants joined
    by arithmetic (a tensor anywhere in it would make the whole a tensor); else []."""
    if isinstance(expr, nodes.Name):
        return [expr]
    if isinstance(expr, nodes.Const):
        return []
    if isinstance(expr, nodes.UnaryOp) and expr.op in ("-", "+"):
        return _arithmetic_names(expr.operand)
    if isinstance(expr, nodes.BinOp) and expr.op in _ARITHMETIC:
        left, right = _arithmetic_names(expr.left), _arithmetic_names(expr.right)
        operands_ok = all(isinstance(side, (nodes.Name, nodes.Const, nodes.UnaryOp, nodes.BinOp))
                          for side in (expr.left, expr.right))
        return left + right if operands_ok else []
    return []


def _bound_from_inputs(frame: nodes.NodeNG, name: str) -> bool:
    """Whether every binding of ``name`` in ``frame`` is a parameter or a part
    unpacked from a parameter (``n, s = args[0]``, ``n, s = pair``)."""
    bindings = frame.locals.get(name, ())
    if not bindings:
        return False
    params = _parameter_names(frame)
    for binding in bindings:
        parent = binding.parent if isinstance(binding, nodes.AssignName) else binding
        if isinstance(parent, nodes.Arguments):
            continue
        if not isinstance(parent, (nodes.Tuple, nodes.List)):
            return False
        statement = parent.parent
        if not (isinstance(statement, nodes.Assign) and parent in statement.targets):
            return False
        if not _reads_input(statement.value, params):
            return False
    return True


def _parameter_names(frame: nodes.NodeNG) -> set[str]:
    names = {param.name for param in astutil.all_params(frame)}
    return names | {extra for extra in (frame.args.vararg, frame.args.kwarg) if extra}


def _reads_input(value: nodes.NodeNG, params: set[str]) -> bool:
    """``args``, ``args[0]``, ``pair[1][0]``: a parameter or a constant index into one."""
    while isinstance(value, nodes.Subscript) and isinstance(value.slice, nodes.Const):
        value = value.value
    return isinstance(value, nodes.Name) and value.name in params


def _conditions(node: nodes.NodeNG, frame: nodes.NodeNG) -> frozenset[_Condition]:
    """The conditional parts of ``frame`` that hold ``node``."""
    found: set[_Condition] = set()
    child, parent = node, node.parent
    while parent is not None and parent is not frame:
        part = _conditional_part(parent, child)
        if part is not None:
            found.add((id(parent), part))
        child, parent = parent, parent.parent
    return frozenset(found)


def _conditional_part(parent: nodes.NodeNG, child: nodes.NodeNG) -> str | None:  # noqa: PLR0911 - one case per form
    """Which conditional part of ``parent`` holds ``child``; None when ``child``
    runs whenever ``parent`` does (a test, the iterable of a loop)."""
    if isinstance(parent, (nodes.If, nodes.For, nodes.While)):
        if child in parent.body:
            return "body"
        return "orelse" if child in parent.orelse else None
    if isinstance(parent, nodes.IfExp):
        return None if child is parent.test else ("body" if child is parent.body else "orelse")
    if isinstance(parent, nodes.BoolOp):
        return None if child is parent.values[0] else str(parent.values.index(child))
    if isinstance(parent, nodes.Try):
        return "handlers" if child in parent.handlers else None
    if isinstance(parent, (nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp)):
        first = parent.generators[0]
        return None if child is first else "each"
    if isinstance(parent, nodes.Comprehension):
        return None if child is parent.iter and parent is parent.parent.generators[0] else "each"
    if isinstance(parent, nodes.Match):
        return str(parent.cases.index(child)) if child in parent.cases else None
    return None
