"""Checkpoint loads that load nothing, silently.

Measured on MindSpore 2.10 and PyTorch 2.13 (tests/oracle/test_checkpoints.py):
- ``ms.load_checkpoint(path)`` returns the parameter dict and loads it into nothing
  unless ``net=`` is given: as a statement it changes no weight.
- ``load_param_into_net`` given a PyTorch state dict unrenamed loads none of the
  parameters whose last name differs (BatchNorm's weight/bias/running_mean/running_var
  are gamma/beta/moving_mean/moving_variance, LayerNorm's weight/bias gamma/beta,
  Embedding's weight embedding_table): the weights stay as initialized, nothing
  raises (``strict_load=True`` neither), and only the two returned lists of names not
  loaded tell.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import guide
from mslint.analysis import astutil, programs, resolve, training_code, versions
from mslint.analysis.training_code import SKIP_NESTED
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter


class CheckpointChecker(BaseChecker):
    name = "mindspore-checkpoints"
    msgs = {
        "E8108": (
            "%s(...) %s loads nothing: without net= it only returns the parameter dict, which is "
            "discarded; pass the network (%s(path, net)) or give the result to load_param_into_net",
            "ms-load-checkpoint-discarded",
            "mindspore.load_checkpoint called without a net argument as a statement, or into a name that "
            "nothing reads after: the checkpoint is read and thrown away.",
        ),
        "E8109": (
            "%s gets %s, PyTorch's parameter names unrenamed, and %s holds %s whose names differ (%s): "
            "those parameters load nothing and nothing raises; map the names first",
            "ms-torch-names-not-mapped",
            "A parameter dict built from torch.load()/a torch module's state_dict() items with the keys "
            "unchanged, given to load_param_into_net for a network with BatchNorm, LayerNorm, GroupNorm, "
            "InstanceNorm, Embedding or PReLU layers.",
        ),
        "W8110": (
            "%s(...) returns the names it could not load and this conversion discards them: PyTorch names that "
            "differ from MindSpore's (weight/gamma, running_mean/moving_mean) load nothing and raise nothing; "
            "check them: not_loaded, _ = %s(...)",
            "ms-load-result-ignored",
            "load_param_into_net called as a statement on a dict that PyTorch weights (torch.load, a torch "
            "module's state_dict()) reach: "
            "the returned lists are the only sign that names did not match.",
        ),
        "W8116": (
            "%s(...) returns a tuple of two lists (parameters not loaded, checkpoint entries not used), which is "
            "true whatever loaded: %s %s; unpack it and test the first list: param_not_load, _ = %s(...)",
            "ms-load-result-always-true",
            "The result of load_param_into_net tested as a whole (if not result:, assert not result, "
            "len(result) == 0): MindSpore 2 returns two lists in a tuple, so the test never tells a failed "
            "load from a good one (MindSpore 1 returned one list).",
        ),
        "E8117": (
            "%s(...) is given %s, a path, where it takes the parameter dict: the call raises TypeError "
            "and nothing loads; read the file first: %s(net, ms.load_checkpoint(path)), or ms.load_checkpoint(path, net)",
            "ms-load-param-given-path",
            "load_param_into_net given a checkpoint's path (a string, an f-string, os.path.join(...), a "
            "pathlib.Path, or a name every binding of which is one) where it takes the parameter dict "
            "load_checkpoint returns.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._reads_torch: dict[nodes.Module, bool] = {}

    def open(self) -> None:
        self._reads_torch = {}

    @only_required_for_messages("ms-load-checkpoint-discarded", "ms-load-result-ignored")
    def visit_expr(self, node: nodes.Expr) -> None:
        call = node.value
        if not isinstance(call, nodes.Call) or not isinstance(call.func, (nodes.Name, nodes.Attribute)):
            return
        qname = resolve.call_name(call)
        if qname in guide.LOAD_CHECKPOINT_CALLS:
            if astutil.argument(call, *guide.LOAD_CHECKPOINT_NET_ARGUMENT) is None and not _loaded_elsewhere(call) \
                    and not _tests_the_read(node):
                self.add_message("ms-load-checkpoint-discarded", node=call,
                                 args=(spelled(call.func), "as a statement", spelled(call.func)))
        elif qname in guide.LOAD_PARAM_INTO_NET_CALLS and self._module_reads_torch(node.root()):
            params = astutil.argument(call, *guide.LOAD_PARAM_DICT_ARGUMENT)
            if params is None or params is astutil.UNKNOWN or not _torch_weights_reach(params, call.scope(), call.lineno or 0, 0):
                # no PyTorch weights reach the dict: a MindSpore checkpoint (also renamed by a
                # helper or filtered by a comprehension) has MindSpore's names; a torch.load
                # elsewhere in the module says nothing about this one
                return
            if _compares_names(call):
                return  # the conversion checks the network's names itself
            if not (self.linter.is_message_enabled("ms-torch-names-not-mapped") and self._unmapped(call)):
                self.add_message("ms-load-result-ignored", node=call, args=(spelled(call.func),) * 2)

    @only_required_for_messages("ms-load-checkpoint-discarded")
    def visit_assign(self, node: nodes.Assign) -> None:
        """``best = ms.load_checkpoint(path)`` and ``best`` never read after: the
        statement's harm, written as an assignment (a port's ``model =
        torch.load(path)`` turned into a dict nobody loads)."""
        call = node.value
        target = astutil.local_target(call)
        if target is None or not (isinstance(call, nodes.Call) and isinstance(call.func, (nodes.Name, nodes.Attribute))):
            return
        if resolve.call_name(call) not in guide.LOAD_CHECKPOINT_CALLS \
                or astutil.argument(call, *guide.LOAD_CHECKPOINT_NET_ARGUMENT) is not None:
            return
        name = target.name
        if _read_after(node, name) or _loaded_elsewhere(call) or _tests_the_read(node):
            return
        self.add_message("ms-load-checkpoint-discarded", node=call,
                         args=(spelled(call.func), f"into {name}, which nothing reads after,", spelled(call.func)))

    @only_required_for_messages("ms-torch-names-not-mapped", "ms-load-result-always-true", "ms-load-param-given-path")
    def visit_call(self, node: nodes.Call) -> None:
        if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
            return
        if resolve.call_name(node) not in guide.LOAD_PARAM_INTO_NET_CALLS:
            return
        if self.linter.is_message_enabled("ms-load-param-given-path"):
            given = astutil.argument(node, *guide.LOAD_PARAM_DICT_ARGUMENT)
            if given is not None and given is not astutil.UNKNOWN and _a_path(given, 0) and not _expects_type_error(node):
                self.add_message("ms-load-param-given-path", node=node,
                                 args=(spelled(node.func), given.as_string(), spelled(node.func)))
                return
        if self.linter.is_message_enabled("ms-load-result-always-true"):
            self._check_result_tested(node)
        if not self.linter.is_message_enabled("ms-torch-names-not-mapped"):
            return
        found = self._unmapped(node)
        if found is None:
            return
        source, network, layer = found
        self.add_message(
            "ms-torch-names-not-mapped", node=node,
            args=(spelled(node.func) + "(...)", source, network, f"nn.{layer.rsplit('.', 1)[-1]}",
                  guide.RENAMED_PARAMETERS[layer]),
        )

    def _check_result_tested(self, call: nodes.Call) -> None:
        stated = programs.stated_mindspore_version(call.root().file)
        if stated is not None and stated.split(".", 1)[0] in ("0", "1"):
            return  # MindSpore 1 returned the one list: the test was right where the project runs
        if versions.older_mindspore_only(call):
            return
        for test, outcome in _whole_result_tests(call):
            if versions.older_mindspore_only(test):
                continue  # ``else: assert len(param_not_load) == 0`` after ``if ms.__version__[0] == "2":``
            self.add_message("ms-load-result-always-true", node=test,
                             args=(spelled(call.func), f"`{test.as_string()}`", outcome, spelled(call.func)))

    def _unmapped(self, call: nodes.Call) -> tuple[str, str, str] | None:
        """(what the dict is built from, the network, a layer with other names) when
        ``call`` loads a PyTorch-named dict into a network with such a layer."""
        net = astutil.argument(call, *guide.LOAD_PARAM_NET_ARGUMENT)
        params = astutil.argument(call, *guide.LOAD_PARAM_DICT_ARGUMENT)
        if net is None or params is None or net is astutil.UNKNOWN or params is astutil.UNKNOWN:
            return None
        source = _torch_keyed_dict(params, call)
        if source is None:
            return None
        layer = training_code.CellContents(frozenset(guide.RENAMED_PARAMETERS)).of_expression(net)
        if layer is None:
            return None
        return source, net.as_string(), layer

    def _module_reads_torch(self, module: nodes.Module) -> bool:
        known = self._reads_torch.get(module)
        if known is None:
            known = any(
                isinstance(call.func, (nodes.Name, nodes.Attribute))
                and resolve.call_name(call) in guide.TORCH_WEIGHT_READS
                for call in astutil.module_nodes(module, nodes.Call)
            )
            self._reads_torch[module] = known
        return known


def _loaded_elsewhere(statement: nodes.Call) -> bool:
    """The same file is loaded properly in the same function (``load_checkpoint(p)``
    left over above ``load_param_into_net(net, load_checkpoint(p))``): no harm."""
    path = statement.args[0].as_string() if statement.args else None
    if path is None:
        return False
    for call in statement.scope().nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED):
        if call is statement or not call.args or call.args[0].as_string() != path:
            continue
        if isinstance(call.func, (nodes.Name, nodes.Attribute)) and resolve.call_name(call) in guide.LOAD_CHECKPOINT_CALLS:
            if not isinstance(call.parent, nodes.Expr) or astutil.argument(call, *guide.LOAD_CHECKPOINT_NET_ARGUMENT):
                return True
    return False


def _read_after(assign: nodes.Assign, name: str) -> bool:
    """Whether ``name``, bound by ``assign``, may be read: later in its scope,
    anywhere in a loop holding the assignment (the next pass reads it), by a
    nested function, or from outside (a module's top level outside its main
    guard, a class body, ``global``/``nonlocal``)."""
    scope = assign.scope()
    if isinstance(scope, nodes.ClassDef) or (isinstance(scope, nodes.Module) and not programs.in_main_guard(assign)):
        return True
    if any(name in item.names for item in scope.nodes_of_class((nodes.Global, nodes.Nonlocal))):
        return True
    loops = [parent.fromlineno for parent in assign.node_ancestors()
             if isinstance(parent, (nodes.For, nodes.While)) and parent.scope() is scope]
    start = min(loops) if loops else assign.lineno
    for use in scope.nodes_of_class(nodes.Name):
        if use.name != name:
            continue
        if use.scope() is scope:
            if (use.lineno or 0) >= start:
                return True
        elif use.lookup(name)[0] is scope:
            return True  # a nested function reading it (not one with a binding of its own)
    return False


def _tests_the_read(statement: nodes.NodeNG) -> bool:
    """A test of the read itself: inside ``with pytest.raises(...)`` /
    ``self.assertRaises(...)`` (the call is meant to raise), or in a test function
    (``def test_...``) where the call alone checks the file reads back."""
    for parent in statement.node_ancestors():
        if isinstance(parent, nodes.With):
            for item, _ in parent.items:
                if isinstance(item, nodes.Call) and isinstance(item.func, (nodes.Attribute, nodes.Name)) \
                        and (item.func.attrname if isinstance(item.func, nodes.Attribute) else item.func.name) \
                        in ("raises", "assertRaises", "assertRaisesRegex"):
                    return True
        if isinstance(parent, nodes.FunctionDef) and parent.name.startswith("test"):
            return True
    return False


def _compares_names(call: nodes.Call) -> bool:
    """The function holding the load reads the network's parameter names itself
    (``net.parameters_dict()``: a conversion that prints what is missing)."""
    return any(
        isinstance(node.func, nodes.Attribute) and node.func.attrname in guide.PARAMETER_NAME_READERS
        for node in call.scope().nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED)
    )


_SOURCE_DEPTH = 8
_DICT_COPIES = frozenset({"dict", "collections.OrderedDict"})
_DICT_VIEWS = frozenset({"items", "keys", "copy"})


def _torch_weights_reach(expr: nodes.NodeNG | None, func: nodes.NodeNG, line: int, depth: int) -> bool:
    """Whether PyTorch weights (``torch.load(...)``, a torch module's ``state_dict()``)
    give the dict ``expr`` (at ``line`` of ``func``) its names, followed back through
    local names, items (``ckpt["state_dict"]``), comprehensions over it (``{k: v for
    k, v in sd.items() if ...}``), a dict filled from it by a loop, copies
    (``dict(sd)``) and the functions of the project that return it or what they were
    given (``strip(sd, "module.")``); False when none reaches it (a MindSpore
    checkpoint, a parameter)."""
    if expr is None or depth > _SOURCE_DEPTH:
        return False
    if isinstance(expr, nodes.Name):
        line = expr.lineno or line
        value = training_code.last_assignment_before(func, expr.name, line)
        if isinstance(value, nodes.Dict) and not value.items:
            return _filled_from_torch(expr.name, func, line, depth)
        return _torch_weights_reach(value, func, line, depth + 1)
    if isinstance(expr, nodes.Subscript):
        return _torch_weights_reach(expr.value, func, line, depth + 1)
    if isinstance(expr, nodes.DictComp):
        return bool(expr.generators) and _torch_weights_reach(expr.generators[0].iter, func, line, depth + 1)
    if not isinstance(expr, nodes.Call) or not isinstance(expr.func, (nodes.Name, nodes.Attribute)):
        return False
    qname = resolve.call_name(expr)
    if qname in guide.TORCH_WEIGHT_READS:
        return True
    if isinstance(expr.func, nodes.Attribute):
        if expr.func.attrname == guide.TORCH_STATE_DICT_METHOD:
            owner = training_code.constructed_qname(expr.func.expr)
            return owner is not None and resolve.root_package(owner) in ("torch", "torchvision", "timm")
        if qname is None and expr.func.attrname in _DICT_VIEWS:
            return _torch_weights_reach(expr.func.expr, func, line, depth + 1)  # sd.items(), sd.copy()
    if qname in _DICT_COPIES:
        return any(_torch_weights_reach(argument, func, line, depth + 1) for argument in expr.args)
    callee = resolve.project_callee(expr.func)
    if callee is None:
        return False
    for returned in callee.nodes_of_class(nodes.Return, skip_klass=SKIP_NESTED):
        if returned.value is None:
            continue
        if _torch_weights_reach(returned.value, callee, returned.lineno or 0, depth + 1):
            return True
        given = _given_back(returned.value, callee, expr)
        if given is not None and _torch_weights_reach(given, func, line, depth + 1):
            return True
    return False


def _filled_from_torch(name: str, func: nodes.NodeNG, line: int, depth: int) -> bool:
    """``d = {}`` filled above ``line`` by ``for k, v in sd.items(): d[...] = ...``:
    whether PyTorch weights reach ``sd``."""
    for loop in func.nodes_of_class(nodes.For, skip_klass=SKIP_NESTED):
        if (loop.lineno or 0) >= line:
            continue
        fills = any(
            isinstance(target, nodes.Subscript) and isinstance(target.value, nodes.Name) and target.value.name == name
            for assign in loop.nodes_of_class(nodes.Assign, skip_klass=SKIP_NESTED) for target in assign.targets
        )
        if fills and _torch_weights_reach(loop.iter, func, loop.lineno or 0, depth + 1):
            return True
    return False


def _given_back(returned: nodes.NodeNG, callee: nodes.FunctionDef, call: nodes.Call) -> nodes.NodeNG | None:
    """What ``call`` passed for the parameter of ``callee`` that ``returned`` (a value it
    returns) is built from: the argument ``strip(sd, "module.")`` passes when it returns
    ``{k[7:]: v for k, v in sd.items()}``."""
    for _ in range(_SOURCE_DEPTH):
        if isinstance(returned, nodes.DictComp) and returned.generators:
            returned = returned.generators[0].iter
        elif isinstance(returned, nodes.Subscript):
            returned = returned.value
        elif isinstance(returned, nodes.Call) and isinstance(returned.func, nodes.Attribute) \
                and returned.func.attrname in _DICT_VIEWS:
            returned = returned.func.expr
        elif isinstance(returned, nodes.Name):
            value = training_code.last_assignment_before(callee, returned.name, returned.lineno or 0)
            if value is None:
                break
            returned = value
        else:
            return None
    if not isinstance(returned, nodes.Name):
        return None
    names = [arg.name for arg in callee.args.args or []]
    if names and isinstance(callee.parent, nodes.ClassDef) and callee.type == "method":
        names = names[1:]  # self
    if returned.name not in names:
        return None
    index = names.index(returned.name)
    if index < len(call.args):
        return call.args[index]
    return next((keyword.value for keyword in call.keywords or () if keyword.arg == returned.name), None)


def _torch_keyed_dict(params: nodes.NodeNG, call: nodes.Call) -> str | None:
    """How ``params`` (the dict given to load_param_into_net) was built with a PyTorch
    state dict's keys unchanged, as ``{k: ... for k, v in sd.items()}`` or a loop
    ``for k, v in sd.items(): d[k] = ...``; None otherwise."""
    func = call.scope()
    value = params
    if isinstance(params, nodes.Name):
        value = training_code.last_assignment_before(func, params.name, call.lineno or 0)
        if value is None:
            return None
    if isinstance(value, nodes.DictComp):
        return _keeps_torch_keys(value.key, value.generators, func, call)
    if isinstance(value, nodes.Dict) and not value.items and isinstance(params, nodes.Name):
        return _filled_by_loop(params.name, func, call)
    return None


def _keeps_torch_keys(key: nodes.NodeNG, generators, func, call) -> str | None:
    if len(generators) != 1 or not isinstance(key, nodes.Name):
        return None
    generator = generators[0]
    target = generator.target
    first = target.elts[0] if isinstance(target, nodes.Tuple) and target.elts else None
    if not (isinstance(first, nodes.AssignName) and first.name == key.name):
        return None
    return _torch_items(generator.iter, func, call)


def _filled_by_loop(name: str, func: nodes.NodeNG, call: nodes.Call) -> str | None:
    """``d = {}`` then ``for k, v in sd.items(): d[k] = ...`` above ``call``."""
    found = None
    for loop in func.nodes_of_class(nodes.For, skip_klass=SKIP_NESTED):
        if (loop.lineno or 0) >= (call.lineno or 0):
            continue
        target = loop.target
        key = target.elts[0] if isinstance(target, nodes.Tuple) and target.elts else None
        if not isinstance(key, nodes.AssignName):
            continue
        for assign in loop.nodes_of_class(nodes.Assign, skip_klass=SKIP_NESTED):
            for subscript in assign.targets:
                if isinstance(subscript, nodes.Subscript) and isinstance(subscript.value, nodes.Name) \
                        and subscript.value.name == name:
                    if not (isinstance(subscript.slice, nodes.Name) and subscript.slice.name == key.name):
                        return None  # renamed somewhere: d[new_name] = ...
                    if _key_rebound(loop, key.name):
                        return None
                    found = found or _torch_items(loop.iter, func, call)
    return found


def _key_rebound(loop: nodes.For, name: str) -> bool:
    return any(
        name in astutil.target_names(target)
        for assign in loop.body for node in [assign, *assign.nodes_of_class(nodes.Assign)]
        if isinstance(node, nodes.Assign) for target in node.targets
    )


def _torch_items(iterable: nodes.NodeNG, func: nodes.NodeNG, call: nodes.Call) -> str | None:
    """``sd.items()`` where ``sd`` is a PyTorch state dict: torch.load(...) (or an item of
    it, ``torch.load(p)["state_dict"]``), a torch module's state_dict(), through names."""
    if not (isinstance(iterable, nodes.Call) and isinstance(iterable.func, nodes.Attribute)
            and iterable.func.attrname == "items"):
        return None
    state = iterable.func.expr
    for _ in range(4):
        if isinstance(state, nodes.Name):
            value = training_code.last_assignment_before(func, state.name, iterable.lineno or 0)
            if value is None:
                return None
            state = value
            continue
        if isinstance(state, nodes.Subscript):
            state = state.value
            continue
        break
    if not isinstance(state, nodes.Call) or not isinstance(state.func, (nodes.Name, nodes.Attribute)):
        return None
    qname = resolve.call_name(state)
    if qname in guide.TORCH_WEIGHT_READS:
        return f"{spelled(state.func)}(...)"
    if isinstance(state.func, nodes.Attribute) and state.func.attrname == guide.TORCH_STATE_DICT_METHOD:
        owner = training_code.constructed_qname(state.func.expr)
        if owner is not None and resolve.root_package(owner) in ("torch", "torchvision", "timm"):
            return f"{spelled(state.func)}()"
    return None


def register(linter: PyLinter) -> None:
    linter.register_checker(CheckpointChecker(linter))


def _whole_result_tests(call: nodes.Call) -> list[tuple[nodes.NodeNG, str]]:
    """The tests of ``call``'s whole result, with what each always gives: the call
    itself as a condition (``if not load_param_into_net(...)``), or the one name it
    is assigned to (``result = load_param_into_net(...)``, the name's only binding
    in its function) tested later: ``if result``, ``if not result``, ``assert not
    result``, ``len(result) == 0``."""
    outcome = _truth_test(call)
    if outcome is not None:
        return [outcome]
    target = astutil.local_target(call)
    if target is None:
        return []
    holder, name = call.parent, target.name
    scope = holder.scope()
    if sum(1 for bound in scope.nodes_of_class(nodes.AssignName) if bound.name == name) != 1:
        return []  # rebound (unpacked later, reassigned): not read as the tuple alone
    found = []
    for read in scope.nodes_of_class(nodes.Name):
        if read.name != name or (read.lineno or 0) <= (holder.lineno or 0):
            continue
        outcome = _truth_test(read)
        if outcome is not None:
            found.append(outcome)
    return found


def _truth_test(value: nodes.NodeNG) -> tuple[nodes.NodeNG, str] | None:
    """(the test, what it always gives) where ``value``, a two-list tuple, decides
    a branch: its truth (``if value``, ``not value``, ``assert value``, ``value and
    ...``) or its length compared with 0."""
    node, negated = value, False
    parent = node.parent
    if isinstance(parent, nodes.Call) and isinstance(parent.func, nodes.Name) and parent.func.name == "len" \
            and parent.args == [node]:
        compare = parent.parent
        if isinstance(compare, nodes.Compare) and compare.left is parent and len(compare.ops) == 1:
            op, right = compare.ops[0]
            if isinstance(right, nodes.Const) and right.value == 0 and op in ("==", "!=", ">", "<="):
                always = op in ("!=", ">")
                return compare, f"is always {always} (the tuple's length is 2)"
        return None
    while isinstance(parent, nodes.UnaryOp) and parent.op == "not":
        node, negated, parent = parent, not negated, parent.parent
    if isinstance(parent, nodes.BoolOp):
        node, parent = parent, parent.parent  # ``if not a and b``: the tuple's part is fixed, judged where it decides
        if not isinstance(parent, (nodes.If, nodes.While, nodes.Assert, nodes.IfExp)):
            return None
    if isinstance(parent, (nodes.If, nodes.While, nodes.IfExp)) and parent.test is node \
            or isinstance(parent, nodes.Assert) and parent.test is node:
        if node is not value and not isinstance(node, nodes.UnaryOp):
            return node, "never decides the test (the tuple is always true)"
        return node, "is always False" if negated else "is always True"
    return None


def _a_path(expr: nodes.NodeNG, depth: int) -> bool:
    """Whether ``expr`` certainly holds a path (a string or a pathlib path), never a
    dict: a string literal, an f-string, a string literal joined or formatted
    (``"w/" + name``, ``"{}.ckpt".format(epoch)``), a call that returns a path
    (guide.PATH_RESULT_CALLS), or a name every binding of which in its scope
    assigns one of these."""
    if depth > 3:
        return False
    if isinstance(expr, nodes.Const):
        return isinstance(expr.value, str)
    if isinstance(expr, nodes.JoinedStr):
        return True
    if isinstance(expr, nodes.BinOp) and expr.op in ("+", "%"):
        return isinstance(expr.left, nodes.JoinedStr) or (isinstance(expr.left, nodes.Const) and isinstance(expr.left.value, str))
    if isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Attribute) and expr.func.attrname == "format" \
            and isinstance(expr.func.expr, nodes.Const) and isinstance(expr.func.expr.value, str):
        return True
    if isinstance(expr, nodes.Call) and isinstance(expr.func, (nodes.Name, nodes.Attribute)):
        return resolve.call_name(expr) in guide.PATH_RESULT_CALLS
    if isinstance(expr, nodes.Name):
        # every binding of the name in its scope assigns a path (``model_name = "{}.ckpt".format(...)``
        # in each branch that sets it)
        bound = resolve.binding(expr)
        if not isinstance(bound, nodes.AssignName):
            return False
        every = bound.scope().locals.get(expr.name, ())
        return bool(every) and all(
            isinstance(each, nodes.AssignName) and isinstance(each.parent, nodes.Assign) and each.parent.targets == [each]
            and _a_path(each.parent.value, depth + 1)
            for each in every
        )
    return False


_EXPECTING = frozenset({"TypeError", "Exception", "BaseException"})


def _expects_type_error(node: nodes.NodeNG) -> bool:
    """Inside ``with pytest.raises(...)`` / ``self.assertRaises(...)``, or a ``try``
    whose handlers catch TypeError: the failure is what the code tests for."""
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, (nodes.FunctionDef, nodes.ClassDef, nodes.Module)):
        if isinstance(parent, nodes.With) and any(
            isinstance(item, nodes.Call) and isinstance(item.func, nodes.Attribute)
            and item.func.attrname in ("raises", "assertRaises", "assertRaisesRegex")
            for item, _ in parent.items
        ):
            return True
        if isinstance(parent, nodes.Try) and child in parent.body \
                and any(astutil.handler_catches(handler, _EXPECTING) for handler in parent.handlers):
            return True
        child, parent = parent, parent.parent
    return False
