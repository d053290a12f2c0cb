"""Code that runs only on a MindSpore older than the one mslint's facts describe.

Projects that support several MindSpore versions choose an API by version::

    def get_norm():
        def new(x, ord=None, dim=None):
            return ops.norm(x, ord=ord, dim=dim)
        def old(x, ord=2, dim=None):
            return ops.norm(x, dim, p=ord)          # MindSpore < 1.11
        if is_version_ge(ms.__version__, "1.11.0"):
            return new
        return old

The fallback arm runs only on an old MindSpore, where the old API was right:
the rules about the API of the measured version (``apis.MEASURED_MINDSPORE``:
a keyword it lacks, a name it removed) say nothing there. A check is read
where its outcome on the measured version is certain: ``ms.__version__``
compared with a literal version (as strings, exactly as Python compares them,
or through ``version.parse``/``LooseVersion``...), tested for a literal prefix
(``ms.__version__.startswith("2")``) or a character of it
(``ms.__version__[0] == "2"``), or handed with one to a
function whose name says the comparison (``is_version_ge(ms.__version__,
"1.11.0")``, ``version_lt``), or a call of a function of the project whose
body only returns such a check (``def is_old_ms(last="1.10.1"): return
version.parse(ms.__version__) <= version.parse(last)``), its parameters read
from the call's literal arguments or their defaults (one level: a check that
calls another helper is not followed). Anything else is not a version check.
"""

from __future__ import annotations

import operator
import re
from collections.abc import Callable

from astroid import nodes

from mslint.knowledge import apis
from mslint.analysis import resolve

_VERSION_NAMES = frozenset({"mindspore.__version__", "mindspore.version.__version__"})
# Wrappers that turn a version string into something compared part by part.
_VERSION_PARSERS = frozenset({"parse", "Version", "LooseVersion", "StrictVersion", "parse_version"})
_OPERATORS: dict[str, Callable[[object, object], bool]] = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge, "==": operator.eq, "!=": operator.ne,
}
_FLIPPED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}
# The comparison a version function's name says (its words split on "_"), the
# installed version first: is_version_ge(current, "1.11") is current >= 1.11.
_NAMED_COMPARISONS = {"ge": ">=", "gt": ">", "le": "<=", "lt": "<"}
_NAMED_DIRECTIONS = {"greater": ">", "newer": ">", "higher": ">", "later": ">", "above": ">",
                     "less": "<", "older": "<", "lower": "<", "earlier": "<", "below": "<"}
_MAX_DEPTH = 2


def older_mindspore_only(node: nodes.NodeNG, depth: int = 0) -> bool:
    """Whether ``node`` runs only on a MindSpore older than the measured one:
    it sits in the arm of a version check the measured version does not take,
    after an early ``return`` that version takes, or in a nested function that
    only such code hands out."""
    frame = node.frame()
    if _in_arm_not_taken(node, frame):
        return True
    if depth < _MAX_DEPTH and isinstance(frame, nodes.FunctionDef) and isinstance(frame.parent.frame(), nodes.FunctionDef):
        outer = frame.parent.frame()
        uses = [name for name in outer.nodes_of_class(nodes.Name) if name.name == frame.name and not frame.parent_of(name)]
        return bool(uses) and all(older_mindspore_only(use, depth + 1) for use in uses)
    return False


def _in_arm_not_taken(node: nodes.NodeNG, frame: nodes.NodeNG) -> bool:
    child, parent = node, node.parent
    while parent is not None and parent is not frame:
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            taken = holds_on_measured(parent.test)
            in_body = child is parent.body if isinstance(parent, nodes.IfExp) else child in parent.body
            if taken is not None and taken != in_body:
                return True
        if _after_early_exit(child, parent):
            return True
        child, parent = parent, parent.parent
    return _after_early_exit(child, parent) if parent is frame else False


def _after_early_exit(statement: nodes.NodeNG, block_owner: nodes.NodeNG | None) -> bool:
    """An ``if <check>: ... return`` above ``statement`` in its block, whose check
    the measured version passes: the code below it runs only on older versions."""
    for block in ("body", "orelse", "finalbody"):
        statements = getattr(block_owner, block, None)
        if isinstance(statements, list) and statement in statements:
            break
    else:
        return False
    for earlier in statements[: statements.index(statement)]:
        if isinstance(earlier, nodes.If) and not earlier.orelse and earlier.body \
                and isinstance(earlier.body[-1], (nodes.Return, nodes.Raise)) and holds_on_measured(earlier.test) is True:
            return True
    return False


def holds_on_measured(test: nodes.NodeNG, bound: dict[str, nodes.NodeNG] | None = None) -> bool | None:
    """The outcome of a version check on the measured MindSpore; None when
    ``test`` is not one that can be read. ``bound``: in a helper's body
    (_helper_check), its parameters' arguments."""
    if isinstance(test, nodes.UnaryOp) and test.op == "not":
        inner = holds_on_measured(test.operand, bound)
        return None if inner is None else not inner
    if isinstance(test, nodes.BoolOp):
        results = [holds_on_measured(value, bound) for value in test.values]
        decisive = test.op == "or"
        if decisive in results:
            return decisive
        return None if None in results else not decisive
    if isinstance(test, nodes.Compare) and len(test.ops) == 1:
        symbol, right = test.ops[0]
        return _compare(_argument(test.left, bound), symbol, _argument(right, bound))
    if isinstance(test, nodes.Call):
        prefix = _prefix_check(test, bound)
        if prefix is not None:
            return prefix
        named = _named_check(test, bound)
        return named if named is not None or bound is not None else _helper_check(test)
    return None


def _helper_check(call: nodes.Call) -> bool | None:
    """The outcome of a call of a project function (mslint.analysis.resolve.
    project_callee) whose body, past its docstring, is one ``return`` of a
    version check, with each parameter read from the call's argument or its
    default; None when it is not one, or an argument is not written in the call
    (``*args``, ``**kwargs``)."""
    function = resolve.project_callee(call.func)
    if function is None or function.decorators is not None or function.is_method() or function.args.args is None:
        return None
    body = [statement for statement in function.body
            if not (isinstance(statement, nodes.Expr) and isinstance(statement.value, nodes.Const))]
    if len(body) != 1 or not isinstance(body[0], nodes.Return) or body[0].value is None:
        return None
    arguments = function.args
    if arguments.vararg or arguments.kwarg or arguments.kwonlyargs or arguments.posonlyargs \
            or any(isinstance(arg, nodes.Starred) for arg in call.args) or len(call.args) > len(arguments.args):
        return None
    names = [arg.name for arg in arguments.args]
    bound: dict[str, nodes.NodeNG] = dict(zip(names, call.args))
    for keyword in call.keywords or ():
        if keyword.arg is None or keyword.arg not in names or keyword.arg in bound:
            return None
        bound[keyword.arg] = keyword.value
    defaults = dict(zip(names[len(names) - len(arguments.defaults):], arguments.defaults))
    for name in names:
        if name not in bound:
            if name not in defaults:
                return None
            bound[name] = defaults[name]
    return holds_on_measured(body[0].value, bound)


def _argument(expr: nodes.NodeNG, bound: dict[str, nodes.NodeNG] | None) -> nodes.NodeNG:
    """``expr``, or in a helper's body the argument its parameter ``expr`` names."""
    if bound and isinstance(expr, nodes.Name) and expr.name in bound:
        return bound[expr.name]
    if bound and isinstance(expr, nodes.Call) and _parser_call(expr) and len(expr.args) == 1 \
            and isinstance(expr.args[0], nodes.Name) and expr.args[0].name in bound:
        argument = bound[expr.args[0].name]  # version.parse(last): the literal the call gives ``last``
        return argument if isinstance(argument, nodes.Const) or _parser_call_of_literal(argument) else expr
    return expr


def _parser_call_of_literal(expr: nodes.NodeNG) -> bool:
    return isinstance(expr, nodes.Call) and _parser_call(expr) and len(expr.args) == 1 \
        and isinstance(expr.args[0], nodes.Const)


def _compare(left: nodes.NodeNG, symbol: str, right: nodes.NodeNG) -> bool | None:
    if symbol not in _OPERATORS:
        return None
    indexed = _character_check(left, symbol, right)
    if indexed is not None:
        return indexed
    if not _is_installed_version(left, parsed=None):
        left, right, symbol = right, left, _FLIPPED[symbol]
    if _is_installed_version(left, parsed=False):
        literal = _literal(right, parsed=False)
        return None if literal is None else _OPERATORS[symbol](apis.MEASURED_MINDSPORE, literal)
    if _is_installed_version(left, parsed=True):
        literal = _literal(right, parsed=True)
        return None if literal is None or not _parts(literal) else _OPERATORS[symbol](*_padded(_parts(apis.MEASURED_MINDSPORE), _parts(literal)))
    return None


def _character_check(left: nodes.NodeNG, symbol: str, right: nodes.NodeNG) -> bool | None:
    """``ms.__version__[0] == "2"`` (a character, or a slice ``[:3]``, of the
    version string compared with a literal string): read on the measured
    version's text, as Python compares it."""
    for subscript, literal in ((left, right), (right, left)):
        if isinstance(subscript, nodes.Subscript) and _is_installed_version(subscript.value, parsed=False) \
                and isinstance(literal, nodes.Const) and isinstance(literal.value, str):
            index = subscript.slice
            try:
                if isinstance(index, nodes.Const) and isinstance(index.value, int):
                    piece = apis.MEASURED_MINDSPORE[index.value]
                elif isinstance(index, nodes.Slice) and index.step is None and all(
                        bound is None or isinstance(bound, nodes.Const) and isinstance(bound.value, int)
                        for bound in (index.lower, index.upper)):
                    piece = apis.MEASURED_MINDSPORE[
                        index.lower.value if index.lower else None:index.upper.value if index.upper else None]
                else:
                    return None
            except IndexError:
                return None
            if subscript is left:
                return _OPERATORS[symbol](piece, literal.value)
            return _OPERATORS[symbol](literal.value, piece)
    return None


def _prefix_check(call: nodes.Call, bound: dict[str, nodes.NodeNG] | None = None) -> bool | None:
    """``ms.__version__.startswith("2")`` (or a tuple of prefixes): the measured
    version's string tested as Python tests it."""
    func = call.func
    if not (isinstance(func, nodes.Attribute) and func.attrname == "startswith" and len(call.args) == 1
            and not call.keywords and _is_installed_version(func.expr, parsed=False)):
        return None
    argument = _argument(call.args[0], bound)
    prefixes = argument.elts if isinstance(argument, nodes.Tuple) else [argument]
    if not prefixes or not all(isinstance(item, nodes.Const) and isinstance(item.value, str) for item in prefixes):
        return None
    return apis.MEASURED_MINDSPORE.startswith(tuple(item.value for item in prefixes))


def _named_check(call: nodes.Call, bound: dict[str, nodes.NodeNG] | None = None) -> bool | None:
    """``is_version_ge(ms.__version__, "1.11.0")`` and its kind: a function
    whose name says the comparison, given the installed version and a literal."""
    name = call.func.attrname if isinstance(call.func, nodes.Attribute) else getattr(call.func, "name", "")
    words = name.lower().split("_")
    symbol = next((_NAMED_COMPARISONS[word] for word in words if word in _NAMED_COMPARISONS), None)
    if symbol is None:
        direction = next((_NAMED_DIRECTIONS[word] for word in words if word in _NAMED_DIRECTIONS), None)
        symbol = direction + "=" if direction and "equal" in words else direction
    if symbol is None or len(call.args) != 2 or call.keywords:
        return None
    first, second = (_argument(arg, bound) for arg in call.args)
    if not _is_installed_version(first, parsed=None):
        first, second, symbol = second, first, _FLIPPED[symbol]
    literal = _literal(second, parsed=True)
    if not _is_installed_version(first, parsed=None) or literal is None or not _parts(literal):
        return None
    return _OPERATORS[symbol](*_padded(_parts(apis.MEASURED_MINDSPORE), _parts(literal)))


def _is_installed_version(expr: nodes.NodeNG, parsed: bool | None) -> bool:
    """``ms.__version__`` (``parsed`` False), ``version.parse(ms.__version__)``
    (True), either (None); through a name bound once to it."""
    if isinstance(expr, nodes.Call) and parsed is not False:
        return _parser_call(expr) and len(expr.args) == 1 and _is_installed_version(expr.args[0], parsed=False)
    if parsed is True or not isinstance(expr, (nodes.Name, nodes.Attribute)):
        return False
    if resolve.qualified_name(expr) in _VERSION_NAMES:
        return True
    value = resolve.assigned_value(expr, sole=True) if isinstance(expr, nodes.Name) else None
    return isinstance(value, nodes.Attribute) and resolve.qualified_name(value) in _VERSION_NAMES


def _parser_call(call: nodes.Call) -> bool:
    func = call.func
    name = func.attrname if isinstance(func, nodes.Attribute) else func.name if isinstance(func, nodes.Name) else ""
    return name in _VERSION_PARSERS


def _literal(expr: nodes.NodeNG, parsed: bool) -> str | None:
    """The version string written in ``expr`` (``"1.11"``, or parsed:
    ``version.parse("1.11")`` or the bare string)."""
    if parsed and isinstance(expr, nodes.Call) and _parser_call(expr) and len(expr.args) == 1:
        expr = expr.args[0]
    if isinstance(expr, nodes.Const) and isinstance(expr.value, str):
        return expr.value
    return None


def _parts(version: str) -> tuple[int, ...]:
    """The release numbers of a version string: "2.0.0rc1" -> (2, 0, 0)."""
    numbers = []
    for part in version.split("."):
        match = re.match(r"\d+", part)
        if match is None:
            break
        numbers.append(int(match.group()))
    return tuple(numbers)


def _padded(first: tuple[int, ...], second: tuple[int, ...]) -> tuple[tuple[int, ...], tuple[int, ...]]:
    width = max(len(first), len(second))
    return first + (0,) * (width - len(first)), second + (0,) * (width - len(second))
