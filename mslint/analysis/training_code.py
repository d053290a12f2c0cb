"""Questions about training code that several rule families ask: what a function
returns and which of it is the loss, what a name holds, which Cells a network is
built from, whether the program trains data-parallel and what it does about it,
whether the project seeds MindSpore anywhere.

Static only: no user code is imported. Answers are conservative: None or False
when unsure, so the rules built on them stay silent.
"""

from __future__ import annotations

import functools
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from astroid import nodes

from mslint.knowledge import apis, guide
from mslint.analysis import astutil, imports, programs, project, resolve, scope, values

SKIP_NESTED = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)
_MAX_DEPTH = 6
_FOLLOW_CALLS = 60  # project functions followed per module when looking for a setting


# ---------------------------------------------------------------------------
# Functions, their returns and local names
# ---------------------------------------------------------------------------
def returns(func: nodes.NodeNG) -> list[tuple[nodes.NodeNG, nodes.NodeNG]]:
    """(return node, returned value) of a function or lambda."""
    if isinstance(func, nodes.Lambda):
        return [(func.body, func.body)]
    return [
        (ret, ret.value)
        for ret in func.nodes_of_class(nodes.Return, skip_klass=SKIP_NESTED)
        if ret.value is not None
    ]


def last_assignment_before(func: nodes.NodeNG, name: str, line: int) -> nodes.NodeNG | None:
    """The value last assigned to the plain local ``name`` above ``line`` in ``func``
    (None when unpacking hides it)."""
    found: tuple[int, nodes.NodeNG | None] | None = None
    for assign in func.nodes_of_class(nodes.Assign, skip_klass=SKIP_NESTED):
        if (assign.lineno or 0) >= line:
            continue
        for target, value in astutil.assignment_pairs(assign.targets, assign.value):
            if isinstance(target, nodes.AssignName) and target.name == name:
                if found is None or assign.lineno >= found[0]:
                    found = (assign.lineno, value)
    return found[1] if found is not None else None


def local_value(expr: nodes.NodeNG, func: nodes.NodeNG) -> nodes.NodeNG:
    """``expr`` with local names replaced by their last assignment above it (3 steps)."""
    for _ in range(3):
        if not isinstance(expr, nodes.Name) or isinstance(func, nodes.Lambda):
            break
        value = last_assignment_before(func, expr.name, expr.lineno or 0)
        if value is None:
            break
        expr = value
    return expr


def computing_call(expr: nodes.NodeNG, func: nodes.NodeNG) -> nodes.Call | None:
    value = local_value(expr, func)
    return value if isinstance(value, nodes.Call) else None


def says_loss(text: str) -> bool:
    lowered = text.lower()
    return any(word in lowered for word in guide.LOSS_WORDS)


def _last_name(expr: nodes.NodeNG) -> str:
    if isinstance(expr, nodes.Name):
        return expr.name
    if isinstance(expr, nodes.Attribute):
        return expr.attrname
    return ""


def mentions_loss(expr: nodes.NodeNG, func: nodes.NodeNG, depth: int = 0) -> bool:
    """Whether ``expr`` is, or is computed from, something named a loss: a name or
    attribute saying loss/criterion, a call of such a callable or of a loss Cell,
    following local names to their assignment."""
    if depth > 3:
        return False
    for node in [expr, *expr.nodes_of_class((nodes.Name, nodes.Attribute, nodes.Call))]:
        if isinstance(node, nodes.Call):
            if calls_a_loss(node):
                return True
            continue
        if says_loss(_last_name(node)):
            return True
        if isinstance(node, nodes.Name) and not isinstance(func, nodes.Lambda):
            value = last_assignment_before(func, node.name, node.lineno or 0)
            if value is not None and mentions_loss(value, func, depth + 1):
                return True
    return False


def calls_a_loss(call: nodes.Call) -> bool:
    """A call of a callable named a loss/criterion or holding a loss Cell."""
    return says_loss(_last_name(call.func)) or is_loss_cell(call.func)


@dataclass(frozen=True)
class Computation:
    """What a value of a function is computed from: the function's local names it
    reads (through their assignments, all of them: flow-insensitive) and the calls
    of losses among its computations."""

    names: frozenset[str]
    loss_calls: frozenset[nodes.Call]


_COMPUTATION_DEPTH = 8


def computation(expr: nodes.NodeNG, func: nodes.NodeNG) -> Computation:
    """What ``expr`` in ``func`` is computed from (:class:`Computation`). A name bound
    by unpacking (``a, b = net(x)``) is computed from the whole call: ``a`` and ``b``
    share their source."""
    assigned = _assigned_values(func)
    names: set[str] = set()
    calls: set[nodes.Call] = set()
    pending = [(expr, 0)]
    while pending:
        node, depth = pending.pop()
        for read in [node, *node.nodes_of_class((nodes.Name, nodes.Call), skip_klass=SKIP_NESTED)]:
            if isinstance(read, nodes.Call):
                if calls_a_loss(read):
                    calls.add(read)
            elif isinstance(read, nodes.Name) and read.name not in names:
                names.add(read.name)
                if depth < _COMPUTATION_DEPTH:
                    pending.extend((value, depth + 1) for value in assigned.get(read.name, ()))
    return Computation(frozenset(names), frozenset(calls))


def _assigned_values(func: nodes.NodeNG) -> dict[str, list[nodes.NodeNG]]:
    """name -> every value the function assigns it (a whole unpacked value, ``x += v``'s ``v``)."""
    found: dict[str, list[nodes.NodeNG]] = {}
    if isinstance(func, nodes.Lambda):
        return found
    for statement in func.nodes_of_class((nodes.Assign, nodes.AugAssign, nodes.AnnAssign), skip_klass=SKIP_NESTED):
        if statement.value is None:
            continue
        targets = statement.targets if isinstance(statement, nodes.Assign) else [statement.target]
        for target in targets:
            for name in astutil.target_names(target):
                found.setdefault(name, []).append(statement.value)
    return found


def is_loss_cell(expr: nodes.NodeNG) -> bool:
    """A name holding a construction of a loss class (mindspore's or a user class
    whose name says loss)."""
    construction = holds(expr)
    if not isinstance(construction, nodes.Call) or not isinstance(construction.func, (nodes.Name, nodes.Attribute)):
        return False
    qname = resolve.call_name(construction) or ""
    return says_loss(qname.rsplit(".", 1)[-1]) or qname in apis.LOSS_REDUCTIONS


def holds(expr: nodes.NodeNG | None) -> nodes.NodeNG | None:
    """What a name or ``self.x`` holds when one assignment says so: the name's
    last assignment in its scope, ``self.x``'s one assignment in its class."""
    if isinstance(expr, nodes.Name):
        return resolve.assigned_value(expr)
    attr = astutil.self_attribute(expr)
    found = astutil.enclosing_method(expr) if attr is not None else None
    if found is None:
        return None
    assigned = scope.analysis(expr.root()).class_facts(found[1]).values(attr)
    return assigned[0] if len(assigned) == 1 else None


def construction_of(expr: nodes.NodeNG | None) -> nodes.Call | None:
    """The call that built what ``expr`` holds (``expr`` itself when it is a call)."""
    value = expr if isinstance(expr, nodes.Call) else holds(expr)
    if isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute)):
        return value
    return None


def constructed_qname(expr: nodes.NodeNG | None) -> str | None:
    construction = construction_of(expr)
    return resolve.call_name(construction) if construction is not None else None


# ---------------------------------------------------------------------------
# Networks: which Cells they are built from
# ---------------------------------------------------------------------------
class CellContents:
    """The layers (qualified names) a network expression or class builds, through
    user Cell classes, containers and wrappers, a few levels deep."""

    def __init__(self, wanted: frozenset[str] | set[str]) -> None:
        self.wanted = wanted
        self._seen: set[nodes.NodeNG] = set()

    def of_expression(self, expr: nodes.NodeNG | None, depth: int = 0) -> str | None:
        """The first wanted layer (its qualified name) ``expr`` holds, or None."""
        if expr is None or depth > _MAX_DEPTH or expr in self._seen:
            return None
        self._seen.add(expr)
        if isinstance(expr, (nodes.Name, nodes.Attribute)):
            return self.of_expression(holds(expr), depth + 1)
        if not isinstance(expr, nodes.Call) or not isinstance(expr.func, (nodes.Name, nodes.Attribute)):
            return None
        qname = resolve.call_name(expr)
        if qname in self.wanted:
            return qname
        if qname is not None and resolve.is_external(qname):
            for argument in astutil.call_arguments(expr):
                for element in argument.elts if isinstance(argument, (nodes.List, nodes.Tuple)) else [argument]:
                    found = self.of_expression(element, depth + 1)
                    if found is not None:
                        return found
            return None
        cls = resolve.user_class_of_call(expr)
        return self.of_class(cls, depth + 1) if cls is not None else None

    def of_class(self, cls: nodes.ClassDef, depth: int = 0) -> str | None:
        if depth > _MAX_DEPTH or cls in self._seen:
            return None
        self._seen.add(cls)
        user, _ = resolve.class_hierarchy(cls)
        for klass in user:
            for method in klass.mymethods():
                for call in method.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED):
                    if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
                        continue
                    qname = resolve.call_name(call)
                    if qname in self.wanted:
                        return qname
                    if qname is not None and resolve.is_external(qname):
                        continue
                    inner = resolve.user_class_of_call(call)
                    if inner is not None and resolve.is_cell_class(inner):
                        found = self.of_class(inner, depth + 1)
                        if found is not None:
                            return found
        return None


def network_class(expr: nodes.NodeNG | None) -> nodes.ClassDef | None:
    """The user Cell class whose instance ``expr`` holds."""
    construction = construction_of(expr)
    if construction is None:
        return None
    cls = resolve.user_class_of_call(construction)
    return cls if cls is not None and resolve.is_cell_class(cls) else None


# ---------------------------------------------------------------------------
# Gradient functions and optimizers
# ---------------------------------------------------------------------------
def is_grad_call(call: nodes.NodeNG) -> bool:
    """``ms.grad(...)``/``ms.value_and_grad(...)``/``ops.GradOperation(...)(...)``."""
    if not isinstance(call, nodes.Call):
        return False
    if isinstance(call.func, nodes.Call):
        return resolve.call_name(call.func) in apis.GRAD_OPERATION_FACTORIES if isinstance(
            call.func.func, (nodes.Name, nodes.Attribute)) else False
    return isinstance(call.func, (nodes.Name, nodes.Attribute)) and resolve.call_name(call) in apis.GRAD_FUNCTIONS


_GRAD_NAMES: dict[nodes.Module, frozenset[str]] = {}


def grad_function_names(owner: nodes.NodeNG) -> frozenset[str]:
    """Names (``grad_fn``, ``self.grad_fn``) bound to a gradient function in ``owner``'s
    module: assigned the result of grad/value_and_grad anywhere in it."""
    module = owner.root()
    known = _GRAD_NAMES.get(module)
    if known is not None:
        return known
    if len(_GRAD_NAMES) > 64:
        _GRAD_NAMES.clear()
    names: set[str] = set()
    for assign in astutil.module_nodes(module, nodes.Assign):
        if not is_grad_call(assign.value):
            continue
        for target in assign.targets:
            path = astutil.attribute_path(target) if isinstance(target, nodes.AssignAttr) else None
            if isinstance(target, nodes.AssignName):
                names.add(target.name)
            elif isinstance(target, nodes.AssignAttr) and astutil.is_self(target.expr):
                names.add("self." + target.attrname)
            elif path:
                names.add(path)
    _GRAD_NAMES[module] = frozenset(names)
    return _GRAD_NAMES[module]


def outputs_added_by_caller(grad_call: nodes.Call, first: int, other: int) -> bool:
    """Whether code calling the gradient function ``grad_call`` makes (``grad_fn =
    ms.value_and_grad(...)``) adds the outputs at positions ``first`` and ``other``
    it unpacks: ``(word_loss, count_loss, _), grads = grad_fn(...)`` then
    ``word_loss + count_loss``."""
    statement = grad_call.parent
    if not (isinstance(statement, nodes.Assign) and statement.value is grad_call and len(statement.targets) == 1):
        return False
    target = statement.targets[0]
    if not isinstance(target, nodes.AssignName):
        return False
    where = target.frame()
    for call in where.nodes_of_class(nodes.Call):
        if isinstance(call.func, nodes.Name) and call.func.name == target.name:
            names = _unpacked_outputs(call)
            if names is not None and max(first, other) < len(names) and names[first] and names[other] \
                    and _adds(call.frame(), names[first], names[other], call.lineno or 0):
                return True
    return False


def _unpacked_outputs(call: nodes.Call) -> list[str | None] | None:
    """The names ``(a, b, c), grads = call`` gives the outputs (None where not a name)."""
    statement = call.parent
    if not (isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1):
        return None
    target = statement.targets[0]
    if not (isinstance(target, (nodes.Tuple, nodes.List)) and len(target.elts) == 2):
        return None
    outputs = target.elts[0]
    if not isinstance(outputs, (nodes.Tuple, nodes.List)):
        return None
    return [element.name if isinstance(element, nodes.AssignName) else None for element in outputs.elts]


def _adds(func: nodes.NodeNG, first: str, other: str, after: int) -> bool:
    """Whether ``func`` adds the names ``first`` and ``other`` (in one sum, below ``after``)."""
    for node in func.nodes_of_class(nodes.BinOp, skip_klass=SKIP_NESTED):
        if node.op != "+" or (node.lineno or 0) < after:
            continue
        if isinstance(node.parent, nodes.BinOp) and node.parent.op == "+":
            continue  # a part of a longer sum: read whole from its top
        terms = {term.name for term in _sum_terms(node) if isinstance(term, nodes.Name)}
        if first in terms and other in terms:
            return True
    return False


def _sum_terms(node: nodes.NodeNG) -> list[nodes.NodeNG]:
    if isinstance(node, nodes.BinOp) and node.op == "+":
        return _sum_terms(node.left) + _sum_terms(node.right)
    return [node]


def sum_terms(node: nodes.NodeNG) -> list[nodes.NodeNG]:
    """The terms of ``a + b + c`` (one item when ``node`` is no sum)."""
    return _sum_terms(node)


def spelled_path(expr: nodes.NodeNG) -> str | None:
    """``grad_fn``, ``self.grad_fn``: a name or attribute chain on a name."""
    return astutil.attribute_path(expr)


def is_optimizer(expr: nodes.NodeNG | None) -> bool:
    """A name or ``self.x`` holding an optimizer built here, or named so."""
    qname = constructed_qname(expr)
    if qname is not None:
        return qname in apis.OPTIMIZER_CLASSES
    name = _last_name(expr) if expr is not None else ""
    return _says_optimizer(name)


def _says_optimizer(name: str) -> bool:
    return bool(re.search(r"optim", name, re.IGNORECASE)) or name == "opt"


# the last names of MindSpore's optimizers and of the Cells that hold one
_OPTIMIZER_NAMES = frozenset(
    qname.rsplit(".", 1)[-1]
    for qname in apis.OPTIMIZER_CLASSES | {cell for cell in apis.GRAD_WRAPPER_CELLS if "TrainOneStep" in cell}
)
_NAMES_OPTIMIZER: dict[nodes.Module, bool] = {}


def names_an_optimizer(module: nodes.Module) -> bool:
    """Whether the module names an optimizer anywhere: a MindSpore optimizer class or
    a training Cell that holds one (``nn.TrainOneStepCell``), or a name, attribute,
    keyword or import saying optim/opt (``optimizer(grads)``, ``opt.parameters``):
    a gradient computed there may reach it. False for code that trains nothing,
    such as a tutorial of higher-order derivatives."""
    known = _NAMES_OPTIMIZER.get(module)
    if known is None:
        if len(_NAMES_OPTIMIZER) > 256:
            _NAMES_OPTIMIZER.clear()
        known = _NAMES_OPTIMIZER[module] = any(
            _says_optimizer(name) or name in _OPTIMIZER_NAMES for name in _spelled_names(module)
        )
    return known


def _spelled_names(module: nodes.Module) -> Iterator[str]:
    """Every name the module's code spells: read, bound, as an attribute, a keyword, imported."""
    for node in astutil.module_nodes(module,
        (nodes.Name, nodes.AssignName, nodes.Attribute, nodes.AssignAttr, nodes.Keyword, nodes.Import, nodes.ImportFrom)
    ):
        if isinstance(node, (nodes.Import, nodes.ImportFrom)):
            for name, alias in node.names:
                yield from name.split(".")
                if alias:
                    yield alias
        elif isinstance(node, (nodes.Attribute, nodes.AssignAttr)):
            yield node.attrname
        elif isinstance(node, nodes.Keyword):
            if node.arg:
                yield node.arg
        else:
            yield node.name


def optimizer_class(expr: nodes.NodeNG | None, depth: int = 0) -> str | None:
    """The MindSpore optimizer class (qualified name) ``expr`` holds, following a
    parameter to the arguments the module's calls give it: ``self.optimizer = optimizer``
    in ``__init__`` to ``TrainStep(net, nn.Adam(...))``, a function's ``opt`` to
    ``train(..., opt=nn.SGD(...))``. A user subclass counts as its MindSpore base; None
    when unsure (a library's optimizer may reduce the gradients itself)."""
    if expr is None or depth > 3:
        return None
    construction = construction_of(expr)
    if construction is not None:
        qname = resolve.call_name(construction)
        if qname in apis.OPTIMIZER_CLASSES:
            return qname
        if qname is not None and resolve.is_external(qname):
            return None
        cls = resolve.user_class_of_call(construction)
        if cls is None:
            return None
        _, external = resolve.class_hierarchy(cls)
        # a subclass of a concrete optimizer; one of the abstract base is the author's own
        # algorithm (a ZeRO optimizer reduces the gradients itself)
        found = sorted(qname for qname in external & apis.OPTIMIZER_CLASSES
                       if qname.rsplit(".", 1)[-1] != guide.OPTIMIZER_BASE_NAME)
        return found[0] if found else None
    held = holds(expr) if astutil.self_attribute(expr) is not None else expr
    if not isinstance(held, nodes.Name):
        return None
    func = held.scope()
    if not isinstance(func, nodes.FunctionDef) or held.name not in func.argnames():
        return None
    is_init = func.name == "__init__" and isinstance(func.parent, nodes.ClassDef)
    found: set[str | None] = set()
    for call in astutil.module_nodes(held.root(), nodes.Call):
        if is_init:
            if resolve.user_class_of_call(call) is not func.parent:
                continue
        elif not (isinstance(call.func, nodes.Name) and resolve.binding(call.func) is func):
            continue
        for names, argument in astutil.bind_call(call, func, skips_self=is_init):
            if names == [held.name]:
                found.add(optimizer_class(argument, depth + 1))
    return found.pop() if len(found) == 1 else None


# ---------------------------------------------------------------------------
# How a module trains
# ---------------------------------------------------------------------------
_TRAINERS: dict[nodes.Module, str | None] = {}


# ---------------------------------------------------------------------------
# Whether a module may change the weights of what it builds
# ---------------------------------------------------------------------------
# a call named so trains, fits or loads weights (``train(``, ``train_step(``, ``d2l.train_ch3(``,
# ``model.fit(``, ``Trainer(``, ``load_checkpoint(``, ``load_param_into_net(``, ``from_pretrained(``)
_TRAINS_OR_LOADS_NAME = re.compile(
    r"^(?:(?:pre|re)?[Tt]rain(?!able_params$)|fit$|Trainer|load_checkpoint$|load_param_into_net$"
    r"|load_state_dict$|from_pretrained$|load_pretrained$)"
)
# where a gradient may go without changing any weight: printed, measured, compared
_INERT_BUILTINS = frozenset({
    "print", "len", "str", "repr", "format", "float", "int", "bool", "abs", "round", "min", "max", "sum",
    "zip", "enumerate", "list", "tuple", "isinstance", "type", "sorted", "range", "map",
})
_INERT_PACKAGES = ("numpy.", "math.")
# calls that write a value in place: a hand-written optimizer step
_WRITES_IN_PLACE = frozenset({"assign", "assign_add", "assign_sub", "set_data", "assign_value", "copy_",
                              "scatter_update", "Assign", "AssignAdd", "AssignSub"})
_MAY_UPDATE: dict[nodes.Module, bool] = {}


def may_update_weights(module: nodes.Module) -> bool:
    """Whether the module's own code may change the weights of what it builds: it
    names an optimizer or a Cell holding one (names_an_optimizer), calls something
    named to train, fit or load weights (``model.train(``, ``d2l.train_ch13(``,
    ``load_checkpoint(``), or hands a gradient it computes (a value computed from a
    ``grad``/``value_and_grad``/``GradOperation`` call, followed through the module's
    assignments and loops) to anything but printing, numpy and MindSpore's
    computations: a write in place (``ops.assign``, ``set_data``, ``p -= ...``), a
    function it cannot follow, a return. False for a forward-only demo, a tutorial
    printing gradients, a test comparing outputs and input gradients with PyTorch's."""
    known = _MAY_UPDATE.get(module)
    if known is None:
        if len(_MAY_UPDATE) > 256:
            _MAY_UPDATE.clear()
        known = _MAY_UPDATE[module] = names_an_optimizer(module) or _calls_training(module) or _applies_gradients(module)
    return known


def _last_call_name(call: nodes.Call) -> str:
    func = call.func
    return func.name if isinstance(func, nodes.Name) else func.attrname if isinstance(func, nodes.Attribute) else ""


def _calls_training(module: nodes.Module) -> bool:
    return any(_TRAINS_OR_LOADS_NAME.match(_last_call_name(call)) for call in astutil.module_nodes(module, nodes.Call))


def _makes_gradients(call: nodes.Call) -> bool:
    """``ms.grad(...)``, ``ops.GradOperation(...)`` and what they return, called."""
    while isinstance(call.func, nodes.Call):
        call = call.func
    if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
        return False
    return resolve.call_name(call) in apis.GRAD_FUNCTIONS | apis.GRAD_OPERATION_FACTORIES


def _applies_gradients(module: nodes.Module) -> bool:
    statements = list(astutil.module_nodes(module, (nodes.Assign, nodes.AugAssign, nodes.AnnAssign, nodes.For,
                                                    nodes.Comprehension)))
    calls = list(astutil.module_nodes(module, nodes.Call))
    if not any(_makes_gradients(call) for call in calls):
        return False
    # (the scope binding the name, the name): a forward function's local ``z`` is not
    # the ``z`` a cell unpacks from the gradients
    tainted: set[tuple[nodes.NodeNG, str]] = set()

    def read(name: nodes.Name) -> tuple[nodes.NodeNG, str]:
        try:
            return name.lookup(name.name)[0], name.name
        except Exception:  # noqa: BLE001 - astroid's lookup on a broken tree
            return name.scope(), name.name

    def carries(expr: nodes.NodeNG | None) -> bool:
        if expr is None:
            return False
        for node in [expr, *expr.nodes_of_class((nodes.Name, nodes.Call))]:
            if isinstance(node, nodes.Name) and read(node) in tainted:
                return True
            if isinstance(node, nodes.Call) and _makes_gradients(node):
                return True
        return False

    changed = True
    while changed:
        changed = False
        for statement in statements:
            if isinstance(statement, (nodes.For, nodes.Comprehension)):
                value, targets = statement.iter, [statement.target]
            elif isinstance(statement, nodes.Assign):
                value, targets = statement.value, statement.targets
            else:
                value, targets = statement.value, [statement.target]
            if not carries(value):
                continue
            for target in targets:
                if any(isinstance(leaf, (nodes.AssignAttr, nodes.Subscript)) for leaf in astutil.flatten_targets(target)):
                    return True  # ``self.w = w - lr * g``, ``params[i] = g``: written in place
                for leaf in astutil.flatten_targets(target):
                    key = (leaf.scope(), leaf.name) if isinstance(leaf, nodes.AssignName) else None
                    if key is not None and key not in tainted:
                        tainted.add(key)
                        changed = True
    for node in astutil.module_nodes(module, (nodes.Return, nodes.Yield, nodes.AugAssign)):
        if isinstance(node, nodes.AugAssign):
            if carries(node.value) and not isinstance(node.target, nodes.AssignName):
                return True
        elif carries(node.value):
            return True  # handed to the caller
    for call in calls:
        if _makes_gradients(call):
            continue
        arguments = [*call.args, *(keyword.value for keyword in call.keywords or ())]
        if not any(carries(argument) for argument in arguments):
            continue
        if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
            return True
        if _last_call_name(call) in _WRITES_IN_PLACE:
            return True
        qname = resolve.call_name(call) or ""
        if qname in _INERT_BUILTINS or qname.startswith("builtins.") and qname[9:] in _INERT_BUILTINS:
            continue
        if qname.startswith(_INERT_PACKAGES) or (qname.startswith("mindspore.") and not qname.startswith("mindspore.nn.")):
            continue
        return True  # a function mslint does not follow, or one of the project's: it may step
    return False


def given(value) -> bool:
    """An argument given, known, and not a literal None."""
    return value is not None and value is not astutil.UNKNOWN and not (
        isinstance(value, nodes.Const) and value.value is None
    )


def is_model_train(call: nodes.Call) -> bool:
    """``model.train(...)`` on a name or ``self.x`` holding a ``Model(...)``."""
    func = call.func
    if not (isinstance(func, nodes.Attribute) and func.attrname == guide.MODEL_TRAIN_METHOD):
        return False
    return constructed_qname(func.expr) in guide.MODEL_CLASSES


def trains_model(construction: nodes.Call) -> bool:
    """A Model built with an optimizer whose ``train`` the module calls (not one
    built to ``predict`` or ``eval``)."""
    if not given(astutil.argument(construction, *guide.MODEL_OPTIMIZER_ARGUMENT)):
        return False
    parent = construction.parent
    if isinstance(parent, nodes.Attribute) and parent.attrname == guide.MODEL_TRAIN_METHOD:
        return True  # Model(...).train(...)
    if not (isinstance(parent, nodes.Assign) and len(parent.targets) == 1):
        return False
    target = parent.targets[0]
    path = ("self." + target.attrname if isinstance(target, nodes.AssignAttr) and astutil.is_self(target.expr)
            else target.name if isinstance(target, nodes.AssignName) else None)
    if path is None:
        return False
    where = construction.root() if path.startswith("self.") else construction.scope()
    return any(
        isinstance(call.func, nodes.Attribute) and call.func.attrname == guide.MODEL_TRAIN_METHOD
        and astutil.attribute_path(call.func.expr) == path
        for call in where.nodes_of_class(nodes.Call)
    )


def trainer(module: nodes.Module) -> str | None:
    """How the module trains: "Model", "TrainOneStepCell" (or a subclass's name),
    "value_and_grad"/"grad"; None when it trains nothing mslint can see. A user
    subclass of TrainOneStepCell is looked for among callees named so (``*Train*``,
    ``*Step*``): resolving every call of a large module is too slow."""
    if module in _TRAINERS:
        return _TRAINERS[module]
    if len(_TRAINERS) > 64:
        _TRAINERS.clear()
    found = None
    if _mentions(module, _TRAINING_TEXT):
        named = _trainer_names(module)
        for call in astutil.module_nodes(module, nodes.Call):
            func = call.func
            if not isinstance(func, (nodes.Name, nodes.Attribute)):
                continue
            last = _last_name(func)
            if last not in named and not _TRAIN_CLASS_NAME.search(last):
                continue  # resolving every call of a large module is too slow
            qname = resolve.call_name(call)
            if qname in guide.MODEL_CLASSES and trains_model(call):
                found = "Model"
            elif qname in guide.REDUCING_TRAIN_CELLS or qname in apis.GRAD_FUNCTIONS:
                found = qname.rsplit(".", 1)[-1]
            elif (qname is None or not resolve.is_external(qname)) and _TRAIN_CLASS_NAME.search(_last_name(func)):
                cls = resolve.user_class_of_call(call)
                if cls is not None and resolve.derives_from(cls, guide.REDUCING_TRAIN_CELLS):
                    found = cls.name
            if found:
                break
    _TRAINERS[module] = found
    return found


def _trainer_names(module: nodes.Module) -> set[str]:
    """The names a call of one of trainer()'s APIs may end with in ``module``:
    theirs (``value_and_grad``, ``Model``) and the aliases its imports give them
    (``from mindspore import value_and_grad as vg``)."""
    named = set(_TRAINER_LAST_NAMES)
    for node in astutil.module_nodes(module, (nodes.Import, nodes.ImportFrom)):
        named.update(alias for name, alias in node.names if alias and name.rsplit(".", 1)[-1] in _TRAINER_LAST_NAMES)
    return named


_TRAINER_LAST_NAMES = frozenset(
    qname.rsplit(".", 1)[-1] for qname in (*guide.MODEL_CLASSES, *guide.REDUCING_TRAIN_CELLS, *apis.GRAD_FUNCTIONS)
)
_TRAINING_TEXT = re.compile(rb"grad\b|grad\(|GradOperation|Model\(|\.train\(|Train\w*\(|Step\w*\(")
_TRAIN_CLASS_NAME = re.compile(r"train|step", re.IGNORECASE)


# ---------------------------------------------------------------------------
# Data parallel: what the program sets
# ---------------------------------------------------------------------------
@dataclass
class ParallelSettings:
    """What a module (with the project functions it calls) sets for data parallel."""

    data_parallel: list[nodes.Call] = field(default_factory=list)  # set_auto_parallel_context(DATA_PARALLEL)
    elsewhere: str = ""  # "init_env() in src/env.py" when set by a followed function
    gradients_mean: bool = False  # gradients_mean set, not to a literal False
    explicit_sum: bool = False  # gradients_mean=False written out: the sum is the program's choice
    broadcast: bool = False  # parameter_broadcast set, not to a literal False
    unknown_mode: bool = False  # a parallel_mode mslint cannot read (args.mode, **config)


def is_data_parallel_value(value: nodes.NodeNG | None, depth: int = 0) -> bool | None:
    """True for DATA_PARALLEL as written; False for another literal mode; None unsure.
    A local name reads the assignment that reaches it (``mode = ParallelMode.DATA_PARALLEL``,
    then ``parallel_mode=mode``)."""
    if value is None:
        return False
    if isinstance(value, nodes.Name) and depth < 3 and resolve.qualified_name(value) is None:
        assigned = values.reaching_value(value)
        return is_data_parallel_value(assigned, depth + 1) if assigned is not None else None
    if isinstance(value, nodes.Const):
        return isinstance(value.value, str) and value.value.lower() == guide.DATA_PARALLEL_STRING
    qname = resolve.qualified_name(value) if isinstance(value, (nodes.Name, nodes.Attribute)) else None
    if qname is not None and qname.startswith("mindspore"):
        return qname.endswith(guide.DATA_PARALLEL_NAME)
    if isinstance(value, nodes.Attribute) and value.attrname.isupper():
        return value.attrname == guide.DATA_PARALLEL_NAME.rsplit(".", 1)[-1]
    return None


def _is_set(value: nodes.NodeNG | None) -> bool:
    """A keyword given and not a literal False/None/0."""
    if value is None:
        return False
    if isinstance(value, nodes.Const):
        return bool(value.value)
    return True


_PARALLEL_TEXT = re.compile(rb"set_auto_parallel_context")


def _context_calls(func: nodes.NodeNG) -> Iterator[nodes.Call]:
    for call in func.nodes_of_class(nodes.Call):
        if isinstance(call.func, (nodes.Name, nodes.Attribute)) and \
                _last_name(call.func) == "set_auto_parallel_context" and \
                resolve.call_name(call) in guide.AUTO_PARALLEL_CONTEXT_CALLS:
            yield call


def _read_settings(func: nodes.NodeNG, settings: ParallelSettings) -> bool:
    """Add what ``func`` sets; True when it sets data parallel."""
    found = False
    if not _mentions(func.root(), _PARALLEL_TEXT):
        return False
    for call in _context_calls(func):
        if values.guarded_off(call):
            continue  # under a guard that never holds (``if args.device_num > 1:`` with the default 1 fixed)
        if any(keyword.arg is None for keyword in call.keywords or ()):
            settings.unknown_mode = True
            settings.gradients_mean = settings.broadcast = True  # **config may set them
            continue
        mode = astutil.argument(call, None, guide.PARALLEL_MODE_KEYWORD)
        judged = is_data_parallel_value(mode) if mode is not None else False
        if judged is None:
            settings.unknown_mode = True
        elif judged:
            settings.data_parallel.append(call)
            found = True
        for keyword in guide.GRADIENTS_MEAN_KEYWORDS:
            value = astutil.argument(call, None, keyword)
            settings.gradients_mean |= _is_set(value)
            settings.explicit_sum |= isinstance(value, nodes.Const) and value.value is False
        settings.broadcast |= _is_set(astutil.argument(call, None, guide.PARAMETER_BROADCAST_KEYWORD))
    return found


_SETTINGS: dict[nodes.Module, ParallelSettings] = {}


def parallel_settings(module: nodes.Module) -> ParallelSettings:
    """What ``module`` sets for data parallel, in its own code and in the functions
    of other project modules it calls (one level: ``init_env(args)`` in src/)."""
    known = _SETTINGS.get(module)
    if known is not None:
        return known
    if len(_SETTINGS) > 64:
        _SETTINGS.clear()
    settings = _SETTINGS[module] = ParallelSettings()
    _read_settings(module, settings)
    if not settings.data_parallel and trainer(module) is None:
        return settings  # a module that trains nothing runs no data-parallel program itself
    followed = 0
    seen: set[nodes.FunctionDef] = set()
    for call in astutil.module_nodes(module, nodes.Call):
        if followed >= _FOLLOW_CALLS:
            break
        if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
            continue
        callee = resolve.project_function(call.func)
        if callee is None or callee in seen or callee.root() is module:
            continue
        seen.add(callee)
        followed += 1
        if not _mentions(callee.root(), _PARALLEL_TEXT):
            continue
        before = len(settings.data_parallel)
        if _read_settings(callee, settings) and not settings.elsewhere and before == 0:
            settings.elsewhere = f"{callee.name}() in {_shown(callee.root(), module)}"
    return settings


# mindspore.communication's init (``from mindspore.communication import init``,
# ``communication.management.init()``): without it a MindSpore program runs one rank
_COMMUNICATION_TEXT = re.compile(rb"mindspore\.communication|from\s+mindspore\s+import[^\n]*\bcommunication\b")
_PROJECT_COMMUNICATES: dict[str, bool] = {}


def project_initializes_communication(module: nodes.Module) -> bool:
    """Whether any Python file of ``module``'s project names MindSpore's
    communication package (where ``init()`` starts the ranks of a distributed run);
    True when the module has no file or its project cannot be read."""
    path = getattr(module, "file", None)
    if not path or not os.path.isfile(path):
        return True
    root = programs.project_root(path)
    known = _PROJECT_COMMUNICATES.get(root)
    if known is None:
        known = False
        for file in [path, *programs.python_files(root)]:
            data = _read(file)
            if data is None or _COMMUNICATION_TEXT.search(data):
                known = True
                break
        if len(_PROJECT_COMMUNICATES) > 64:
            _PROJECT_COMMUNICATES.clear()
        _PROJECT_COMMUNICATES[root] = known
    return known


_MENTIONS: dict[tuple[nodes.Module, re.Pattern], bool] = {}


def _mentions(module: nodes.Module, pattern: re.Pattern) -> bool:
    """Whether the module's source text matches ``pattern`` (True when unreadable)."""
    key = (module, pattern)
    known = _MENTIONS.get(key)
    if known is None:
        if len(_MENTIONS) > 512:
            _MENTIONS.clear()
        data = _read(module.file) if module.file and os.path.isfile(module.file) else None
        known = _MENTIONS[key] = True if data is None else pattern.search(data) is not None
    return known


def mentions(module: nodes.Module, pattern: re.Pattern) -> bool:
    return _mentions(module, pattern)


def _shown(module: nodes.Module, home: nodes.Module) -> str:
    if module.file and home.file:
        return os.path.relpath(module.file, os.path.dirname(home.file))
    return module.name


def divides_by_group_size(module: nodes.Module) -> bool:
    """The module divides something by the group size (a loss or a learning rate
    averaged by hand): ``loss / get_group_size()``, ``lr / device_num`` where
    ``device_num = get_group_size()``."""
    sized: set[str] = set()
    for assign in astutil.module_nodes(module, nodes.Assign):
        if isinstance(assign.value, nodes.Call) and _is_group_size_call(assign.value):
            for target in assign.targets:
                sized.update(astutil.target_names(target))
                if isinstance(target, nodes.AssignAttr):
                    sized.add(target.attrname)
    for binop in astutil.module_nodes(module, (nodes.BinOp, nodes.AugAssign)):
        op = binop.op if isinstance(binop, nodes.BinOp) else binop.op.rstrip("=")
        right = binop.right if isinstance(binop, nodes.BinOp) else binop.value
        if op not in ("/", "//"):
            continue
        if isinstance(right, nodes.Call) and _is_group_size_call(right):
            return True
        if _last_name(right) in sized:
            return True
    return False


def _is_group_size_call(call: nodes.Call) -> bool:
    return isinstance(call.func, (nodes.Name, nodes.Attribute)) and resolve.call_name(call) in guide.GROUP_SIZE_CALLS


# ---------------------------------------------------------------------------
# The program's sources: the module and the project modules it imports
# ---------------------------------------------------------------------------
_IMPORT_DEPTH = 3
_IMPORT_FILES = 60  # files read per question


def _read(path: str) -> bytes | None:
    try:
        with open(path, "rb") as handle:
            return handle.read()
    except OSError:
        return None


def _import_files(path: str, data: bytes, top: str) -> list[str]:
    """The project files the imports of ``path`` load (found from its folder up to ``top``)."""
    found = []
    here = os.path.dirname(path)
    folders = []
    folder = here
    while True:
        folders.append(folder)
        parent = os.path.dirname(folder)
        if folder == top or parent == folder or not folder.startswith(top):
            break
        folder = parent
    for level, module, names in imports.scan_imports(data, imports.LINE_START_IMPORT_RE):
        parts = [part for part in module.split(".") if part]
        if level:
            base = here
            for _ in range(level - 1):
                base = os.path.dirname(base)
            search, wanted = [base], [parts] + [[*parts, name] for name in names or ()]
        else:
            search, wanted = folders, [parts] + [[*parts, name] for name in names or ()]
        for dotted in wanted:
            if not dotted:
                continue
            for where in search:
                base = os.path.join(where, *dotted)
                target = next((option for option in (base + ".py", os.path.join(base, "__init__.py"))
                               if os.path.isfile(option)), None)
                if target is not None:
                    found.append(target)
                    break
    return found


@functools.lru_cache(maxsize=256)
def _program_matches(path: str, pattern: str) -> bool:
    compiled = re.compile(pattern.encode())
    top = os.path.dirname(project.package_root(path))
    queue, seen = [(path, 0)], {path}
    while queue:
        current, depth = queue.pop(0)
        data = _read(current)
        if data is None:
            continue
        if compiled.search(data):
            return True
        if depth >= _IMPORT_DEPTH:
            continue
        for target in _import_files(current, data, top):
            if target not in seen and not resolve.is_library_path(target):
                seen.add(target)
                if len(seen) > _IMPORT_FILES:
                    return True  # too many to read: assume it does (the rules stay silent)
                queue.append((target, depth + 1))
    return False


def program_mentions(module: nodes.Module, pattern: str) -> bool:
    """Whether the module's source, or a project module it imports (three imports
    deep), matches ``pattern``; True when the source cannot be read."""
    path = module.file
    if not path or not os.path.isfile(path):
        return True
    return _program_matches(project.real_path(path), pattern)


def clear_caches() -> None:
    _SETTINGS.clear()
    _TRAINERS.clear()
    _GRAD_NAMES.clear()
    _MENTIONS.clear()
    _PROJECT_COMMUNICATES.clear()
    _NAMES_OPTIMIZER.clear()
    _MAY_UPDATE.clear()
    _program_matches.cache_clear()


__all__ = [
    "CellContents", "Computation", "ParallelSettings", "calls_a_loss", "computation", "computing_call",
    "construction_of", "constructed_qname", "divides_by_group_size", "grad_function_names", "holds",
    "is_data_parallel_value", "is_grad_call", "is_loss_cell", "is_optimizer", "last_assignment_before",
    "local_value", "may_update_weights", "mentions_loss", "network_class", "mentions", "names_an_optimizer",
    "outputs_added_by_caller", "parallel_settings", "program_mentions", "returns", "says_loss",
    "spelled_path",
]
