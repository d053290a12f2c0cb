"""The silent mistakes of a ported training step.

Measured on MindSpore 2.10 (FACTS.md, tests/oracle/test_training_loop.py):
- PyTorch keyword names (``bias=``, ``eps=``, ``dim=``, ``lr=``, ``inplace=``) make
  mindspore.nn layers, losses and optimizers raise TypeError (Adam: KeyError) at
  construction; ``mindspore.mint`` takes PyTorch's names.
- ``ms.grad``/``ms.value_and_grad`` of a function returning a tuple differentiate the
  sum of every output unless ``has_aux=True``.
- ``nn.SoftmaxCrossEntropyWithLogits()`` (and ``nn.SmoothL1Loss()``) default to
  ``reduction='none'``: differentiated as the objective, a per-sample loss gives the
  gradient of the sum, the learning rate scaled by the batch size.
- A new Cell has ``training=False``: Dropout drops nothing and BatchNorm uses moving
  statistics it never updates until ``set_train()``; ``nn.TrainOneStepCell`` and
  ``ms.value_and_grad`` do not call it, ``Model.train`` does.
"""

from __future__ import annotations

import difflib
import re
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, edits, programs, resolve, scope, sites, training_code, values, versions
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from collections.abc import Iterable

    from pylint.lint import PyLinter

_SKIP_NESTED = (nodes.FunctionDef, nodes.ClassDef, nodes.Lambda)
# every PyTorch keyword of a layer in apis.TORCH_KEYWORD_APIS (what _check_subclass_keywords may report)
_TORCH_KEYWORDS = frozenset(keyword for api in apis.TORCH_KEYWORD_APIS.values() for keyword in api.keywords)


def _outside_nested(node: nodes.NodeNG, owner: nodes.NodeNG) -> bool:
    """Whether ``node`` is ``owner``'s own code: no function, class or lambda
    between them (``owner.nodes_of_class(..., skip_klass=_SKIP_NESTED)`` finds
    it; asked of each node the module's index gives, no walk of ``owner``)."""
    parent = node.parent
    while parent is not None and parent is not owner:
        if isinstance(parent, _SKIP_NESTED):
            return False
        parent = parent.parent
    return parent is owner


def _inside_any(node: nodes.NodeNG, among: set[nodes.NodeNG], owner: nodes.NodeNG) -> bool:
    """Whether one of ``among`` encloses ``node`` below ``owner``."""
    parent = node.parent
    while parent is not None and parent is not owner:
        if parent in among:
            return True
        parent = parent.parent
    return False


_MAX_DEPTH = 6


# ---------------------------------------------------------------------------
# Small AST helpers
# Argument binding and assigned names come from mslint.analysis.astutil and mslint.analysis.resolve,
# what ``self.x`` holds from the class-facts table (scope.class_facts).
# ---------------------------------------------------------------------------
def _is_literal(node, value) -> bool:
    return isinstance(node, nodes.Const) and node.value is value


def _value_of(expr: nodes.NodeNG) -> nodes.NodeNG | None:
    """What a name or ``self.x`` holds when a single assignment says so (``self.x``:
    assigned once in the methods of its class and user bases, scope.class_facts)."""
    if isinstance(expr, nodes.Name):
        return resolve.assigned_value(expr)
    attr = astutil.self_attribute(expr)
    found = astutil.enclosing_method(expr) if attr is not None else None
    if found is None:
        return None
    values = scope.analysis(expr.root()).class_facts(found[1]).values(attr)
    return values[0] if len(values) == 1 else None


def _attribute_values(expr: nodes.NodeNG) -> list[nodes.NodeNG]:
    """Every value ``self.x`` is assigned in the methods of its class and user
    bases, when there are several and each is a plain assignment mslint can read
    (none hidden by unpacking, no attribute set by a computed name); else []."""
    attr = astutil.self_attribute(expr)
    found = astutil.enclosing_method(expr) if attr is not None else None
    if found is None:
        return []
    facts = scope.analysis(expr.root()).class_facts(found[1])
    assigned = facts.values(attr)
    if len(assigned) < 2 or any(value is None for value in assigned) or any(body.dynamic_methods for body in facts.bodies):
        return []
    return assigned


def _last_assignment_before(func: nodes.NodeNG, name: str, line: int) -> nodes.NodeNG | None:
    """The value last assigned to a plain local ``name`` above ``line`` in ``func``."""
    found = None
    for assign in func.nodes_of_class(nodes.Assign, skip_klass=_SKIP_NESTED):
        if (assign.lineno or 0) >= line:
            continue
        if any(isinstance(t, nodes.AssignName) and t.name == name for t in assign.targets):
            if found is None or assign.lineno >= found.lineno:
                found = assign
    return found.value if found is not None else None


def _a_training_objective(returned: nodes.Tuple, func: nodes.NodeNG, grad_call: nodes.Call) -> bool:
    """Whether the outputs ``func`` returns are what a training step differentiates:
    one of them is (or is computed from) a loss, or the module of the grad call names
    an optimizer its gradients may reach. Neither (``ms.grad(net, grad_position=(0,
    1))`` of a Cell returning ``sin(x) - cos(y), cos(x) - sin(y)``, and no optimizer
    anywhere): derivatives of the outputs' sum, computed on purpose."""
    if any(training_code.mentions_loss(element, func) for element in returned.elts):
        return True
    return training_code.names_an_optimizer(grad_call.root())


def _gradients_never_applied(grad_call: nodes.Call) -> bool:
    """The gradients are never applied to any weight: the grad call is in a file that
    is its own program and that nothing else in sight imports, whose program reaches
    no other file that trains (mslint.analysis.programs.self_contained), and whose own
    code names no optimizer, calls nothing named to train, and hands the gradients
    it computes to nothing but printing, numpy and MindSpore's computations
    (training_code.may_update_weights): MindSpore's autodiff tutorial printing the
    gradient of ``(loss, z)`` before showing has_aux."""
    module = grad_call.root()
    return programs.self_contained(module.file) and not training_code.may_update_weights(module)


def _returns(func: nodes.NodeNG) -> list[tuple[nodes.NodeNG, nodes.NodeNG]]:
    """(return node, returned value) of a function or lambda."""
    if isinstance(func, nodes.Lambda):
        return [(func.body, func.body)]
    return [
        (ret, ret.value)
        for ret in func.nodes_of_class(nodes.Return, skip_klass=_SKIP_NESTED)
        if ret.value is not None
    ]


def _short(qname: str) -> str:
    """``mindspore.nn.Dropout`` -> ``nn.Dropout``; mindnlp's injected one -> ``nn.Dropout (mindnlp's)``."""
    if qname.startswith("mindnlp.injection.nn."):
        return f"nn.{qname[len('mindnlp.injection.nn.'):]} (mindnlp's)"
    for prefix, short in (("mindspore.mint.nn.", "mint.nn."), ("mindspore.nn.", "nn.")):
        if qname.startswith(prefix):
            return short + qname[len(prefix):]
    return qname


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------
class TrainingLoopChecker(BaseChecker):
    name = "mindspore-training-loop"
    msgs = {
        "E8001": (
            "%s has no keyword '%s' (%s's name): %s raises %s; %s",
            "ms-torch-keyword-args",
            "A PyTorch keyword name given to a MindSpore layer, loss, optimizer or op that does not "
            "accept it (bias, eps, dim, lr, inplace, betas, size_average...): the construction or call "
            "raises TypeError (nn.Adam: KeyError). The table comes from the generated PyTorch-to-MindSpore "
            "data (measured signatures); mindspore.mint takes PyTorch's names.",
        ),
        "E8002": (
            "%s differentiates the sum of all %d outputs of %s (line %d returns %s), not the first "
            "alone: the gradients also carry %s; pass has_aux=True to differentiate only the first output",
            "ms-grad-without-has-aux",
            "ms.grad/ms.value_and_grad of a function whose return is a tuple with more than the "
            "loss computed from the network, without has_aux=True: the gradient is that of the sum "
            "of all outputs.",
        ),
        "W8003": (
            "%s returns one loss per sample%s and %s uses it as the objective: "
            "the gradient is that of the sum, %s; "
            "pass reduction='mean' or reduce it before it is returned (.mean(); .sum() where the sum is meant)",
            "ms-loss-without-reduction",
            "A loss whose reduction is 'none' by default (nn.SoftmaxCrossEntropyWithLogits, "
            "nn.SmoothL1Loss, nn.SampledSoftmaxLoss) returned unreduced as the "
            "differentiated objective, or given to WithLossCell/Model as the loss, while the "
            "optimizer the gradients reach is not one that a loss's scale leaves unchanged (Adam "
            "and its kind without weight decay added to the gradient).",
        ),
        "W8004": (
            "%s trains %s, which %s, but %s, so Dropout drops nothing and BatchNorm normalizes with moving "
            "statistics it %s; call %s.set_train() %s",
            "ms-missing-set-train",
            "A network with Dropout, BatchNorm or code reading self.training, trained through "
            "ms.value_and_grad/ms.grad with weights or a TrainOneStepCell called in a loop, while no "
            "set_train() is called on that network where it is trained: in the training function, in its "
            "caller before the call, or at module level (Model.train calls it itself); or while the "
            "training loop sets it to set_train(False) (a sampling helper it calls) and nothing in the "
            "loop sets it back.",
        ),
        "W8005": (
            "%s discards its result: ops.stop_gradient returns a new tensor and leaves %s as it was, so "
            "the gradient still flows through it; assign the result and use it (%s = %s)",
            "ms-stop-gradient-discarded",
            "ops.stop_gradient(x) called as a statement on a value that may carry a gradient (computed "
            "from the function's inputs or a trainable Parameter): the call returns a detached copy and "
            "changes nothing, so the gradient the author meant to stop still flows.",
        ),
        "W8010": (
            "%s discards its result: MindSpore's clipping returns the clipped tensors and leaves %s "
            "unchanged, so nothing is clipped; assign the result and use it (%s = %s)",
            "ms-clip-result-discarded",
            "ops.clip_by_global_norm / clip_by_value / clip_by_norm called as a statement (PyTorch's "
            "in-place clip_grad_norm_ habit): the call returns clipped copies and changes nothing, so "
            "the gradients reach the optimizer unclipped.",
        ),
        "E8006": (
            "%s is a MindSpore Cell, which has no %s() (a PyTorch Module method): the call raises "
            "AttributeError; %s",
            "ms-torch-module-method",
            "A PyTorch nn.Module method MindSpore 2.10 Cells lack (.eval(), .train(), .forward(), .parameters(), "
            ".named_parameters(), .cpu(), .half(), .float(), .modules(), .children(), "
            ".requires_grad_()...) called on a known Cell, with its MindSpore equivalent.",
        ),
        "W8007": (
            "%s differentiates %s, the loss multiplied by the loss scale, and nothing in the module calls "
            "unscale(): the optimizer gets the gradients multiplied by the scale, a learning rate that many "
            "times too large; apply grads = %s.unscale(grads) before optimizer(grads)",
            "ms-loss-scale-without-unscale",
            "A function given to ms.grad/ms.value_and_grad returns loss_scaler.scale(loss) "
            "(mindspore.amp.StaticLossScaler/DynamicLossScaler) while the module never calls unscale() "
            "on the gradients.",
        ),
        "W8009": (
            "%s trains with %s, whose loss_scale=%s divides every gradient by %s, but %s multiplies the loss "
            "by it: each step is %s times too small; %s",
            "ms-optimizer-loss-scale-unmatched",
            "An nn.Momentum or nn.SGD built with a loss_scale above 1 (it divides the gradients by it) "
            "trained by a Model given no loss_scale_manager, by a TrainOneStepCell given no sens, or by a "
            "custom step that gives it the gradients of an unscaled loss: nothing multiplies the loss by the "
            "scale, so the learning rate is divided by it.",
        ),
        "E8008": (
            "%s has no keyword '%s' (a misspelling of %s): the call raises %s when it runs; %s",
            "ms-unknown-context-keyword",
            "A keyword given to mindspore.set_context or set_auto_parallel_context that MindSpore 2.10 "
            "does not know and that misspells one it knows (radients_mean for gradients_mean): the call "
            "raises ValueError. Both take **kwargs, so no signature shows it; the known keywords are "
            "measured from MindSpore's own tables.",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._module_trains: dict[nodes.Module, bool] = {}
        self._compat_modules: dict[nodes.Module, bool] = {}
        self._loop_calls: dict[nodes.NodeNG, set[str]] = {}
        self._unscaling_modules: dict[nodes.Module, bool] = {}

    def open(self) -> None:
        self._unscaling_modules = {}
        self._module_trains = {}
        self._compat_modules = {}
        self._loop_calls = {}

    @only_required_for_messages("ms-stop-gradient-discarded", "ms-clip-result-discarded")
    def visit_expr(self, node: nodes.Expr) -> None:
        call = node.value
        if not (isinstance(call, nodes.Call) and isinstance(call.func, (nodes.Name, nodes.Attribute)) and call.args):
            return
        name = resolve.call_name(call)
        if name in apis.CLIPPING_CALLS:
            self._check_discarded_clip(node, call)
            return
        if name not in apis.NO_GRADIENT_CALLS:
            return
        if astutil.after_block_end(node):
            return  # below an unconditional return (raise, continue, break): it never runs
        # Only a value that may carry a gradient loses anything: one computed from the
        # function's inputs or a trainable Parameter. A constant tensor attribute (a
        # mask built with numpy in __init__), integer indices, or a value mslint
        # cannot judge: silent.
        analysis = scope.analysis(node.root())
        known = analysis.values_as_entry(call)
        if known is None or not known.may_carry_gradient(call.args[0]):
            return
        reaching = values.reaching_value(call.args[0]) if isinstance(call.args[0], nodes.Name) else None
        if reaching is not None and not known.may_carry_gradient(reaching):
            return  # ``mask = cast(a > b, int32)`` just above, rebound to a product only after: no gradient here
        if analysis.enclosing(call) is None and (_runs_only_at_construction(call) or _runs_only_as_program(call)):
            return  # only __init__ or the program's own steps (main()) run it: no gradient is taken there
        argument = call.args[0]
        value = argument.as_string()
        # an attribute is detached into a local (assigning self.x in graph code is itself lost)
        target = argument.attrname if isinstance(argument, nodes.Attribute) else value
        self.add_message("ms-stop-gradient-discarded", node=call, args=(spelled(call), value, target, spelled(call)))

    def _check_discarded_clip(self, node: nodes.Expr, call: nodes.Call) -> None:
        if not self.linter.is_message_enabled("ms-clip-result-discarded") or astutil.after_block_end(node):
            return  # (below an unconditional return, raise, continue or break: it never runs)
        clipped = call.args[0]
        if isinstance(clipped, nodes.Starred):
            return
        written = clipped.as_string()
        target = clipped.attrname if isinstance(clipped, nodes.Attribute) else \
            written if isinstance(clipped, nodes.Name) else "clipped"
        self.add_message("ms-clip-result-discarded", node=call, args=(spelled(call), written, target, call.as_string()))

    @only_required_for_messages(
        "ms-torch-keyword-args", "ms-grad-without-has-aux", "ms-loss-without-reduction", "ms-missing-set-train",
        "ms-torch-module-method", "ms-loss-scale-without-unscale", "ms-unknown-context-keyword",
        "ms-optimizer-loss-scale-unmatched",
    )
    def visit_call(self, node: nodes.Call) -> None:
        if isinstance(node.func, nodes.Attribute) and node.func.attrname in apis.TORCH_MODULE_METHODS:
            self._check_module_method(node)
        if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
            return
        qname = resolve.call_name(node)
        if qname is None:
            if isinstance(node.func, nodes.Name) and node.keywords:
                self._check_class_variable_keywords(node)  # act_layer(inplace=True), act_layer=nn.ReLU6
            return
        if qname in apis.TORCH_KEYWORD_APIS:
            self._check_torch_keywords(node, qname)
        elif qname == "functools.partial":
            self._check_partial_keywords(node)  # partial(nn.InstanceNorm2d, track_running_stats=False)
        elif node.keywords and not resolve.is_external(qname):
            self._check_subclass_keywords(node)  # Dense(h, 1, bias=False), the project's Dense(nn.Dense)
        if qname in apis.CONTEXT_KEYWORDS:
            self._check_context_keywords(node, qname)
        if qname in apis.HAS_AUX_GRAD_FUNCTIONS:
            self._check_grad_call(node, qname)
        elif qname in apis.OBJECTIVE_WRAPPERS:
            self._check_objective(node, astutil.argument(node, 0, "network"), f"{_short(qname)}(...)")
            if qname in apis.TRAIN_STEP_CELLS:
                self._check_train_cell(node, _short(qname))
        if qname in apis.LOSS_WRAPPERS:
            self._check_loss_wrapper(node, qname)
        if qname in apis.LOSS_SCALING_TRAINERS:
            self._check_optimizer_loss_scale(node, qname)
        if (
            len(node.args) >= 2
            and not resolve.is_external(qname)
            and self._assigned_and_called_in_loop(node)
        ):
            # train_step = MyTrainStep(network, optimizer), then train_step(...) in a loop
            cls = resolve.user_class_of_call(node)
            if cls is not None and self._is_custom_train_cell(cls):
                self._check_train_cell(node, cls.name)

    # -- ms-torch-keyword-args -------------------------------------------------
    def _check_torch_keywords(self, node: nodes.Call, qname: str, called: str | None = None) -> None:
        if not self.linter.is_message_enabled("ms-torch-keyword-args"):
            return
        if versions.older_mindspore_only(node):
            return  # an older MindSpore's API, chosen by a version check: right where it runs
        api = apis.TORCH_KEYWORD_APIS[qname]
        if not any(keyword.arg in api.keywords for keyword in node.keywords or ()) or values.never_runs(node) \
                or values.never_runs_as_built(node, defaults=False):
            # nothing to say, or under a guard every call in sight makes false (of the
            # function, or of ``self`` as __init__ sets it: ``self.kind = "sim"``)
            return
        for keyword in node.keywords or ():
            fix = api.keywords.get(keyword.arg)
            if fix is None:
                continue
            instead = f"write {fix.rename}={keyword.value.as_string()}" if fix.rename else fix.instead
            edit = edits.rename_keyword(keyword, fix.rename) if fix.rename else edits.delete_argument(node, keyword) if fix.delete else None
            if fix.rename and edits.keyword_named(node, fix.rename) is not None:
                # the renamed keyword would be given twice (a SyntaxError): no fix
                instead, edit = f"remove {keyword.arg}={keyword.value.as_string()} ({fix.rename} is already given)", None
            edits.offer("ms-torch-keyword-args", keyword, [edit] if edit else None, instead)
            self.add_message(
                "ms-torch-keyword-args",
                node=keyword,
                args=(called or spelled(node.func), keyword.arg, api.torch, api.call, api.raises, instead),
            )

    def _check_subclass_keywords(self, node: nodes.Call) -> None:
        """A PyTorch keyword of a MindSpore layer given to the project's subclass of
        it: ``Dense(h, 1, bias=False)`` where ``class Dense(nn.Dense)`` defines
        ``__init__(self, in_channels, out_channels, has_bias=True)``. The ``__init__``
        that runs decides: the project's (nearest in a chain of one base each),
        which raises TypeError for a keyword it neither declares nor takes in
        ``**kwargs``; or, where no project class defines one, the MindSpore
        layer's, judged as the direct construction is."""
        if not self.linter.is_message_enabled("ms-torch-keyword-args"):
            return
        if not any(keyword.arg in _TORCH_KEYWORDS for keyword in node.keywords or ()):
            return  # no keyword any layer refuses: nothing to say, whatever class it builds
        cls = resolve.user_class_of_call(node)
        found = _layer_subclass(cls) if cls is not None else None
        if found is None:
            return
        init, qname = found
        api = apis.TORCH_KEYWORD_APIS[qname]
        base = qname.replace("mindspore.", "", 1)
        if init is None:
            self._check_torch_keywords(node, qname, f"{cls.name} (a subclass of {base} without an __init__ of its own)")
            return
        if init.args.kwarg or init.args.args is None:
            return  # **kwargs may take it (and hand it on), or a signature astroid cannot read
        declared = {arg.name for arg in init.args.args + init.args.kwonlyargs}
        refused = [keyword for keyword in node.keywords
                   if keyword.arg is not None and keyword.arg in api.keywords and keyword.arg not in declared]
        if not refused or values.never_runs(node) or versions.older_mindspore_only(node):
            return
        owner = init.parent.name
        for keyword in refused:
            fix = api.keywords[keyword.arg]
            edit = None
            if fix.rename and fix.rename in declared and edits.keyword_named(node, fix.rename) is None:
                instead = f"write {fix.rename}={keyword.value.as_string()}"
                edit = edits.rename_keyword(keyword, fix.rename)
            elif fix.delete:
                instead, edit = fix.instead, edits.delete_argument(node, keyword)
            else:
                taken = ", ".join(arg.name for arg in init.args.args[1:] + init.args.kwonlyargs)
                instead = f"{owner}.__init__ takes {taken or 'no argument'}: pass the value as one of those, or leave it out"
            edits.offer("ms-torch-keyword-args", keyword, [edit] if edit else None, instead)
            self.add_message(
                "ms-torch-keyword-args",
                node=keyword,
                args=(f"{cls.name} (the project's subclass of {base}, built by {owner}.__init__)", keyword.arg,
                      api.torch, "constructing it", "TypeError", instead),
            )

    def _check_partial_keywords(self, node: nodes.Call) -> None:
        """``functools.partial(nn.InstanceNorm2d, affine=False, track_running_stats=False)``:
        the keywords it fixes are given to every layer built from it, and the first
        call raises as the direct construction would. Silent for a partial held in
        a local name nothing reads (it builds nothing)."""
        layer = node.args[0] if node.args else None
        if not isinstance(layer, (nodes.Name, nodes.Attribute)):
            return
        qname = resolve.qualified_name(layer)
        if qname not in apis.TORCH_KEYWORD_APIS or astutil.held_by_unread_local(node):
            return
        if _passed_to_unread_parameter(node, 0):
            return  # ``super().__init__(norm_layer=partial(nn.LayerNorm, eps=1e-6))`` that no code calls
        self._check_torch_keywords(node, qname, f"{spelled(layer)} (through functools.partial)")

    def _check_class_variable_keywords(self, node: nodes.Call) -> None:
        """A PyTorch keyword given to a name that holds a layer class (a parameter
        ``act_layer=None`` filled in with ``nn.ReLU6``, what each call passes):
        reported only when every class it may hold is known, and each refuses the
        keyword in the same way."""
        if not self.linter.is_message_enabled("ms-torch-keyword-args"):
            return
        if not any(keyword.arg is not None for keyword in node.keywords):
            return
        named = values.classes_named(node.func)
        if not named or any(qname not in apis.TORCH_KEYWORD_APIS for qname in named):
            return  # a class mslint cannot name (nn.Identity takes any keyword), or a user's
        held = sorted(set(named))
        found = [apis.TORCH_KEYWORD_APIS[qname] for qname in held]
        if len({(api.call, api.raises) for api in found}) != 1:
            return
        if values.never_runs(node) or versions.older_mindspore_only(node):
            return
        classes = " or ".join(qname.replace("mindspore.", "", 1) for qname in held)
        torch_names = "/".join(dict.fromkeys(api.torch for api in found))
        for keyword in node.keywords:
            fixes = {api.keywords.get(keyword.arg) for api in found}
            if None in fixes or len(fixes) != 1:
                continue  # a class that takes it, or classes that want different fixes
            fix = fixes.pop()
            instead = f"write {fix.rename}={keyword.value.as_string()}" if fix.rename else fix.instead
            edit = edits.rename_keyword(keyword, fix.rename) if fix.rename else edits.delete_argument(node, keyword) if fix.delete else None
            if fix.rename and edits.keyword_named(node, fix.rename) is not None:
                instead, edit = f"remove {keyword.arg}={keyword.value.as_string()} ({fix.rename} is already given)", None
            edits.offer("ms-torch-keyword-args", keyword, [edit] if edit else None, instead)
            self.add_message(
                "ms-torch-keyword-args",
                node=keyword,
                args=(f"{node.func.name} (always {classes} here)", keyword.arg, torch_names,
                      found[0].call, found[0].raises, instead),
            )

    # -- ms-unknown-context-keyword ----------------------------------------------
    def _check_context_keywords(self, node: nodes.Call, qname: str) -> None:
        if not self.linter.is_message_enabled("ms-unknown-context-keyword"):
            return
        known, parameters = apis.CONTEXT_KNOWN_KEYWORDS[qname], sorted(apis.CONTEXT_KEYWORDS[qname])
        misspelled = [
            (keyword, meant) for keyword in node.keywords or ()
            if keyword.arg is not None and keyword.arg not in known  # not **config, nor a known keyword
            for meant in [difflib.get_close_matches(keyword.arg, parameters, n=2, cutoff=apis.CONTEXT_KEYWORD_CUTOFF)]
            if meant  # else not a misspelling: maybe an older MindSpore's key
        ]
        if not misspelled or values.never_runs(node) or versions.older_mindspore_only(node):
            return  # nothing to say, or code MindSpore 2.10 never runs
        for keyword, meant in misspelled:
            value, edit = keyword.value.as_string(), None
            given = [name for name in meant if edits.keyword_named(node, name) is not None]
            if given:  # the right keyword is there too: the misspelled one is left over
                instead = f"remove {keyword.arg}={value} ({given[0]} is already given)"
            elif len(meant) == 1:
                instead, edit = f"{meant[0]}={value}", edits.rename_keyword(keyword, meant[0])
            else:  # two candidates: the author decides
                instead = " or ".join(f"{name}={value}" for name in meant)
            instead = instead if given else f"write {instead}"
            edits.offer("ms-unknown-context-keyword", keyword, [edit] if edit else None, instead)
            self.add_message(
                "ms-unknown-context-keyword",
                node=keyword,
                args=(spelled(node.func), keyword.arg, " or ".join(meant),
                      apis.CONTEXT_KEYWORD_ERRORS[qname].format(keyword.arg), instead),
            )

    # -- ms-torch-module-method -------------------------------------------------
    def _check_module_method(self, node: nodes.Call) -> None:
        if not self.linter.is_message_enabled("ms-torch-module-method"):
            return
        receiver = node.func.expr
        method = node.func.attrname
        if not _is_mindspore_cell(receiver, method) or self._torch_compat(node.root()):
            return
        if resolve.cell_method_rebound(node, method):
            return  # the project gives nn.Cell this method (mslint.analysis.programs overrides)
        if values.never_runs(node):
            return  # under a guard every call in sight makes false (``if not requires_grad:``)
        if sites.forward_never_runs(node.frame()):
            return  # the forward of a Cell whose inherited construct never calls it: nothing runs it
        if astutil.guarded_by_hasattr(node):
            return  # ``if hasattr(self.rnn, "flatten_parameters"):``: a Cell, which lacks it, never gets there
        name = receiver.as_string() if not isinstance(receiver, nodes.Call) or resolve.is_super_call(receiver) \
            else spelled(receiver.func) + "(...)"
        advice = apis.TORCH_MODULE_METHODS[method]
        changes = _method_edits(node)
        if method in apis.OPTIMIZER_PARAMETERS_ADVICE and _feeds_optimizer(node):
            # an optimizer's parameters: get_parameters() would hand it the moving statistics
            advice = apis.OPTIMIZER_PARAMETERS_ADVICE[method]
            changes = (
                [edits.replace_method_call(node, apis.OPTIMIZER_PARAMETERS_FIX)]
                if method == "parameters" and not (node.args or node.keywords) else None
            )
        edits.offer("ms-torch-module-method", node, changes, advice.format(name))
        self.add_message("ms-torch-module-method", node=node, args=(name, method, advice.format(name)))

    def _torch_compat(self, module: nodes.Module) -> bool:
        """The module imports a PyTorch compatibility layer that adds torch methods."""
        known = self._compat_modules.get(module)
        if known is None:
            names = []
            for imp in scope.analysis(module).imports:
                if isinstance(imp, nodes.Import):
                    names += [name for name, _ in imp.names]
                elif not imp.level:
                    names.append(imp.modname or "")
            known = any(
                name == compat or name.startswith(compat + ".")
                for name in names for compat in apis.TORCH_COMPAT_MODULES
            )
            self._compat_modules[module] = known
        return known

    # -- the differentiated function -------------------------------------------
    def _check_grad_call(self, node: nodes.Call, qname: str) -> None:
        fn = astutil.argument(node, 0, "fn")
        if fn is None or fn is astutil.UNKNOWN:
            return
        named = fn.as_string() if isinstance(fn, (nodes.Name, nodes.Attribute)) else ""
        where = f"{apis.HAS_AUX_GRAD_FUNCTIONS[qname]}({named}, ...)" if named else f"{spelled(node.func)}(...)"
        has_aux = astutil.argument(node, *apis.GRAD_HAS_AUX_ARGUMENT)
        if self.linter.is_message_enabled("ms-grad-without-has-aux") and (
            has_aux is None or _is_literal(has_aux, False)
        ):
            self._check_has_aux(node, fn, where)
        self._check_objective(node, fn, where)
        if self.linter.is_message_enabled("ms-loss-scale-without-unscale"):
            self._check_loss_scale(node, fn, where)
        if self.linter.is_message_enabled("ms-optimizer-loss-scale-unmatched"):
            self._check_custom_step_loss_scale(node, qname, fn)
        weights = astutil.argument(node, *apis.GRAD_WEIGHTS_ARGUMENT)
        if weights is not None and weights is not astutil.UNKNOWN and not _is_literal(weights, None):
            self._check_set_train(node, fn, where)

    def _targets(self, node: nodes.Call, fn: nodes.NodeNG) -> list[nodes.NodeNG]:
        return scope.analysis(node.root()).callable_targets(fn)

    def _check_has_aux(self, node: nodes.Call, fn: nodes.NodeNG, where: str) -> None:
        analysis = scope.analysis(node.root())
        for func in self._targets(node, fn):
            for ret, value in _returns(func):
                if not isinstance(value, nodes.Tuple) or len(value.elts) < 2:
                    continue
                carried = [elt for elt in value.elts[1:] if self._carries_gradient(elt, func, analysis)]
                if not carried:
                    continue
                if not _a_training_objective(value, func, node):
                    continue  # the sum of outputs differentiated on purpose: a derivatives tutorial trains nothing
                if _gradients_never_applied(node):
                    return  # computed and printed, never applied: nothing trains on the sum
                if _independent_loss_terms(value, func):
                    # ``return reconst_loss, kl_div``: every output is a loss term and none
                    # is built from another, so their sum is the objective (a VAE's ELBO,
                    # PPO's actor loss plus entropy bonus) more likely than a slip
                    continue
                if _outputs_are_the_loss_terms(value, carried, func) and _summed_loss_harm(node) is None:
                    # ``loss = mse + vb; return loss, mse, vb``: the sum is 2 * loss, and every
                    # optimizer the gradients reach steps the same on a scaled gradient (measured)
                    continue
                self.add_message(
                    "ms-grad-without-has-aux",
                    node=node,
                    args=(
                        where,
                        len(value.elts),
                        getattr(func, "name", "the lambda"),
                        ret.lineno,
                        value.as_string(),
                        ", ".join(elt.as_string() for elt in carried),
                    ),
                )
                return

    @staticmethod
    def _carries_gradient(elt: nodes.NodeNG, func: nodes.NodeNG, analysis: scope.ModuleAnalysis) -> bool:
        """An extra output computed from the inputs or the network (not a constant, not an
        input passed through, not wrapped in stop_gradient)."""
        if isinstance(elt, nodes.Name) and elt.name in (func.argnames() if hasattr(func, "argnames") else ()):
            return False
        if isinstance(elt, nodes.Call) and resolve.call_name(elt) in apis.NO_GRADIENT_CALLS:
            return False
        if not analysis.depends_on_tensor(elt):
            return False
        # an accuracy from argmax or a comparison carries no gradient: the gradients are
        # the same with or without has_aux (measured)
        known = analysis.values_as_entry(elt)
        return known is None or not known.without_gradient(elt)

    # -- ms-loss-without-reduction ---------------------------------------------
    def _check_objective(self, node: nodes.Call, fn, where: str) -> None:
        if fn is None or fn is astutil.UNKNOWN or not self.linter.is_message_enabled("ms-loss-without-reduction"):
            return
        for func in self._targets(node, fn):
            for _, value in _returns(func):
                objective = value.elts[0] if isinstance(value, nodes.Tuple) and value.elts else value
                loss = self._unreduced_loss_result(objective, func)
                if loss is not None:
                    self._report_loss(node, loss, where)
                    return

    def _unreduced_loss_result(self, expr: nodes.NodeNG, func: nodes.NodeNG) -> nodes.Call | None:
        """The loss construction when ``expr`` is (a name last assigned) the unreduced
        result of calling a loss instance."""
        call = _computing_call(expr, func)
        return self._unreduced_loss(call.func) if call is not None else None

    def _unreduced_loss(self, loss_expr: nodes.NodeNG) -> nodes.Call | None:
        """The construction of a loss with reduction 'none' that ``loss_expr`` holds."""
        construction = loss_expr if isinstance(loss_expr, nodes.Call) else _value_of(loss_expr)
        if not isinstance(construction, nodes.Call):
            return None
        entry = apis.LOSS_REDUCTIONS.get(resolve.call_name(construction))
        if entry is None:
            return None
        position, default = entry
        reduction = astutil.argument(construction, position, "reduction")
        if reduction is astutil.UNKNOWN:
            return None
        if reduction is None:
            value = default
        elif isinstance(reduction, nodes.Const) and isinstance(reduction.value, str):
            value = reduction.value
        else:
            return None
        return construction if value == apis.UNREDUCED else None

    def _check_loss_wrapper(self, node: nodes.Call, qname: str) -> None:
        if not self.linter.is_message_enabled("ms-loss-without-reduction"):
            return
        loss_arg = astutil.argument(node, *apis.LOSS_WRAPPERS[qname])
        if loss_arg is None or loss_arg is astutil.UNKNOWN:
            return
        if qname != "mindspore.nn.WithLossCell":
            optimizer = astutil.argument(node, 2, "optimizer")
            if optimizer is None or _is_literal(optimizer, None) or _only_evaluates(node):
                return  # Model for evaluation only: nothing is differentiated
        loss = self._unreduced_loss(loss_arg)
        if loss is not None:
            self._report_loss(node, loss, f"{spelled(node.func)}(...)")

    def _report_loss(self, node: nodes.Call, loss: nodes.Call, where: str) -> None:
        harm = _summed_loss_harm(node)
        if harm is None:
            return  # Adam and its kind: a summed loss trains like a mean one (measured)
        given = astutil.argument(loss, apis.LOSS_REDUCTIONS[resolve.call_name(loss)][0], "reduction")
        if given is not None:
            # reduction="none" written out is a choice: PyTorch cannot differentiate the
            # per-sample vector, so the original reduced it by hand, with .sum() (d2l's
            # train_batch_ch13, whose learning rates are tuned for the sum) as often as
            # with .mean(). Only MindSpore's own default of 'none' is a sure slip.
            return
        self.add_message(
            "ms-loss-without-reduction",
            node=node,
            args=(loss.as_string(), " (its default reduction is 'none')", where, harm),
        )

    # -- ms-loss-scale-without-unscale ------------------------------------------
    def _check_loss_scale(self, node: nodes.Call, fn, where: str) -> None:
        if self._module_unscales(node.root()):
            return
        for func in self._targets(node, fn):
            for _, value in _returns(func):
                objective = value.elts[0] if isinstance(value, nodes.Tuple) and value.elts else value
                call = _computing_call(objective, func)
                scaler = _loss_scaler_of(call) if call is not None else None
                if scaler is not None:
                    name = scaler.as_string()
                    self.add_message(
                        "ms-loss-scale-without-unscale", node=node, args=(where, call.as_string(), name)
                    )
                    return

    def _module_unscales(self, module: nodes.Module) -> bool:
        """Whether the module unscales gradients: ``scaler.unscale(grads)`` (not only
        the loss, for logging), here or in a project function it calls."""
        known = self._unscaling_modules.get(module)
        if known is None:
            known = _unscales_gradients(module) or any(
                _unscales_gradients(func)
                for func in {resolve.project_function(call.func) for call in astutil.module_nodes(module, nodes.Call)
                             if isinstance(call.func, (nodes.Name, nodes.Attribute))} - {None}
            )
            self._unscaling_modules[module] = known
        return known

    # -- ms-optimizer-loss-scale-unmatched --------------------------------------
    def _check_optimizer_loss_scale(self, node: nodes.Call, qname: str) -> None:
        if not self.linter.is_message_enabled("ms-optimizer-loss-scale-unmatched"):
            return
        (index, keyword), (scaling_index, scaling) = apis.LOSS_SCALING_TRAINERS[qname]
        if astutil.argument(node, scaling_index, scaling) is not None:
            return  # a manager or sens given (or **kwargs that may carry one)
        is_model = qname != "mindspore.nn.TrainOneStepCell"
        if is_model:
            level = astutil.argument(node, *apis.MODEL_AMP_LEVEL_ARGUMENT)
            if level is not None and values.constant(level) != "O0":
                return  # an amp level may bring its own loss scale manager
            if _only_evaluates(node):
                return  # nothing is trained with it
        holder = astutil.argument(node, index, keyword)
        if not isinstance(holder, (nodes.Name, nodes.Attribute, nodes.Call)):
            return
        construction = holder if isinstance(holder, nodes.Call) else _value_of(holder)
        optimizer = _optimizer_qname(construction)
        if optimizer not in apis.OPTIMIZER_LOSS_SCALE_ARGUMENT:
            return
        given = astutil.argument(construction, apis.OPTIMIZER_LOSS_SCALE_ARGUMENT[optimizer], apis.OPTIMIZER_LOSS_SCALE)
        if given is None or given is astutil.UNKNOWN:
            return
        scale = _scale_value(given)
        if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale <= 1:
            return
        shown = f"{scale:g}"
        if is_model:
            missing = "no loss_scale_manager is given to it, so nothing"
            advice = (f"pass loss_scale_manager=FixedLossScaleManager({shown}, drop_overflow_update=False) "
                      "to the Model, or drop loss_scale from the optimizer")
        else:
            missing = "without sens nothing"
            advice = f"pass sens={shown} to the TrainOneStepCell, or drop loss_scale from the optimizer"
        self.add_message(
            "ms-optimizer-loss-scale-unmatched", node=node,
            args=(f"{spelled(node.func)}(...)", _short(optimizer), given.as_string(), shown, missing, shown, advice),
        )

    def _check_custom_step_loss_scale(self, node: nodes.Call, qname: str, fn: nodes.NodeNG) -> None:
        """A custom step whose whole chain is in sight: ``grad_fn = ms.value_and_grad(forward,
        ...)`` of a function returning a MindSpore loss's output unchanged, then
        ``loss, grads = grad_fn(...)`` and ``optimizer(grads)`` with the gradients as they
        came, where the optimizer is an nn.Momentum/nn.SGD built with loss_scale > 1."""
        has_aux = astutil.argument(node, *apis.GRAD_HAS_AUX_ARGUMENT)
        with_value = qname.endswith("value_and_grad")
        if has_aux is not None and not _is_literal(has_aux, False) and not (with_value and _is_literal(has_aux, True)):
            return  # ms.grad(..., has_aux=True) returns (grads, aux); an unknown has_aux
        forward = _plain_forward(node, fn)
        if forward is None:
            return
        for step, optimizer in _steps_of(node, with_value):
            for construction in _passed_values(optimizer):
                found = _loss_scaled_optimizer(construction)
                if found is None:
                    continue
                qname_opt, given, scale = found
                shown = f"{scale:g}"
                missing = (f"{forward}, which {apis.HAS_AUX_GRAD_FUNCTIONS[qname]} differentiates, returns the loss "
                           "as the loss function gives it and the gradients reach the optimizer unchanged, so nothing")
                advice = f"drop loss_scale from the optimizer, or multiply the loss by {shown} in {forward}"
                self.add_message(
                    "ms-optimizer-loss-scale-unmatched", node=step,
                    args=(step.as_string(), _short(qname_opt), given.as_string(), shown, missing, shown, advice),
                )
                break

    # -- ms-missing-set-train --------------------------------------------------
    @staticmethod
    def _is_custom_train_cell(cls: nodes.ClassDef) -> bool:
        """A user Cell that trains the network it is given: derived from TrainOneStepCell."""
        return resolve.derives_from(cls, apis.TRAIN_STEP_CELLS)

    def _check_train_cell(self, node: nodes.Call, name: str) -> None:
        """A train-step Cell built here and called in a loop trains its first argument."""
        if not self.linter.is_message_enabled("ms-missing-set-train"):
            return
        bound = self._assigned_and_called_in_loop(node)
        network = astutil.argument(node, 0, "network")
        if bound is None or network is None or network is astutil.UNKNOWN:
            return
        self._report_set_train(node, network, f"{name}(...)", bound)

    def _assigned_and_called_in_loop(self, node: nodes.Call) -> str | None:
        """The name ``node`` is assigned to when that name is called inside a loop of
        the same scope (``train_net = ...`` then ``for ...: train_net(x, y)``)."""
        target = node.parent
        if not (isinstance(target, nodes.Assign) and len(target.targets) == 1):
            return None
        bound = target.targets[0]
        if not isinstance(bound, nodes.AssignName):
            return None
        owner = node.scope()
        names = self._loop_calls.get(owner)
        if names is None:
            # the scope's own loops from the module's index, each outermost one walked
            # once (walking the scope, then every loop nested in another, again and
            # again, was a twentieth of the rules' time)
            loops = [loop for loop in astutil.module_nodes(owner.root(), (nodes.For, nodes.While))
                     if _outside_nested(loop, owner)]
            own = set(loops)
            names = self._loop_calls[owner] = {
                call.func.name
                for loop in loops
                if not _inside_any(loop, own, owner)
                for call in loop.nodes_of_class(nodes.Call)
                if isinstance(call.func, nodes.Name)
            }
        return bound.name if bound.name in names else None

    def _check_set_train(self, node: nodes.Call, fn: nodes.NodeNG, where: str) -> None:
        if not self.linter.is_message_enabled("ms-missing-set-train") or _built_never_used(node):
            return
        # the network whose weights are differentiated, when the weights say which:
        # another network the forward function runs (a frozen teacher, a GAN's
        # discriminator in the generator's step) is not trained there; else every
        # callable the forward function calls, through the module's helper functions
        # it calls (forward_grad -> forward -> net)
        weights = astutil.argument(node, *apis.GRAD_WEIGHTS_ARGUMENT)
        owner = _weights_owner(weights)
        reached = _helpers_reached(self._targets(node, fn))
        candidates = [owner] if owner is not None else [fn]
        for func in reached if owner is None else ():
            candidates.extend(
                call.func for call in func.nodes_of_class(nodes.Call, skip_klass=_SKIP_NESTED)
                if isinstance(call.func, (nodes.Name, nodes.Attribute))
            )
        for network in candidates:
            if self._report_set_train(node, network, where, scopes=reached):
                return

    def _report_set_train(
        self, node: nodes.Call, network: nodes.NodeNG, where: str, receiver: str = "", scopes: list | None = None
    ) -> bool:
        dependence = _ModeDependence()
        reason = dependence.of_expression(network)
        if reason is None:
            return False
        name = network.as_string() if isinstance(network, (nodes.Name, nodes.Attribute)) else "the network"
        if not self._set_to_train(node, network, scopes or []):
            self.add_message(
                "ms-missing-set-train", node=node,
                args=(where, name, reason, _NEVER_SET, "never updates", receiver or name, "before the training loop"),
            )
            return True
        switched = _switched_off_in_loop(node, _network_names(network, node), scopes or [])
        if switched is None:
            return False
        how, after = switched
        self.add_message(
            "ms-missing-set-train", node=node,
            args=(where, name, reason, how, "no longer updates", receiver or name, after),
        )
        return True

    def _set_to_train(self, node: nodes.Call, network: nodes.NodeNG, forward: list) -> bool:
        """Whether set_train() (or a Model, whose train() calls it) reaches this network
        instance where it is trained: judged per instance and per training function,
        not per module. A set_train() covers it when it is called on the network, a
        Cell holding it, or a value mslint cannot tell from it (a parameter), in a
        function that trains it (where ``node`` is, or calls what ``node`` builds),
        or before a call of such a function in its caller, or at module level on a
        module-level network. set_train(False) never does. ``forward``: the forward
        function and the helpers it calls, which train it too."""
        module = node.root()
        names = _network_names(network, node)
        if not names:
            return self._module_calls_set_train(module)  # no instance to follow: the module decides
        scopes = _training_scopes(node) | set(forward)
        enabling = [call for call in astutil.module_nodes(module, nodes.Call) if _enables_training(call)]
        for call in enabling:
            if isinstance(call.func, (nodes.Name, nodes.Attribute)) and resolve.call_name(call) in apis.SET_TRAIN_RUNNERS:
                held = astutil.argument(call, 0, "network")
                if held is None or held is astutil.UNKNOWN or _root_name(held) in names or _root_name(held) is None:
                    return True  # Model(net, ...).train() sets it
                continue
            target = _root_name(call.func.expr)
            scope = call.scope()
            if scope in scopes and (target in names or not _other_instance(call.func.expr, names)):
                return True
            if isinstance(scope, nodes.Module) and target in names:
                return True
        # the caller of a training function sets it before the call: net.set_train(); train(net, ...)
        for func in scopes:
            if not isinstance(func, nodes.FunctionDef):
                continue
            for site in _callers(func):
                passed = {_root_name(value) for value in astutil.call_arguments(site)} | names
                for call in enabling:
                    if (call.scope() is site.scope() and (call.lineno or 0) < (site.lineno or 0)
                            and isinstance(call.func, nodes.Attribute) and _root_name(call.func.expr) in passed):
                        return True
        if isinstance(network, nodes.Attribute) and astutil.is_self(network.expr):
            # a sibling method switches it on (a PPO agent's choose_action() calls
            # self.actor.set_train() and the caller's loop runs it before update())
            cls = astutil.enclosing_class(network)
            for call in enabling:
                receiver = call.func.expr if isinstance(call.func, nodes.Attribute) else None
                if (cls is not None and isinstance(receiver, nodes.Attribute) and astutil.is_self(receiver.expr)
                        and receiver.attrname == network.attrname and astutil.enclosing_class(call) is cls):
                    return True
        return _instances_set_to_train(network)

    def _module_calls_set_train(self, module: nodes.Module) -> bool:
        """Whether anything in the module may switch a Cell to training: a set_train()
        call that is not set_train(False), or a Model (Model.train calls it)."""
        known = self._module_trains.get(module)
        if known is None:
            known = any(_enables_training(call) for call in astutil.module_nodes(module, nodes.Call))
            self._module_trains[module] = known
        return known


def _built_never_used(node: nodes.Call) -> bool:
    """``grad_fn = ms.value_and_grad(...)`` in a function that never uses
    ``grad_fn`` (nor a function nested in it): nothing trains through it (a script
    that only evaluates a loaded checkpoint, its training set-up left over)."""
    # (a module's name: other modules may import it)
    return isinstance(node.scope(), nodes.FunctionDef) and astutil.held_by_unread_local(node)


def _instances_set_to_train(network: nodes.NodeNG) -> bool:
    """``self.network`` differentiated in a method of a training Cell ``C`` whose
    instances the program switches on where it builds them: ``step = C(model, opt)``
    then ``step.set_train()`` or ``step.network.set_train()`` in the scope of the
    construction (another module's training loop, often): set_train on a Cell reaches
    the Cells it holds."""
    if not (isinstance(network, nodes.Attribute) and astutil.is_self(network.expr)):
        return False
    cls = astutil.enclosing_class(network)
    init = astutil.own_method(cls, "__init__") if cls is not None else None
    if init is None:
        return False
    # the parameter ``self.<attr> = <param>`` stores: what a construction passes there
    # is the network (``model.set_train(True)`` then ``step = C(model, opt)``)
    assigned = values.init_value(network)
    params = init.argnames()[1:]
    param = assigned.name if isinstance(assigned, nodes.Name) and assigned.name in params else None
    for site in sites.calls_of(init):
        construction = site[0]
        passed = astutil.argument(construction, params.index(param), param) if param is not None else None
        given = _root_name(passed) if isinstance(passed, (nodes.Name, nodes.Attribute)) else None
        assign = construction.parent
        name = None
        if isinstance(assign, nodes.Assign) and assign.value is construction and len(assign.targets) == 1 \
                and isinstance(assign.targets[0], nodes.AssignName):
            name = assign.targets[0].name
        if name is None and given is None:
            continue
        for call in construction.scope().nodes_of_class(nodes.Call):
            func = call.func
            if not (_enables_training(call) and isinstance(func, nodes.Attribute)):
                continue
            receiver = func.expr
            if (isinstance(receiver, nodes.Name) and receiver.name in (name, given)) or (
                    isinstance(receiver, nodes.Attribute) and receiver.attrname == network.attrname
                    and isinstance(receiver.expr, nodes.Name) and receiver.expr.name == name):
                return True
    return False


_HELPER_DEPTH = 3
_NEVER_SET = "no set_train() reaches it where it is trained: a new Cell has training=False"


def _switched_off_in_loop(node: nodes.Call, names: set[str], forward: list) -> tuple[str, str] | None:
    """The training step ``node`` sets up is called in a loop that also switches the
    network off, ``net.set_train(False)`` in the loop or in a function the loop calls
    (a sampling helper, an evaluation method), while nothing in the loop, nor what it
    calls, switches it back on: from that call on, every later step of the loop trains
    in inference mode (an outer loop that sets it back on only starts the next round).
    (what to say of it, where to call set_train()) or None."""
    assign = node.parent
    if not names or not (isinstance(assign, nodes.Assign) and len(assign.targets) == 1
                         and isinstance(assign.targets[0], nodes.AssignName)):
        return None
    step = assign.targets[0]
    for call in astutil.module_nodes(node.root(), nodes.Call):
        if not (isinstance(call.func, nodes.Name) and call.func.name == step.name):
            continue
        if resolve.binding(call.func) is not step:
            continue  # another function's step of the same name
        loop = _enclosing_loop(call)
        if loop is None:
            continue
        body = _loop_functions(loop)
        if body is None:
            continue  # the loop calls a method mslint cannot see: it may set it back on
        if any(_switches_on(found, names) for func in [loop, *(func for func, _ in body), *forward]
               for found in _own_calls(func)):
            continue  # set back on in the loop (or never provably off)
        for func, site in [(loop, None), *body]:
            for found in _own_calls(func):
                if not _switches_off(found, names, loop, func, site) or not _steps_follow(found if site is None else site, loop):
                    continue
                receiver = found.func.expr.as_string()
                if site is None:
                    return (f"the training loop calls {receiver}.set_train(False) (line {found.lineno}) "
                            "and nothing in the loop sets it back: after that line it trains with training=False",
                            f"again after line {found.lineno}")
                return (f"{func.name}(), which the training loop calls (line {site.lineno}), sets {receiver}.set_train(False) "
                        f"(line {found.lineno}) and nothing in the loop sets it back: from the first such call on "
                        "it trains with training=False",
                        f"again after {func.name}() returns")
    return None


def _enclosing_loop(call: nodes.Call) -> nodes.For | nodes.While | None:
    """The innermost loop of ``call``'s own function (or module) that holds it."""
    node = call.parent
    while node is not None and not isinstance(node, (nodes.FunctionDef, nodes.Lambda, nodes.Module)):
        if isinstance(node, (nodes.For, nodes.While)):
            return node
        node = node.parent
    return None


def _own_calls(scope: nodes.NodeNG) -> list[nodes.Call]:
    return list(scope.nodes_of_class(nodes.Call, skip_klass=_SKIP_NESTED))


def _loop_class(loop: nodes.NodeNG) -> nodes.ClassDef | None:
    """The class whose method (or a function nested in it) holds ``loop``: ``self`` there."""
    frame = loop.scope()
    while isinstance(frame, (nodes.FunctionDef, nodes.Lambda)):
        if isinstance(frame.parent, nodes.ClassDef):
            return frame.parent if astutil.is_bound_method(frame) else None
        frame = frame.parent.scope()
    return None


def _loop_functions(loop: nodes.NodeNG) -> list[tuple[nodes.FunctionDef, nodes.Call]] | None:
    """The functions a loop calls by name, the methods of its class it calls on
    ``self`` (where the loop is in a method), and those they call, to _HELPER_DEPTH
    calls deep; each with the call in the loop that runs it. None when the loop (or
    one of them) calls a method of ``self`` that is not defined in the class (an
    inherited one mslint does not follow)."""
    cls = _loop_class(loop)
    reached: list[tuple[nodes.FunctionDef, nodes.Call]] = []
    frontier: list[tuple[nodes.NodeNG, nodes.Call | None]] = [(loop, None)]
    for _ in range(_HELPER_DEPTH + 1):
        found = []
        for func, site in frontier:
            for call in _own_calls(func):
                called = _called_function(call, cls)
                if called is _UNSEEN:
                    return None
                if called is not None and called is not loop and all(called is not seen for seen, _ in reached + found):
                    found.append((called, site or call))
        reached.extend(found)
        frontier = found
    return reached


_UNSEEN = object()


def _called_function(call: nodes.Call, cls: nodes.ClassDef | None):
    """The function of the module a call runs by name (not a method), or the method
    of ``cls`` it runs on ``self``; _UNSEEN for a method of ``self`` that ``cls``
    does not define (nor assigns as an attribute); None otherwise."""
    if isinstance(call.func, nodes.Name):
        bound = resolve.binding(call.func)
        if isinstance(bound, nodes.FunctionDef) and not isinstance(bound.parent, nodes.ClassDef):
            return bound
        return None
    if cls is None or not isinstance(call.func, nodes.Attribute) or astutil.self_attribute(call.func) is None:
        return None
    name = call.func.attrname
    defined = cls.locals.get(name, ())
    methods = [item for item in defined if isinstance(item, nodes.FunctionDef)]
    if len(methods) == 1 and len(defined) == 1 and astutil.is_bound_method(methods[0]):
        return methods[0]
    if defined or any(astutil.self_attribute(target) == name for target in cls.nodes_of_class(nodes.AssignAttr)):
        return None  # an attribute (a sub-Cell, a stored function): not a method here
    return _UNSEEN


_UNREAD_DEPTH = 3


def _passed_to_unread_parameter(value: nodes.NodeNG, depth: int) -> bool:
    """``value`` is an argument of a call of project code that binds it to a
    parameter its body never uses, or only hands on, as it is, to calls of project
    code whose own parameter is such a one (``super().__init__(norm_layer=
    partial(...))``, ``MixVisionTransformer`` passing ``norm_layer`` to every
    ``Block``, whose ``__init__`` builds its norms without it): the value is
    never called, so what it would build never exists."""
    call = value.parent
    if isinstance(call, nodes.Keyword):
        call = call.parent
    if not isinstance(call, nodes.Call) or value is call.func or depth > _UNREAD_DEPTH:
        return False
    callee = _called_init_or_function(call)
    if callee is None or callee.args.vararg or callee.args.kwarg:
        return False
    names = [names for names, argument in astutil.bind_call(call, callee, skips_self=callee.type == "method")
             if argument is value]
    if len(names) != 1 or len(names[0]) != 1:
        return False
    name = names[0][0]
    if len(callee.locals.get(name, ())) != 1:
        return False  # rebound in the body: judged where it is used
    for read in callee.nodes_of_class(nodes.Name):
        if read.name != name:
            continue
        if not _passed_to_unread_parameter(read, depth + 1):
            return False
    return True


def _called_init_or_function(call: nodes.Call) -> nodes.FunctionDef | None:
    """The project code a call runs: ``super().__init__`` of a project base, a
    project class's ``__init__`` (as Python finds it among the project's classes),
    a function of another project module (resolve.project_function); None otherwise."""
    func = call.func
    if isinstance(func, nodes.Attribute) and func.attrname == "__init__" and resolve.is_super_call(func.expr):
        cls = astutil.enclosing_class(call)
        if cls is None:
            return None
        user, _ = resolve.class_hierarchy(cls)
        for base in user[1:]:
            init = astutil.own_method(base, "__init__")
            if init is not None:
                return init
        return None
    cls = resolve.user_class_of_call(call)
    if cls is not None:
        return resolve.find_method(cls, "__init__")
    return resolve.project_function(func) if isinstance(func, (nodes.Name, nodes.Attribute)) else None


def _switches_on(call: nodes.Call, names: set[str]) -> bool:
    """``net.set_train()`` on the network, on what holds it, or on a value mslint
    cannot tell from it; ``Model(...)``."""
    if not _enables_training(call):
        return False
    if not isinstance(call.func, nodes.Attribute) or call.func.attrname != apis.SET_TRAIN_METHOD:
        return True
    target = _root_name(call.func.expr)
    return target is None or target in names or not _other_instance(call.func.expr, names)


def _switches_off(call: nodes.Call, names: set[str], loop: nodes.NodeNG, func: nodes.NodeNG, site: nodes.Call | None) -> bool:
    """``net.set_train(False)`` on the network the loop trains: a name of it the loop
    sees too (a module-level name, a local of a function holding the loop); the
    network's ``self`` attribute in a method of the loop's class, reached on ``self``;
    or a parameter of a function the loop calls with the network (``evaluate(net)``)."""
    method = call.func
    if not (isinstance(method, nodes.Attribute) and method.attrname == apis.SET_TRAIN_METHOD) or _enables_training(call):
        return False
    receiver = method.expr
    if isinstance(receiver, nodes.Attribute):
        cls = _loop_class(loop)
        return (cls is not None and _root_name(receiver) in names and isinstance(receiver.expr, nodes.Name)
                and astutil.self_attribute(receiver) is not None and _loop_class(call) is cls)
    if not isinstance(receiver, nodes.Name) or receiver.name not in names:
        return False
    bound = resolve.binding(receiver)
    if bound is None:
        return False
    if isinstance(bound.parent, nodes.Arguments):
        # a parameter: what the loop passes for it, where the loop calls this function itself
        if site is None or bound.scope() is not func or not isinstance(site.func, nodes.Name) \
                or resolve.binding(site.func) is not func:
            return False
        passed = [value for params, value in astutil.bind_call(site, func, False) if receiver.name in params]
        return len(passed) == 1 and isinstance(passed[0], nodes.Name) and passed[0].name in names
    holder = bound.scope()
    scope = loop.scope()
    while scope is not None:
        if scope is holder:
            return True
        if isinstance(scope, nodes.Module):
            return False
        scope = scope.parent.scope()
    return False


def _leaves(statement: nodes.NodeNG) -> bool:
    """A ``break`` or ``return`` of the enclosing loop in ``statement``, not of a loop
    or function nested in it."""
    if isinstance(statement, (nodes.Break, nodes.Return)):
        return True
    if isinstance(statement, (*_SKIP_NESTED, nodes.For, nodes.While)):
        return False
    return any(True for _ in statement.nodes_of_class((nodes.Break, nodes.Return), skip_klass=(*_SKIP_NESTED, nodes.For, nodes.While)))


def _steps_follow(statement: nodes.NodeNG, loop: nodes.For | nodes.While) -> bool:
    """Whether the loop may step again after ``statement`` runs: not when it is in the
    loop's ``else`` (run once the loop is done), nor when a ``break`` or ``return``
    follows it in its block or an enclosing block of the loop's body."""
    node = statement
    while node is not None and node is not loop:
        parent = node.parent
        if parent is loop and node in (loop.orelse or ()):
            return False
        for field in ("body", "orelse", "handlers", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and node in block:
                later = block[block.index(node) + 1:]
                if any(_leaves(stmt) for stmt in later):
                    return False
        node = parent
    return True


def _helpers_reached(targets: list) -> list[nodes.FunctionDef]:
    """The functions a differentiated function runs: itself, and the functions of the
    module it calls by name, transitively (``generator_forward_grad`` ->
    ``generator_forward`` -> ``generator``), to _HELPER_DEPTH calls deep; not methods."""
    reached = [func for func in targets if isinstance(func, nodes.FunctionDef) and not isinstance(func.parent, nodes.ClassDef)]
    frontier = list(reached)
    for _ in range(_HELPER_DEPTH):
        found = []
        for func in frontier:
            for call in func.nodes_of_class(nodes.Call, skip_klass=_SKIP_NESTED):
                bound = resolve.binding(call.func) if isinstance(call.func, nodes.Name) else None
                if isinstance(bound, nodes.FunctionDef) and not isinstance(bound.parent, nodes.ClassDef) \
                        and bound not in reached and bound not in found:
                    found.append(bound)
        reached.extend(found)
        frontier = found
    return reached


def _weights_owner(weights: nodes.NodeNG | None) -> nodes.NodeNG | None:
    """The network whose parameters a grad call differentiates: ``net`` of
    ``net.trainable_params()``, or of the optimizer built from them
    (``optimizer.parameters`` after ``optimizer = nn.Adam(net.trainable_params(), ...)``)."""
    if isinstance(weights, nodes.Attribute) and weights.attrname == apis.OPTIMIZER_PARAMETERS_ATTRIBUTE:
        built = _value_of(weights.expr)
        weights = astutil.argument(built, 0, "params") if isinstance(built, nodes.Call) else None
    if isinstance(weights, nodes.Call) and isinstance(weights.func, nodes.Attribute) \
            and weights.func.attrname in apis.CELL_PARAMETER_METHODS and not weights.args:
        owner = weights.func.expr
        return owner if isinstance(owner, (nodes.Name, nodes.Attribute)) else None
    return None


def _root_name(expr: nodes.NodeNG | None) -> str | None:
    """``net`` for ``net``, ``self.backbone`` for ``self.backbone.head``; None otherwise."""
    if isinstance(expr, nodes.Name):
        return expr.name
    if isinstance(expr, nodes.Attribute):
        if astutil.self_attribute(expr) is not None:
            return f"self.{expr.attrname}"
        return _root_name(expr.expr)
    return None


def _network_names(network: nodes.NodeNG, node: nodes.Call) -> set[str]:
    """The names that hold this network instance: its own, the names whose value it
    is built from (``WithLossCell(net, ...)``: net, written there or held in a name
    bound once to it), the names assigned a Cell built
    from it (``train_net = TrainOneStepCell(loss_net, ...)``), and the name ``node``'s
    result is bound to."""
    names = {name for name in (_root_name(network),) if name is not None}
    if isinstance(network, nodes.Call):
        names |= {
            name.name for name in network.nodes_of_class(nodes.Name)
            if name is not network.func and not isinstance(resolve.binding(name), (nodes.Import, nodes.ImportFrom))
        }
    if isinstance(node.parent, nodes.Assign):
        names |= {target.name for target in node.parent.targets if isinstance(target, nodes.AssignName)}
    # a name bound once to MindSpore's wrapper of a network (``net_with_loss =
    # WithLossCell(model, loss_fn)``): the network it wraps, as when written inline
    held = network
    for _ in range(3):
        value = _value_of(held) if isinstance(held, (nodes.Name, nodes.Attribute)) else None
        if not (isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute))
                and resolve.call_name(value) in apis.NETWORK_WRAPPERS):
            break
        held = astutil.argument(value, 0, "network")
        inner = _root_name(held) if held is not None and held is not astutil.UNKNOWN else None
        if inner is None:
            break
        names.add(inner)
    if not names:
        return names
    assigns = [
        assign for assign in astutil.module_nodes(node.root(), nodes.Assign)
        if len(assign.targets) == 1 and isinstance(assign.targets[0], (nodes.AssignName, nodes.AssignAttr))
    ]
    for _ in range(3):  # containers of containers
        grown = set(names)
        for assign in assigns:
            target = _root_name(assign.targets[0]) if isinstance(assign.targets[0], nodes.AssignAttr) else assign.targets[0].name
            mentioned = {_root_name(item) for item in assign.value.nodes_of_class((nodes.Name, nodes.Attribute))}
            if target is not None and mentioned & names:
                grown.add(target)
        if grown == names:
            break
        names = grown
    return names


def _training_scopes(node: nodes.Call) -> set[nodes.NodeNG]:
    """Where the network ``node`` sets up is trained: the scope of ``node``, the
    scopes calling the name it is bound to (``grad_fn(...)``, ``train_net(...)``),
    and the scopes calling the functions that do (a ``train_step`` helper's loop)."""
    scopes: set[nodes.NodeNG] = {node.scope()}
    assign = node.parent
    if not (isinstance(assign, nodes.Assign) and len(assign.targets) == 1):
        return scopes
    target = assign.targets[0]
    owner = None
    if isinstance(target, nodes.AssignAttr):
        # ``self.grad_fn = value_and_grad(...)`` in a method: ``self.grad_fn(...)`` in the
        # methods of the same class runs it (another class's self.grad_fn is another object)
        attr = astutil.self_attribute(target)
        owner = _method_class(node.scope()) if attr is not None else None
        bound = f"self.{attr}" if owner is not None else None
    else:
        bound = getattr(target, "name", None)
    if bound is None:
        return scopes
    callers = {
        call.scope() for call in astutil.module_nodes(node.root(), nodes.Call)
        if _root_name(call.func) == bound and call.func is not None
        and (owner is None or _method_class(call.scope()) is owner)
    }
    scopes |= callers
    for func in list(callers):
        if isinstance(func, nodes.FunctionDef):
            scopes |= {site.scope() for site in _callers(func) if site.root() is node.root()}
    return scopes


def _method_class(scope: nodes.NodeNG) -> nodes.ClassDef | None:
    """The class whose method ``scope`` is (directly, or a function nested in one)."""
    while isinstance(scope, (nodes.FunctionDef, nodes.Lambda)):
        parent = scope.parent.frame()
        if isinstance(parent, nodes.ClassDef):
            return parent
        scope = parent
    return None


def _callers(func: nodes.FunctionDef) -> list[nodes.Call]:
    """The calls that run ``func``: those :func:`sites.calls_of` knows, and for a
    function nested in another (``def train_step`` inside ``main``), the calls of
    its name in the function that defines it and the functions nested there
    (``def train_loop(): ...; train_step(x)``), where the name means that function."""
    outer = func.parent.scope()
    if not isinstance(outer, nodes.FunctionDef):
        return [site for site, _ in sites.calls_of(func)]
    return [
        call for call in outer.nodes_of_class(nodes.Call)
        if isinstance(call.func, nodes.Name) and call.func.name == func.name and resolve.binding(call.func) is func
    ]


def _other_instance(receiver: nodes.NodeNG, names: set[str]) -> bool:
    """Whether a set_train receiver is known to be another network (a name assigned
    a Cell built from none of ``names``); a parameter or an unknown value is not."""
    value = _value_of(receiver)
    if not isinstance(value, nodes.Call):
        return False
    built_from = {_root_name(item) for item in value.nodes_of_class((nodes.Name, nodes.Attribute))}
    return not (built_from & names)


def _reason_at_sites(network: nodes.NodeNG, dependence: _ModeDependence, depth: int) -> str | None:
    """For a network that is a parameter of its function (``def train(net, data)``),
    what the callers pass: the first whose Cells behave differently in training."""
    if not isinstance(network, nodes.Name) or depth >= _MAX_DEPTH:
        return None
    func = network.frame()
    bound = func.locals.get(network.name, ()) if isinstance(func, nodes.FunctionDef) else ()
    if len(bound) != 1 or not isinstance(bound[0].parent, nodes.Arguments):
        return None
    for site, skips_self in sites.calls_of(func):
        for names, value in astutil.bind_call(site, func, skips_self):
            if names == [network.name]:
                found = dependence.of_expression(value, depth + 1)
                if found is not None:
                    return found
    return None


def _summed_loss_harm(node: nodes.Call) -> str | None:
    """What a summed loss does to the training ``node`` sets up (a grad call, a
    TrainOneStepCell, a Model), judged by the optimizer the gradients reach: None
    when every such optimizer is one a loss's scale leaves unchanged (measured)."""
    found = _consuming_optimizers(node)
    if not found:
        return (
            "the learning rate silently scaled by the batch size under SGD or Momentum (an optimizer "
            "such as Adam, without weight decay, is not affected)"
        )
    for qname, construction in found:
        name = _short(qname)
        if qname in apis.LINEAR_OPTIMIZERS:
            return f"the learning rate of {name} silently scaled by the batch size"
        decoupled = apis.SCALE_INVARIANT_OPTIMIZERS.get(qname)
        if decoupled is None:
            return f"so the steps of {name} change with the batch size"
        if not decoupled and _decays(construction):
            return (
                f"so {name}'s weight_decay, added to that gradient, is as many times weaker as the batch "
                "is large"
            )
    return None


def _consuming_optimizers(node: nodes.Call) -> list[tuple[str, nodes.Call]]:
    """The optimizer constructions the gradients of ``node`` reach: the one whose
    ``.parameters`` are its weights (``value_and_grad(fn, None, optimizer.parameters)``),
    the optimizer given to a TrainOneStepCell or a Model; else every optimizer the
    module builds (the training step applies one of them)."""
    qname = resolve.call_name(node)
    if qname in apis.HAS_AUX_GRAD_FUNCTIONS:
        weights = astutil.argument(node, *apis.GRAD_WEIGHTS_ARGUMENT)
        holder = weights.expr if isinstance(weights, nodes.Attribute) and weights.attrname == "parameters" else None
    else:
        index = 1 if qname in apis.TRAIN_STEP_CELLS or qname == "mindspore.nn.ForwardValueAndGrad" else 2
        holder = astutil.argument(node, index, "optimizer")
    if isinstance(holder, (nodes.Name, nodes.Attribute, nodes.Call)):
        construction = holder if isinstance(holder, nodes.Call) else _value_of(holder)
        optimizer = _optimizer_qname(construction)
        if optimizer is not None:
            return [(optimizer, construction)]
    found = []
    for call in astutil.module_nodes(node.root(), nodes.Call):
        optimizer = _optimizer_qname(call)
        if optimizer is not None:
            found.append((optimizer, call))
    return found


def _optimizer_qname(construction: nodes.NodeNG | None) -> str | None:
    if not (isinstance(construction, nodes.Call) and isinstance(construction.func, (nodes.Name, nodes.Attribute))):
        return None
    qname = resolve.call_name(construction)
    return qname if qname in apis.OPTIMIZER_CLASSES else None


def _decays(construction: nodes.Call) -> bool:
    """Whether an optimizer applies weight decay: a weight_decay argument that is not
    a literal 0, or parameter groups that set one."""
    given = astutil.argument(construction, None, apis.OPTIMIZER_WEIGHT_DECAY)
    if given is astutil.UNKNOWN:
        return True
    if given is not None and astutil.literal(given) != 0:
        return True
    groups = astutil.argument(construction, 0, "params")
    if isinstance(groups, nodes.Name):
        groups = resolve.assigned_value(groups)
    return isinstance(groups, nodes.NodeNG) and any(
        isinstance(key, nodes.Const) and key.value == apis.OPTIMIZER_WEIGHT_DECAY
        for mapping in groups.nodes_of_class(nodes.Dict)
        for key, _ in mapping.items
    )


def _feeds_optimizer(node: nodes.NodeNG, depth: int = 0) -> bool:
    """Whether the value of ``node`` becomes what an optimizer trains (its params,
    directly, in a parameter group, through ``filter``/``list``/a comprehension, or
    through a name assigned it) or the weights of a grad function."""
    if depth > 3:
        return False
    for _ in range(8):
        parent = node.parent
        if isinstance(parent, nodes.Keyword):
            call, keyword, position = parent.parent, parent.arg, None
        elif isinstance(parent, nodes.Call) and node in parent.args:
            call, keyword, position = parent, None, parent.args.index(node)
        else:
            call = None
        if call is not None:
            qname = resolve.call_name(call) if isinstance(call.func, (nodes.Name, nodes.Attribute)) else None
            if qname in apis.OPTIMIZER_CLASSES:
                return keyword == "params" or position == 0
            if qname in apis.HAS_AUX_GRAD_FUNCTIONS:
                return keyword == apis.GRAD_WEIGHTS_ARGUMENT[1] or position == apis.GRAD_WEIGHTS_ARGUMENT[0]
            if qname not in apis.ITEM_PASSING_CALLS:
                return False
            node = call
            continue
        if isinstance(parent, nodes.Comprehension) and node is parent.iter:
            node = parent.parent  # the comprehension itself
            continue
        if isinstance(parent, (nodes.List, nodes.Tuple, nodes.Starred, nodes.BinOp)):
            node = parent  # [*a.parameters(), *b.parameters()], a + b
            continue
        if isinstance(parent, nodes.Dict):
            node = parent  # a parameter group {"params": ...}
            continue
        if isinstance(parent, nodes.Assign) and len(parent.targets) == 1 and isinstance(parent.targets[0], nodes.AssignName):
            name = parent.targets[0].name
            reads = [
                read for read in parent.scope().nodes_of_class(nodes.Name)
                if read.name == name and (read.lineno or 0) > (parent.lineno or 0)
            ]
            return any(_feeds_optimizer(read, depth + 1) for read in reads)
        return False
    return False


def _computing_call(expr: nodes.NodeNG, func: nodes.NodeNG) -> nodes.Call | None:
    """The call whose result ``expr`` is, following local names to their last
    assignment above (``loss = loss_fn(...)``; ``return loss``)."""
    for _ in range(3):
        if not (isinstance(expr, nodes.Name) and not isinstance(func, nodes.Lambda)):
            break
        expr = _last_assignment_before(func, expr.name, expr.lineno or 0)
    return expr if isinstance(expr, nodes.Call) else None


def _only_evaluates(model: nodes.Call) -> bool:
    """``model = Model(...)`` whose every use in its scope calls an evaluation
    method (``model.eval(ds)``) or hands it to a project class that never calls
    train() (a wrapper that only predicts with it): an eval script, nothing is
    trained. In a function, a Model bound to ``_`` or never used trains nothing
    either (at module level another module may import it), nor a Model built as
    a statement and dropped. The uses are those of
    this binding (:func:`_uses_of_binding`): a notebook's evaluation cell that
    binds a new Model to the name an earlier cell trained with trains nothing."""
    assign = model.parent
    if isinstance(assign, nodes.Expr):
        return True  # Model(...) as a statement: built and dropped
    if not (isinstance(assign, nodes.Assign) and len(assign.targets) == 1 and isinstance(assign.targets[0], nodes.AssignName)):
        return False
    name = assign.targets[0].name
    scope = assign.scope()
    uses, rebound = _uses_of_binding(assign, name, [used for used in scope.nodes_of_class(nodes.Name) if used.name == name])
    if not uses:
        # (at module level another module may import it, unless the module rebinds it below)
        return isinstance(scope, nodes.FunctionDef) or rebound
    return all(_evaluates(used) or _given_to_non_trainer(used) for used in uses)


def _uses_of_binding(assign: nodes.Assign, name: str, uses: list[nodes.Name]) -> tuple[list[nodes.Name], bool]:
    """The uses of ``name`` that may read the object ``assign`` binds, and whether
    a later statement surely rebinds it: in its scope, those below it and above
    the first later assignment of the name in the same block (one that surely
    runs after it); when the assignment is in a loop, every use (a use above may
    read it in the next iteration); uses in nested functions and lambdas always
    (they run when called)."""
    scope = assign.scope()
    parent = assign.parent
    while parent is not None and parent is not scope:
        if isinstance(parent, (nodes.For, nodes.While, nodes.AsyncFor)):
            return uses, False
        parent = parent.parent
    line = assign.lineno or 0
    block = next((body for body in (getattr(assign.parent, field, None) for field in ("body", "orelse", "finalbody"))
                  if isinstance(body, list) and any(statement is assign for statement in body)), [])
    later = [
        statement.lineno or 0 for statement in block
        if isinstance(statement, nodes.Assign) and statement is not assign and (statement.lineno or 0) > line
        and any(isinstance(target, nodes.AssignName) and target.name == name for target in statement.targets)
    ]
    end = min(later) if later else None
    kept = [
        used for used in uses
        if (used.scope() is not scope and _reads_enclosing(used, name, scope))
        or ((used.lineno or 0) > line and (end is None or (used.lineno or 0) < end))
        or ((used.lineno or 0) == line and used.statement() is not assign)
    ]
    return kept, end is not None


def _reads_enclosing(used: nodes.Name, name: str, scope: nodes.NodeNG) -> bool:
    """Whether ``used``, in a function or lambda nested in ``scope``, may read the
    name ``scope`` binds: not where a function in between binds its own (``model``
    assigned in ``def train()`` is not the module's ``model``)."""
    frame = used.scope()
    while frame is not None and frame is not scope:
        if name in frame.locals:
            return False
        frame = frame.parent.scope() if frame.parent is not None else None
    return True


def _evaluates(used: nodes.Name) -> bool:
    return (
        isinstance(used.parent, nodes.Attribute)
        and used.parent.attrname in apis.MODEL_EVALUATION_METHODS
        and isinstance(used.parent.parent, nodes.Call)
    )


def _given_to_non_trainer(used: nodes.Name) -> bool:
    """``Wrapper(model)`` where Wrapper is a project class none of whose methods
    (its bases' included) calls ``.train(...)`` on anything."""
    call = used.parent
    if not isinstance(call, nodes.Call) or used not in call.args:
        return False
    cls = resolve.user_class_of_call(call)
    if cls is None:
        return False
    user, _ = resolve.class_hierarchy(cls)
    return not any(
        isinstance(inner.func, nodes.Attribute) and inner.func.attrname == "train"
        for klass in user
        for inner in klass.nodes_of_class(nodes.Call)
    )


def _unscales_gradients(scope: nodes.NodeNG) -> bool:
    for call in scope.nodes_of_class(nodes.Call):
        func = call.func
        if isinstance(func, nodes.Attribute) and func.attrname == apis.LOSS_UNSCALE_METHOD:
            argument = call.args[0] if call.args else None
            name = _root_name(argument) or ""
            if "loss" not in name.lower():
                return True  # not only the loss, unscaled for logging
    return False


def _scale_value(expr: nodes.NodeNG) -> object:
    """The value of a loss scale: a constant (``LOSS_SCALE = 1024.0``, here or imported),
    or a key of a module-level config dict read as an attribute (``config.loss_scale``
    with ``config = EasyDict({"loss_scale": 1024, ...})``); UNKNOWN otherwise."""
    known = values.constant(expr)
    if known is not astutil.UNKNOWN or not (isinstance(expr, nodes.Attribute) and isinstance(expr.expr, nodes.Name)):
        return known
    bound = resolve.constant_binding(expr.expr)
    if not (isinstance(bound, nodes.Call) and isinstance(bound.func, (nodes.Name, nodes.Attribute))
            and len(bound.args) == 1 and not bound.keywords and isinstance(bound.args[0], nodes.Dict)
            and resolve.call_name(bound) in apis.EASYDICT_CLASSES):
        return astutil.UNKNOWN
    found = [value for key, value in bound.args[0].items
             if isinstance(key, nodes.Const) and key.value == expr.attrname]
    if len(found) != 1 or any(not isinstance(key, nodes.Const) for key, _ in bound.args[0].items):
        return astutil.UNKNOWN
    return values.constant(found[0])


def _loss_scaled_optimizer(construction: nodes.NodeNG | None) -> tuple[str, nodes.NodeNG, float] | None:
    """(qname, the loss_scale argument, its value) of an nn.Momentum/nn.SGD built with a
    loss_scale above 1."""
    optimizer = _optimizer_qname(construction)
    if optimizer not in apis.OPTIMIZER_LOSS_SCALE_ARGUMENT:
        return None
    given = astutil.argument(construction, apis.OPTIMIZER_LOSS_SCALE_ARGUMENT[optimizer], apis.OPTIMIZER_LOSS_SCALE)
    if given is None or given is astutil.UNKNOWN:
        return None
    scale = _scale_value(given)
    if isinstance(scale, bool) or not isinstance(scale, (int, float)) or scale <= 1:
        return None
    return optimizer, given, scale


def _passed_values(expr: nodes.NodeNG, depth: int = 0) -> list[nodes.NodeNG]:
    """What ``expr`` may hold: the call itself, the one value a name is assigned, or,
    for a parameter of a function of the module, what each call of that function by its
    name passes there (``train_loop(net, data, loss, opt)``, two calls deep). Empty
    where mslint cannot tell."""
    if isinstance(expr, nodes.Call):
        return [expr]
    if not isinstance(expr, nodes.Name) or depth > 2:
        return []
    bound = resolve.binding(expr)
    if isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Assign):
        value = bound.parent.value
        return [value] if isinstance(value, nodes.Call) else _passed_values(value, depth + 1)
    if not (isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Arguments)):
        return []
    func = bound.parent.parent
    if not isinstance(func, nodes.FunctionDef) or func.is_method() or bound not in func.args.args:
        return []
    position = func.args.args.index(bound)
    found = []
    for call in astutil.module_nodes(func.root(), nodes.Call):
        if isinstance(call.func, nodes.Name) and call.func.name == func.name and resolve.binding(call.func) is func:
            passed = astutil.argument(call, position, bound.name)
            if passed is not None and passed is not astutil.UNKNOWN:
                found.extend(_passed_values(passed, depth + 1))
    return found


def _plain_forward(grad_call: nodes.Call, fn: nodes.NodeNG) -> str | None:
    """The name of the function a grad call differentiates when every return gives
    (first) a MindSpore loss's output as it is: ``loss = loss_fn(logits, y); return loss``
    with ``loss_fn`` holding an nn loss (also passed in as a parameter). None when the
    loss may be scaled (arithmetic on it, a user loss, a Cell)."""
    if not isinstance(fn, nodes.Name):
        return None
    func = resolve.binding(fn)
    if not isinstance(func, nodes.FunctionDef) or func.is_method():
        return None
    found = _returns(func)
    if not found:
        return None
    for _, value in found:
        objective = value.elts[0] if isinstance(value, nodes.Tuple) and value.elts else value
        call = objective
        if isinstance(objective, nodes.Name):
            leaves = [leaf for leaf in func.nodes_of_class(nodes.AssignName) if leaf.name == objective.name]
            if len(leaves) != 1 or not isinstance(leaves[0].parent, nodes.Assign):
                return None  # bound again (loss = loss * scale, loss *= scale), or unpacked
            call = leaves[0].parent.value
        if not isinstance(call, nodes.Call) or not isinstance(call.func, nodes.Name):
            return None
        losses = _passed_values(call.func)
        if not losses or not all(_is_mindspore_loss(loss) for loss in losses):
            return None
    return func.name


def _is_mindspore_loss(construction: nodes.NodeNG) -> bool:
    if not (isinstance(construction, nodes.Call) and isinstance(construction.func, (nodes.Name, nodes.Attribute))):
        return False
    qname = resolve.call_name(construction) or ""
    return qname.startswith("mindspore.") and (
        training_code.says_loss(qname.rsplit(".", 1)[-1]) or qname in apis.LOSS_REDUCTIONS
    )


def _steps_of(grad_call: nodes.Call, with_value: bool) -> list[tuple[nodes.Call, nodes.Name]]:
    """(``optimizer(grads)``, the optimizer's name) where the gradient function ``grad_call``
    makes (``grad_fn = ...``) is called, ``loss, grads = grad_fn(...)`` (``grads =
    grad_fn(...)`` for ms.grad), and ``grads``, bound once in that function, goes
    straight to a call of a name."""
    assign = grad_call.parent
    if not (isinstance(assign, nodes.Assign) and assign.value is grad_call and len(assign.targets) == 1
            and isinstance(assign.targets[0], nodes.AssignName)):
        return []
    target = assign.targets[0]
    found = []
    for call in assign.scope().nodes_of_class(nodes.Call):
        if not (isinstance(call.func, nodes.Name) and call.func.name == target.name
                and resolve.binding(call.func) is target):
            continue
        bound = call.parent
        if not (isinstance(bound, nodes.Assign) and bound.value is call and len(bound.targets) == 1):
            continue
        unpacked = bound.targets[0]
        if with_value:
            if not (isinstance(unpacked, nodes.Tuple) and len(unpacked.elts) == 2):
                continue
            unpacked = unpacked.elts[1]
        if not isinstance(unpacked, nodes.AssignName):
            continue
        owner = call.scope()
        if sum(1 for leaf in owner.nodes_of_class(nodes.AssignName) if leaf.name == unpacked.name) != 1:
            continue  # the gradients changed on the way (clipped, unscaled, accumulated)
        for step in owner.nodes_of_class(nodes.Call, skip_klass=_SKIP_NESTED):
            if isinstance(step.func, nodes.Name) and len(step.args) == 1 and not step.keywords \
                    and isinstance(step.args[0], nodes.Name) and step.args[0].name == unpacked.name:
                found.append((step, step.func))
    return found


def _loss_scaler_of(call: nodes.Call, depth: int = 0) -> nodes.NodeNG | None:
    """The receiver of ``scaler.scale(loss)`` when it holds a MindSpore loss scaler,
    also through a helper of the module that returns it (``return scale_loss(loss)``)."""
    func = call.func
    if not (isinstance(func, nodes.Attribute) and func.attrname == apis.LOSS_SCALE_METHOD):
        helper = _module_helper(call)
        if helper is None or depth > 1:
            return None
        for _, value in _returns(helper):
            inner = _computing_call(value, helper)
            found = _loss_scaler_of(inner, depth + 1) if inner is not None else None
            if found is not None:
                return found
        return None
    if _holds_loss_scaler(func.expr, 0):
        return func.expr
    return None


def _module_helper(call: nodes.Call) -> nodes.FunctionDef | None:
    """``helper(...)`` defined in this module, or ``self.method(...)`` of the class."""
    func = call.func
    if isinstance(func, nodes.Name):
        bound = resolve.binding(func)
        return bound if isinstance(bound, nodes.FunctionDef) else None
    attr = astutil.self_attribute(func)
    cls = astutil.enclosing_class(call) if attr is not None else None
    return resolve.find_method(cls, attr) if cls is not None else None


def _holds_loss_scaler(expr: nodes.NodeNG, depth: int) -> bool:
    """A loss scaler built here, held in a name or ``self.x`` (either branch of a
    conditional), or passed in by every caller that passes one (``Trainer(scaler)``)."""
    if depth > 3:
        return False
    if isinstance(expr, nodes.Call):
        return resolve.call_name(expr) in apis.LOSS_SCALERS if isinstance(expr.func, (nodes.Name, nodes.Attribute)) else False
    if isinstance(expr, nodes.IfExp):
        return _holds_loss_scaler(expr.body, depth + 1) or _holds_loss_scaler(expr.orelse, depth + 1)
    value = _value_of(expr)
    if value is not None:
        return _holds_loss_scaler(value, depth + 1)
    if not isinstance(expr, nodes.Name):
        return False
    func = expr.frame()
    bound = func.locals.get(expr.name, ()) if isinstance(func, nodes.FunctionDef) else ()
    if len(bound) != 1 or not isinstance(bound[0].parent, nodes.Arguments):
        return False
    passed = [
        value for site, skips_self in sites.calls_of(func)
        for names, value in astutil.bind_call(site, func, skips_self) if names == [expr.name]
    ]
    return any(_holds_loss_scaler(value, depth + 1) for value in passed)


def _enables_training(call: nodes.Call) -> bool:
    func = call.func
    if isinstance(func, nodes.Attribute) and func.attrname == apis.SET_TRAIN_METHOD:
        mode = astutil.argument(call, 0, "mode")
        return not _is_literal(mode, False)
    return isinstance(func, (nodes.Name, nodes.Attribute)) and resolve.call_name(call) in apis.SET_TRAIN_RUNNERS


def _is_plain_cell_class(cls: nodes.ClassDef, method: str) -> bool:
    """A Cell class whose every base is known (user classes or MindSpore Cells) and
    that does not define ``method`` itself (ported code often adds eval/parameters),
    nor assign it as an attribute (``self.half = ops.Split(...)`` makes
    ``self.half(x)`` a call of that op, not of PyTorch's Module.half)."""
    user, external = resolve.class_hierarchy(cls)
    if not external or not all(resolve.is_cell_qname(q) or q in apis.NON_CELL_MIXIN_BASES for q in external):
        return False
    if not any(resolve.is_cell_qname(q) for q in external) or resolve.find_method(cls, method) is not None:
        return False
    if any(method in klass.locals for klass in user) or any(_owns_method(q, method) for q in external):
        return False  # ``forward = construct`` in the class body; a probability Bijector's forward
    return not scope.analysis(cls.root()).class_facts(cls).values(method)


def _owns_method(qname: str, method: str) -> bool:
    """A MindSpore class that defines ``method`` itself (apis.TORCH_MODULE_METHOD_OWNERS)."""
    return qname in apis.TORCH_MODULE_METHOD_OWNERS.get(method, ()) \
        or qname.startswith(apis.TORCH_MODULE_METHOD_OWNER_PACKAGES.get(method, ()))


def _constructs_cell(value: nodes.NodeNG | None, method: str) -> bool:
    if not (isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute))):
        return False
    qname = resolve.call_name(value)
    if qname is not None and resolve.is_cell_qname(qname):
        return not _owns_method(qname, method)
    cls = resolve.user_class_of_call(value)
    return cls is not None and _is_plain_cell_class(cls, method)


def _method_edits(call: nodes.Call) -> list | None:
    """The autofix of a PyTorch Module method call (apis.TORCH_MODULE_METHOD_FIXES)."""
    method = call.func.attrname
    if method == "forward":  # self.conv.forward(x) -> self.conv(x); never self(x) or super()(x)
        receiver = call.func.expr
        plain = not (isinstance(receiver, nodes.Name) and receiver.name == "self") and not resolve.is_super_call(receiver)
        return [edits.drop_method(call)] if plain else None
    if call.args or call.keywords:
        rename = apis.TORCH_MODULE_METHOD_RENAMES.get(method)
        return [edits.rename_method(call, rename)] if rename else None
    text = apis.TORCH_MODULE_METHOD_FIXES.get(method)
    return [edits.replace_method_call(call, text)] if text is not None else None


def _is_mindspore_cell(receiver: nodes.NodeNG, method: str) -> bool:
    """``self`` in a Cell's method, or a name/``self.x`` built from a Cell class (the
    assignment that reaches the use: ``net = net.half()`` reads the earlier ``Net()``;
    through methods returning the Cell; what every caller passes for a parameter)."""
    if isinstance(receiver, nodes.Name) and receiver.name == "self":
        frame = receiver.frame()
        cls = frame.parent if isinstance(frame, nodes.FunctionDef) else None
        return isinstance(cls, nodes.ClassDef) and _is_plain_cell_class(cls, method)
    if resolve.is_super_call(receiver):
        return _super_lacks(receiver, method)
    constructions = _cell_constructions(receiver, 0)
    return bool(constructions) and all(_constructs_cell(value, method) for value in constructions)


def _super_lacks(receiver: nodes.Call, method: str) -> bool:
    """``super().<method>`` (or ``super(Cls, self)``) in a method of a Cell class
    ``Cls`` whose bases (user classes, MindSpore Cells, abc.ABC) define no
    ``method``: the lookup skips ``Cls`` itself, so a class that defines the method
    and hands it on to ``super()`` (``def add_module(...): super().add_module(...)``)
    reaches nn.Cell, which lacks it."""
    frame = receiver.frame()
    cls = frame.parent if isinstance(frame, nodes.FunctionDef) else None
    if not isinstance(cls, nodes.ClassDef):
        return False
    if receiver.args:
        first = receiver.args[0]
        if not (len(receiver.args) == 2 and isinstance(first, nodes.Name) and first.name == cls.name
                and isinstance(receiver.args[1], nodes.Name) and receiver.args[1].name == "self"):
            return False
    elif receiver.keywords:
        return False
    user, external = resolve.class_hierarchy(cls)
    if not external or not all(resolve.is_cell_qname(q) or q in apis.NON_CELL_MIXIN_BASES for q in external):
        return False
    if not any(resolve.is_cell_qname(q) for q in external) or any(_owns_method(q, method) for q in external):
        return False
    return not any(method in klass.locals for klass in user if klass is not cls)


def _cell_constructions(expr: nodes.NodeNG | None, depth: int) -> list[nodes.NodeNG]:
    """The construction calls ``expr`` may hold ([] when unsure)."""
    if expr is None or depth > 3:
        return []
    value = expr
    if not isinstance(value, nodes.Call):
        value = values.reaching_value(expr) if isinstance(expr, nodes.Name) else _value_of(expr)
        if value is None and isinstance(expr, nodes.Attribute):
            value = values.reaching_attribute_value(expr)  # self.models = nn.CellList() above, in this function
        if value is None and isinstance(expr, nodes.Attribute):
            # ``self.proj = nn.Dense(...)`` in each arm of an ``if``
            return _constructions_of_each(_attribute_values(expr), depth)
        if value is None and isinstance(expr, nodes.Name):
            return _constructions_of_each(values.passed_values(expr) or (), depth)  # a parameter: what the callers pass
        if isinstance(value, (nodes.Name, nodes.Attribute)):
            return _cell_constructions(value, depth + 1)  # self.backbone = backbone
    while (
        isinstance(value, nodes.Call) and isinstance(value.func, nodes.Attribute)
        and value.func.attrname in apis.CELL_SELF_RETURNING_METHODS
    ):
        value = value.func.expr
    if not isinstance(value, nodes.Call):
        return []
    factory = _factory_of(value)
    if factory is not None:  # ``features = backbone_features()``: what it returns, every product
        return _constructions_of_each(_factory_products(factory) or (), depth)
    return [value]


def _constructions_of_each(held: Iterable[nodes.NodeNG], depth: int) -> list[nodes.NodeNG]:
    """The construction calls of every one of the values ``held`` (each way a
    value may come), or [] when there are none or one of them is unsure."""
    each = [_cell_constructions(item, depth + 1) for item in held]
    return [construction for found in each for construction in found] if each and all(each) else []


def _factory_of(call: nodes.Call) -> nodes.FunctionDef | None:
    """The project function ``call`` calls (not a class, not a method of one)."""
    if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
        return None
    qname = resolve.call_name(call)
    if qname is not None and resolve.is_external(qname) or resolve.user_class_of_call(call) is not None:
        return None
    func = _module_helper(call) if isinstance(call.func, nodes.Name) else None
    func = func or resolve.project_function(call.func)
    return func if isinstance(func, nodes.FunctionDef) and not isinstance(func.parent, nodes.ClassDef) else None


class _ModeDependence:
    """Whether a network expression holds a Cell that behaves differently in training."""

    def __init__(self) -> None:
        self._seen: set[object] = set()
        # what each class or factory was found to hold: several products of a factory
        # share classes (two generators built of the same blocks), each must answer
        self._known: dict[object, str | None] = {}

    def of_expression(self, expr: nodes.NodeNG, depth: int = 0) -> str | None:
        if depth > _MAX_DEPTH or expr in self._seen:
            return None
        self._seen.add(expr)
        if isinstance(expr, (nodes.Name, nodes.Attribute)):
            value = _value_of(expr)
            if value is None:
                return _reason_at_sites(expr, self, depth)  # a parameter: what its callers pass
            return self.of_expression(value, depth + 1)
        if not isinstance(expr, nodes.Call) or not isinstance(expr.func, (nodes.Name, nodes.Attribute)):
            return None
        qname = resolve.call_name(expr)
        if qname in apis.TRAIN_MODE_CELLS:
            return None if _inert_layer(expr, qname) else f"contains {_short(qname)}"
        if qname in apis.NETWORK_WRAPPERS:
            inner = astutil.argument(expr, 0, "network")
            return None if inner is None or inner is astutil.UNKNOWN else self.of_expression(inner, depth + 1)
        if qname in apis.CELL_CONTAINERS:
            for arg in expr.args:
                for element in arg.elts if isinstance(arg, (nodes.List, nodes.Tuple)) else [arg]:
                    found = self.of_expression(element, depth + 1)
                    if found is not None:
                        return found
            return None
        cls = resolve.user_class_of_call(expr)
        if cls is None:
            return self._of_factory(expr, depth)
        if not resolve.is_cell_class(cls):
            return None
        init = resolve.find_method(cls, "__init__")
        if init is not None and init.parent is cls:
            # the layers its own __init__ builds, judged with what this construction passes
            return self._once((expr, cls), depth, lambda: self._of_class(cls, depth + 1, (expr, init)))
        return self.of_class(cls, depth + 1)

    def _of_factory(self, call: nodes.Call, depth: int) -> str | None:
        """A call of a function of the module or the project that builds the network
        (``get_discriminator(args)``): what every network it may return has in common
        (each return, each value a returned local may hold) behaves differently in
        training; unsure when one of them does not, or cannot be followed."""
        func = _module_helper(call) if isinstance(call.func, nodes.Name) else None
        func = func or resolve.project_function(call.func)
        if func is None:
            return None
        return self._once(func, depth, lambda: self._of_products(func, depth))

    def _of_products(self, func: nodes.FunctionDef, depth: int) -> str | None:
        reasons = [self.of_expression(product, depth + 1) for product in _factory_products(func) or ()]
        return reasons[0] if reasons and all(reasons) else None

    def _once(self, key: object, depth: int, find) -> str | None:
        """``find()`` for a class or a factory, once: met again while it is being
        found (a cycle), or too deep, unsure."""
        if key in self._known:
            return self._known[key]
        if depth > _MAX_DEPTH or key in self._seen:
            return None
        self._seen.add(key)
        found = self._known[key] = find()
        return found

    def of_class(self, cls: nodes.ClassDef, depth: int) -> str | None:
        return self._once(cls, depth, lambda: self._of_class(cls, depth))

    def _of_class(self, cls: nodes.ClassDef, depth: int, construction: tuple | None = None) -> str | None:
        """``construction``: (a call building ``cls``, its ``__init__``): the layers
        that ``__init__`` builds itself are judged in the way that call builds them."""
        user, _ = resolve.class_hierarchy(cls)
        for klass in user:
            for method in klass.mymethods():
                for node in _nodes_run_by(method):
                    if isinstance(node, nodes.Attribute):
                        if (
                            node.attrname == apis.TRAINING_FLAG
                            and isinstance(node.expr, nodes.Name)
                            and node.expr.name == "self"
                        ):
                            return f"reads self.training ({klass.name}.{method.name})"
                        continue
                    if isinstance(node.func, nodes.Attribute) and node.func.attrname == apis.SET_TRAIN_METHOD:
                        return None  # the class switches modes itself
                    if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
                        continue
                    qname = resolve.call_name(node)
                    if qname in apis.TRAIN_MODE_CELLS:
                        built_by = construction[0] if construction is not None and node.frame() is construction[1] else None
                        if _inert_layer(node, qname, built_by):
                            continue
                        return f"contains {_short(qname)} ({klass.name}.{method.name}, line {node.lineno})"
                    if qname is not None and resolve.is_external(qname):
                        continue
                    inner = resolve.user_class_of_call(node)
                    if inner is not None:
                        found = self.of_class(inner, depth + 1) if resolve.is_cell_class(inner) else None
                    else:  # a helper that builds layers (``conv_bn(...)``)
                        found = self._of_factory(node, depth + 1)
                    if found is not None:
                        return found
        return None


def _outputs_are_the_loss_terms(value: nodes.Tuple, carried: list[nodes.NodeNG], func: nodes.NodeNG) -> bool:
    """``return loss, a, b`` where ``loss = a + b`` (the last assignment above) and
    ``a``, ``b`` are the extra outputs that carry a gradient, each once: the sum of
    the outputs is twice the first, so the gradient is the loss's, doubled."""
    first = value.elts[0]
    if not isinstance(first, nodes.Name) or not all(isinstance(elt, nodes.Name) for elt in carried):
        return False
    if isinstance(func, nodes.Lambda):
        return False
    assigned = training_code.last_assignment_before(func, first.name, value.lineno or 0)
    if not (isinstance(assigned, nodes.BinOp) and assigned.op == "+"):
        return False
    terms = training_code.sum_terms(assigned)
    if not all(isinstance(term, nodes.Name) for term in terms):
        return False
    later = [
        assign for assign in func.nodes_of_class((nodes.Assign, nodes.AugAssign), skip_klass=_SKIP_NESTED)
        if (assign.lineno or 0) >= (assigned.lineno or 0) and (assign.lineno or 0) < (value.lineno or 0)
        and any(name in {term.name for term in terms} | {first.name}
                for target in (assign.targets if isinstance(assign, nodes.Assign) else [assign.target])
                for name in astutil.target_names(target))
    ]
    if len(later) != 1:  # the sum's own assignment only: nothing changes a term or the loss after it
        return False
    return sorted(term.name for term in terms) == sorted(elt.name for elt in carried)


# A KL divergence term's name (kl_div, kld): a loss term as much as one that says loss
_KL_NAME = re.compile(r"(^|_)kl(_|$|d)", re.IGNORECASE)
# Calls that reduce a tensor to one number when given the tensor alone.
_FULL_REDUCTIONS = frozenset({"mindspore.ops.mean", "mindspore.ops.sum", "mindspore.ops.binary_cross_entropy",
                              "mindspore.ops.cross_entropy", "mindspore.ops.mse_loss", "mindspore.ops.l1_loss",
                              "mindspore.ops.kl_div", "mindspore.ops.nll_loss", "mindspore.ops.smooth_l1_loss",
                              "mindspore.ops.binary_cross_entropy_with_logits"})
_FULL_REDUCTION_METHODS = frozenset({"mean", "sum"})


def _independent_loss_terms(value: nodes.Tuple, func: nodes.NodeNG) -> bool:
    """``return reconst_loss, kl_div`` (each output a named loss term or a tensor reduced
    to one number, none computed from another output): the author sums the terms on
    purpose, and has_aux=True would drop all but the first from training."""
    if isinstance(func, nodes.Lambda) or not all(isinstance(elt, nodes.Name) for elt in value.elts):
        return False
    names = [elt.name for elt in value.elts]
    if len(set(names)) != len(names):
        return False
    line = value.lineno or 0
    for name in names:
        assigned = training_code.last_assignment_before(func, name, line)
        named_loss = training_code.says_loss(name) or _KL_NAME.search(name) is not None
        if assigned is None or not (named_loss or _reduced_to_one_number(assigned)):
            return False
        if (set(names) - {name}) & training_code.computation(assigned, func).names:
            return False  # ``loss = ce + beta * vq; return loss, vq``: vq counted twice
    return True


def _reduced_to_one_number(expr: nodes.NodeNG) -> bool:
    """``ops.sum(t)``, ``t.mean()``, ``-0.5 * ops.sum(...)``: one number from a tensor."""
    if isinstance(expr, nodes.UnaryOp) and expr.op == "-":
        return _reduced_to_one_number(expr.operand)
    if isinstance(expr, nodes.BinOp) and expr.op in ("*", "/"):
        constant = (nodes.Const, nodes.Attribute, nodes.Name)
        if isinstance(expr.left, constant) and not isinstance(expr.right, constant):
            return _reduced_to_one_number(expr.right)
        if isinstance(expr.right, constant):
            return _reduced_to_one_number(expr.left)
        return False
    if not isinstance(expr, nodes.Call) or expr.keywords and any(kw.arg in ("axis", "dim") for kw in expr.keywords):
        return False
    if isinstance(expr.func, nodes.Attribute) and expr.func.attrname in _FULL_REDUCTION_METHODS and not expr.args:
        return True
    qname = resolve.call_name(expr)
    if qname in ("mindspore.ops.mean", "mindspore.ops.sum"):
        return len(expr.args) == 1
    return qname in _FULL_REDUCTIONS and not any(
        kw.arg == "reduction" and isinstance(kw.value, nodes.Const) and kw.value.value == "none" for kw in expr.keywords)


def _inert_layer(call: nodes.Call, qname: str, built_by: nodes.Call | None = None) -> bool:
    """A layer whose training flag changes nothing in the ways the program builds
    it (mslint.analysis.values.received): no way in sight builds it (``if
    dropout_p: self.drop = nn.Dropout(p=dropout_p)`` where every construction
    passes 0.0), or a Dropout whose rate is 0 (``keep_prob`` 1) in every way: it
    passes its input through in both modes (tests/oracle/test_training_loop.py).
    ``built_by``: the one construction of the class whose ``__init__`` builds the
    layer that the network being judged is (``DKTnet({"dropout": 0.0, ...})``),
    read in that way alone."""
    arguments = astutil.call_arguments(call)
    if not arguments or any(isinstance(arg, nodes.Starred) for arg in call.args):
        return False
    if values.received(arguments[0]) == []:
        return True
    if qname.rsplit(".", 1)[-1] not in apis.DROPOUT_LAYER_NAMES:
        return False
    if qname == apis.DROPOUT_WITH_KEEP_PROB:
        rate = astutil.argument(call, None, "p")
        rate, inert = (rate, 0) if rate is not None else (astutil.argument(call, 0, "keep_prob"), 1)
    else:
        rate, inert = astutil.argument(call, 0, "p"), 0
    if rate is None or rate is astutil.UNKNOWN:
        return False  # the default rate, 0.5, drops
    flows = values.received(rate) if built_by is None else values.received_at(rate, built_by)
    if flows is None:
        return False
    return all(
        isinstance(found.value, (int, float)) and not isinstance(found.value, bool) and found.value == inert
        for found in flows
    )


def _factory_products(func: nodes.FunctionDef) -> list[nodes.NodeNG] | None:
    """What ``func`` may return, as written: each returned expression, and for a
    returned local name every value the function assigns to it (``net = A(...)`` in
    one branch, ``net = B(...)`` in another); None when a return gives nothing or a
    local is bound otherwise (a loop, an unpacking, a parameter)."""
    returns = _returns(func)
    if not returns or any(isinstance(ret, nodes.Return) and ret.value is None
                          for ret in func.nodes_of_class(nodes.Return, skip_klass=_SKIP_NESTED)):
        return None
    products: list[nodes.NodeNG] = []
    for _, value in returns:
        bound = func.locals.get(value.name, ()) if isinstance(value, nodes.Name) else ()
        if not bound:
            products.append(value)
            continue
        for binding in bound:
            statement = binding.parent
            if not (isinstance(binding, nodes.AssignName) and isinstance(statement, nodes.Assign)
                    and statement.targets == [binding]):
                return None
            products.append(statement.value)
    return products


def _nodes_run_by(method: nodes.FunctionDef) -> list[nodes.NodeNG]:
    """The attributes and calls ``method`` runs: its own, and those of the functions
    nested in it that it calls by name (``def block(i, o): return [nn.Conv2d(...),
    nn.BatchNorm2d(o)]`` in ``__init__``, then ``layers += block(3, 8)``). A nested
    function never called builds nothing."""
    found: list[nodes.NodeNG] = []
    queue, seen = [method], {method}
    while queue:
        func = queue.pop()
        own = list(func.nodes_of_class((nodes.Attribute, nodes.Call), skip_klass=_SKIP_NESTED))
        found.extend(own)
        called = {node.func.name for node in own if isinstance(node, nodes.Call) and isinstance(node.func, nodes.Name)}
        for nested in func.nodes_of_class(nodes.FunctionDef, skip_klass=(nodes.ClassDef, nodes.Lambda)):
            if nested not in seen and nested.parent.frame() is func and nested.name in called:
                seen.add(nested)
                queue.append(nested)
    return found


def register(linter: PyLinter) -> None:
    linter.register_checker(TrainingLoopChecker(linter))


def _runs_only_at_construction(node: nodes.NodeNG) -> bool:
    """Whether the function holding ``node`` (outside graph and differentiated
    code) runs only while objects are built: ``__init__`` itself, a method only
    ``__init__`` calls, or a module-level helper only ``__init__`` methods call."""
    func = node.frame()
    if not isinstance(func, nodes.FunctionDef) or isinstance(func.parent.frame(), nodes.FunctionDef):
        return False  # a lambda or a nested function: where it runs is not followed
    if isinstance(func.parent, nodes.ClassDef):
        return sites.runs_only_in_init(func.parent, func)
    return sites.function_runs_only_in_init(func)


def _runs_only_as_program(node: nodes.NodeNG) -> bool:
    """Whether the function holding ``node`` (outside graph and differentiated code)
    is a module-level function only the program's top level calls, directly or
    through such functions (``main()`` under the main guard): it runs eagerly,
    and no gradient is taken through its own statements."""
    func = node.frame()
    return isinstance(func, nodes.FunctionDef) and sites.function_runs_only_from_top_level(func)


_SUBCLASS_DEPTH = 8


def _layer_subclass(cls: nodes.ClassDef) -> tuple[nodes.FunctionDef | None, str] | None:
    """(the project's ``__init__`` a construction of ``cls`` runs, None where the
    MindSpore layer's does; that layer's qualified name) for a project class
    derived, one base per class, from a layer of apis.TORCH_KEYWORD_APIS; None
    for anything else (several bases, a metaclass, a class decorator, a
    ``__new__`` or an ``__init__`` that is no plain function)."""
    init = None
    current = cls
    for _ in range(_SUBCLASS_DEPTH):
        if current.decorators is not None or current.keywords or len(current.bases) != 1:
            return None
        if "__new__" in current.locals:
            return None
        if init is None and "__init__" in current.locals:
            bound = current.locals["__init__"]
            if len(bound) != 1 or not isinstance(bound[0], nodes.FunctionDef) or bound[0].decorators is not None:
                return None
            init = bound[0]
        user, qname = resolve.class_named(current.bases[0])
        if user is not None:
            current = user
            continue
        qname = resolve.canonical(qname) if qname else None
        return (init, qname) if qname in apis.TORCH_KEYWORD_APIS else None
    return None
