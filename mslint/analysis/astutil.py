"""Small questions about the syntax tree that every rule asks, answered once.

Arguments of a call by position or keyword (and how a call binds a function's
parameters), literal values, the method and class enclosing a node, ``self.x``
attributes and dotted paths, assignment targets. Nothing here resolves names or
knows MindSpore: that is :mod:`mslint.analysis.resolve` and :mod:`mslint.analysis.values`.
"""

from __future__ import annotations

import operator
from collections.abc import Callable, Iterator

from astroid import exceptions as astroid_exceptions
from astroid import nodes

# An argument hidden behind ``*args``/``**kwargs``, or a value that is not a literal.
UNKNOWN = object()

_BINARY_OPERATORS = {
    "+": operator.add,
    "-": operator.sub,
    "*": operator.mul,
    "/": operator.truediv,
    "//": operator.floordiv,
}


# ---------------------------------------------------------------------------
# Every node of a module, walked once
# ---------------------------------------------------------------------------
# module -> (its nodes in the order nodes_of_class yields them, class -> those of it).
# Dozens of questions walk a whole module for its calls, classes, assignments...;
# astroid's nodes_of_class is a recursive generator, and those walks were a tenth
# of mslint's time. Bounded: past _MODULE_NODES_KEPT modules, the one used least
# recently goes, so that it never keeps many old trees alive (emptying it whole
# walked the module being checked again after every few other modules a rule
# looked into: twice the walks on a large library).
_MODULE_NODES: dict[nodes.Module, tuple[list[nodes.NodeNG], dict]] = {}
_MODULE_NODES_KEPT = 64


def forget() -> None:
    """Drop the walked modules (mslint.run.compat, when astroid's trees go)."""
    _MODULE_NODES.clear()


# Set by mslint.run.compat while its tree walks are installed (the command): the
# nodes of a class in a module from the index of node classes it keeps on each
# module tree, or None; module_nodes then walks nothing of its own (two walks of
# every module, one for each, were 5% of the command's time).
MODULE_INDEX: Callable[[nodes.Module, type | tuple[type, ...]], list | None] | None = None


def module_nodes(module: nodes.Module, klass: type | tuple[type, ...]) -> list:
    """The nodes of ``module`` that are instances of ``klass``, in the order
    ``module.nodes_of_class(klass)`` yields them (the module itself first when it
    is one): from one walk of the module, kept. Callers must not change the list."""
    if MODULE_INDEX is not None:
        indexed = MODULE_INDEX(module, klass)
        if indexed is not None:
            return indexed
    known = _MODULE_NODES.pop(module, None)
    if known is not None:
        _MODULE_NODES[module] = known  # the most recently used last
    else:
        while len(_MODULE_NODES) >= _MODULE_NODES_KEPT:
            del _MODULE_NODES[next(iter(_MODULE_NODES))]
        walked: list[nodes.NodeNG] = []
        by_type: dict[type, list[nodes.NodeNG]] = {}
        stack: list[nodes.NodeNG] = [module]
        while stack:
            node = stack.pop()
            walked.append(node)
            same = by_type.get(node.__class__)
            if same is None:
                by_type[node.__class__] = [node]
            else:
                same.append(node)
            children = list(node.get_children())
            children.reverse()
            stack.extend(children)
        known = _MODULE_NODES[module] = (walked, {_BY_TYPE: by_type})
    walked, by_class = known
    found = by_class.get(klass)
    if found is None:
        # the nodes of exactly one class are already listed, in walk order; a
        # question that several classes answer (a class and its subclasses,
        # a tuple) filters the walk, which keeps that order
        by_type = by_class[_BY_TYPE]
        matching = [kind for kind in by_type if issubclass(kind, klass)]
        if not matching:
            found = []
        elif len(matching) == 1:
            found = by_type[matching[0]]
        else:
            found = [node for node in walked if isinstance(node, klass)]
        by_class[klass] = found
    return found


_BY_TYPE = object()  # module_nodes' key of its nodes by their exact class


# ---------------------------------------------------------------------------
# Arguments
# ---------------------------------------------------------------------------
def argument(call: nodes.Call, index: int | None, keyword: str | None):
    """The argument node at position ``index`` or ``keyword``; None when not given;
    UNKNOWN when ``*args``/``**kwargs`` may carry it."""
    for kw in call.keywords or ():
        if keyword is not None and kw.arg == keyword:
            return kw.value
    if index is not None:
        for current, arg in enumerate(call.args):
            if isinstance(arg, nodes.Starred):
                return UNKNOWN
            if current == index:
                return arg
    if any(kw.arg is None for kw in call.keywords or ()):
        return UNKNOWN
    return None


def call_arguments(call: nodes.Call) -> list[nodes.NodeNG]:
    """Every argument value of a call, positional then keyword."""
    return list(call.args) + [keyword.value for keyword in call.keywords or ()]


def bind_by_name(call: nodes.Call, params: tuple[str, ...] | list[str]) -> dict[str, nodes.NodeNG] | None:
    """A call's arguments by parameter name, given the callee's positional
    parameter names; None when ``*args``/``**kwargs`` hide some or there are more
    positional arguments than parameters."""
    if any(isinstance(arg, nodes.Starred) for arg in call.args):
        return None
    if any(keyword.arg is None for keyword in call.keywords or ()):
        return None
    if len(call.args) > len(params):
        return None
    bound = dict(zip(params, call.args))
    for keyword in call.keywords or ():
        bound[keyword.arg] = keyword.value
    return bound


def positional_params(func: nodes.FunctionDef | nodes.Lambda) -> list[nodes.AssignName]:
    args = func.args
    return list(args.posonlyargs or ()) + list(args.args or ())


def all_params(func: nodes.FunctionDef | nodes.Lambda) -> list[nodes.AssignName]:
    return positional_params(func) + list(func.args.kwonlyargs or ())


def annotation_of(args: nodes.Arguments, param: nodes.AssignName) -> nodes.NodeNG | None:
    for group, written in (
        (args.posonlyargs, args.posonlyargs_annotations),
        (args.args, args.annotations),
        (args.kwonlyargs, args.kwonlyargs_annotations),
    ):
        for arg, annotation in zip(group or (), written or ()):
            if arg is param:
                return annotation
    return None


def default_of(args: nodes.Arguments, param: nodes.AssignName) -> nodes.NodeNG | None:
    positional = list(args.posonlyargs or ()) + list(args.args or ())
    defaults = list(args.defaults or ())
    if param in positional and defaults:
        offset = len(positional) - len(defaults)
        index = positional.index(param)
        if index >= offset:
            return defaults[index - offset]
    kwonly = list(args.kwonlyargs or ())
    if param in kwonly:
        return (args.kw_defaults or [None] * len(kwonly))[kwonly.index(param)]
    return None


def handler_catches(handler: nodes.ExceptHandler, names: frozenset[str]) -> bool:
    """Whether an ``except`` clause catches an exception class named in ``names``
    (by its last name: ``TypeError``, ``builtins.TypeError``); a bare ``except:``
    catches everything."""
    if handler.type is None:
        return True
    caught = handler.type.elts if isinstance(handler.type, nodes.Tuple) else [handler.type]
    return any(getattr(kind, "name", getattr(kind, "attrname", "")) in names for kind in caught)


def is_bound_method(func: nodes.FunctionDef) -> bool:
    """A method whose first parameter is self/cls (not a staticmethod).

    Read from the decorators' spelling: astroid's ``FunctionDef.type`` infers every
    decorator (``@ms.jit`` would load mindspore's sources) and is slow."""
    if not isinstance(func.parent, nodes.ClassDef):
        return False
    for decorator in func.decorators.nodes if func.decorators else ():
        if isinstance(decorator, nodes.Name) and decorator.name == "staticmethod":
            return False
        if isinstance(decorator, nodes.Attribute) and decorator.attrname == "staticmethod":
            return False
    return True


def local_target(value: nodes.NodeNG) -> nodes.AssignName | None:
    """``name`` when ``value`` is the whole right side of ``name = value`` (one
    plain name as the only target); None otherwise."""
    holder = value.parent
    if isinstance(holder, nodes.Assign) and holder.value is value and len(holder.targets) == 1 \
            and isinstance(holder.targets[0], nodes.AssignName):
        return holder.targets[0]
    return None


def held_by_unread_local(value: nodes.NodeNG) -> bool:
    """``value`` is the whole right side of ``name = value`` in a scope where
    nothing reads ``name``: what it makes is never used (a ``functools.partial``
    that builds no layer)."""
    target = local_target(value)
    if target is None:
        return False
    name, scope = target.name, target.scope()
    return not any(read.name == name for read in scope.nodes_of_class(nodes.Name))


def bind_call(
    call: nodes.Call, callee: nodes.FunctionDef | nodes.Lambda, skips_self: bool
) -> Iterator[tuple[list[str], nodes.NodeNG]]:
    """(the callee's parameter names an argument may bind, the argument value) for
    every argument of ``call``: by position, into ``*args``, by keyword, into
    ``**kwargs``; a ``*seq`` or ``**mapping`` may bind every parameter it reaches."""
    positional = positional_params(callee)
    if skips_self and positional:
        positional = positional[1:]
    vararg, kwarg = callee.args.vararg, callee.args.kwarg
    every = [param.name for param in all_params(callee)]
    for index, arg in enumerate(call.args):
        if isinstance(arg, nodes.Starred):
            names = [param.name for param in positional[index:]]
            yield names + ([vararg] if vararg else []), arg.value
        elif index < len(positional):
            yield [positional[index].name], arg
        elif vararg:
            yield [vararg], arg
    for keyword in call.keywords or ():
        if keyword.arg is None:  # **kwargs
            yield every, keyword.value
        elif kwarg and keyword.arg not in every:
            yield [kwarg], keyword.value
        else:
            yield [keyword.arg], keyword.value


# ---------------------------------------------------------------------------
# Literal values
# ---------------------------------------------------------------------------
def literal(node: nodes.NodeNG | None, lookup: Callable[[nodes.NodeNG], object] | None = None) -> object:
    """The value of a literal expression (numbers, strings, tuples of them and
    arithmetic on numbers), or UNKNOWN. ``lookup`` gives the value of a name or
    attribute in it (UNKNOWN when it cannot): :func:`mslint.analysis.values.constant` passes
    one that reads module constants."""
    if isinstance(node, nodes.Const):
        return node.value
    if lookup is not None and isinstance(node, (nodes.Name, nodes.Attribute)):
        return lookup(node)
    if isinstance(node, nodes.UnaryOp) and node.op in ("-", "+"):
        value = literal(node.operand, lookup)
        if is_number(value):
            return -value if node.op == "-" else value
        return UNKNOWN
    if isinstance(node, nodes.BinOp) and node.op in _BINARY_OPERATORS:
        left, right = literal(node.left, lookup), literal(node.right, lookup)
        if is_number(left) and is_number(right):
            try:
                return _BINARY_OPERATORS[node.op](left, right)
            except ArithmeticError:
                return UNKNOWN
        return UNKNOWN
    if isinstance(node, (nodes.Tuple, nodes.List)):
        values = tuple(literal(element, lookup) for element in node.elts)
        return UNKNOWN if any(value is UNKNOWN for value in values) else values
    return UNKNOWN


def literal_bool(node: object) -> bool | None:
    """True/False for a literal ``True``/``False``; None for anything else."""
    if isinstance(node, nodes.Const) and isinstance(node.value, bool):
        return node.value
    return None


def is_number(value: object) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool)


def is_binary_arithmetic(node: nodes.NodeNG) -> bool:
    """``a + b``, ``k // 2``: arithmetic :func:`literal` can fold."""
    return isinstance(node, nodes.BinOp) and node.op in _BINARY_OPERATORS


# ---------------------------------------------------------------------------
# Enclosing scopes
# ---------------------------------------------------------------------------
_BLOCK_ENDS = (nodes.Return, nodes.Raise, nodes.Continue, nodes.Break)


def guarding_tests(node: nodes.NodeNG) -> Iterator[nodes.NodeNG]:
    """The tests of the ``if`` statements whose body (not ``else``) holds ``node``,
    innermost first, up to its function, class, lambda or module."""
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, (nodes.FunctionDef, nodes.ClassDef, nodes.Module, nodes.Lambda)):
        if isinstance(parent, nodes.If) and child in parent.body:
            yield parent.test
        child, parent = parent, parent.parent


def after_block_end(node: nodes.NodeNG) -> bool:
    """Whether ``node`` never runs because a statement before it in the same block
    (or before a statement of its function that holds it) ends that block
    unconditionally: ``return``, ``raise``, ``continue`` or ``break`` (the code
    left below a ``return`` that cut a function short)."""
    statement = node.statement()
    while statement is not None and not isinstance(statement, (nodes.FunctionDef, nodes.Lambda, nodes.Module)):
        try:
            previous = statement.previous_sibling()
        except (AttributeError, ValueError, astroid_exceptions.AstroidError):
            return False  # not in a block of statements
        while previous is not None:
            if isinstance(previous, _BLOCK_ENDS):
                return True
            previous = previous.previous_sibling()
        parent = statement.parent
        if parent is None or isinstance(parent, (nodes.FunctionDef, nodes.Lambda, nodes.Module, nodes.ClassDef)):
            return False
        statement = parent if parent.is_statement else parent.statement()
    return False


def enclosing_method(node: nodes.NodeNG) -> tuple[nodes.FunctionDef, nodes.ClassDef] | None:
    """The method (and its class) whose body holds ``node``, through nested
    functions and lambdas (``self`` there is the method's ``self``)."""
    frame = node.frame()
    while frame is not None and not isinstance(frame, nodes.Module):
        if isinstance(frame, nodes.FunctionDef) and isinstance(frame.parent, nodes.ClassDef):
            return frame, frame.parent
        parent = frame.parent
        frame = parent.frame() if parent is not None else None
    return None


def enclosing_class(node: nodes.NodeNG) -> nodes.ClassDef | None:
    """The class of :func:`enclosing_method`, or the class whose body holds ``node``."""
    frame = node.frame()
    while frame is not None and not isinstance(frame, nodes.Module):
        if isinstance(frame, nodes.ClassDef):
            return frame
        if isinstance(frame.parent, nodes.ClassDef):
            return frame.parent
        parent = frame.parent
        frame = parent.frame() if parent is not None else None
    return None


def own_method(cls: nodes.ClassDef, name: str) -> nodes.FunctionDef | None:
    """The method ``name`` defined in the body of ``cls`` itself (not inherited)."""
    for member in cls.locals.get(name, ()):
        if isinstance(member, nodes.FunctionDef):
            return member
    return None


# ---------------------------------------------------------------------------
# Attributes, paths and assignment targets
# ---------------------------------------------------------------------------
def is_self(node: nodes.NodeNG) -> bool:
    return isinstance(node, nodes.Name) and node.name == "self"


def self_attribute(expr: nodes.NodeNG | None) -> str | None:
    """``attr`` of ``self.attr`` (read, or an assignment target)."""
    if isinstance(expr, (nodes.Attribute, nodes.AssignAttr)) and is_self(expr.expr):
        return expr.attrname
    return None


def attribute_chain(node: nodes.NodeNG | None) -> tuple[nodes.Name | None, list[str]]:
    """``a.b.c`` -> (the Name ``a``, ["b", "c"]); (None, ...) when the chain does not
    start at a bare name (``f().b``)."""
    parts: list[str] = []
    while isinstance(node, nodes.Attribute):
        parts.append(node.attrname)
        node = node.expr
    parts.reverse()
    return (node if isinstance(node, nodes.Name) else None), parts


def attribute_path(node: nodes.NodeNG | None) -> str | None:
    """``net``, ``self.net``, ``net.head``: a name or an attribute chain on a name."""
    root, parts = attribute_chain(node)
    return ".".join([root.name, *parts]) if root is not None else None


def flatten_targets(target: nodes.NodeNG) -> list[nodes.NodeNG]:
    """The leaves of an assignment target (``a, (b, *c)`` -> a, b, c)."""
    if isinstance(target, (nodes.Tuple, nodes.List)):
        found: list[nodes.NodeNG] = []
        for element in target.elts:
            found.extend(flatten_targets(element))
        return found
    if isinstance(target, nodes.Starred):
        return flatten_targets(target.value)
    return [target]


def target_names(target: nodes.NodeNG) -> list[str]:
    """Local names an assignment target binds."""
    return [leaf.name for leaf in flatten_targets(target) if isinstance(leaf, nodes.AssignName)]


def assignment_pairs(
    targets: list[nodes.NodeNG], value: nodes.NodeNG
) -> list[tuple[nodes.NodeNG, nodes.NodeNG | None]]:
    """(target leaf, value) pairs of an assignment; value None where unpacking hides it."""
    pairs: list[tuple[nodes.NodeNG, nodes.NodeNG | None]] = []
    for target in targets:
        if isinstance(target, (nodes.Tuple, nodes.List)):
            if isinstance(value, (nodes.Tuple, nodes.List)) and len(value.elts) == len(target.elts):
                for element, element_value in zip(target.elts, value.elts):
                    pairs.extend(assignment_pairs([element], element_value))
            else:
                pairs.extend((leaf, None) for leaf in flatten_targets(target))
        else:
            pairs.append((target, value))
    return pairs


def read_root(expr: nodes.NodeNG, limit: int | None = None) -> nodes.NodeNG:
    """What a chain of method calls, attributes and indexing is read from: ``v`` for
    ``v.permute(1, 2, 0)[0].T`` (at most ``limit`` steps followed, when given)."""
    steps = 0
    while limit is None or steps < limit:
        if isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Attribute):
            expr = expr.func.expr
        elif isinstance(expr, nodes.Attribute):
            expr = expr.expr
        elif isinstance(expr, nodes.Subscript):
            expr = expr.value
        else:
            break
        steps += 1
    return expr


def unwrap_chain(value: nodes.NodeNG) -> tuple[nodes.NodeNG, list[nodes.Call]]:
    """``Net().set_grad().set_train()`` -> (``Net()``, [the chained method calls])."""
    chained: list[nodes.Call] = []
    while (
        isinstance(value, nodes.Call)
        and isinstance(value.func, nodes.Attribute)
        and isinstance(value.func.expr, nodes.Call)
    ):
        chained.append(value)
        value = value.func.expr
    return value, chained


# ---------------------------------------------------------------------------
# Guards
# ---------------------------------------------------------------------------
_EXITS = (nodes.Return, nodes.Raise, nodes.Continue, nodes.Break)


def _hasattr_test(test: nodes.NodeNG, receiver: str, method: str, negated: bool) -> bool:
    """``test`` (or one conjunct of it; with ``negated``, one disjunct of ``not
    test``) is ``hasattr(receiver, "method")``."""
    if negated:
        if isinstance(test, nodes.UnaryOp) and test.op == "not":
            return _hasattr_test(test.operand, receiver, method, negated=False)
        return isinstance(test, nodes.BoolOp) and test.op == "or" and any(
            _hasattr_test(value, receiver, method, negated=True) for value in test.values
        )
    if isinstance(test, nodes.BoolOp) and test.op == "and":
        return any(_hasattr_test(value, receiver, method, negated=False) for value in test.values)
    return (
        isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "hasattr"
        and len(test.args) == 2 and not test.keywords
        and isinstance(test.args[1], nodes.Const) and test.args[1].value == method
        and test.args[0].as_string() == receiver
    )


def guarded_by_hasattr(call: nodes.Call) -> bool:
    """``receiver.method(...)`` runs only where ``hasattr(receiver, "method")`` holds:
    in the body of ``if hasattr(x, "m")`` (or ``x.m() if hasattr(x, "m") else x``, or
    ``hasattr(x, "m") and x.m()``), in the ``else`` of ``if not hasattr(x, "m")``, or
    after ``if not hasattr(x, "m"): return ...`` in a block holding the call."""
    if not isinstance(call.func, nodes.Attribute):
        return False
    receiver, method = call.func.expr.as_string(), call.func.attrname
    frame = call.frame()
    child: nodes.NodeNG = call
    node = call.parent
    while node is not None:
        if isinstance(node, (nodes.If, nodes.IfExp)) and child is not node.test:
            in_body = child in node.body if isinstance(node, nodes.If) else child is node.body
            if _hasattr_test(node.test, receiver, method, negated=not in_body):
                return True
        elif isinstance(node, nodes.BoolOp) and node.op == "and":
            earlier = node.values[: node.values.index(child)] if child in node.values else []
            if any(_hasattr_test(value, receiver, method, negated=False) for value in earlier):
                return True
        if child.is_statement:
            for field in ("body", "orelse", "finalbody"):
                block = getattr(node, field, None)
                if isinstance(block, list) and child in block:
                    for earlier in block[: block.index(child)]:
                        if (
                            isinstance(earlier, nodes.If) and earlier.body and isinstance(earlier.body[-1], _EXITS)
                            and _hasattr_test(earlier.test, receiver, method, negated=True)
                        ):
                            return True
        if node is frame:
            return False
        child, node = node, node.parent
    return False
