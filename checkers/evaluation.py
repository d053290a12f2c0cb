"""Evaluations that report the wrong numbers, silently.

Measured on MindSpore 2.10 (tests/oracle/test_evaluation.py):
- A network switched to training (``set_train()``, or ``Model.train``, which leaves
  it so) keeps dropping with Dropout and updating BatchNorm's moving statistics when
  it is then called to evaluate: two evaluations of the same batch differ.
  ``set_train(False)`` stops both; ``Model.eval`` switches by itself.
- A ``nn.Metric`` (``nn.Accuracy``...) accumulates until ``clear()``: updated over two
  epochs, it reports 0.5 where the second epoch alone is 0.0.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis, guide
from mslint.analysis import astutil, resolve, training_code
from mslint.analysis.training_code import SKIP_NESTED

if TYPE_CHECKING:
    from pylint.lint import PyLinter

_LOOPS = (nodes.For, nodes.While)
# Source texts without these cannot switch a network to training / read a metric.
_SWITCH_TEXT = re.compile(rb"set_train|\.train\(")
_METRIC_TEXT = re.compile(rb"\.eval\(\)")


class EvaluationChecker(BaseChecker):
    name = "mindspore-evaluation"
    msgs = {
        "W8107": (
            "%s evaluates %s, which %s (line %d) switched to training and nothing switched back: %s during "
            "the evaluation, so it differs from run to run; call %s.set_train(False) before it",
            "ms-evaluate-in-train-mode",
            "A network with Dropout or BatchNorm called in an evaluation loop (no gradient, no optimizer, no "
            "training step in it) after set_train() or Model.train, with no set_train(False) in between.",
        ),
        "W8112": (
            "%s.eval() is read %s, but %s is never cleared: a Metric accumulates until clear(), so each "
            "result mixes in every earlier one; call %s.clear() before each evaluation",
            "ms-metric-not-cleared",
            "A mindspore Metric updated in an inner loop and read with eval() once per outer iteration (or in "
            "a function called in a loop), with no clear() anywhere in the module.",
        ),
    }

    # -- ms-evaluate-in-train-mode ------------------------------------------------
    @only_required_for_messages("ms-evaluate-in-train-mode")
    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        self._check_train_mode(node)

    visit_asyncfunctiondef = visit_functiondef

    @only_required_for_messages("ms-evaluate-in-train-mode", "ms-metric-not-cleared")
    def visit_module(self, node: nodes.Module) -> None:
        if self.linter.is_message_enabled("ms-evaluate-in-train-mode"):
            self._check_train_mode(node)
        if self.linter.is_message_enabled("ms-metric-not-cleared"):
            self._check_metrics(node)

    def _check_train_mode(self, func: nodes.NodeNG) -> None:
        if not training_code.mentions(func.root(), _SWITCH_TEXT):
            return
        switches = _training_switches(func)
        if not switches:
            return
        offs = [call for call in _scope_calls(func) if _switches_off(call)]
        grad_names = None
        reported: set[str] = set()
        for loop in func.nodes_of_class(_LOOPS, skip_klass=SKIP_NESTED):
            if grad_names is None:
                grad_names = training_code.grad_function_names(func)
            if _trains(loop, grad_names):
                continue
            for call in loop.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED):
                path = astutil.attribute_path(call.func)
                if path is None or path in reported:
                    continue
                switch = _last_switch(switches, path, loop)
                if switch is None or _switched_off_between(offs, switch[0], loop, path):
                    continue
                layer = _mode_dependent(call.func)
                if layer is None:
                    continue
                reported.add(path)
                self.add_message(
                    "ms-evaluate-in-train-mode", node=call,
                    args=(f"the loop at line {loop.lineno}", path, switch[1], switch[0].lineno, layer, path),
                )
        self._check_helpers(func, switches, offs, reported)

    def _check_helpers(self, func, switches, offs, reported: set[str]) -> None:
        """``evaluate(net, data)`` after ``net.set_train()``: a module function that calls
        its parameter in a loop and never switches it off."""
        for call in _scope_calls(func):
            if not isinstance(call.func, nodes.Name):
                continue
            helper = resolve.binding(call.func)
            if not isinstance(helper, nodes.FunctionDef) or "train" in helper.name.lower():
                continue
            for names, argument in astutil.bind_call(call, helper, skips_self=False):
                path = astutil.attribute_path(argument)
                if path is None or path in reported or len(names) != 1:
                    continue
                switch = _last_switch(switches, path, call)
                if switch is None or _switched_off_between(offs, switch[0], call, path):
                    continue
                if not _evaluates_parameter(helper, names[0]):
                    continue
                layer = _mode_dependent(argument)
                if layer is None:
                    continue
                reported.add(path)
                self.add_message(
                    "ms-evaluate-in-train-mode", node=call,
                    args=(f"{helper.name}()", path, switch[1], switch[0].lineno, layer, path),
                )

    # -- ms-metric-not-cleared ----------------------------------------------------
    def _check_metrics(self, module: nodes.Module) -> None:
        if not training_code.mentions(module, _METRIC_TEXT):
            return
        metrics = _metric_paths(module)
        if not metrics:
            return
        cleared = {
            astutil.attribute_path(call.func.expr)
            for call in astutil.module_nodes(module, nodes.Call)
            if isinstance(call.func, nodes.Attribute) and call.func.attrname == guide.METRIC_CLEAR
        }
        for call in astutil.module_nodes(module, nodes.Call):
            if not (isinstance(call.func, nodes.Attribute) and call.func.attrname == guide.METRIC_EVAL):
                continue
            path = astutil.attribute_path(call.func.expr)
            if path is None or path not in metrics or path in cleared or call.args or call.keywords:
                continue
            where = _repeated_reading(call, path, metrics[path])
            if where is None:
                continue
            self.add_message("ms-metric-not-cleared", node=call, args=(path, where, path, path))


# ---------------------------------------------------------------------------
# Training mode
# ---------------------------------------------------------------------------
def _scope_calls(func: nodes.NodeNG) -> list[nodes.Call]:
    return list(func.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED))


def _training_switches(func: nodes.NodeNG) -> list[tuple[nodes.Call, str, set[str]]]:
    """(the call, how it is named, the paths it switches to training): ``x.set_train()``
    (a wrapper switches what it holds), ``model.train(...)`` of a Model (its network)."""
    found = []
    for call in _scope_calls(func):
        if not isinstance(call.func, nodes.Attribute):
            continue
        receiver = call.func.expr
        path = astutil.attribute_path(receiver)
        if path is None:
            continue
        if call.func.attrname == apis.SET_TRAIN_METHOD:
            mode = call.args[0] if call.args else astutil.argument(call, None, "mode")
            if mode is not None and not (isinstance(mode, nodes.Const) and mode.value is True):
                continue
            found.append((call, f"{path}.set_train()", {path, *_held_networks(receiver)}))
        elif training_code.is_model_train(call):
            model = training_code.construction_of(receiver)
            network = astutil.argument(model, 0, "network") if model is not None else None
            held = astutil.attribute_path(network) if isinstance(network, (nodes.Name, nodes.Attribute)) else None
            if held is not None:
                found.append((call, f"{path}.train(...) (Model.train leaves it training)",
                              {held, *_held_networks(network)}))
    return found


def _held_networks(expr: nodes.NodeNG, depth: int = 0) -> set[str]:
    """Paths of the networks a wrapper holds (TrainOneStepCell(WithLossCell(net, ...), ...))."""
    if depth > 4:
        return set()
    construction = training_code.construction_of(expr)
    if construction is None:
        return set()
    if resolve.call_name(construction) not in apis.NETWORK_WRAPPERS:
        return _held_by_project_cell(construction, depth)
    inner = astutil.argument(construction, 0, "network")
    if inner is None or inner is astutil.UNKNOWN:
        return set()
    path = astutil.attribute_path(inner)
    found = {path} if path else set()
    return found | _held_networks(inner, depth + 1)


def _held_by_project_cell(construction: nodes.Call, depth: int) -> set[str]:
    """Paths of the networks a project Cell holds: the arguments of its construction
    that its ``__init__`` stores as they are on ``self`` (``self.net = net``), so that
    ``set_train()`` on it reaches them (``TrainStep(LossCell(generator), opt)``)."""
    cls = resolve.user_class_of_call(construction)
    if cls is None or not resolve.is_cell_class(cls):
        return set()
    init = astutil.own_method(cls, "__init__")
    if init is None:
        return set()
    stored = {assign.value.name for assign in init.nodes_of_class(nodes.Assign)
              if isinstance(assign.value, nodes.Name) and len(assign.targets) == 1
              and astutil.self_attribute(assign.targets[0]) is not None}
    found: set[str] = set()
    for names, argument in astutil.bind_call(construction, init, skips_self=True):
        if len(names) != 1 or names[0] not in stored:
            continue
        path = astutil.attribute_path(argument)
        if path:
            found.add(path)
        found |= _held_networks(argument, depth + 1)
    return found


def _switches_off(call: nodes.Call) -> bool:
    if not isinstance(call.func, nodes.Attribute):
        return False
    if call.func.attrname == apis.SET_TRAIN_METHOD:
        mode = call.args[0] if call.args else astutil.argument(call, None, "mode")
        return mode is not None and not (isinstance(mode, nodes.Const) and mode.value is True)
    # Model.eval switches the network off by itself (measured)
    return call.func.attrname in apis.MODEL_EVALUATION_METHODS and \
        training_code.constructed_qname(call.func.expr) in guide.MODEL_CLASSES


def _last_switch(switches, path: str, where: nodes.NodeNG):
    """The last switch to training of ``path`` above ``where``."""
    found = None
    for call, text, paths in switches:
        if path in paths and (call.lineno or 0) < (where.lineno or 0):
            if found is None or call.lineno >= found[0].lineno:
                found = (call, text)
    return found


def _switched_off_between(offs: list[nodes.Call], switch: nodes.Call, where: nodes.NodeNG, path: str) -> bool:
    """A set_train(False)/Model.eval between the switch and ``where``, or inside ``where``
    (any receiver: a wrapper switched off switches what it holds), or ``path`` bound
    anew in between (a fresh Cell does not train)."""
    start, end = switch.lineno or 0, where.end_lineno or where.lineno or 0
    if any(start < (off.lineno or 0) <= end for off in offs):
        return True
    for assign in switch.scope().nodes_of_class((nodes.Assign, nodes.AnnAssign), skip_klass=SKIP_NESTED):
        if not start < (assign.lineno or 0) <= (where.lineno or 0):
            continue
        targets = assign.targets if isinstance(assign, nodes.Assign) else [assign.target]
        for target in targets:
            for leaf in astutil.flatten_targets(target):
                bound = leaf.name if isinstance(leaf, nodes.AssignName) else astutil.attribute_path(leaf)
                if bound == path:
                    return True
    return False


def _trains(loop: nodes.NodeNG, grad_names: set[str]) -> bool:
    """The loop runs a training step: a gradient function, an optimizer, a train-step
    Cell, anything whose name says train or grad."""
    for call in loop.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED):
        func = call.func.func if isinstance(call.func, nodes.Call) else call.func
        path = astutil.attribute_path(func)
        if training_code.is_grad_call(call) or training_code.is_grad_call(func):
            return True
        if path is None:
            continue
        last = path.rsplit(".", 1)[-1].lower()
        if path in grad_names or "train" in last or "grad" in last or "optim" in last or last == "opt":
            return True
        if training_code.constructed_qname(func) in apis.OPTIMIZER_CLASSES | guide.REDUCING_TRAIN_CELLS:
            return True
    return False


def _mode_dependent(network: nodes.NodeNG) -> str | None:
    qname = training_code.constructed_qname(network)
    if qname in apis.NETWORK_WRAPPERS or qname in guide.MODEL_CLASSES or qname in guide.REDUCING_TRAIN_CELLS:
        return None  # a train step or a Model called: not an evaluation of the network
    layer = training_code.CellContents(guide.TRAIN_MODE_LAYERS).of_expression(network)
    if layer is None:
        return None
    name = layer.rsplit(".", 1)[-1]
    if "Dropout" in name:
        return f"its {name} keeps dropping"
    return f"its {name} normalizes with batch statistics and keeps moving its moving ones"


def _evaluates_parameter(helper: nodes.FunctionDef, param: str) -> bool:
    """The helper calls ``param(...)`` in a loop that trains nothing and never switches
    anything to or from training."""
    if any(_switches_off(call) or (isinstance(call.func, nodes.Attribute) and call.func.attrname ==
           apis.SET_TRAIN_METHOD) for call in _scope_calls(helper)):
        return False
    grad_names = training_code.grad_function_names(helper)
    for loop in helper.nodes_of_class(_LOOPS, skip_klass=SKIP_NESTED):
        if _trains(loop, grad_names):
            return False
        for call in loop.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED):
            if isinstance(call.func, nodes.Name) and call.func.name == param:
                return True
    return False


# ---------------------------------------------------------------------------
# Metrics
# ---------------------------------------------------------------------------
def _metric_paths(module: nodes.Module) -> dict[str, nodes.Assign]:
    """Paths (``metric``, ``self.metric``) bound to a Metric construction, with the
    assignment (only paths some ``.eval()`` reads: resolving every call is slow)."""
    read = {
        astutil.attribute_path(call.func.expr)
        for call in astutil.module_nodes(module, nodes.Call)
        if isinstance(call.func, nodes.Attribute) and call.func.attrname == guide.METRIC_EVAL and not call.args
    }
    read.discard(None)
    found: dict[str, nodes.Assign] = {}
    if not read:
        return found
    for assign in astutil.module_nodes(module, nodes.Assign):
        value = assign.value
        paths = [astutil.attribute_path(target) if isinstance(target, nodes.AssignAttr) else
                 getattr(target, "name", None) for target in assign.targets]
        if not any(path in read for path in paths):
            continue
        if not isinstance(value, nodes.Call) or not isinstance(value.func, (nodes.Name, nodes.Attribute)):
            continue
        if not _is_metric(value):
            continue
        for target in assign.targets:
            path = astutil.attribute_path(target) if isinstance(target, nodes.AssignAttr) else (
                target.name if isinstance(target, nodes.AssignName) else None)
            if path is not None:
                found[path] = assign
    return found


def _is_metric(call: nodes.Call) -> bool:
    qname = resolve.call_name(call)
    if qname in guide.METRIC_CLASSES:
        return True
    if qname is not None and resolve.is_external(qname):
        return False
    cls = resolve.user_class_of_call(call)
    return cls is not None and resolve.derives_from(cls, guide.METRIC_BASES)


def _enclosing_loops(node: nodes.NodeNG, stop: nodes.NodeNG) -> list[nodes.NodeNG]:
    loops = []
    parent = node.parent
    while parent is not None and parent is not stop:
        if isinstance(parent, _LOOPS) and node not in (getattr(parent, "orelse", None) or ()):
            loops.append(parent)
        if isinstance(parent, (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)):
            break
        parent = parent.parent
    return loops


def _repeated_reading(read: nodes.Call, path: str, assign: nodes.Assign) -> str | None:
    """Where ``path.eval()`` is read again and again over updates that accumulate:
    "once per iteration of the loop at line N" (the updates in a loop nested in it, the
    metric built outside it), or "by evaluate(), called in the loop at line N" (a
    function updating and reading a metric built outside it)."""
    func = read.scope()
    updates = [
        call for call in func.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED)
        if isinstance(call.func, nodes.Attribute) and call.func.attrname == guide.METRIC_UPDATE
        and astutil.attribute_path(call.func.expr) == path
    ]
    if not updates:
        return None
    for loop in _enclosing_loops(read, func):
        inner = [update for update in updates if any(
            isinstance(candidate, _LOOPS) and candidate is not loop and loop in _enclosing_loops(candidate, func)
            for candidate in _enclosing_loops(update, func)
        ) and loop in _enclosing_loops(update, func)]
        if not inner or _built_inside(assign, loop):
            continue
        return f"once per iteration of the loop at line {loop.lineno} over updates in a loop nested in it"
    if _enclosing_loops(read, func) or not isinstance(func, nodes.FunctionDef):
        return None
    if not any(_enclosing_loops(update, func) for update in updates):
        return None
    if assign.scope() is func:
        return None  # a fresh metric per call
    caller = _called_in_loop(func)
    if caller is None:
        return None
    return f"by {func.name}(), which updates it and is called in the loop at line {caller.lineno}"


def _built_inside(assign: nodes.Assign, loop: nodes.NodeNG) -> bool:
    parent = assign.parent
    while parent is not None:
        if parent is loop:
            return True
        parent = parent.parent
    return False


def _called_in_loop(func: nodes.FunctionDef) -> nodes.NodeNG | None:
    for call in astutil.module_nodes(func.root(), nodes.Call):
        callee = call.func
        named = callee.name if isinstance(callee, nodes.Name) else (
            callee.attrname if isinstance(callee, nodes.Attribute) and astutil.is_self(callee.expr) else None)
        if named != func.name:
            continue
        loops = _enclosing_loops(call, call.root())
        if loops:
            return loops[0]
    return None


def register(linter: PyLinter) -> None:
    linter.register_checker(EvaluationChecker(linter))

