"""PyTorch names and signatures that fail in MindSpore: mslint says so before the run,
with the MindSpore spelling.

Measured on MindSpore 2.10 and PyTorch 2.13 (tests/oracle/test_migration_api.py):
- ``mindspore.nn`` has no Module, Sequential, ModuleList, ModuleDict (Cell,
  SequentialCell, CellList, CellDict), nor Parameter, init, functional, DataParallel,
  ConvTranspose2d, SELU, ... (``guide.MISSING_NAMES``: the torch.nn names absent from
  it, measured by introspection); ``mindspore.ms_function`` is gone (``jit``).
- (A ``bprop`` written as PyTorch's ``backward``: ms-bprop-signature in graph_compile.py.)
- ``torch.optim.lr_scheduler`` classes refuse a mindspore.nn optimizer (TypeError), which
  has no ``param_groups`` (AttributeError).
- ``ops.transpose(x, 0, 1)``: TypeError (it takes one permutation); ``ops.swapaxes``
  swaps two axes.
- PyTorch DataLoader keywords (batch_size, num_workers, drop_last, pin_memory...) given
  to a mindspore.dataset source or to ``.batch()``: TypeError.
- ``nn.SoftmaxCrossEntropyWithLogits()`` (sparse=False) given integer class indices:
  TypeError.
- ``torch.nn.init.xavier_*``/``kaiming_*``/``orthogonal_``/``trunc_normal_`` on a
  MindSpore Parameter: TypeError/AttributeError on every device.
- ``set_context(device_target=...)`` is deprecated (a warning): ``set_device``.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis, guide, primitives
from mslint.analysis import astutil, edits, programs, resolve, training_code, values, versions
from mslint.analysis.training_code import SKIP_NESTED
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter


class MigrationApiChecker(BaseChecker):
    name = "mindspore-migration-api"
    msgs = {
        "E8201": (
            "%s does not exist in MindSpore 2.10 (%s when this runs): write %s",
            "ms-torch-class-name",
            "A PyTorch name looked up in mindspore.nn or mindspore.mint.nn (Module, Sequential, ModuleList, "
            "ModuleDict, Parameter, init, DataParallel, ConvTranspose2d, ..., torch.optim's AdamW and "
            "lr_scheduler classes: StepLR, OneCycleLR, ...), PyTorch's typed tensor classes "
            "looked up in mindspore (LongTensor, FloatTensor, ...), or the removed mindspore.ms_function: "
            "AttributeError or ImportError.",
        ),
        "E8203": (
            "%s is a mindspore.nn optimizer: %s; %s",
            "ms-torch-optimizer-api",
            "A torch.optim.lr_scheduler class given a mindspore.nn optimizer (TypeError), or param_groups read "
            "on one (AttributeError).",
        ),
        "E8204": (
            "%s takes one permutation (input, dims), not two axes: this call raises TypeError; write "
            "ops.swapaxes(%s) to swap them",
            "ms-transpose-torch-args",
            "ops.transpose(x, a, b) with PyTorch's two axes.",
        ),
        "E8205": (
            "%s has no keyword '%s' (a PyTorch DataLoader keyword): the call raises TypeError; %s",
            "ms-dataloader-keyword-args",
            "PyTorch DataLoader keywords (batch_size, num_workers, drop_last, pin_memory, ...) given to a "
            "mindspore.dataset source or to a dataset's batch().",
        ),
        "E8206": (
            "%s is built with sparse=False and called with %s, integer class indices: it expects one-hot "
            "labels of the logits' dtype and raises TypeError; build it with sparse=True",
            "ms-softmax-ce-index-labels",
            "nn.SoftmaxCrossEntropyWithLogits() without sparse=True called with labels cast to an integer "
            "dtype (or argmax indices).",
        ),
        "E8207": (
            "%s on %s, a MindSpore Parameter, raises %s on every device (it calls PyTorch tensor methods); "
            "write %s.set_data(initializer(%s, %s.shape, %s.dtype)) with mindspore.common.initializer",
            "ms-torch-init-on-parameter",
            "torch.nn.init.xavier_*, kaiming_*, orthogonal_ or trunc_normal_ applied to the parameter of a "
            "MindSpore Cell.",
        ),
        "E8209": (
            "%s gives %s to the constructor of the operator, which takes %s: this raises TypeError; "
            "build the operator, then call it on the tensors: %s",
            "ms-primitive-given-inputs",
            "An operator class of mindspore.ops (a Primitive: ops.Tanh, ops.ExpandDims, ops.Squeeze) called with "
            "its tensors as if it were a function (ops.Tanh(x), ops.ExpandDims(x, 1)): its constructor takes "
            "only the operator's attributes, so more positional arguments raise TypeError.",
        ),
        "C8208": (
            "set_context(%s) is deprecated in MindSpore 2.10 (it warns and will be removed): write %s",
            "ms-set-context-device-target",
            "set_context(device_target=..., device_id=...) where 2.10 wants mindspore.set_device(target, id).",
            {"default_enabled": False},
        ),
    }

    # -- ms-torch-class-name ---------------------------------------------------
    @only_required_for_messages("ms-torch-class-name", "ms-torch-optimizer-api")
    def visit_attribute(self, node: nodes.Attribute) -> None:
        if node.attrname in guide.TORCH_OPTIMIZER_ATTRIBUTES:
            self._check_param_groups(node)
            return
        if node.attrname not in _MISSING_LAST_NAMES or not self.linter.is_message_enabled("ms-torch-class-name"):
            return
        qname = resolve.qualified_name(node)
        if qname not in guide.MISSING_NAMES or _guarded(node) or _postponed_annotation(node) \
                or _pinned_where_present(node, qname):
            return
        if values.never_runs(node) or values.never_runs_as_built(node, defaults=False):
            # the dead arm of ``nn.Sequential(...) if not glu else GEGLU(...)`` where every site passes
            # glu=True; ``elif self.init == "uniform":`` in a helper of a class every construction in
            # sight builds with "orthogonal" (a class nothing builds may be built either way)
            return
        if values.no_child_matches(node):
            return  # ``for m in self.cells(): if isinstance(m, nn.Dense):`` where no direct child is a Dense
        replacement = guide.MISSING_NAMES[qname]
        written = guide.MISSING_NAME_ADVICE.get(qname) or _replacement_text(node, qname, replacement)
        edit = None
        if qname in guide.SAME_MODULE_RENAMES and _rename_is_exact(node, qname):
            edit = _rename_attribute(node, replacement)
        edits.offer("ms-torch-class-name", node, [edit] if edit else None, f"write {written}")
        self.add_message("ms-torch-class-name", node=node, args=(node.as_string(), "AttributeError", written))

    @only_required_for_messages("ms-torch-class-name")
    def visit_importfrom(self, node: nodes.ImportFrom) -> None:
        if node.level or _guarded(node):
            return
        module = resolve.canonical(node.modname or "")
        found = []  # (the name as imported, what to write, its rename edit or None)
        for name, alias in node.names:
            qname = resolve.canonical(f"{module}.{name}")
            if qname not in guide.MISSING_NAMES or _pinned_where_present(node, qname):
                continue
            replacement = guide.MISSING_NAMES[qname]
            if qname in guide.MISSING_NAME_ADVICE:
                written = guide.MISSING_NAME_ADVICE[qname]
            elif "." not in replacement:
                written = f"from {module} import {replacement} as {alias or name}"
            else:  # the uses keep the name the module imports (``from mindspore.nn import functional as F``)
                target_module, _, target_name = replacement.rpartition(".")
                written = f"from {target_module} import {target_name}" + (
                    f" as {alias or name}" if (alias or name) != target_name else "")
            edit = None
            if qname in guide.SAME_MODULE_RENAMES and alias is None and _import_rename_is_exact(node, name, qname):
                edit = _rename_imported(node, name, f"{replacement} as {name}")
            found.append((f"{module}.{name}", written, edit))
        if not found:
            missing = _missing_module(module)
            if missing is not None and not _pinned_where_present(node, missing):
                # ``from mindspore.optim import Optimizer``: the module itself is absent
                replacement = guide.MISSING_NAMES[missing]
                written = guide.MISSING_NAME_ADVICE.get(missing) or \
                    f"from {replacement}{module[len(missing):]} import {', '.join(name for name, _ in node.names)}"
                found.append((missing, written, None))
        # one statement, one fix: every exact rename in it, on the first finding (a
        # finding takes the fix offered for its node), so renamable names come first
        found.sort(key=lambda entry: entry[2] is None)
        renames = [entry for entry in found if entry[2] is not None]
        if renames:
            edits.offer("ms-torch-class-name", node, [edit for _, _, edit in renames],
                        "; ".join(f"write {written}" for _, written, _ in renames))
        for shown, written, _ in found:
            self.add_message("ms-torch-class-name", node=node, args=(shown, "ImportError", written))

    @only_required_for_messages("ms-torch-class-name")
    def visit_import(self, node: nodes.Import) -> None:
        """``import mindspore.nn.init as init``: a module MindSpore does not have
        (ModuleNotFoundError), with the module to import instead."""
        if _guarded(node):
            return
        for name, alias in node.names:
            qname = resolve.canonical(name)
            replacement = guide.MISSING_NAMES.get(qname)
            if replacement is None or "." not in replacement:
                continue
            if qname in guide.MISSING_NAME_ADVICE:  # no module of the same API: what to use, in words
                written = guide.MISSING_NAME_ADVICE[qname]
            else:
                written = f"import {replacement}" + (f" as {alias}" if alias else "")
            edits.offer("ms-torch-class-name", node, None, f"write {written}")
            self.add_message("ms-torch-class-name", node=node, args=(name, "ModuleNotFoundError", written))

    # -- calls ---------------------------------------------------------------------
    @only_required_for_messages(
        "ms-torch-class-name", "ms-torch-optimizer-api", "ms-transpose-torch-args", "ms-dataloader-keyword-args",
        "ms-softmax-ce-index-labels", "ms-torch-init-on-parameter", "ms-set-context-device-target",
        "ms-primitive-given-inputs",
    )
    def visit_call(self, node: nodes.Call) -> None:
        if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
            return
        if isinstance(node.func, nodes.Attribute) and node.func.attrname == guide.BATCH_METHOD:
            self._check_batch(node)
        qname = resolve.call_name(node)
        if qname is None:
            if len(node.args) >= 2 and self.linter.is_message_enabled("ms-softmax-ce-index-labels") and \
                    training_code.mentions(node.root(), _SPARSE_LOSS_TEXT):
                self._check_sparse_labels(node)
            return
        if qname in guide.CALLED_MODULES:
            self._check_called_module(node, qname)
        elif qname.startswith(guide.TORCH_LR_SCHEDULER_PACKAGE + "."):
            self._check_scheduler(node, qname)
        elif qname in guide.TRANSPOSE_CALLS:
            self._check_transpose(node)
        elif qname.startswith(guide.DATASET_PACKAGE + ".") and qname.endswith("Dataset"):
            self._check_dataset_keywords(node, qname)
        elif qname in guide.TORCH_INIT_FAILING:
            self._check_torch_init(node, qname)
        elif qname in guide.SET_CONTEXT_CALLS:
            self._check_set_context(node)
        elif qname in primitives.PRIMITIVE_INIT_PARAMS:
            self._check_primitive_inputs(node, qname)

    def _check_primitive_inputs(self, node: nodes.Call, qname: str) -> None:
        """``ops.Tanh(x)``, ``ops.ExpandDims(x, 1)``: an operator class given the
        tensors it works on, as PyTorch's functions take them; its constructor binds
        only the operator's attributes (mslint.knowledge.primitives), and more
        positional arguments raise TypeError (measured for every class)."""
        takes = primitives.PRIMITIVE_INIT_PARAMS[qname]
        if len(node.args) <= len(takes) or any(isinstance(argument, nodes.Starred) for argument in node.args):
            return
        if not self.linter.is_message_enabled("ms-primitive-given-inputs") or _guarded(node) \
                or _older_mindspore_stated(node) or values.never_runs(node):
            return
        name = spelled(node.func)
        given = f"{len(node.args)} positional argument{'s' if len(node.args) > 1 else ''}"
        if takes:
            wanted = f"only its attributes ({', '.join(takes)})"
            written = f"{name}({', '.join(f'{param}=...' for param in takes)})(...)"
        else:
            wanted = "no argument"
            written = f"{name}()({', '.join(argument.as_string() for argument in node.args)})"
        text = node.as_string()
        self.add_message("ms-primitive-given-inputs", node=node,
                         args=(text if len(text) <= 60 else f"{name}(...)", given, wanted, written))

    def _check_called_module(self, node: nodes.Call, qname: str) -> None:
        """``mindspore.log(x)``: torch.log's name, but MindSpore's logging module."""
        if not self.linter.is_message_enabled("ms-torch-class-name") or _guarded(node) \
                or values.never_runs(node) or values.never_runs_as_built(node, defaults=False):
            return
        written = guide.CALLED_MODULES[qname]
        edits.offer("ms-torch-class-name", node.func, None, f"write {written}")
        self.add_message(
            "ms-torch-class-name", node=node.func,
            args=(f"{spelled(node.func)} as a function ({qname} is MindSpore's logging module)", "TypeError", written))

    def _check_scheduler(self, node: nodes.Call, qname: str) -> None:
        optimizer = astutil.argument(node, 0, "optimizer")
        if not _is_nn_optimizer(optimizer):
            return
        self.add_message(
            "ms-torch-optimizer-api", node=node,
            args=(optimizer.as_string(), f"{spelled(node.func)}(...) raises TypeError (not a torch Optimizer)",
                  "give the optimizer a MindSpore schedule as learning_rate (a list from nn.cosine_decay_lr(...), "
                  "an nn.LearningRateSchedule), or use mindspore.experimental.optim and its lr_scheduler"),
        )

    def _check_param_groups(self, node: nodes.Attribute) -> None:
        if not self.linter.is_message_enabled("ms-torch-optimizer-api") or not _is_nn_optimizer(node.expr):
            return
        self.add_message(
            "ms-torch-optimizer-api", node=node,
            args=(node.expr.as_string(), f"{node.as_string()} raises AttributeError",
                  "give parameter groups as a list of dicts when building it, a learning-rate schedule as "
                  "learning_rate, or use mindspore.experimental.optim, which has param_groups"),
        )

    def _check_transpose(self, node: nodes.Call) -> None:
        if node.keywords or len(node.args) != 3 or any(isinstance(arg, nodes.Starred) for arg in node.args):
            return
        if isinstance(node.args[1], (nodes.Tuple, nodes.List)):
            return
        edit = None
        if isinstance(node.func, nodes.Attribute):
            edit = edits.rename_method(node, guide.TRANSPOSE_CALLS[resolve.call_name(node)])
        edits.offer("ms-transpose-torch-args", node, [edit] if edit else None)
        arguments = ", ".join(arg.as_string() for arg in node.args)
        self.add_message("ms-transpose-torch-args", node=node, args=(spelled(node.func), arguments))

    def _check_dataset_keywords(self, node: nodes.Call, qname: str) -> None:
        if f"{guide.DATASET_PACKAGE}.{qname.rsplit('.', 1)[-1]}" in guide.DATASET_NON_SOURCES:
            return
        self._report_keywords(node, guide.DATALOADER_KEYWORDS)

    def _check_batch(self, node: nodes.Call) -> None:
        if not any(keyword.arg in guide.BATCH_KEYWORDS for keyword in node.keywords or ()):
            return
        if not _holds_dataset(node.func.expr):
            return
        self._report_keywords(node, guide.BATCH_KEYWORDS)

    def _report_keywords(self, node: nodes.Call, table: dict[str, tuple[str | None, str]]) -> None:
        if not self.linter.is_message_enabled("ms-dataloader-keyword-args") or versions.older_mindspore_only(node):
            return
        for keyword in node.keywords or ():
            if keyword.arg not in table:
                continue
            rename, instead = table[keyword.arg]
            if rename:
                edit = edits.rename_keyword(keyword, rename)
                instead = f"{instead}{keyword.value.as_string()}"
            elif instead.startswith("delete it"):
                edit = edits.delete_argument(node, keyword)
            else:
                edit = None
            edits.offer("ms-dataloader-keyword-args", keyword, [edit] if edit else None, instead)
            self.add_message(
                "ms-dataloader-keyword-args", node=keyword, args=(f"{spelled(node.func)}(...)", keyword.arg, instead),
            )

    def _check_sparse_labels(self, node: nodes.Call) -> None:
        construction = training_code.construction_of(node.func)
        if construction is None or len(node.args) < 2:
            return
        entry = guide.SPARSE_LABEL_LOSSES.get(resolve.call_name(construction))
        if entry is None:
            return
        sparse = astutil.argument(construction, *entry)
        if sparse is astutil.UNKNOWN or (sparse is not None and not (
                isinstance(sparse, nodes.Const) and sparse.value is False)):
            return
        labels = node.args[1]
        if not _integer_labels(labels, node):
            return
        self.add_message("ms-softmax-ce-index-labels", node=node, args=(spelled(node.func), labels.as_string()))

    def _check_torch_init(self, node: nodes.Call, qname: str) -> None:
        target = astutil.argument(node, 0, "tensor")
        if target is None or target is astutil.UNKNOWN or not _is_mindspore_parameter(target):
            return
        name = target.as_string()
        raises = "AttributeError" if qname.endswith("trunc_normal_") else "TypeError"
        self.add_message(
            "ms-torch-init-on-parameter", node=node,
            args=(f"{spelled(node.func)}(...)", name, raises, name, guide.TORCH_INIT_FAILING[qname], name, name),
        )

    def _check_set_context(self, node: nodes.Call) -> None:
        given = {keyword.arg: keyword for keyword in node.keywords or () if keyword.arg in guide.DEVICE_KEYWORDS}
        if "device_target" not in given and "device_id" not in given:
            return
        if versions.older_mindspore_only(node):
            return  # before set_device existed, set_context was the way
        target = given.get("device_target")
        device_id = given.get("device_id")
        shown = ", ".join(f"{k.arg}={edits.source_segment(k.value) or k.value.as_string()}" for k in given.values())
        prefix = _mindspore_prefix(node)
        arguments = [edits.source_segment(k.value) or k.value.as_string() for k in (target, device_id) if k is not None]
        if target is None:
            written = f"{prefix or 'ms.'}set_device(<target>, {device_id.value.as_string()})"
        else:
            written = f"{prefix or 'ms.'}set_device({', '.join(arguments)})"
        edit = None
        only_device = len(node.keywords or ()) == len(given) and not node.args and target is not None
        if only_device and prefix is not None and isinstance(node.parent, nodes.Expr):
            edit = edits.replace(node, written)
        edits.offer("ms-set-context-device-target", node, [edit] if edit else None, f"write {written}")
        self.add_message("ms-set-context-device-target", node=node, args=(shown, written))


# ---------------------------------------------------------------------------
# Helpers
# ---------------------------------------------------------------------------
_SPARSE_LOSS_TEXT = re.compile(rb"SoftmaxCrossEntropyWithLogits")
_MISSING_LAST_NAMES = frozenset(qname.rsplit(".", 1)[-1] for qname in guide.MISSING_NAMES)


_GUARDING_ERRORS = frozenset({"ImportError", "ModuleNotFoundError", "AttributeError", "Exception", "BaseException"})


def _guarded(node: nodes.NodeNG) -> bool:
    """Inside a ``try`` that catches the failure (or its ``except`` fallback), or under
    an ``if`` on the version: code written for several MindSpore versions."""
    parent = node.parent
    while parent is not None and not isinstance(parent, (nodes.FunctionDef, nodes.ClassDef, nodes.Module)):
        if isinstance(parent, nodes.Try) and any(astutil.handler_catches(handler, _GUARDING_ERRORS)
                                                  for handler in parent.handlers):
            return True
        if isinstance(parent, nodes.ExceptHandler):
            return True
        if isinstance(parent, nodes.If) and "version" in parent.test.as_string().lower():
            return True
        parent = parent.parent
    return versions.older_mindspore_only(node)  # handed out only by an older version's arm


def _older_mindspore_stated(node: nodes.NodeNG) -> bool:
    """Whether the project says it runs on MindSpore 1.x, whose operator classes
    the table (read from 2.10) does not describe."""
    stated = programs.stated_mindspore_version(getattr(node.root(), "file", None))
    release = re.match(r"(\d+)\.", stated or "")
    return release is not None and int(release.group(1)) < 2


def _pinned_where_present(node: nodes.NodeNG, qname: str) -> bool:
    """Whether the project says it runs on a MindSpore release that still has
    ``qname`` (``mindspore==2.0.0`` in a requirements*.txt of the file's folder or
    one above it, or a README's ``| MindSpore Version | 1.5.0 |``, and ms_function,
    which releases up to 2.5 have): the import works where the project runs."""
    last = guide.PRESENT_THROUGH.get(qname)
    if last is None:
        return False
    stated = programs.stated_mindspore_version(getattr(node.root(), "file", None))
    if stated is None:
        return False
    release = re.match(r"(\d+)\.(\d+)", stated)
    return release is not None and (int(release.group(1)), int(release.group(2))) <= last


def _postponed_annotation(node: nodes.NodeNG) -> bool:
    """Inside an annotation Python never evaluates, so the missing name fails nothing:
    any annotation of a module with ``from __future__ import annotations``, and that of
    an annotated assignment in a function body (``self.net: nn.DataParallel = None`` in
    ``__init__``: measured, not evaluated)."""
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, (nodes.Module, nodes.FunctionDef, nodes.ClassDef)):
        if isinstance(parent, nodes.AnnAssign) and child is parent.annotation:
            if isinstance(parent.frame(), (nodes.FunctionDef, nodes.Lambda)):
                return True
            break
        child, parent = parent, parent.parent
    module = node.root()
    if "annotations" not in module.future_imports:
        return False
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, nodes.Module):
        if isinstance(parent, nodes.FunctionDef) and child is parent.returns:
            return True
        if isinstance(parent, nodes.AnnAssign) and child is parent.annotation:
            return True
        if isinstance(parent, nodes.Arguments):
            annotations = [*parent.annotations, *parent.posonlyargs_annotations, *parent.kwonlyargs_annotations,
                           parent.varargannotation, parent.kwargannotation]
            return any(child is annotation for annotation in annotations if annotation is not None)
        child, parent = parent, parent.parent
    return False


def _replacement_text(node: nodes.Attribute, qname: str, replacement: str) -> str:
    if "." not in replacement:
        return f"{node.expr.as_string()}.{replacement}"
    return replacement.replace("mindspore.", "mindspore.", 1)


def _rename_attribute(node: nodes.Attribute, name: str):
    """``nn.Module`` -> ``nn.Cell``: only the last name changes."""
    if node.end_lineno is None:
        return None
    width = len(node.attrname.encode("utf-8"))
    return edits.Edit(node.end_lineno, node.end_col_offset - width, node.end_lineno, node.end_col_offset, name)


def _rename_is_exact(node: nodes.Attribute, qname: str) -> bool:
    """ms_function's arguments differ from jit's: only a bare use is renamed."""
    if qname not in ("mindspore.ms_function", "mindspore.common.ms_function"):
        return True
    parent = node.parent
    if isinstance(parent, nodes.Decorators):
        return True
    return isinstance(parent, nodes.Call) and parent.func is node and len(parent.args) == 1 and not parent.keywords


def _import_rename_is_exact(node: nodes.ImportFrom, name: str, qname: str) -> bool:
    if qname not in ("mindspore.ms_function", "mindspore.common.ms_function"):
        return True
    for used in astutil.module_nodes(node.root(), nodes.Name):
        if used.name != name:
            continue
        parent = used.parent
        if isinstance(parent, nodes.Decorators):
            continue
        if isinstance(parent, nodes.Call) and parent.func is used and len(parent.args) == 1 and not parent.keywords:
            continue
        return False
    return True


def _rename_imported(node: nodes.ImportFrom, name: str, text: str):
    """``from mindspore.nn import Module`` -> ``... import Cell as Module``: the one
    imported name is replaced, found in the statement's own text."""
    source = edits.source_segment(node)
    if source is None:
        return None
    matches = list(re.finditer(rf"(?<![\w.]){re.escape(name)}(?![\w])", source))
    after_import = [m for m in matches if m.start() > source.find(" import ")]
    if len(after_import) != 1:
        return None
    start = node.col_offset + len(source[:after_import[0].start()].encode("utf-8"))
    end = start + len(name.encode("utf-8"))
    return edits.Edit(node.lineno, start, node.lineno, end, text)


def _is_nn_optimizer(expr) -> bool:
    if expr is None or expr is astutil.UNKNOWN:
        return False
    qname = training_code.constructed_qname(expr)
    return qname is not None and qname in apis.OPTIMIZER_CLASSES and qname.startswith(guide.NN_OPTIMIZER_PACKAGE + ".")


def _holds_dataset(expr: nodes.NodeNG, depth: int = 0) -> bool:
    """A mindspore.dataset pipeline: a source construction, or a pipeline method on one,
    through names."""
    if depth > 6:
        return False
    if isinstance(expr, nodes.Name):
        value = training_code.last_assignment_before(expr.scope(), expr.name, expr.lineno or 0)
        if value is None:
            value = training_code.holds(expr)
        return value is not None and value is not expr and _holds_dataset(value, depth + 1)
    if not isinstance(expr, nodes.Call) or not isinstance(expr.func, (nodes.Name, nodes.Attribute)):
        return False
    qname = resolve.call_name(expr)
    if qname is not None and qname.startswith(guide.DATASET_PACKAGE + ".") and qname.endswith("Dataset"):
        return True
    if isinstance(expr.func, nodes.Attribute) and expr.func.attrname in guide.DATASET_PIPELINE_METHODS:
        return _holds_dataset(expr.func.expr, depth + 1)
    return False


def _integer_labels(labels: nodes.NodeNG, call: nodes.Call) -> bool:
    """Labels visibly cast to an integer dtype, built as an integer tensor, or argmax indices."""
    value = training_code.local_value(labels, call.scope())
    if not isinstance(value, nodes.Call):
        return False
    func = value.func
    last = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", "")
    if last in apis.INTEGER_CAST_METHODS and isinstance(func, nodes.Attribute) and not value.args:
        return True
    if last in ("argmax", "Argmax"):
        return True
    if last in apis.CAST_OPS or last == "Tensor":
        position, keyword = apis.CAST_OPS.get(last, (1, "dtype"))
        dtype = astutil.argument(value, position, keyword)
        if isinstance(dtype, (nodes.Name, nodes.Attribute)):
            qname = resolve.qualified_name(dtype) or ""
            return qname.startswith("mindspore") and qname.rsplit(".", 1)[-1] in apis.INTEGER_DTYPES
    return False


def _is_mindspore_parameter(target: nodes.NodeNG, depth: int = 0) -> bool:
    """A Parameter of a MindSpore Cell: ``cell.weight`` of a Cell built here or held by
    ``self.x``, a loop variable over a Cell's parameters or sub-cells, a Parameter(...)."""
    construction = training_code.construction_of(target)
    if construction is not None and resolve.call_name(construction) in apis.PARAMETER_CLASSES:
        return True
    if not isinstance(target, nodes.Attribute):
        return False
    owner = target.expr
    if _is_mindspore_cell(owner):
        stored = _stored_attribute_values(owner, target.attrname)
        if stored:
            # ``self.original = self.conv.weight`` in a project Cell: the Parameter of
            # the layer it was read from, which may be a torch layer
            return all(_is_mindspore_parameter(value, depth + 1) for value in stored) if depth < 3 else False
        return True
    return _loop_over_cells(owner)


def _stored_attribute_values(owner: nodes.NodeNG, attr: str) -> list[nodes.NodeNG] | None:
    """What the project Cell class of ``owner`` (its own methods and its project
    bases') stores in ``self.<attr>`` when every such store reads another object's
    attribute (``self.original_conv = self.conv.weight``); None when it stores
    anything else, or nothing (a MindSpore layer's own ``weight``)."""
    cls = training_code.network_class(owner)
    if cls is None:
        return None
    user, _ = resolve.class_hierarchy(cls)
    stored: list[nodes.NodeNG] = []
    for klass in user:
        for assign in klass.nodes_of_class(nodes.Assign):
            if len(assign.targets) == 1 and astutil.self_attribute(assign.targets[0]) == attr:
                if not isinstance(assign.value, nodes.Attribute):
                    return None
                stored.append(assign.value)
    return stored or None


def _is_mindspore_cell(expr: nodes.NodeNG) -> bool:
    qname = training_code.constructed_qname(expr)
    if qname is not None:
        return resolve.is_cell_qname(qname)
    return training_code.network_class(expr) is not None


def _loop_over_cells(name: nodes.NodeNG) -> bool:
    """``m`` in ``for m in self.cells()`` / ``for _, m in net.cells_and_names()`` of a Cell."""
    if not isinstance(name, nodes.Name):
        return False
    for loop in name.scope().nodes_of_class(nodes.For, skip_klass=SKIP_NESTED):
        if name.name not in astutil.target_names(loop.target):
            continue
        iterable = loop.iter
        if not (isinstance(iterable, nodes.Call) and isinstance(iterable.func, nodes.Attribute)
                and iterable.func.attrname in ("cells", "cells_and_names", "name_cells")):
            continue
        receiver = iterable.func.expr
        if astutil.is_self(receiver):
            cls = astutil.enclosing_class(receiver)
            return cls is not None and resolve.is_cell_class(cls)
        return _is_mindspore_cell(receiver)
    return False


def _mindspore_prefix(node: nodes.Call) -> str | None:
    """How the module spells ``mindspore.`` for ``set_device``: the receiver of
    ``ms.set_context`` when it is mindspore itself, else an ``import mindspore as x``."""
    func = node.func
    if isinstance(func, nodes.Attribute) and isinstance(func.expr, nodes.Name):
        bound = resolve.binding(func.expr)
        if isinstance(bound, nodes.Import) and any(
            name == "mindspore" and (alias or name) == func.expr.name for name, alias in bound.names
        ):
            return func.expr.name + "."
    for statement in node.root().body:
        if isinstance(statement, nodes.Import):
            for name, alias in statement.names:
                if name == "mindspore":
                    return (alias or name) + "."
    return None


def register(linter: PyLinter) -> None:
    linter.register_checker(MigrationApiChecker(linter))


def _missing_module(module: str) -> str | None:
    """The module of the table (guide.MISSING_NAMES) that ``module`` is or lies in,
    MindSpore lacking it (``mindspore.optim``, ``mindspore.utils.data``); None otherwise."""
    parts = module.split(".")
    for end in range(len(parts), 1, -1):
        prefix = ".".join(parts[:end])
        if prefix in guide.MISSING_NAMES and guide.MISSING_NAMES[prefix].startswith("mindspore."):
            return prefix
    return None
