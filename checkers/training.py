"""Training-setup mistakes: precision, gradients, parameter names, the forward method.

Measured on MindSpore 2.10 (FACTS.md, tests/oracle/test_training.py):
- ``Model(..., amp_level="O2"/"O3")``, ``build_train_network(..., level=...)`` and
  ``auto_mixed_precision(...)`` at those levels cast the whole network to float16
  and overwrite a custom ``to_float``; "O0", "O1" and "auto" keep it.
- A Cell called and then differentiated on the same inputs in PyNative runs its
  forward twice unless ``set_grad()`` was called before the call.
- A wrapper holding an optimizer with the default ``auto_prefix=True`` renames the
  network's parameters (``weight`` becomes ``optimizer.weight``): a checkpoint with
  the bare names loaded after wrapping loads nothing, silently; loading before
  wrapping, or loading what the wrapped network saved into a fresh network, works.
  A backbone with ``auto_prefix=False`` gives its sub-cells colliding parameter names.
- A Cell with ``forward`` and no ``construct`` raises AttributeError when called.
- ``nn.Cell`` has no ``train`` method: a Cell's own ``train(self, mode=True)``
  (PyTorch's hook, where ports freeze BatchNorm) is never called by
  ``set_train()`` or ``Model.train``, which switch every Cell of the tree by
  a flag and call no method of the Cells below.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, edits, resolve, scope, sites
from mslint.analysis.astutil import UNKNOWN, argument, attribute_path, literal_bool, unwrap_chain
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

_SKIP_NESTED = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)


# ---------------------------------------------------------------------------
# Small AST helpers
# ---------------------------------------------------------------------------
def scope_calls(scope_node: nodes.NodeNG) -> list[nodes.Call]:
    """Calls in a function or module body, not in nested functions or classes."""
    return list(scope_node.nodes_of_class(nodes.Call, skip_klass=_SKIP_NESTED))


def position(node: nodes.NodeNG) -> tuple[int, int]:
    return (node.lineno or 0, node.col_offset or 0)


def _arm(node: nodes.NodeNG, branch: nodes.If) -> str | None:
    """Which arm of ``branch`` holds ``node``: "body", "orelse", or None (its test, or outside)."""
    for arm in ("body", "orelse"):
        if any(stmt is node or stmt.parent_of(node) for stmt in getattr(branch, arm)):
            return arm
    return None


def exclusive(first: nodes.NodeNG, second: nodes.NodeNG) -> bool:
    """Whether the two nodes sit in different arms of one ``if`` (``if``/``elif``/``else``):
    no run executes both."""
    for ancestor in first.node_ancestors():
        if isinstance(ancestor, nodes.If):
            mine, theirs = _arm(first, ancestor), _arm(second, ancestor)
            if mine is not None and theirs is not None and mine != theirs:
                return True
    return False


def float_dtype(node) -> str | None:
    """``ms.float32``/``mstype.float16``/``mindspore.common.dtype.float32`` -> "float32"."""
    if not isinstance(node, (nodes.Name, nodes.Attribute)):
        return None
    qname = resolve.qualified_name(node)
    if qname is None or "." not in qname:
        return None
    module, name = qname.rsplit(".", 1)
    if module not in apis.MINDSPORE_DTYPE_MODULES:
        return None
    return apis.MINDSPORE_FLOAT_DTYPES.get(name)


def _cells_iterated(iterator: nodes.NodeNG) -> str | None:
    """``net`` for ``net.cells_and_names()``, ``net.cells()``, ``net.name_cells().items()``."""
    if not (isinstance(iterator, nodes.Call) and isinstance(iterator.func, nodes.Attribute)):
        return None
    method = iterator.func.attrname
    receiver = iterator.func.expr
    if method in ("items", "values") and isinstance(receiver, nodes.Call) and isinstance(receiver.func, nodes.Attribute):
        method, receiver = receiver.func.attrname, receiver.func.expr
    return attribute_path(receiver) if method in apis.CELL_ITERATING_METHODS else None


def _isinstance_types(call: nodes.Call, name: str) -> frozenset[str] | None:
    """The classes an enclosing ``if isinstance(<name>, (A, B)):`` limits ``name`` to."""
    node = call
    while node is not None and not isinstance(node, (nodes.For, nodes.FunctionDef)):
        parent = node.parent
        if isinstance(parent, nodes.If) and node in parent.body:
            test = parent.test
            if (isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "isinstance"
                    and len(test.args) == 2 and isinstance(test.args[0], nodes.Name) and test.args[0].name == name):
                kinds = test.args[1].elts if isinstance(test.args[1], nodes.Tuple) else [test.args[1]]
                qnames = [resolve.qualified_name(kind) for kind in kinds]
                return None if None in qnames else frozenset(qnames)
        node = parent
    return None


def is_cell_constructor(call: nodes.Call, analysis: scope.ModuleAnalysis) -> bool:
    qname = resolve.call_name(call)
    if qname is not None and resolve.is_cell_qname(qname):
        return True
    cls = resolve.user_class_of_call(call)
    return cls is not None and analysis.is_cell_class(cls)


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------
class TrainingChecker(BaseChecker):
    name = "mindspore-training"
    msgs = {
        "W7601": (
            '%s casts the whole network to %s and silently overrides %s (%s); '
            'call to_float after it, or use level "O1" or "auto", which keep to_float',
            "ms-amp-overrides-to-float",
            "A Cell (or one of its sub-cells) given a custom to_float(...) and then passed to "
            'Model(amp_level=...), build_train_network(level=...) or auto_mixed_precision(...) at '
            'level "O2" or "O3": the level casts every cell to float16 and the custom precision '
            "is lost without a warning.",
        ),
        "W7602": (
            "%s runs the forward of %s and %s on line %d runs it again on the same inputs: side "
            "effects and BatchNorm statistic updates happen twice (PyNative reuses the first run only "
            "after set_grad()); call %s.set_grad() before %s",
            "ms-bprop-without-set-grad",
            "An instance of a Cell that defines bprop is called and then differentiated "
            "(ms.grad, ms.value_and_grad, GradOperation) on the same inputs in the same scope, "
            "without set_grad() before the call: in PyNative the forward runs twice.",
        ),
        "W7603": (
            "%s; %s",
            "ms-auto-prefix",
            "A checkpoint loaded into a network (or its wrapper) after a wrapper holding the network "
            "and its optimizer without auto_prefix=False renamed its parameters (weight becomes "
            "optimizer.weight): a checkpoint with the bare names loads nothing, silently. Also a "
            "backbone with auto_prefix=False whose sub-cells then share parameter names.",
        ),
        "E7604": (
            "%s defines %s() but %s: MindSpore calls construct, so %s; rename %s to construct",
            "ms-forward-not-construct",
            "An nn.Cell subclass that defines the PyTorch forward method (or a misspelled construct, "
            "such as consturct) and neither defines nor inherits construct, or inherits it from a "
            "project base class whose construct never calls forward.",
        ),
        "W7605": (
            "%s.train() is PyTorch's nn.Module.train hook: MindSpore never calls it (set_train() and Model.train "
            "switch Cells by a flag), so what it does never happens; do it in __init__ (a frozen BatchNorm: "
            "use_batch_statistics=False and requires_grad=False on its parameters) or call it yourself%s",
            "ms-torch-train-override",
            "An nn.Cell subclass that defines PyTorch's train(self, mode=True) hook (where ports freeze "
            "BatchNorm layers) while nothing in the project calls .train() on a Cell: MindSpore's "
            "set_train() and Model.train never call it.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._reported_forwards: set[nodes.Call] = set()
        self._holders: dict[nodes.ClassDef, str | None] = {}
        self._call_checks: tuple[bool, bool, bool] | None = None

    def open(self) -> None:
        self._reported_forwards = set()
        self._holders = {}
        self._call_checks = None

    def visit_module(self, node: nodes.Module) -> None:  # noqa: ARG002 - per-module state
        self._call_checks = None

    # -- ms-amp-overrides-to-float -------------------------------------------
    @only_required_for_messages("ms-amp-overrides-to-float", "ms-bprop-without-set-grad", "ms-auto-prefix")
    def visit_call(self, node: nodes.Call) -> None:
        # which messages are on, asked once per module (without a line, pylint's
        # answer holds for the whole module), not three times for every call
        checks = self._call_checks
        if checks is None:
            enabled = self.linter.is_message_enabled
            checks = self._call_checks = (
                enabled("ms-auto-prefix"), enabled("ms-amp-overrides-to-float"), enabled("ms-bprop-without-set-grad"),
            )
        if checks[0]:
            self._check_load_after_wrapping(node)
        if checks[1]:
            self._check_amp(node)
        if checks[2]:
            self._check_bprop(node)

    def _check_amp(self, node: nodes.Call) -> None:
        if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
            return
        api = apis.AMP_APIS.get(resolve.call_name(node))
        if api is None:
            return
        level_node = argument(node, *api.level)
        if level_node is None or level_node is UNKNOWN:
            return  # the default "O0" keeps to_float; a hidden level cannot be judged
        if not (isinstance(level_node, nodes.Const) and isinstance(level_node.value, str)):
            return
        level = level_node.value
        if level not in apis.AMP_LEVELS_OVERRIDING_TO_FLOAT:
            return
        amp_dtype: str | None = api.dtype_default
        if api.dtype is not None:
            dtype_node = argument(node, *api.dtype)
            if dtype_node is UNKNOWN:
                amp_dtype = None
            elif dtype_node is not None:
                amp_dtype = float_dtype(dtype_node)
        network = argument(node, *api.network)
        if network is None or network is UNKNOWN:
            return
        analysis = scope.analysis(node.root())
        targets, classes = self._network_parts(network, analysis)
        if not targets and not classes:
            return
        calls = scope_calls(node.scope())
        here = position(node)
        to_floats = [call for call in calls if self._to_float_receiver(call) is not None]

        def covered(call: nodes.Call) -> bool:
            receiver = self._to_float_receiver(call)
            return any(receiver == t or receiver.startswith(t + ".") for t in targets)

        # a to_float in another arm of an ``if`` than the amp call never runs with it
        to_floats = [call for call in to_floats if not exclusive(call, node)]
        if any(covered(call) and position(call) > here for call in to_floats):
            return  # to_float is applied again after the amp call
        found = None
        for call in to_floats:
            if position(call) < here and covered(call) and self._overridden(call, level, amp_dtype, None):
                found = (call, f"line {call.lineno}")
                break
        if found is None:
            # the migration guide's idiom: for _, cell in net.cells_and_names(): if
            # isinstance(cell, nn.BatchNorm2d): cell.to_float(ms.float32), here or in a
            # helper called with the network before the amp call
            found = self._cells_loop_to_float(calls, node, targets, level, amp_dtype)
        if found is None:
            for cls in classes:
                call = self._class_to_float(cls, level, amp_dtype, analysis)
                if call is not None:
                    found = (call, f"in {call.frame().parent.name}.{call.frame().name}, line {call.lineno}")
                    break
        if found is None:
            return
        call, where = found
        spelled_level = f'{api.name}({api.level[1]}="{level}")'
        self.add_message(
            "ms-amp-overrides-to-float",
            node=node,
            args=(
                spelled_level,
                (amp_dtype or "low precision") + (" (all but BatchNorm and LayerNorm)" if level == "O2" else ""),
                spelled(call),
                where,
            ),
        )

    def _cells_loop_to_float(self, calls, amp, targets, level, amp_dtype) -> tuple[nodes.Call, str] | None:
        """A to_float on each sub-cell of the network, in a loop over its
        ``cells_and_names()``/``cells()`` before the amp call, or in a module function
        that the scope calls with the network before it; O2 keeps the ones the
        loop's isinstance test limits to BatchNorm/LayerNorm."""
        here = position(amp)
        for call in calls:
            if position(call) >= here or exclusive(call, amp):
                continue
            found = self._loop_to_float(call.scope(), targets, level, amp_dtype, before=amp)
            if found is not None:
                return found
            helper = resolve.binding(call.func) if isinstance(call.func, nodes.Name) else None
            if not isinstance(helper, nodes.FunctionDef) or not isinstance(helper.parent, nodes.Module):
                continue
            inner = {
                name for names, value in astutil.bind_call(call, helper, False)
                if attribute_path(value) in targets for name in names
            }
            found = self._loop_to_float(helper, inner, level, amp_dtype) if inner else None
            if found is not None:
                loop_call, _ = found
                return loop_call, f"in {helper.name}(), line {loop_call.lineno}, called on line {call.lineno}"
        return None

    def _loop_to_float(self, body, targets, level, amp_dtype, before=None) -> tuple[nodes.Call, str] | None:
        for loop in body.nodes_of_class(nodes.For, skip_klass=_SKIP_NESTED):
            if before is not None and (position(loop) >= position(before) or exclusive(loop, before)):
                continue
            owner = _cells_iterated(loop.iter)
            if owner is None or owner not in targets:
                continue
            cell_names = set(astutil.target_names(loop.target))
            for call in loop.nodes_of_class(nodes.Call):
                func = call.func
                if not (isinstance(func, nodes.Attribute) and func.attrname == apis.TO_FLOAT_METHOD):
                    continue
                if not (isinstance(func.expr, nodes.Name) and func.expr.name in cell_names) or not call.args:
                    continue
                dtype = float_dtype(call.args[0])
                if dtype is None or dtype == amp_dtype:
                    continue
                kept = _isinstance_types(call, func.expr.name)
                if level == "O2" and kept and kept <= apis.AMP_O2_FLOAT32_CELLS:
                    continue  # O2 puts BatchNorm/LayerNorm back to float32 itself
                return call, f"line {call.lineno}, in the loop over {owner}'s cells"
        return None

    @staticmethod
    def _to_float_receiver(call: nodes.Call) -> str | None:
        func = call.func
        if isinstance(func, nodes.Attribute) and func.attrname == apis.TO_FLOAT_METHOD:
            return attribute_path(func.expr)
        return None

    def _network_parts(self, network: nodes.NodeNG, analysis) -> tuple[set[str], list[nodes.ClassDef]]:
        """Paths that name the network or Cells it wraps (``WithLossCell(net, loss)``),
        and the user Cell classes they are built from."""
        targets: set[str] = set()
        classes: list[nodes.ClassDef] = []
        pending = [network]
        for _ in range(8):
            if not pending:
                break
            current, pending = pending, []
            for expr in current:
                if isinstance(expr, nodes.Call):
                    if not is_cell_constructor(expr, analysis):
                        continue
                    cls = resolve.user_class_of_call(expr)
                    if cls is not None and cls not in classes:
                        classes.append(cls)
                    pending.extend(expr.args)
                    pending.extend(kw.value for kw in expr.keywords or ())
                    continue
                path = attribute_path(expr)
                if path is None or path in targets:
                    continue
                targets.add(path)
                if isinstance(expr, nodes.Name):
                    value = resolve.assigned_value(expr)
                    if value is not None:
                        value, _ = unwrap_chain(value)
                        if isinstance(value, nodes.Call):
                            pending.append(value)
        return targets, classes

    def _overridden(self, call: nodes.Call, level: str, amp_dtype: str | None, cls) -> bool:
        """Whether the level overwrites this to_float call's precision."""
        if not call.args:
            return False
        dtype = float_dtype(call.args[0])
        if dtype is None or dtype == amp_dtype:
            return False  # unknown precision, or the one the level sets anyway
        if level == "O2" and self._receiver_type(call, cls) in apis.AMP_O2_FLOAT32_CELLS:
            return False  # O2 puts BatchNorm/LayerNorm back to float32
        return True

    @staticmethod
    def _receiver_type(call: nodes.Call, cls: nodes.ClassDef | None) -> str | None:
        """Qualified name of the Cell class a to_float receiver was built from."""
        receiver = call.func.expr
        if isinstance(receiver, nodes.Call):
            return resolve.call_name(receiver)
        if isinstance(receiver, nodes.Name):
            value = resolve.assigned_value(receiver)
            value = unwrap_chain(value)[0] if value is not None else None
            return resolve.call_name(value) if isinstance(value, nodes.Call) else None
        if isinstance(receiver, nodes.Attribute):
            owner = cls
            if owner is None and isinstance(receiver.expr, nodes.Name):
                value = resolve.assigned_value(receiver.expr)
                value = unwrap_chain(value)[0] if value is not None else None
                owner = resolve.user_class_of_call(value) if isinstance(value, nodes.Call) else None
            elif owner is not None and not astutil.is_self(receiver.expr):
                owner = None
            if owner is None:
                return None
            for value in scope.analysis(call.root()).class_facts(owner).values(receiver.attrname):
                value = unwrap_chain(value)[0]
                if isinstance(value, nodes.Call):
                    return resolve.call_name(value)
        return None

    def _class_to_float(self, cls: nodes.ClassDef, level, amp_dtype, analysis) -> nodes.Call | None:
        """A to_float call in the class's __init__ (on self, self.<sub-cell>, or a Cell
        built there) that the level overwrites."""
        user, _ = resolve.class_hierarchy(cls)
        for klass in user:
            init = astutil.own_method(klass, "__init__")
            if init is None:
                continue
            for call in scope_calls(init):
                func = call.func
                if not (isinstance(func, nodes.Attribute) and func.attrname == apis.TO_FLOAT_METHOD):
                    continue
                receiver = func.expr
                on_self = (attribute_path(receiver) or "").split(".", 1)[0] == "self"
                built = isinstance(receiver, nodes.Call) and is_cell_constructor(receiver, analysis)
                if (on_self or built) and self._overridden(call, level, amp_dtype, klass):
                    return call
        return None

    # -- ms-bprop-without-set-grad ---------------------------------------------
    def _differentiated_cell(self, node: nodes.Call) -> nodes.NodeNG | None:
        """For ``ms.grad(net)(x)``, ``GradOperation()(net)(x)`` or ``grad_fn(x)`` with
        ``grad_fn = ms.value_and_grad(net)``: the ``net`` expression."""
        func = node.func
        if isinstance(func, nodes.Name):
            value = resolve.assigned_value(func)
            if not isinstance(value, nodes.Call):
                return None
            func = value
        if not isinstance(func, nodes.Call) or not func.args:
            return None
        inner = func.func
        if isinstance(inner, (nodes.Name, nodes.Attribute)):
            if resolve.call_name(func) in apis.BPROP_DIFFERENTIATORS:
                return func.args[0]
            if isinstance(inner, nodes.Name):
                factory = resolve.assigned_value(inner)
                if isinstance(factory, nodes.Call) and resolve.call_name(factory) in apis.GRAD_OPERATION_FACTORIES:
                    return func.args[0]
            return None
        if isinstance(inner, nodes.Call) and resolve.call_name(inner) in apis.GRAD_OPERATION_FACTORIES:
            return func.args[0]
        return None

    def _check_bprop(self, node: nodes.Call) -> None:
        if not isinstance(node.func, (nodes.Call, nodes.Name)):
            return
        net_expr = self._differentiated_cell(node)
        net_path = attribute_path(net_expr)
        if net_path is None:
            return
        analysis = scope.analysis(node.root())
        if analysis.in_graph(node) or self._graph_mode(node.root()):
            return
        body = node.scope()
        calls = scope_calls(body)
        here = position(node)
        inputs = _call_inputs(node)
        forwards = [
            call for call in calls
            if position(call) < here and attribute_path(call.func) == net_path and _call_inputs(call) == inputs
            and call.func is not net_expr
        ]
        if not forwards:
            return
        forward = forwards[-1]
        if forward in self._reported_forwards:
            return
        cls, set_at_construction = self._bprop_class(net_expr)
        if cls is None or set_at_construction:
            return
        if self._set_grad_before(calls, net_path, forward) or self._wrapped(calls, net_path):
            return
        self._reported_forwards.add(forward)
        self.add_message(
            "ms-bprop-without-set-grad",
            node=forward,
            args=(spelled(forward), f"{cls.name} (a Cell with bprop)", _spelled_grad(node), node.lineno,
                  net_path, spelled(forward)),
        )

    def _bprop_class(self, net_expr: nodes.NodeNG) -> tuple[nodes.ClassDef | None, bool]:
        """The user Cell class with bprop that ``net_expr`` is an instance of, and
        whether set_grad() was called on it at construction or in its __init__."""
        values: list[nodes.NodeNG] = []
        if isinstance(net_expr, nodes.Name):
            value = resolve.assigned_value(net_expr)
            values = [value] if value is not None else []
        elif astutil.self_attribute(net_expr) is not None:
            owner = astutil.enclosing_class(net_expr)
            if owner is not None:
                values = scope.analysis(net_expr.root()).class_facts(owner).values(net_expr.attrname)
        if not values:
            return None, False
        found: nodes.ClassDef | None = None
        set_grad = False
        analysis = scope.analysis(net_expr.root())
        for value in values:
            value, chained = unwrap_chain(value)
            if not isinstance(value, nodes.Call):
                return None, False
            cls = resolve.user_class_of_call(value)
            if cls is None or (found is not None and cls is not found):
                return None, False
            found = cls
            set_grad = set_grad or any(_is_set_grad(call) for call in chained)
        if found is None or not analysis.is_cell_class(found) or resolve.find_method(found, apis.BPROP_METHOD) is None:
            return None, False
        user, _ = resolve.class_hierarchy(found)
        for klass in user:
            init = astutil.own_method(klass, "__init__")
            if init is None:
                continue
            for call in scope_calls(init):
                if _is_set_grad(call) and attribute_path(call.func.expr) == "self":
                    set_grad = True
        return found, set_grad

    @staticmethod
    def _set_grad_before(calls: list[nodes.Call], net_path: str, forward: nodes.Call) -> bool:
        return any(
            _is_set_grad(call) and attribute_path(call.func.expr) == net_path and position(call) < position(forward)
            for call in calls
        )

    @staticmethod
    def _wrapped(calls: list[nodes.Call], net_path: str) -> bool:
        for call in calls:
            if resolve.call_name(call) not in apis.SET_GRAD_WRAPPERS:
                continue
            values = list(call.args) + [kw.value for kw in call.keywords or ()]
            if any(attribute_path(value) == net_path for value in values):
                return True
        return False

    @staticmethod
    def _graph_mode(module: nodes.Module) -> bool:
        """Whether the module sets a mode other than PYNATIVE_MODE (or one it cannot
        read): the second forward then happens with or without set_grad()."""
        return scope.UNKNOWN_MODE in scope.analysis(module).context_modes

    # -- ms-auto-prefix and ms-forward-not-construct -------------------------
    @only_required_for_messages("ms-auto-prefix", "ms-forward-not-construct", "ms-torch-train-override")
    def visit_classdef(self, node: nodes.ClassDef) -> None:
        analysis = scope.analysis(node.root())
        if not analysis.is_cell_class(node):
            return
        if self.linter.is_message_enabled("ms-forward-not-construct"):
            self._check_forward(node)
        if self.linter.is_message_enabled("ms-auto-prefix"):
            self._check_auto_prefix(node, analysis)
        if self.linter.is_message_enabled("ms-torch-train-override"):
            self._check_train_override(node)

    # -- ms-torch-train-override -------------------------------------------
    def _check_train_override(self, node: nodes.ClassDef) -> None:
        train = next((m for m in node.locals.get(apis.TORCH_TRAIN_HOOK, ()) if isinstance(m, nodes.FunctionDef)), None)
        if train is None or not _torch_train_signature(train) or _only_raises(train):
            return
        _, external = resolve.class_hierarchy(node)
        if not external <= apis.CELL_ROOT_CLASSES | apis.NON_CELL_MIXIN_BASES:
            return  # a MindSpore subclass, a third-party or unresolved base (mindtorch's Module) may call it
        if _freezes_in_init(node):
            return  # the port already freezes when the Cell is built: the hook is a leftover
        if _project_may_call_train(node):
            return  # some .train() / .train(mode) call in the project may run it
        chained = ", without its super().train() (nn.Cell has no train: AttributeError)" \
            if _calls_super_train(train) else ""
        self.add_message("ms-torch-train-override", node=train, args=(node.name, chained))

    def _check_forward(self, node: nodes.ClassDef) -> None:
        forward = next(
            (m for m in node.locals.get(apis.TORCH_FORWARD_METHOD, ()) if isinstance(m, nodes.FunctionDef)), None
        )
        misspelled = forward is None and apis.TORCH_FORWARD_METHOD not in node.locals
        if misspelled:
            forward = _misspelled_construct(node)
        if forward is None or _only_raises(forward):
            return
        user, external = resolve.class_hierarchy(node)
        allowed = apis.CELL_ROOT_CLASSES | apis.NON_CELL_MIXIN_BASES
        if not external <= allowed:
            return  # a MindSpore/third-party/unresolved base may provide construct
        owner = sites.construct_owner(user)
        if owner is None:
            if not misspelled and _forward_as_method(node, forward):
                return  # forward is an ordinary method here: no call of an instance in sight
            if not misspelled and _abstract_base(node, forward):
                return  # fairseq's FairseqDecoder: nothing builds it, its subclasses define construct
            what, harm, unsafe = ("no construct()", "calling the Cell raises AttributeError "
                                  "(\"the method 'construct' is not defined\")", False)
            if misspelled:
                what = f"no construct() ({forward.name} is a misspelling of it)"
        elif misspelled:
            return  # a construct of its own or from a project base: the other method is the author's
        elif owner is not node and sites.construct_ignores_forward(owner, user):
            # the base's construct runs instead (measured: tests/oracle/test_training.py)
            what = f"inherits construct() from {owner.name}, which never calls forward"
            harm = f"calling the Cell runs {owner.name}.construct and {node.name}.forward never runs"
            unsafe = True  # the alias makes the Cell compute something else: what the author meant
        else:
            return
        # ``construct = forward`` after the method, not a rename: callers of
        # ``.forward()`` and ``super().forward()``, in this module or any other,
        # keep working (a rename broke those mslint cannot see)
        edits.offer("ms-forward-not-construct", forward,
                    [edits.add_line_after(forward, f"{apis.CELL_FORWARD_METHOD} = {forward.name}")], unsafe=unsafe)
        self.add_message("ms-forward-not-construct", node=forward, args=(node.name, forward.name, what, harm, forward.name))

    def _check_auto_prefix(self, node: nodes.ClassDef, analysis) -> None:
        """The backbone half: ``auto_prefix=False`` on a Cell holding no optimizer
        whose sub-cells then share parameter names. (The wrapper half is judged
        where a checkpoint is loaded: :meth:`_check_load_after_wrapping`.)"""
        found = _cell_auto_prefix(node)
        if found is None:
            return
        super_call, auto_prefix, init, value = found
        if auto_prefix or _optimizer_holder(node, init, analysis) is not None:
            return
        if _names_sub_cells(init):
            return  # update_parameters_name(...) gives every sub-cell its own prefix
        collision = _colliding_children(node, init, analysis)
        if collision is None:
            return
        first, second, shared = collision
        written = keyword_of(super_call, value)
        edit = edits.delete_argument(super_call, written) if written is not None else None
        edits.offer("ms-auto-prefix", super_call, [edit] if edit else None, "remove auto_prefix=False")
        self.add_message(
            "ms-auto-prefix",
            node=super_call,
            args=(
                f"{node.name} sets auto_prefix=False but holds no optimizer: its sub-cells lose their "
                f"prefixes and self.{first} and self.{second} both name a parameter {shared}, so an "
                "optimizer over it raises ValueError and save_checkpoint keeps only one of them",
                "remove auto_prefix=False (it is for wrappers of a network and its optimizer)",
            ),
        )

    def _check_load_after_wrapping(self, node: nodes.Call) -> None:
        """``load_param_into_net(net, ...)`` after ``Wrapper(net, opt)`` in the same
        scope, where Wrapper holds an optimizer and keeps auto_prefix=True: the
        network's parameters are renamed, so a checkpoint with the bare names loads
        nothing into them (measured), and MindSpore only returns them as not loaded."""
        spec = apis.CHECKPOINT_LOADS.get(resolve.call_name(node) or "")
        if spec is None:
            return
        target = argument(node, *spec)
        target_path = attribute_path(target) if target not in (None, UNKNOWN) else None
        if target_path is None:
            return
        built_from: dict[str, set[str]] = {}  # ``loss_net = nn.WithLossCell(net, loss)``: loss_net <- net
        wrapped: dict[str, tuple[nodes.Call, nodes.ClassDef, str]] = {}
        for call in sorted(scope_calls(node.scope()), key=position):
            if position(call) >= position(node):
                break
            inputs = {attribute_path(arg) for arg in astutil.call_arguments(call)} - {None}
            statement = call.parent
            result = (
                _target_path(statement.targets[0])
                if isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1
                else None
            )
            if result is not None:
                built_from[result] = inputs
            if _saved_network(call) in wrapped:
                return  # it saves the wrapped network (prefixed names): what it loads next is likely that
            cls = resolve.user_class_of_call(call)
            holder = self._prefixing_holder(cls) if cls is not None else None
            if holder is None:
                continue
            pending = list(inputs | ({result} if result else set()))
            while pending:  # the wrapper renames what it holds, and what that holds
                name = pending.pop()
                if name not in wrapped:
                    wrapped[name] = (call, cls, holder)
                    pending.extend(built_from.get(name, ()))
        found = wrapped.get(target_path)
        if found is None:
            return
        call, cls, holder = found
        init_call = _cell_auto_prefix(cls) if cls.root() is node.root() else None
        if init_call is not None:  # the wrapper is defined here: its super().__init__() can take the fix
            super_call, value = init_call[0], init_call[3]
            editable = value is None or keyword_of(super_call, value) is not None
            edit = edits.set_argument(super_call, value, "auto_prefix", "False") if editable else None
            edits.offer("ms-auto-prefix", node, [edit] if edit else None, f"pass auto_prefix=False in {cls.name}")
        self.add_message(
            "ms-auto-prefix",
            node=node,
            args=(
                f"{spelled(node.func)}() into {target_path} after {cls.name}(...) on line {call.lineno}: "
                f"{cls.name} holds an optimizer and keeps auto_prefix=True, so the network's parameters are "
                f"now named {holder}.<name> and a checkpoint with the bare names loads nothing into them "
                "(they only come back as not loaded)",
                f"load before wrapping, or pass auto_prefix=False to {cls.name}'s super().__init__()",
            ),
        )

    def _prefixing_holder(self, cls: nodes.ClassDef) -> str | None:
        """The prefix a wrapper class puts on the network's parameter names (it holds
        an optimizer and keeps auto_prefix=True), or None."""
        if cls not in self._holders:
            holder = None
            analysis = scope.analysis(cls.root())
            found = _cell_auto_prefix(cls) if analysis.is_cell_class(cls) else None
            if found is not None and found[1]:
                holder = _optimizer_holder(cls, found[2], analysis)
            self._holders[cls] = holder
        return self._holders[cls]


def _cell_auto_prefix(
    node: nodes.ClassDef,
) -> tuple[nodes.Call, bool, nodes.FunctionDef, nodes.NodeNG | None] | None:
    """(the Cell.__init__ call, its auto_prefix, __init__, the auto_prefix argument
    as written or None) of a Cell class deriving directly from nn.Cell; None when
    that cannot be read."""
    user, external = resolve.class_hierarchy(node)
    if len(user) != 1 or not external & apis.CELL_ROOT_CLASSES:
        return None  # super().__init__() reaches another class's __init__
    if not external <= apis.CELL_ROOT_CLASSES | apis.NON_CELL_MIXIN_BASES:
        return None
    init = astutil.own_method(node, "__init__")
    if init is None:
        return None
    super_call, offset = _cell_init_call(init)
    if super_call is None:
        return None
    position_, keyword = apis.CELL_INIT_AUTO_PREFIX
    value = argument(super_call, position_ + offset, keyword)
    if value is UNKNOWN:
        return None
    auto_prefix = True if value is None else literal_bool(value)
    if auto_prefix is None:
        return None
    return super_call, auto_prefix, init, value


def _saved_network(call: nodes.Call) -> str | None:
    """The network ``save_checkpoint(net, path)`` saves, as an attribute path."""
    spec = apis.CHECKPOINT_SAVES.get(resolve.call_name(call) or "")
    saved = argument(call, *spec) if spec is not None else None
    return attribute_path(saved) if saved not in (None, UNKNOWN) else None


def _target_path(target: nodes.NodeNG) -> str | None:
    """``net = ...`` -> "net", ``self.net = ...`` -> "self.net"."""
    if isinstance(target, nodes.AssignName):
        return target.name
    if isinstance(target, nodes.AssignAttr):
        holder = attribute_path(target.expr)
        return f"{holder}.{target.attrname}" if holder is not None else None
    return None


def _names_sub_cells(init: nodes.FunctionDef) -> bool:
    """Whether __init__ renames its sub-cells' parameters itself."""
    return any(
        isinstance(call.func, nodes.Attribute) and call.func.attrname == apis.RENAME_PARAMETERS_METHOD
        for call in scope_calls(init)
    )


# ---------------------------------------------------------------------------
# Helpers of the rules
# ---------------------------------------------------------------------------
def _call_inputs(call: nodes.Call) -> tuple:
    return (
        tuple(arg.as_string() for arg in call.args),
        tuple(sorted((kw.arg or "**", kw.value.as_string()) for kw in call.keywords or ())),
    )


def _spelled_grad(node: nodes.Call) -> str:
    text = spelled(node)
    return text if len(text) <= 60 else spelled(node.func) + "(...)"


def _is_set_grad(call: nodes.Call) -> bool:
    func = call.func
    if not (isinstance(func, nodes.Attribute) and func.attrname == apis.SET_GRAD_METHOD):
        return False
    flag = argument(call, 0, "requires_grad")
    return literal_bool(flag) is not False if flag is not None and flag is not UNKNOWN else True


def _forward_as_method(cls: nodes.ClassDef, forward: nodes.FunctionDef) -> bool:
    """Whether the class calls its ``forward`` by name itself (``self.forward(...)``
    in a method: ``select_actions`` of a controller) while no call of an instance of
    it is in sight (``Cls(...)(x)``, ``net = Cls(...); net(x)``, ``self.net =
    Cls(...); self.net(x)``): ``forward`` is then an ordinary method of a Cell that
    is used, not called, and calling it works. Where an instance is called (the
    error happens there), or the class never calls ``forward`` itself (a port whose
    callers call the Cell), False."""
    explicit = any(
        astutil.self_attribute(call.func) == forward.name and astutil.enclosing_class(call) is cls
        for call in cls.nodes_of_class(nodes.Call)
    )
    if not explicit:
        return False
    init = astutil.own_method(cls, "__init__")
    if init is None:
        return False  # its constructions are not followed here
    for site, _ in sites.calls_of(init):
        if resolve.user_class_of_call(site) is not cls or _instance_called(site):
            return False
    return True


def _abstract_base(cls: nodes.ClassDef, forward: nodes.FunctionDef) -> bool:
    """An abstract base Cell no call can reach: nothing in sight builds it, and every
    project subclass gets a ``construct`` (its own or a project base's), is a
    placeholder itself (its ``forward`` only raises), or is an intermediate base
    nothing builds; a class without subclasses in sight only when its ``forward``
    only calls its methods that raise NotImplementedError."""
    if sites.may_be_built(cls):
        return False
    found = sites.subclasses(cls)
    if found is None:
        return False
    if not found:
        return _delegates_to_abstract(cls, forward)
    for sub in found:
        if _gets_construct(sub):
            continue
        own = astutil.own_method(sub, apis.TORCH_FORWARD_METHOD)
        if own is not None and _only_raises(own):
            continue
        if any(sub in resolve.class_hierarchy(other)[0][1:] for other in found) and not sites.may_be_built(sub):
            continue  # an intermediate base, judged through its own subclasses
        return False
    return True


def _gets_construct(cls: nodes.ClassDef) -> bool:
    """Whether ``cls`` defines or inherits a ``construct`` (or ``__call__``): from a
    project class of its ancestry, or a MindSpore layer other than ``nn.Cell``."""
    user, external = resolve.class_hierarchy(cls)
    if any(apis.CELL_FORWARD_METHOD in klass.locals or "__call__" in klass.locals for klass in user):
        return True
    return any(resolve.root_package(qname) == "mindspore" for qname in external - apis.CELL_ROOT_CLASSES)


def _delegates_to_abstract(cls: nodes.ClassDef, forward: nodes.FunctionDef) -> bool:
    """``return self.output_layer(self.extract_features(x))``: every method ``forward``
    calls on ``self`` is one of the class (or a project base) that only raises
    NotImplementedError, and there is one."""
    called = [astutil.self_attribute(call.func) for call in forward.nodes_of_class(nodes.Call)]
    called = [name for name in called if name is not None]
    if not called:
        return False
    user, _ = resolve.class_hierarchy(cls)
    for name in called:
        method = next((m for klass in user for m in klass.locals.get(name, ()) if isinstance(m, nodes.FunctionDef)), None)
        if method is None or not _only_raises(method) or not _raises_not_implemented(method):
            return False
    return True


def _raises_not_implemented(func: nodes.FunctionDef) -> bool:
    for statement in func.body:
        if isinstance(statement, nodes.Raise) and statement.exc is not None:
            exc = statement.exc.func if isinstance(statement.exc, nodes.Call) else statement.exc
            if isinstance(exc, nodes.Name) and exc.name == "NotImplementedError":
                return True
    return False


def _instance_called(construction: nodes.Call) -> bool:
    """Whether an instance this construction builds is called in sight: at once, by
    the name or the ``self`` attribute it is assigned to."""
    parent = construction.parent
    if isinstance(parent, nodes.Call) and parent.func is construction:
        return True
    if not (isinstance(parent, nodes.Assign) and parent.value is construction and len(parent.targets) == 1):
        return False
    target = parent.targets[0]
    if isinstance(target, nodes.AssignName):
        return any(
            isinstance(call.func, nodes.Name) and call.func.name == target.name and resolve.binding(call.func) is target
            for call in construction.scope().nodes_of_class(nodes.Call)
        )
    attr = astutil.self_attribute(target)
    holder = astutil.enclosing_class(construction) if attr is not None else None
    if holder is None:
        return False
    return any(astutil.self_attribute(call.func) == attr for call in holder.nodes_of_class(nodes.Call))


def _misspelled_construct(cls: nodes.ClassDef) -> nodes.FunctionDef | None:
    """A method of ``cls`` whose name is construct misspelled: within two edits of it
    (a transposed pair counts as one: ``consturct``, ``constuct``, ``contruct``),
    starting with its ``c`` and not containing "construct" (``constructor``,
    ``reconstruct`` and ``_construct`` are names of their own), that nothing in the
    module calls by that name."""
    for name, found in cls.locals.items():
        if name == apis.CELL_FORWARD_METHOD or not name.startswith("c") or apis.CELL_FORWARD_METHOD in name:
            continue
        if _edit_distance(name, apis.CELL_FORWARD_METHOD) > 2:
            continue
        method = next((m for m in found if isinstance(m, nodes.FunctionDef)), None)
        if method is None or not method.args.args:
            continue
        if any(attribute.attrname == name for attribute in cls.root().nodes_of_class(nodes.Attribute)):
            continue  # self.consturct(x), or net.consturct: called by that name
        return method
    return None


def _edit_distance(first: str, second: str) -> int:
    """Edits (insert, delete, replace, swap two neighbours) from one name to the other."""
    rows = [list(range(len(second) + 1))]
    for i, a in enumerate(first, 1):
        row = [i] + [0] * len(second)
        for j, b in enumerate(second, 1):
            row[j] = min(rows[-1][j] + 1, row[j - 1] + 1, rows[-1][j - 1] + (a != b))
            if i > 1 and j > 1 and a == second[j - 2] and first[i - 2] == b:
                row[j] = min(row[j], rows[-2][j - 2] + 1)
        rows.append(row)
    return rows[-1][-1]


def _only_raises(func: nodes.FunctionDef) -> bool:
    """An abstract placeholder: docstring, pass, ``...`` or a ``raise`` (of
    NotImplementedError, or a guard: ``del input_; raise RuntimeError("the head's
    weights are used by the sampler")``), with ``del`` of its parameters."""
    for statement in func.body:
        if isinstance(statement, (nodes.Pass, nodes.Delete)):
            continue
        if isinstance(statement, nodes.Expr) and isinstance(statement.value, nodes.Const):
            continue
        if isinstance(statement, nodes.Raise):
            continue
        return False
    return True


def _cell_init_call(init: nodes.FunctionDef) -> tuple[nodes.Call | None, int]:
    """``super().__init__(...)`` (offset 0) or ``nn.Cell.__init__(self, ...)`` (offset 1)."""
    for call in scope_calls(init):
        func = call.func
        if not (isinstance(func, nodes.Attribute) and func.attrname == "__init__"):
            continue
        receiver = func.expr
        if isinstance(receiver, nodes.Call) and isinstance(receiver.func, nodes.Name) and receiver.func.name == "super":
            return call, 0
        if resolve.qualified_name(receiver) in apis.CELL_ROOT_CLASSES:
            return call, 1
    return None, 0


def _self_assignments(cls: nodes.ClassDef, analysis) -> list[tuple[str, nodes.NodeNG, nodes.NodeNG]]:
    """(attr, value, statement) of ``self.<attr> = value`` in the class's own __init__."""
    return [
        (assignment.attr, assignment.value, assignment.statement)
        for assignment in analysis.class_body(cls).init_assignments()
        if assignment.value is not None
    ]


def _self_attr_uses(cls: nodes.ClassDef, attr: str) -> tuple[bool, bool]:
    """(``self.<attr>(...)`` is called, ``self.<attr>.parameters`` is read) anywhere in the class."""
    called = reads_parameters = False
    for node in cls.nodes_of_class(nodes.Attribute):
        if astutil.self_attribute(node) != attr:
            continue
        parent = node.parent
        if isinstance(parent, nodes.Call) and parent.func is node:
            called = True
        if isinstance(parent, nodes.Attribute) and parent.attrname in apis.OPTIMIZER_USE_ATTRIBUTES:
            reads_parameters = True
    return called, reads_parameters


def _is_optimizer_constructor(value: nodes.NodeNG) -> bool:
    if not isinstance(value, nodes.Call):
        return False
    if resolve.call_name(value) in apis.OPTIMIZER_CLASSES:
        return True
    cls = resolve.user_class_of_call(value)
    return cls is not None and resolve.derives_from(cls, apis.OPTIMIZER_CLASSES)


def _optimizer_params(cls: nodes.ClassDef, init: nodes.FunctionDef, analysis) -> set[str]:
    """__init__ parameters that are an optimizer: named so, annotated so, or (short
    names such as ``opt``) used as one."""
    params = [arg for arg in init.args.args[1:] + init.args.kwonlyargs]
    annotations = list(init.args.annotations[1:]) + list(init.args.kwonlyargs_annotations)
    assignments = _self_assignments(cls, analysis)
    found: set[str] = set()
    for param, annotation in zip(params, annotations):
        name = param.name
        if annotation is not None and resolve.qualified_name(annotation) in apis.OPTIMIZER_CLASSES:
            found.add(name)
        elif re.search(apis.OPTIMIZER_PARAM_PATTERN, name, re.IGNORECASE):
            found.add(name)
        elif re.search(apis.OPTIMIZER_SHORT_PARAM_PATTERN, name):
            used = any(
                isinstance(node.expr, nodes.Name) and node.expr.name == name
                and node.attrname in apis.OPTIMIZER_USE_ATTRIBUTES
                for node in init.nodes_of_class(nodes.Attribute)
            )
            for attr, value, _ in assignments:
                if isinstance(value, nodes.Name) and value.name == name:
                    called, reads = _self_attr_uses(cls, attr)
                    used = used or called or reads
            if used:
                found.add(name)
    return found


_NETWORK_NAME = re.compile(r"net|model|backbone|cell|encoder|decoder|generator|discriminator", re.IGNORECASE)


def _optimizer_holder(cls: nodes.ClassDef, init: nodes.FunctionDef, analysis) -> str | None:
    """The attribute whose prefix a wrapper holding an optimizer puts on the network's
    parameters (the last of the optimizer and network attributes assigned), or None
    when the class holds no optimizer."""
    optimizer_params = _optimizer_params(cls, init, analysis)
    assignments = _self_assignments(cls, analysis)
    optimizer_attrs: list[tuple[str, nodes.NodeNG]] = [
        (attr, assign)
        for attr, value, assign in assignments
        if (isinstance(value, nodes.Name) and value.name in optimizer_params) or _is_optimizer_constructor(value)
    ]
    if not optimizer_attrs and not optimizer_params:
        return None  # most Cells: no optimizer anywhere, no need to look for the network
    optimizer_used = optimizer_attrs or any(node.name in optimizer_params for node in init.nodes_of_class(nodes.Name))
    if not optimizer_used:
        return None
    param_names = {arg.name for arg in init.args.args[1:] + init.args.kwonlyargs}
    network_attrs: list[tuple[str, nodes.NodeNG]] = []
    for attr, value, assign in assignments:
        if any(assign is known for _, known in optimizer_attrs):
            continue
        if isinstance(value, nodes.Name) and value.name in param_names:
            called, _ = _self_attr_uses(cls, attr)
            if called or _NETWORK_NAME.search(value.name) or _NETWORK_NAME.search(attr):
                network_attrs.append((attr, assign))
    if not optimizer_attrs and not network_attrs:
        return None
    holders = optimizer_attrs + network_attrs
    return max(holders, key=lambda item: position(item[1]))[0]


def _parameter_names(call: nodes.Call, analysis) -> tuple[object, frozenset[str]] | None:
    """(identity, parameter names) of a sub-cell constructor call, when it owns parameters."""
    qname = resolve.call_name(call)
    if qname in apis.LAYER_PARAMETER_NAMES:
        return qname, apis.LAYER_PARAMETER_NAMES[qname]
    cls = resolve.user_class_of_call(call)
    if cls is None or not analysis.is_cell_class(cls):
        return None
    owned: set[str] = set()
    user, _ = resolve.class_hierarchy(cls)
    for klass in user:
        for attr, value, _ in _self_assignments(klass, analysis):
            if not isinstance(value, nodes.Call):
                continue
            inner = resolve.call_name(value)
            if inner in apis.TENSOR_CONSTRUCTORS and inner != "mindspore.Tensor":
                owned.add(attr)
            elif inner in apis.LAYER_PARAMETER_NAMES:
                owned.update(f"{attr}.{name}" for name in apis.LAYER_PARAMETER_NAMES[inner])
    if not owned:
        return None
    return cls, frozenset(owned)


def _colliding_children(cls: nodes.ClassDef, init: nodes.FunctionDef, analysis) -> tuple[str, str, str] | None:
    """Two sub-cells built in __init__ whose parameters share a name, for a Cell that
    wraps no network given to it."""
    param_names = {arg.name for arg in init.args.args[1:] + init.args.kwonlyargs}
    children: list[tuple[str, object, frozenset[str]]] = []
    for attr, value, _ in _self_assignments(cls, analysis):
        if isinstance(value, nodes.Name) and value.name in param_names:
            called, _ = _self_attr_uses(cls, attr)
            if called or _NETWORK_NAME.search(value.name):
                return None  # wraps a network given to it: a WithLossCell-like wrapper
            continue
        if isinstance(value, nodes.Call):
            owned = _parameter_names(value, analysis)
            if owned is not None:
                children.append((attr, owned[0], owned[1]))
    for index, (attr, identity, names) in enumerate(children):
        for other_attr, other_identity, other_names in children[index + 1:]:
            shared = names & other_names
            if identity is other_identity or identity == other_identity or shared:
                name = sorted(shared)[0] if shared else sorted(names)[0]
                return attr, other_attr, f"'{name}'"
    return None


def keyword_of(call: nodes.Call, value: nodes.NodeNG | None) -> nodes.Keyword | None:
    """The keyword argument of ``call`` whose value is ``value`` (None for a positional one)."""
    return next((keyword for keyword in call.keywords or () if keyword.value is value), None)


def register(linter: PyLinter) -> None:
    linter.register_checker(TrainingChecker(linter))


# ---------------------------------------------------------------------------
# ms-torch-train-override
# ---------------------------------------------------------------------------
# ``x.train()``, ``x.train(False)``, ``x.train(mode=not frozen)``: a call with at most
# one argument (no comma outside brackets), as PyTorch's hook is called. Model.train
# takes the epoch count and the dataset.
_TRAIN_HOOK_CALL = re.compile(rb"\.\s*train\s*\((?:[^(),\[\]]|\([^()]*\)|\[[^\[\]]*\])*\)")


def _torch_train_signature(func: nodes.FunctionDef) -> bool:
    """``def train(self, mode=True)``: self and one more parameter, named ``mode``
    or given a True/False default (PyTorch's ``nn.Module.train``)."""
    if not astutil.is_bound_method(func) or func.args.vararg or func.args.kwarg or func.args.kwonlyargs:
        return False
    params = astutil.positional_params(func)
    if len(params) != 2:
        return False
    if params[1].name == "mode":
        return True
    defaults = func.args.defaults or []
    return len(defaults) == 1 and isinstance(defaults[0], nodes.Const) and isinstance(defaults[0].value, bool)


def _freezes(func: nodes.FunctionDef) -> bool:
    """``x.requires_grad = False`` in the function's own body."""
    return any(isinstance(target, nodes.AssignAttr) and target.attrname == "requires_grad"
               and isinstance(assign.value, nodes.Const) and assign.value.value is False
               for assign in func.nodes_of_class(nodes.Assign, skip_klass=(nodes.FunctionDef, nodes.Lambda))
               for target in assign.targets)


def _freezes_in_init(node: nodes.ClassDef) -> bool:
    """The class's own ``__init__`` sets ``requires_grad = False`` on parameters,
    itself or through a method of the class it calls (``self.freeze()``): the
    freezing the train hook was meant for is done where it holds."""
    init = next((m for m in node.locals.get("__init__", ()) if isinstance(m, nodes.FunctionDef)), None)
    if init is None:
        return False
    if _freezes(init):
        return True
    for call in init.nodes_of_class(nodes.Call, skip_klass=(nodes.FunctionDef, nodes.Lambda)):
        called = astutil.self_attribute(call.func)
        if called is not None and called != apis.TORCH_TRAIN_HOOK:
            method = next((m for m in node.locals.get(called, ()) if isinstance(m, nodes.FunctionDef)), None)
            if method is not None and _freezes(method):
                return True
    return False


def _calls_super_train(func: nodes.FunctionDef) -> bool:
    return any(isinstance(call.func, nodes.Attribute) and call.func.attrname == apis.TORCH_TRAIN_HOOK
               and isinstance(call.func.expr, nodes.Call) and resolve.is_super_call(call.func.expr)
               for call in func.nodes_of_class(nodes.Call))


def _project_may_call_train(node: nodes.ClassDef) -> bool:
    """Whether a file of the class's project (its own included) calls ``.train(...)``
    with at most one argument on anything but ``super()``, read from the text of the
    files that mention ``train``; True when the project cannot be read whole."""
    path = node.root().file
    return not path or sites.calls_outside_super(path, _TRAIN_HOOK_CALL, {apis.TORCH_TRAIN_HOOK})
