"""Training steps ported from PyTorch that run and learn the wrong thing.

Measured on MindSpore 2.10 (tests/oracle/test_training_steps.py):
- ``has_aux=True`` differentiates the FIRST output: ``return logits, loss`` trains on
  the logits (the bias gradient is that of ``logits.sum()``), and a second loss among
  the auxiliary outputs gets no gradient (a counting head's weight gradient is 0).
- ``value_and_grad(net, None, weights)`` and ``TrainOneStepCell(net, opt)`` of a
  network that returns its outputs (no loss) differentiate their sum.
- An optimizer built from ``get_parameters()`` (or ``parameters_dict().values()``) with
  weight decay decays BatchNorm's moving statistics and frozen parameters.
- ``torch.manual_seed``/``np.random.seed``/``random.seed`` leave MindSpore's random ops
  (Dropout masks) unseeded: two runs differ; ``mindspore.set_seed`` makes them equal.
- Gradient accumulation ported literally (``optimizer(grads)`` every k steps, grads
  the last micro-batch's) trains on the last micro-batch alone.
- A function differentiated with respect to the weights that is given the network's
  output (``logits = net(x); grad_fn(logits, y)``) and calls no layer gives zero gradients.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis, guide
from mslint.analysis import astutil, edits, resolve, scope, training_code, values
from mslint.analysis.training_code import SKIP_NESTED
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

_IMPORTS_MINDSPORE = "mindspore"


class TrainingStepChecker(BaseChecker):
    name = "mindspore-training-steps"
    msgs = {
        "E8101": (
            "%s differentiates the first output of %s, %s, not the loss %s (line %d returns %s): with "
            "has_aux=True only the first output is differentiated; %s",
            "ms-aux-before-loss",
            "grad/value_and_grad with has_aux=True of a function that returns the network's output first "
            "and the loss after it (return logits, loss): the model trains on the logits; or that returns "
            "a second loss among the auxiliary outputs, which gets no gradient.",
        ),
        "W8106": (
            "%s is given %s, every parameter of %s (which %s), with weight_decay=%s: the moving statistics "
            "and frozen parameters are decayed too; pass %s.trainable_params()",
            "ms-weight-decay-on-all-parameters",
            "An optimizer built from get_parameters() or parameters_dict().values() with a weight decay, for "
            "a network with BatchNorm (moving statistics) or frozen parameters.",
        ),
        "W8111": (
            "%s seeds %s but nothing in this program calls mindspore.set_seed: %s from run to run; "
            "call ms.set_seed(...) too",
            "ms-seed-without-mindspore",
            "A MindSpore training program that seeds torch, numpy or random and never calls "
            "mindspore.set_seed (neither it nor the project modules it imports).",
        ),
        "E8113": (
            "%s differentiates %s, which returns its outputs and computes no loss: the gradient is that of "
            "the sum of the outputs; %s",
            "ms-grad-of-network-output",
            "value_and_grad/grad with weights, TrainOneStepCell or Model without a loss, given a network whose "
            "construct takes one input and computes no loss.",
        ),
        "E8114": (
            "%s applies %s, the gradients of the last micro-batch only: the %s earlier ones are computed and "
            "thrown away; sum the gradients over the micro-batches and apply the sum (divided by their count)",
            "ms-accumulation-last-gradient-only",
            "Gradient accumulation ported literally: grads = grad_fn(...) in a loop, optimizer(grads) under "
            "if (i + 1) % k == 0, and grads never added up.",
        ),
        "E8115": (
            "%s differentiates %s with respect to the weights, but %s calls no layer that holds weights: the "
            "network ran before it (%s, line %d) and came in as its input, so every weight gradient is 0; "
            "call the network inside %s and pass it the network's inputs",
            "ms-network-outside-grad-fn",
            "grad/value_and_grad with weights of a function that calls no layer holding weights, called with "
            "the output of the network computed before the call (logits = net(x); grad_fn(logits, y)): "
            "every weight gradient is 0.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._seed_reported: set[nodes.Module] = set()

    def open(self) -> None:
        self._seed_reported = set()

    @only_required_for_messages(
        "ms-aux-before-loss", "ms-weight-decay-on-all-parameters", "ms-seed-without-mindspore",
        "ms-grad-of-network-output", "ms-network-outside-grad-fn",
    )
    def visit_call(self, node: nodes.Call) -> None:
        if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
            return
        qname = resolve.call_name(node)
        if qname is None:
            return
        if qname in apis.HAS_AUX_GRAD_FUNCTIONS:
            self._check_aux(node, qname)
        if qname in apis.GRAD_FUNCTIONS:
            weights = astutil.argument(node, *apis.GRAD_WEIGHTS_ARGUMENT)
            if training_code.given(weights):
                self._check_bare(node, astutil.argument(node, 0, "fn"), "pass a function that returns the loss "
                                 "(or nn.WithLossCell(net, loss_fn))")
                if self.linter.is_message_enabled("ms-network-outside-grad-fn"):
                    self._check_network_outside(node)
        elif qname in guide.REDUCING_TRAIN_CELLS:
            self._check_bare(node, astutil.argument(node, 0, "network"),
                             f"wrap it first: {spelled(node.func)}(nn.WithLossCell(net, loss_fn), optimizer)")
        elif qname in guide.MODEL_CLASSES and training_code.trains_model(node) and \
                not training_code.given(astutil.argument(node, *guide.MODEL_LOSS_ARGUMENT)):
            self._check_bare(node, astutil.argument(node, 0, "network"), "pass the loss: Model(net, loss_fn, optimizer)")
        if qname in guide.WEIGHT_DECAY_ARGUMENTS:
            self._check_weight_decay(node, qname)
        if qname in guide.OTHER_SEED_CALLS:
            self._check_seed(node, qname)

    # -- ms-network-outside-grad-fn ----------------------------------------------
    def _check_network_outside(self, node: nodes.Call) -> None:
        fn = astutil.argument(node, 0, "fn")
        if fn is None or fn is astutil.UNKNOWN:
            return
        targets = scope.analysis(node.root()).callable_targets(fn)
        if len(targets) != 1 or not isinstance(targets[0], nodes.FunctionDef) or targets[0].is_method():
            return
        func = targets[0]
        if not _holds_no_weights(func):
            return
        network_call = _network_output_given(node)
        if network_call is None:
            return
        self.add_message(
            "ms-network-outside-grad-fn", node=node,
            args=(f"{spelled(node.func)}({func.name}, ...)", func.name, func.name, network_call.as_string(),
                  network_call.lineno or 0, func.name),
        )

    # -- ms-aux-before-loss -----------------------------------------------------
    def _check_aux(self, node: nodes.Call, qname: str) -> None:
        if not self.linter.is_message_enabled("ms-aux-before-loss"):
            return
        has_aux = astutil.argument(node, *apis.GRAD_HAS_AUX_ARGUMENT)
        if not (isinstance(has_aux, nodes.Const) and has_aux.value is True):
            return
        fn = astutil.argument(node, 0, "fn")
        if fn is None or fn is astutil.UNKNOWN:
            return
        analysis = scope.analysis(node.root())
        for func in analysis.callable_targets(fn):
            for ret, value in training_code.returns(func):
                if not isinstance(value, nodes.Tuple) or len(value.elts) < 2:
                    continue
                first = value.elts[0]
                found = self._misplaced(node, func, value.elts, value.elts)
                if found is None:
                    # the outputs unpacked from a helper that computes them all
                    # (``a, b, total = batch_losses(...)``): judged by what it returns
                    helper = _helper_outputs(func, value)
                    if helper is not None:
                        found = self._misplaced(node, helper[0], helper[1], value.elts)
                if found is None:
                    continue
                loss, advice = found
                name = getattr(func, "name", "the lambda")
                self.add_message(
                    "ms-aux-before-loss", node=node,
                    args=(f"{apis.HAS_AUX_GRAD_FUNCTIONS[qname]}(..., has_aux=True)", name, first.as_string(),
                          loss.as_string(), ret.lineno, value.as_string(), advice),
                )
                return

    def _misplaced(self, grad_call: nodes.Call, func: nodes.NodeNG, outputs: list[nodes.NodeNG],
                   shown: list[nodes.NodeNG]) -> tuple[nodes.NodeNG, str] | None:
        """The loss ``outputs`` (computed in ``func``) hold where it gets no gradient, as
        ``shown`` names it, and the advice: after the network's output, or beside a first loss."""
        if training_code.mentions_loss(outputs[0], func):
            return _untrained_loss(grad_call, func, outputs, shown)
        if self._computed(outputs[0], func):
            index = next((index for index, output in enumerate(outputs[1:], start=1) if _is_loss(output, func)), None)
            return (shown[index], "return the loss first") if index is not None else None
        return None

    @staticmethod
    def _computed(expr: nodes.NodeNG, func: nodes.NodeNG) -> bool:
        """The first output is computed by a call (the network's output), not a constant."""
        value = training_code.local_value(expr, func)
        return isinstance(value, (nodes.Call, nodes.BinOp, nodes.Subscript)) or (
            isinstance(value, nodes.Name) and value is not expr
        )

    # -- ms-grad-of-network-output ----------------------------------------------
    def _check_bare(self, node: nodes.Call, network, instead: str) -> None:
        if not self.linter.is_message_enabled("ms-grad-of-network-output"):
            return
        if network is None or network is astutil.UNKNOWN:
            return
        described = _bare_network(network)
        if described is None:
            return
        where = f"{spelled(node.func)}(...)"
        self.add_message("ms-grad-of-network-output", node=node, args=(where, described, instead))

    # -- ms-weight-decay-on-all-parameters ---------------------------------------
    def _check_weight_decay(self, node: nodes.Call, qname: str) -> None:
        if not self.linter.is_message_enabled("ms-weight-decay-on-all-parameters"):
            return
        decay = astutil.argument(node, *guide.WEIGHT_DECAY_ARGUMENTS[qname])
        if decay is None or decay is astutil.UNKNOWN:
            return
        known = values.constant(decay)
        if not (astutil.is_number(known) and known > 0):
            return  # 0, or a value from a config that may well be 0 (u2net's weight_decay: 0)
        params = astutil.argument(node, *guide.OPTIMIZER_PARAMS_ARGUMENT)
        if params is None or params is astutil.UNKNOWN:
            return
        source = _all_parameters_call(params, node)
        if source is None:
            return
        call, network = source
        reason = _untrained_parameters(network)
        if reason is None:
            return
        name = network.as_string()
        edit = _trainable_edit(call, network)
        edits.offer("ms-weight-decay-on-all-parameters", node, [edit])
        self.add_message(
            "ms-weight-decay-on-all-parameters", node=node,
            args=(f"{spelled(node.func)}(...)", call.as_string(), name, reason, decay.as_string(), name),
        )

    # -- ms-seed-without-mindspore -------------------------------------------------
    def _check_seed(self, node: nodes.Call, qname: str) -> None:
        if not self.linter.is_message_enabled("ms-seed-without-mindspore"):
            return
        module = node.root()
        if module in self._seed_reported:
            return
        self._seed_reported.add(module)
        if not _imports(module, _IMPORTS_MINDSPORE) or training_code.trainer(module) is None:
            return
        if training_code.program_mentions(module, guide.MINDSPORE_SEED_PATTERN):
            return
        calls = {
            resolve.call_name(call)
            for call in astutil.module_nodes(module, nodes.Call)
            if isinstance(call.func, (nodes.Name, nodes.Attribute)) and resolve.call_name(call) in guide.OTHER_SEED_CALLS
        }
        if calls & guide.MINDTORCH_MINDSPORE_SEEDS and _torch_is_mindtorch(module):
            return  # ``import torch`` loads mindtorch, whose torch.manual_seed is mindspore.set_seed
        seeded = sorted({qname.split(".")[0] for qname in calls})
        if seeded == ["random"]:
            # Python's random alone seeds shuffles and splits (random.sample of file lists):
            # it never made a PyTorch run's weights or dropout masks reproducible either
            return
        differing = _randomness(module)
        if "numpy" not in seeded:
            differing.append("the initial weights (they draw from numpy's generator)")
        if not differing:
            return  # the weights draw from numpy's seeded generator, and nothing else is random
        scope_name = node.scope().name if isinstance(node.scope(), nodes.FunctionDef) else "this module"
        where = f"{scope_name}()" if isinstance(node.scope(), nodes.FunctionDef) else scope_name
        said = differing[0] if len(differing) == 1 else ", ".join(differing[:-1]) + " and " + differing[-1]
        said += " differs" if differing == [_SHUFFLED] else " differ"
        self.add_message("ms-seed-without-mindspore", node=node, args=(where, ", ".join(seeded), said))

    # -- ms-accumulation-last-gradient-only --------------------------------------
    @only_required_for_messages("ms-accumulation-last-gradient-only")
    def visit_for(self, node: nodes.For) -> None:
        grad_names = None
        for assign in _statements(node.body):
            if not isinstance(assign, nodes.Assign) or not isinstance(assign.value, nodes.Call):
                continue
            if grad_names is None:
                grad_names = training_code.grad_function_names(node)
            grads = _gradients_bound(assign, grad_names)
            if grads is None:
                continue
            self._check_accumulation(node, assign, grads)

    def _check_accumulation(self, loop: nodes.For, assign: nodes.Assign, grads: str) -> None:
        for branch in _statements(loop.body):
            if not isinstance(branch, nodes.If) or (branch.lineno or 0) <= (assign.lineno or 0):
                continue
            every = _modulo_period(branch.test)
            if every is None:
                continue
            step = next(
                (call for statement in branch.body for call in _calls(statement)
                 if len(call.args) == 1 and not call.keywords and isinstance(call.args[0], nodes.Name)
                 and call.args[0].name == grads and training_code.is_optimizer(call.func)),
                None,
            )
            if step is None or _used_elsewhere(loop, grads, assign, step):
                continue
            if not _accumulates(every, assign, loop):
                continue  # an optimizer stepped every k iterations on its own batch (a GAN's skip)
            period = every if isinstance(every, int) else None
            earlier = f"{period - 1}" if period else f"{every.as_string()} - 1"
            self.add_message(
                "ms-accumulation-last-gradient-only", node=step,
                args=(f"{spelled(step.func)}({grads}) every {every if period else every.as_string()} steps",
                      grads, earlier),
            )


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------
def _is_loss(expr: nodes.NodeNG, func: nodes.NodeNG) -> bool:
    """An output that is the loss: named so, or computed by a loss (``loss_fn(...)``)."""
    if isinstance(expr, nodes.Name) and training_code.says_loss(expr.name):
        return True
    call = training_code.computing_call(expr, func)
    if call is None or not isinstance(call.func, (nodes.Name, nodes.Attribute)):
        return False
    last = call.func.name if isinstance(call.func, nodes.Name) else call.func.attrname
    return training_code.says_loss(last) or training_code.is_loss_cell(call.func)


def _untrained_loss(grad_call: nodes.Call, func: nodes.NodeNG, returned: list[nodes.NodeNG],
                    shown: list[nodes.NodeNG] | None = None) -> tuple[nodes.NodeNG, str] | None:
    """A loss among the auxiliary outputs ``returned`` (computed in ``func``) that gets
    no gradient (the first output is a loss), and what to return first instead: a total
    made from the first output and losses of its own (``return r_loss, t_loss, loss``
    with ``loss = r_loss + t_loss``), else a second loss that is not a part of the first
    (``total = a + b; return total, a``) nor made from it (a scaled copy) and is
    meant to be trained: a loss of its own computes it and its name says loss
    (``t_loss = text_criterion(...)`` beside ``r_loss = rating_criterion(...)``;
    not ``mae = l1(...)``, a metric), or the caller adds it to the first output
    (``word_loss + counting_loss``). Outputs that share their source with the first
    (``loss, parts = criterion(...)``) count only by the caller's sum. ``shown``: the
    outputs as the differentiated function returns them, when ``returned`` are the
    elements a helper returns in their places."""
    shown = shown or returned
    first = returned[0]
    made_first = training_code.computation(first, func)
    second = None
    for index, output in enumerate(returned[1:], start=1):
        if not _is_loss(output, func) and not _sum_with(output, first, func):
            continue
        if isinstance(training_code.local_value(output, func), (nodes.Dict, nodes.DictComp)):
            continue  # ``weighted_loss = {"mse": ...}``: a dict of the loss's parts, shown, never a loss to train
        made = training_code.computation(output, func)
        own_loss = bool(made.loss_calls - made_first.loss_calls)
        if isinstance(first, nodes.Name) and first.name in made.names:
            if own_loss and isinstance(output, nodes.Name):
                return shown[index], f"return {shown[index].as_string()} first"  # the total, made from the first and more
            continue  # made from the first output alone (a scaled copy)
        if second is not None or (isinstance(output, nodes.Name) and output.name in made_first.names):
            continue  # a part of the first output
        named_loss = isinstance(output, nodes.Name) and training_code.says_loss(output.name)
        if own_loss and named_loss and not made.loss_calls & made_first.loss_calls \
                or training_code.outputs_added_by_caller(grad_call, 0, index):
            second = index
    if second is None:
        return None
    return shown[second], f"return the total first ({shown[0].as_string()} + {shown[second].as_string()})"


def _sum_with(output: nodes.NodeNG, first: nodes.NodeNG, func: nodes.NodeNG) -> bool:
    """``output`` is a local name assigned a sum with the first output among its terms
    (``l = mlm_l + nsp_l`` beside ``return mlm_l, nsp_l, l``), whatever its name says."""
    if not (isinstance(output, nodes.Name) and isinstance(first, nodes.Name)):
        return False
    value = training_code.local_value(output, func)
    return isinstance(value, nodes.BinOp) and any(
        isinstance(term, nodes.Name) and term.name == first.name for term in training_code.sum_terms(value)
    )


def _helper_outputs(func: nodes.NodeNG, returned: nodes.Tuple) -> tuple[nodes.FunctionDef, list[nodes.NodeNG]] | None:
    """(the helper, what it returns in each output's place) when every output of
    ``returned`` is a name bound once in ``func``, all by one unpacking of a call of a
    project function with one return of a tuple as long (``a, b, total = helper(...)``
    then ``return a, b, total``, in any order)."""
    if isinstance(func, nodes.Lambda):
        return None
    bound: dict[str, list[nodes.AssignName]] = {}
    for leaf in func.nodes_of_class(nodes.AssignName, skip_klass=SKIP_NESTED):
        bound.setdefault(leaf.name, []).append(leaf)
    unpacking = None
    places = []
    for output in returned.elts:
        leaves = bound.get(output.name, []) if isinstance(output, nodes.Name) else []
        if len(leaves) != 1 or not isinstance(leaves[0].parent, nodes.Tuple):
            return None
        target = leaves[0].parent
        if unpacking is not None and target is not unpacking:
            return None
        unpacking = target
        places.append(target.elts.index(leaves[0]))
    statement = unpacking.parent
    if not (isinstance(statement, nodes.Assign) and statement.targets == [unpacking]
            and isinstance(statement.value, nodes.Call)
            and all(isinstance(element, nodes.AssignName) for element in unpacking.elts)):
        return None
    helper = resolve.project_callee(statement.value.func)
    if helper is None:
        return None
    helper_returns = training_code.returns(helper)
    if len(helper_returns) != 1:
        return None
    value = helper_returns[0][1]
    if not isinstance(value, nodes.Tuple) or len(value.elts) != len(unpacking.elts) \
            or any(isinstance(element, nodes.Starred) for element in value.elts):
        return None
    return helper, [value.elts[place] for place in places]


def _bare_network(network: nodes.NodeNG) -> str | None:
    """How to name ``network`` when it holds a Cell that returns its outputs and
    computes no loss: a mindspore.nn layer or container of layers, or a user Cell whose
    construct takes one input, returns sub-cell outputs and says nothing of a loss."""
    construction = training_code.construction_of(network)
    if construction is None:
        return None
    qname = resolve.call_name(construction)
    shown = network.as_string() if isinstance(network, (nodes.Name, nodes.Attribute)) else "the network"
    if qname is not None and resolve.is_external(qname):
        if qname in guide.BARE_LAYERS:
            return f"{shown} ({qname.replace('mindspore.', '')})"
        return None
    cls = resolve.user_class_of_call(construction)
    if cls is None or not resolve.is_cell_class(cls) or training_code.says_loss(cls.name):
        return None
    _, external = resolve.class_hierarchy(cls)
    if not external <= guide.PLAIN_CELL_BASES:
        return None  # WithLossCell, a loss base, a wrapper: it may compute the loss
    construct = resolve.find_method(cls, "construct")
    if construct is None or construct.args.vararg or construct.args.kwarg:
        return None
    inputs = [param for param in astutil.positional_params(construct)[1:]]
    if len(inputs) != 1 or construct.args.kwonlyargs:
        return None
    if _says_loss_anywhere(cls):
        return None
    for _, value in training_code.returns(construct):
        for element in value.elts if isinstance(value, nodes.Tuple) else [value]:
            call = training_code.computing_call(element, construct)
            if call is None or astutil.self_attribute(call.func) is None:
                return None  # not plainly a sub-cell's output (a reduction, an op...)
    return f"{shown} ({cls.name}.construct({inputs[0].name}))"


def _says_loss_anywhere(cls: nodes.ClassDef) -> bool:
    user, _ = resolve.class_hierarchy(cls)
    for klass in user:
        for node in klass.nodes_of_class((nodes.Name, nodes.Attribute, nodes.AssignName, nodes.AssignAttr)):
            name = node.name if isinstance(node, (nodes.Name, nodes.AssignName)) else node.attrname
            if training_code.says_loss(name):
                return True
    return False


def _all_parameters_call(params: nodes.NodeNG, optimizer: nodes.Call) -> tuple[nodes.Call, nodes.NodeNG] | None:
    """(the call, the network) when ``params`` is ``net.get_parameters()`` or
    ``net.parameters_dict().values()`` (through ``list()``/``tuple()`` and a local name)."""
    value = params
    if isinstance(value, nodes.Name):
        value = training_code.last_assignment_before(optimizer.scope(), value.name, optimizer.lineno or 0)
    if isinstance(value, nodes.Call) and isinstance(value.func, nodes.Name) and value.func.name in ("list", "tuple") \
            and len(value.args) == 1:
        value = value.args[0]
    if not isinstance(value, nodes.Call) or not isinstance(value.func, nodes.Attribute) or value.args or value.keywords:
        return None
    method = value.func.attrname
    if method in guide.ALL_PARAMETERS_METHODS:
        return value, value.func.expr
    inner = value.func.expr
    if method == "values" and isinstance(inner, nodes.Call) and isinstance(inner.func, nodes.Attribute) \
            and inner.func.attrname == guide.PARAMETER_DICT_METHOD and not inner.args:
        return value, inner.func.expr
    return None


def _untrained_parameters(network: nodes.NodeNG) -> str | None:
    """Why the network has parameters no gradient updates: a layer with moving
    statistics, or requires_grad = False somewhere in the module."""
    layer = training_code.CellContents(guide.CELLS_WITH_UNTRAINED_PARAMETERS).of_expression(network)
    if layer is not None:
        return f"holds nn.{layer.rsplit('.', 1)[-1]}, whose moving statistics are parameters"
    for assign in astutil.module_nodes(network.root(), nodes.Assign):
        for target in assign.targets:
            if isinstance(target, nodes.AssignAttr) and target.attrname == "requires_grad" and \
                    isinstance(assign.value, nodes.Const) and assign.value.value is False:
                return f"has parameters frozen with requires_grad = False (line {assign.lineno})"
    return None


def _trainable_edit(call: nodes.Call, network: nodes.NodeNG):
    """``net.get_parameters()`` / ``net.parameters_dict().values()`` -> ``net.trainable_params()``."""
    if network.end_lineno is None or call.end_lineno is None:
        return None
    return edits.Edit(network.end_lineno, network.end_col_offset, call.end_lineno, call.end_col_offset,
                      f".{guide.TRAINABLE_PARAMETERS_METHOD}()")


_SHUFFLED = "the order mindspore.dataset shuffles the data in"
_RANDOM_OPS = frozenset({"uniform", "normal", "standard_normal", "multinomial", "randint", "rand", "randn"})


def _randomness(module: nodes.Module) -> list[str]:
    """What MindSpore draws in the module beyond the initial weights (which numpy's
    seed fixes), as the message says it, read from its code (not its comments or
    strings): Dropout layers (named in the code, or held by a user Cell class of
    another module it builds, a few levels deep), random ops (``ops.uniform``,
    ``mint.randn``...), a mindspore.dataset source or operation given ``shuffle=True``,
    in the module or in a project function of another module it calls
    (:func:`_shuffles_in_helper`; mindspore.set_seed seeds mindspore.dataset too)."""
    dropout = random_ops = shuffled = False
    for node in astutil.module_nodes(module, (nodes.Name, nodes.Attribute, nodes.Call)):
        if isinstance(node, nodes.Call):
            func = node.func
            if isinstance(func, nodes.Attribute) and (func.attrname in _RANDOM_OPS or func.attrname.startswith("random_")):
                owner = func.expr.as_string()
                random_ops = random_ops or owner.endswith("ops") or owner.endswith("mint")
            elif isinstance(func, (nodes.Name, nodes.Attribute)) and not shuffled:
                keyword = next((k for k in node.keywords or () if k.arg == guide.DATASET_SHUFFLE_KEYWORD), None)
                if keyword is not None and astutil.literal_bool(keyword.value) is True:
                    qname = resolve.call_name(node) or ""
                    shuffled = qname.startswith("mindspore.dataset.")
            last = func.name if isinstance(func, nodes.Name) else getattr(func, "attrname", "")
            dropout = dropout or last == "dropout"
        else:
            name = node.name if isinstance(node, nodes.Name) else node.attrname
            dropout = dropout or "Dropout" in name
    if not dropout:
        dropout = _builds_dropout(module)
    if not shuffled:
        shuffled = _shuffles_in_helper(module)
    found = []
    if dropout or random_ops:
        found.append("MindSpore's Dropout masks and random ops" if dropout and random_ops
                     else "MindSpore's Dropout masks" if dropout else "MindSpore's random ops")
    if shuffled:
        found.append(_SHUFFLED)
    return found


def _shuffles_in_helper(module: nodes.Module) -> bool:
    """A function of another project module that the module calls builds a
    mindspore.dataset source or operation given ``shuffle=True``: written so, or
    a parameter of that function (never rebound there) that the call gives a
    literal True or leaves at a default of True (``get_iterator(root, 8)`` for
    ``def get_iterator(root, bs, shuffle=True)`` building
    ``GeneratorDataset(..., shuffle=shuffle)``)."""
    looked = 0
    for call in astutil.module_nodes(module, nodes.Call):
        if looked > 30:
            break
        if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
            continue
        helper = resolve.project_function(call.func)
        if helper is None or helper.root() is module or astutil.is_bound_method(helper):
            continue
        looked += 1
        if _helper_shuffles(helper, call):
            return True
    return False


def _helper_shuffles(helper: nodes.FunctionDef, call: nodes.Call) -> bool:
    """``helper``'s own code, as ``call`` runs it, gives a mindspore.dataset call
    ``shuffle=True`` (:func:`_shuffles_in_helper`)."""
    given: dict[str, nodes.NodeNG] | None = None
    for inner in helper.nodes_of_class(nodes.Call):
        if inner.scope() is not helper:
            continue  # a nested function or lambda: it may never run
        keyword = next((k for k in inner.keywords or () if k.arg == guide.DATASET_SHUFFLE_KEYWORD), None)
        if keyword is None or not (resolve.call_name(inner) or "").startswith("mindspore.dataset."):
            continue
        value = keyword.value
        if astutil.literal_bool(value) is True:
            return True
        if not isinstance(value, nodes.Name) or len(helper.locals.get(value.name, ())) != 1:
            continue
        param = next((each for each in astutil.all_params(helper) if each.name == value.name), None)
        if param is None:
            continue
        if given is None:
            given = astutil.bind_by_name(call, [each.name for each in astutil.positional_params(helper)])
            if given is None:
                return False  # ``*args`` or ``**kwargs`` at the call: what it passes is unknown
        passed = given.get(param.name, astutil.default_of(helper.args, param))
        if astutil.literal_bool(passed) is True:
            return True
    return False


def _builds_dropout(module: nodes.Module) -> bool:
    """A user Cell class of another module that the module builds holds a Dropout
    (a few levels deep)."""
    contents = training_code.CellContents(guide.DROPOUT_LAYERS)
    looked = 0
    for call in astutil.module_nodes(module, nodes.Call):
        if looked > 30:
            break
        func = call.func
        name = func.name if isinstance(func, nodes.Name) else func.attrname if isinstance(func, nodes.Attribute) else ""
        if not name[:1].isupper():
            continue
        cls = resolve.user_class_of_call(call)
        if cls is None or cls.root() is module:
            continue
        looked += 1
        if contents.of_class(cls) is not None:
            return True
    return False


def _torch_is_mindtorch(module: nodes.Module) -> bool:
    """The module imports mindtorch's redirection (``from mindtorch.tools import
    mstorch_enable``): its ``import torch`` loads mindtorch.torch."""
    for node in scope.analysis(module).imports:
        if isinstance(node, nodes.Import):
            names = [name for name, _ in node.names]
        elif node.level:
            continue
        else:
            names = [node.modname or ""] + [f"{node.modname}.{name}" for name, _ in node.names]
        if any(name == redirect or name.startswith(redirect + ".")
               for name in names for redirect in apis.TORCH_REDIRECTING_MODULES):
            return True
    return False


def _imports(module: nodes.Module, package: str) -> bool:
    for node in scope.analysis(module).imports:
        if isinstance(node, nodes.Import) and any(name.split(".")[0] == package for name, _ in node.names):
            return True
        if isinstance(node, nodes.ImportFrom) and not node.level and (node.modname or "").split(".")[0] == package:
            return True
    return False


def _statements(body: list[nodes.NodeNG]):
    """Statements of a block and of the blocks nested in it (not in functions or classes)."""
    for statement in body:
        yield statement
        if isinstance(statement, (nodes.FunctionDef, nodes.ClassDef)):
            continue
        for name in ("body", "orelse", "handlers", "finalbody"):
            inner = getattr(statement, name, None)
            if isinstance(inner, list) and not isinstance(statement, (nodes.For, nodes.While)):
                yield from _statements(inner)


def _calls(statement: nodes.NodeNG):
    if isinstance(statement, nodes.Call):
        yield statement
    yield from statement.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED)


def _gradients_bound(assign: nodes.Assign, grad_names: set[str]) -> str | None:
    """The name the gradients of a gradient-function call are bound to:
    ``grads = grad_fn(x)``, ``loss, grads = grad_fn(x)``, ``(loss, aux), grads = ...``."""
    call = assign.value
    callee = call.func
    path = training_code.spelled_path(callee)
    if not (path in grad_names or training_code.is_grad_call(callee)):
        return None
    if len(assign.targets) != 1:
        return None
    target = assign.targets[0]
    if isinstance(target, nodes.AssignName) and "grad" in target.name.lower():
        return target.name
    if isinstance(target, nodes.Tuple) and len(target.elts) == 2 and isinstance(target.elts[1], nodes.AssignName):
        return target.elts[1].name
    return None


def _modulo_period(test: nodes.NodeNG):
    """k for a test ``(i + 1) % k == 0`` / ``step % k == 0`` / ``not (i + 1) % k``; the
    expression k when it is not a literal; None when the test is no such thing."""
    compared = None
    if isinstance(test, nodes.Compare) and len(test.ops) == 1 and test.ops[0][0] == "==":
        other = test.ops[0][1]
        if isinstance(other, nodes.Const) and other.value == 0:
            compared = test.left
        elif isinstance(test.left, nodes.Const) and test.left.value == 0:
            compared = other
    elif isinstance(test, nodes.UnaryOp) and test.op == "not":
        compared = test.operand
    if not (isinstance(compared, nodes.BinOp) and compared.op == "%"):
        return None
    period = compared.right
    if isinstance(period, nodes.Const) and isinstance(period.value, int):
        return period.value if period.value > 1 else None
    return period


def _accumulates(every, assign: nodes.Assign, loop: nodes.For) -> bool:
    """The program means to accumulate: the period is named so (``accumulation_steps``),
    or the differentiated loss is divided by the period (PyTorch's ``loss / k``)."""
    if isinstance(every, (nodes.Name, nodes.Attribute)):
        name = every.name if isinstance(every, nodes.Name) else every.attrname
        if guide.ACCUMULATION_WORD in name.lower():
            return True
    analysis = scope.analysis(loop.root())
    callee = assign.value.func
    fn = callee
    if not training_code.is_grad_call(callee):
        held = training_code.holds(callee)
        if not training_code.is_grad_call(held):
            return False
        fn = held
    target = astutil.argument(fn, 0, "fn")
    if target is None or target is astutil.UNKNOWN:
        return False
    wanted = every if isinstance(every, int) else every.as_string()
    for func in analysis.callable_targets(target):
        for node in func.nodes_of_class((nodes.BinOp, nodes.AugAssign), skip_klass=SKIP_NESTED):
            op = node.op if isinstance(node, nodes.BinOp) else node.op.rstrip("=")
            divisor = node.right if isinstance(node, nodes.BinOp) else node.value
            if op != "/":
                continue
            if isinstance(wanted, int) and isinstance(divisor, nodes.Const) and divisor.value == wanted:
                return True
            if isinstance(wanted, str) and divisor.as_string() == wanted:
                return True
            name = divisor.name if isinstance(divisor, nodes.Name) else getattr(divisor, "attrname", "")
            if guide.ACCUMULATION_WORD in name.lower():
                return True
    return False


def _used_elsewhere(loop: nodes.For, grads: str, assign: nodes.Assign, step: nodes.Call) -> bool:
    """``grads`` read anywhere in the loop but the optimizer's call (added to an
    accumulator, given to a helper, clipped...): the program may accumulate."""
    for name in loop.nodes_of_class(nodes.Name, skip_klass=SKIP_NESTED):
        if name.name != grads or name.parent is step:
            continue
        parent = name.parent
        if isinstance(parent, nodes.Call) and len(parent.args) == 1 and not parent.keywords and \
                training_code.is_optimizer(parent.func):
            continue  # another optimizer(grads) of the same kind
        return True
    bindings = [
        node for node in loop.nodes_of_class((nodes.Assign, nodes.AugAssign), skip_klass=SKIP_NESTED)
        if node is not assign and any(
            grads in astutil.target_names(target)
            for target in (node.targets if isinstance(node, nodes.Assign) else [node.target])
        )
    ]
    return bool(bindings)


def register(linter: PyLinter) -> None:
    linter.register_checker(TrainingStepChecker(linter))


def _holds_no_weights(func: nodes.FunctionDef) -> bool:
    """Every name ``func`` reads is its own (a parameter, a local), a builtin, a
    MindSpore module or function, or a module-level loss built from a MindSpore or
    loss-named class: nothing in it holds a trainable weight."""
    own = set(func.argnames())
    for name in func.nodes_of_class(nodes.Name):
        if name.name in own:
            continue
        scope_of, bindings = name.lookup(name.name)
        if scope_of is func or (bindings and all(binding.scope() is func for binding in bindings)):
            continue  # a local of func
        if not bindings:
            if resolve.is_builtin_name(name.name):
                continue
            return False
        qname = resolve.qualified_name(name) or ""
        if qname.startswith("mindspore.") and not resolve.is_cell_qname(qname) or qname == "mindspore":
            continue  # ops, nn, ms.Tensor, ops.mean: no weights
        if training_code.is_loss_cell(name) and training_code.network_class(name) is None:
            continue  # loss_fn = nn.CrossEntropyLoss()
        return False
    return True


def _network_output_given(grad_call: nodes.Call) -> nodes.Call | None:
    """The network call (``logits = net(x)``) whose output, through the name it is
    assigned, a call of the function ``grad_call`` made (``grad_fn = value_and_grad(...)``)
    is given positionally."""
    statement = grad_call.parent
    if not (isinstance(statement, nodes.Assign) and statement.value is grad_call and len(statement.targets) == 1
            and isinstance(statement.targets[0], nodes.AssignName)):
        return None
    name = statement.targets[0].name
    for call in grad_call.root().nodes_of_class(nodes.Call):
        if not (isinstance(call.func, nodes.Name) and call.func.name == name):
            continue
        bindings = call.func.lookup(name)[1]
        if statement.targets[0] not in bindings:
            continue
        for argument in call.args:
            if not isinstance(argument, nodes.Name):
                continue
            assign = values.reaching_assignment(argument)
            value = getattr(assign, "value", None)
            if isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute)) \
                    and _is_network(value.func):
                return value
    return None


def _is_network(callee: nodes.NodeNG) -> bool:
    """``callee`` holds a Cell with weights: a user Cell class's instance, or a
    mindspore.nn layer that is no loss."""
    if training_code.network_class(callee) is not None:
        return not training_code.is_loss_cell(callee)
    qname = training_code.constructed_qname(callee)
    return qname is not None and qname in apis.LAYERS_WITH_PARAMETER_ATTRIBUTES
