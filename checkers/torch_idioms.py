"""PyTorch APIs and idioms left in MindSpore code.

Measured on MindSpore 2.10 (tests/oracle/test_torch_idioms.py): ``Tensor.size`` is an
int attribute (``x.size(0)`` raises TypeError); tensors and Cells have no ``cuda``,
tensors no ``backward``, optimizers no ``zero_grad``/``step`` (AttributeError);
``Tensor.to("cuda")`` raises ValueError; tensors and Parameters have no in-place
``detach_``, ``unsqueeze_``, ``triu_``... (introspection of the installed classes:
mslint.knowledge.apis); torch functions reject MindSpore tensors
(TypeError); ``torch.no_grad()`` leaves MindSpore's gradients untouched.

Only MindSpore code is judged: a MindSpore Cell's methods, graph and differentiated
code, and, for the method idioms, modules that import mindspore and no torch. A
weight-conversion script that uses torch beside MindSpore models stays silent.
"""

from __future__ import annotations

import os
import re
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, edits, resolve, scope, sites, training_code, values
from mslint.checkers.messages import spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter


def _root(modname: str) -> str:
    return modname.split(".", 1)[0]


def _imports_one_of(names: list[str], modules: tuple[str, ...]) -> bool:
    return any(name == module or name.startswith(module + ".") for name in names for module in modules)


def _inside_package(path: str, packages: tuple[str, ...]) -> bool:
    """Whether the file at ``path`` sits in the folder of one of ``packages``
    (``.../src/mindtorch/nn/functional.py`` for mindtorch, ``.../mindnlp/core/ops.py``
    for mindnlp.core)."""
    folders = os.path.normpath(path).split(os.sep)[:-1]
    for package in packages:
        parts = package.split(".")
        if any(folders[i:i + len(parts)] == parts for i in range(len(folders) - len(parts) + 1)):
            return True
    return False


class _ModuleFacts:
    __slots__ = ("mindspore_only", "optimizer_compat", "parity_test", "torch_api", "torch_is_mindtorch", "torch_library",
                 "user_methods")

    def __init__(self, module: nodes.Module) -> None:
        imports_mindspore = imports_torch = optimizer_compat = torch_library = torch_api = False
        torch_is_mindtorch = False
        analysis = scope.analysis(module)
        for node in analysis.imports:
            if isinstance(node, nodes.Import):
                names = [name for name, _ in node.names]
            elif node.level:
                continue  # a relative import: the user's own package
            else:
                names = [node.modname or ""]
                names += [f"{node.modname}.{name}" for name, _ in node.names]
            roots = {_root(name) for name in names}
            imports_mindspore = imports_mindspore or apis.MINDSPORE_PACKAGE in roots
            imports_torch = (
                imports_torch
                or bool(roots & apis.TORCH_PACKAGES)
                or _imports_one_of(names, apis.TORCH_COMPAT_MODULES)
            )
            torch_library = torch_library or _imports_one_of(names, apis.TORCH_BASED_LIBRARIES)
            torch_api = torch_api or _imports_one_of(names, apis.TORCH_API_LAYERS)
            torch_is_mindtorch = torch_is_mindtorch or _imports_one_of(names, apis.TORCH_REDIRECTING_MODULES)
            optimizer_compat = optimizer_compat or _imports_one_of(names, apis.TORCH_COMPAT_OPTIMIZER_MODULES)
        # a module of such a layer itself (mindtorch's own source): its tensors are its own too
        inside_layer = _inside_package(module.file or "", apis.TORCH_API_LAYERS)
        torch_api = torch_api or inside_layer
        self.mindspore_only = imports_mindspore and not imports_torch and not inside_layer
        # a test module importing both frameworks (``spvcnn_ms_test.py``): a parity check
        # that runs the PyTorch original beside the port on purpose, trains nothing
        name = os.path.basename(module.file or "")
        self.parity_test = imports_mindspore and imports_torch and not torch_is_mindtorch and (
            name.startswith("test_") or name.endswith("_test.py"))
        # transformers, timm...: torch tensors and modules without ``import torch``: the
        # receiver of a tensor or module idiom (.detach(), .cpu(), .cuda(), .to("cuda"))
        # may be one. loss.backward() and optimizer.step() stay judged by the module:
        # MindSpore code beside such a library (a tokenizer, a converted checkpoint)
        # seldom trains a torch model without importing torch.
        self.torch_library = torch_library
        # msadapter, mindtorch: PyTorch's API over MindSpore; the module's tensors and
        # modules are its own, in Cells and differentiated code as anywhere
        self.torch_api = torch_api
        # ``from mindtorch.tools import mstorch_enable``: ``import torch`` loads mindtorch,
        # whose layers are Cells and whose functions take MindSpore tensors
        self.torch_is_mindtorch = torch_is_mindtorch
        # x2ms_adapter's optimizers have step() and zero_grad() (no-ops)
        self.optimizer_compat = optimizer_compat
        # Methods the module's own classes define: a call to one of these names may
        # reach the user's class, whatever its receiver is called.
        self.user_methods = {func.name for func in analysis.functions if isinstance(func.parent, nodes.ClassDef)}


def _short(node: nodes.Call) -> str:
    text = spelled(node)
    return text if len(text) <= 40 else spelled(node.func) + "(...)"


def _terminal_name(expr: nodes.NodeNG) -> str | None:
    if isinstance(expr, nodes.Name):
        return expr.name
    if isinstance(expr, nodes.Attribute):
        return expr.attrname
    return None


def _loss_cell_result(expr: nodes.NodeNG) -> bool:
    """``cls`` of ``cls = nn.BCEWithLogitsLoss()(out, y)`` or of ``cls = crit(out, y)``
    with ``crit = nn.MSELoss()`` (a name or ``self.crit`` every assignment of which
    builds one): what a MindSpore loss Cell returns, a Tensor (tests/oracle/test_torch_idioms.py)."""
    value = resolve.assigned_value(expr, sole=True)
    if not isinstance(value, nodes.Call):
        return False
    cell = value.func
    if isinstance(cell, nodes.Name):
        cell = resolve.assigned_value(cell, sole=True)
        constructions = [cell]
    elif astutil.self_attribute(cell) is not None:
        found = astutil.enclosing_method(cell)
        constructions = (scope.analysis(cell.root()).class_facts(found[1]).values(cell.attrname)
                         if found is not None else [])
    else:
        constructions = [cell]
    return bool(constructions) and all(
        isinstance(built, nodes.Call) and resolve.call_name(built) in apis.LOSS_REDUCTIONS for built in constructions
    )


def _torch_idiom_call(expr: nodes.NodeNG) -> bool:
    """``x.unsqueeze_(0)``: a call of a PyTorch tensor method of the idiom table."""
    if not (isinstance(expr, nodes.Call) and isinstance(expr.func, nodes.Attribute)):
        return False
    idiom = apis.TORCH_METHOD_IDIOMS.get(expr.func.attrname)
    return idiom is not None and idiom.receiver == "tensor"


def _is_torch_qname(qname: str | None) -> bool:
    return qname is not None and _root(qname) in apis.TORCH_PACKAGES


def _rooted_in_torch(expr: nodes.NodeNG) -> bool:
    """``torch.zeros(d).float()``: a value computed from a name ``torch`` the module
    binds to PyTorch, or from any name the module binds nowhere (a half-done port:
    ``F.softmax(x).cpu()`` with no ``F`` imported raises NameError). Either way it
    is no MindSpore tensor, and a torch tensor has .cuda(), .detach()..."""
    if _raises_name_error(expr, frozenset(), 0):
        return True  # ``batch.cuda()`` for ``batch`` of ``for batch in DataLoader(ds)``, DataLoader bound nowhere
    for _ in range(_HOST_DEPTH * 3):
        if isinstance(expr, nodes.Call):
            expr = expr.func
        elif isinstance(expr, nodes.Attribute):
            expr = expr.expr
        elif isinstance(expr, nodes.Subscript):
            expr = expr.value
        elif isinstance(expr, nodes.Name):
            if expr.name in apis.TORCH_PACKAGES and resolve.binding(expr) is None:
                return True  # unbound: NameError where it runs, never a MindSpore tensor's method
            if resolve.never_bound(expr):
                return True  # ``F`` bound nowhere (no import, def, assignment, star import that may bind it)
            if _is_torch_qname(resolve.qualified_name(expr)):
                return True
            # ``mu = torch.zeros(d)`` then ``mu.detach()``: the one value assigned it
            value = resolve.assigned_value(expr, sole=True)
            if value is None or value is expr:
                return False
            expr = value
        else:
            return False
    return False


_NAME_ERROR_DEPTH = 12


def _raises_name_error(expr: nodes.NodeNG | None, seen: frozenset[str], depth: int, whole: bool = False) -> bool:
    """``expr`` is a value that comes only from code that raises NameError, so
    it is never a MindSpore tensor and the line using it is never reached: it is
    read from a name the module binds nowhere (:func:`resolve.never_bound`, or
    ``torch`` unbound), through calls of its methods, attributes, items and
    operators (``F.softmax(x).view(-1)``), or from a local name every binding of
    which is such a value: an assignment of one, an item of a ``for`` loop whose
    iterable raises NameError when evaluated (``for _, x, y in
    enumerate(loader)`` with ``loader = DataLoader(ds)``, DataLoader bound
    nowhere), or the name's own earlier value (``x = x[mask]``, ``x += 1``).
    What an unknown callable (a parameter) returns for such an argument counts
    too (``net(x.cuda())``); what a known function or a Cell returns does not: its
    result is judged by what it is. ``whole``: any part whose evaluation raises
    counts (a loop's iterable: the loop never starts)."""
    if expr is None or depth > _NAME_ERROR_DEPTH:
        return False
    depth += 1
    if isinstance(expr, nodes.Name):
        if expr.name in seen:
            return True  # ``x = x[mask]``: the name's other bindings decide
        if expr.name in apis.TORCH_PACKAGES and resolve.binding(expr) is None:
            return True
        if resolve.never_bound(expr):
            return True
        bound = resolve.binding(expr)
        if not isinstance(bound, nodes.AssignName):
            return False
        every = bound.scope().locals.get(expr.name, ())
        if not every or len(every) > 8:
            return False
        if whole and len(every) == 1 and _filled_only_by_raising(bound, seen | {expr.name}, depth):
            return True  # ``for t in zip(sizes, tensors)``: each item of ``tensors`` was made by code that raises
        if _loop_item_in_force(expr, bound, every):
            every = [bound]  # ``for size, tensor in zip(...)``: the loop's item, whatever else the name held before
        return all(_binding_raises_name_error(each, seen | {expr.name}, depth, whole) for each in every)
    if isinstance(expr, nodes.Call):
        if _raises_name_error(expr.func, seen, depth, whole):
            return True
        if not (whole or _unknown_callable(expr.func)):
            return False
        arguments = [*expr.args, *(keyword.value for keyword in expr.keywords or ())]
        return any(_raises_name_error(part, seen, depth, whole) for part in arguments)
    if isinstance(expr, nodes.Attribute):
        held = astutil.self_attribute(expr)
        if held is not None:
            return _held_only_raising(expr, held, seen, depth)
        return _raises_name_error(expr.expr, seen, depth, whole)
    if isinstance(expr, nodes.Subscript):
        return _raises_name_error(expr.value, seen, depth, whole) or (
            whole and _raises_name_error(expr.slice, seen, depth, whole))
    if isinstance(expr, nodes.BinOp):
        return _raises_name_error(expr.left, seen, depth, whole) or _raises_name_error(expr.right, seen, depth, whole)
    if isinstance(expr, nodes.UnaryOp):
        return _raises_name_error(expr.operand, seen, depth, whole)
    if isinstance(expr, (nodes.Tuple, nodes.List)):
        return any(_raises_name_error(element, seen, depth, whole) for element in expr.elts)
    if isinstance(expr, nodes.Starred):
        return _raises_name_error(expr.value, seen, depth, whole)
    return False


def _unknown_callable(func: nodes.NodeNG) -> bool:
    """A parameter called as a function (``net(x)`` in ``def evaluate(net, ...)``),
    not annotated: what it returns is known only from what it is given."""
    if not isinstance(func, nodes.Name):
        return False
    bound = resolve.binding(func)
    if not (isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Arguments)):
        return False
    arguments = bound.parent
    every = [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]
    annotations = [*arguments.posonlyargs_annotations, *arguments.annotations, *arguments.kwonlyargs_annotations]
    return all(annotation is None for each, annotation in zip(every, annotations) if each is bound)


def _loop_item_in_force(read: nodes.Name, bound: nodes.AssignName, every: list) -> bool:
    """``bound`` is the target of a ``for`` loop whose body holds ``read`` and no
    other binding of the name: each iteration rebinds the name before the body
    runs, so only the loop's item reaches the read."""
    loop = bound.parent
    while isinstance(loop, (nodes.Tuple, nodes.List, nodes.Starred)):
        loop = loop.parent
    if not isinstance(loop, nodes.For) or not any(bound is name for name in loop.target.nodes_of_class(nodes.AssignName)):
        return False

    def in_body(node: nodes.NodeNG) -> bool:
        return any(statement is node or statement.parent_of(node) for statement in loop.body)

    return in_body(read) and not any(other is not bound and in_body(other) for other in every)


def _filled_only_by_raising(bound: nodes.AssignName, seen: frozenset[str], depth: int) -> bool:
    """``tensors = []`` whose every ``tensors.append(x)`` (extend, insert) adds a
    value :func:`_raises_name_error` finds, with at least one such call: the list
    holds items only once code that raises NameError has run, so a loop over it
    never reaches its body with one."""
    if not (isinstance(bound.parent, nodes.Assign) and isinstance(bound.parent.value, nodes.List)
            and not bound.parent.value.elts):
        return False
    added = 0
    for name in bound.scope().nodes_of_class(nodes.Name):
        if name.name != bound.name:
            continue
        attribute = name.parent
        if isinstance(attribute, nodes.Attribute) and attribute.attrname in ("append", "extend", "insert") \
                and isinstance(attribute.parent, nodes.Call) and attribute.parent.func is attribute:
            arguments = attribute.parent.args[-1:]
            if not arguments or not _raises_name_error(arguments[0], seen, depth):
                return False
            added += 1
    return added > 0


def _held_only_raising(expr: nodes.Attribute, held: str, seen: frozenset[str], depth: int) -> bool:
    """``self.alpha`` whose every assignment in its class gives a value
    :func:`_raises_name_error` finds (``self.alpha = Variable(torch.ones(n, 1))``
    with ``Variable`` and ``torch`` bound nowhere), or its own earlier value
    (``self.alpha = self.alpha.cuda()``): the attribute never holds a MindSpore tensor."""
    key = "self." + held
    if key in seen:
        return True
    cls = astutil.enclosing_class(expr)
    if cls is None:
        return False
    assigned = [node for node in cls.nodes_of_class(nodes.AssignAttr)
                if node.attrname == held and astutil.is_self(node.expr)]
    if not assigned or len(assigned) > 8:
        return False
    for target in assigned:
        holder = target.parent
        if not isinstance(holder, nodes.Assign):
            return False
        if _under_raising_test(holder, seen, depth):
            continue  # ``if isinstance(alpha, Variable): self.alpha = alpha``: the test raises NameError first
        if not _raises_name_error(holder.value, seen | {key}, depth):
            return False
    return True


def _under_raising_test(statement: nodes.NodeNG, seen: frozenset[str], depth: int) -> bool:
    """``statement`` sits in an arm of an ``if`` whose test raises NameError when
    evaluated (an unbound name in it): it never runs."""
    child, node = statement, statement.parent
    frame = statement.frame()
    while node is not None and node is not frame:
        if isinstance(node, nodes.If) and child is not node.test \
                and _raises_name_error(node.test, seen, depth, whole=True):
            return True
        child, node = node, node.parent
    return False


def _binding_raises_name_error(bound: nodes.NodeNG, seen: frozenset[str], depth: int, whole: bool) -> bool:
    """A binding of a name that gives it only a value :func:`_raises_name_error`
    finds: an assignment (plain or unpacked) of one, an item of a ``for`` loop
    whose iterable raises NameError, or an augmented assignment (the name's
    other bindings decide)."""
    if not isinstance(bound, nodes.AssignName):
        return False  # a parameter, an import, a definition, ``with ... as``...
    holder = bound.parent
    while isinstance(holder, (nodes.Tuple, nodes.List, nodes.Starred)):
        holder = holder.parent
    if isinstance(holder, nodes.Assign):
        return _raises_name_error(holder.value, seen, depth, whole)
    if isinstance(holder, nodes.AugAssign):
        return True  # ``x += 1`` reads the name first: its other bindings decide
    if isinstance(holder, (nodes.For, nodes.Comprehension)) and any(
            name is bound for name in holder.target.nodes_of_class(nodes.AssignName)):
        return _raises_name_error(holder.iter, seen, depth, whole=True)
    return False


class TorchIdiomsChecker(BaseChecker):
    name = "mindspore-torch-idioms"
    msgs = {
        "E7701": (
            "%s; %s",
            "ms-torch-in-cell",
            "PyTorch APIs and idioms in MindSpore code: torch calls inside a Cell or graph code, "
            "`.cuda()`, `.to(device)` with a PyTorch device, `loss.backward()`, "
            "`optimizer.zero_grad()`, `optimizer.step()`, `with torch.no_grad()` (and its port "
            "`with ops.stop_gradient()`), `x.size(0)` "
            "on a tensor (in MindSpore `size` is an int attribute), and PyTorch tensor methods "
            "MindSpore's tensors lack (`.detach_()`, `.unsqueeze_(0)`, `.clamp_min(v)`...).",
        ),
    }

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._facts: dict[nodes.Module, _ModuleFacts] = {}

    def open(self) -> None:
        self._facts = {}

    def _module_facts(self, module: nodes.Module) -> _ModuleFacts:
        facts = self._facts.get(module)
        if facts is None:
            if len(self._facts) > 64:
                self._facts.clear()
            facts = self._facts[module] = _ModuleFacts(module)
        return facts

    # -- where MindSpore code is -----------------------------------------------
    @staticmethod
    def _in_cell(node: nodes.NodeNG, analysis: scope.ModuleAnalysis) -> bool:
        """Inside a method (or the body) of a MindSpore Cell class."""
        cls = astutil.enclosing_class(node)
        return cls is not None and analysis.is_cell_class(cls)

    def _mindspore_code(self, node: nodes.NodeNG, analysis: scope.ModuleAnalysis, kind: str) -> bool:
        facts = self._module_facts(node.root())
        if facts.mindspore_only and not (facts.torch_library and kind in ("tensor", "any")):
            return True
        if facts.torch_api:
            return False  # msadapter's tensors and modules are everywhere: the receiver is judged
        return analysis.in_graph_or_differentiated(node) or self._in_cell(node, analysis)

    def _report(self, node: nodes.NodeNG, args: tuple[str, str], changes: list | None = None) -> None:
        if self._module_facts(node.root()).parity_test:
            return  # a test comparing the port with its PyTorch original: torch runs there on purpose
        if sites.forward_never_runs(node.frame()):
            return  # the forward of a Cell whose inherited construct never calls it: nothing runs it
        if values.never_runs(node) or values.never_runs_as_built(node, defaults=False):
            # under a guard every call in sight makes false (``if use_torch_head:`` in
            # __init__), or one on self attributes every construction makes false
            # (``elif self.pool == "avg":`` in a class only ever built with "max"; a
            # class nothing in sight builds may be built either way)
            return
        edits.offer("ms-torch-in-cell", node, changes)
        self.add_message("ms-torch-in-cell", node=node, args=args)

    # -- calls ------------------------------------------------------------------
    @only_required_for_messages("ms-torch-in-cell")
    def visit_call(self, node: nodes.Call) -> None:
        func = node.func
        if not isinstance(func, (nodes.Name, nodes.Attribute)):
            return
        qname = resolve.qualified_name(func)
        if qname is None:
            if isinstance(func, nodes.Attribute):
                idiom = apis.TORCH_METHOD_IDIOMS.get(func.attrname)
                if idiom is not None:
                    self._check_method(node, func, idiom)
                elif func.attrname == apis.DEVICE_METHOD:
                    self._check_device(node, func)
            return
        if (_is_torch_qname(qname) or _root(qname) in apis.TORCH_LAYER_LIBRARIES) and qname not in apis.TORCH_NO_GRAD_CONTEXTS:
            if self._module_facts(node.root()).torch_is_mindtorch:
                return  # torch is mindtorch here: its layers are Cells, its functions MindSpore's
            self._check_torch_call(node, qname)

    def _check_method(self, node: nodes.Call, func: nodes.Attribute, idiom: apis.TorchMethodIdiom) -> None:
        facts = self._module_facts(node.root())
        if func.attrname in facts.user_methods:
            return
        if idiom.no_args and (node.args or node.keywords):
            return
        if _builds_raised_error(node):
            return  # ``raise ValueError(f"... {x.size()}")``: the program stops there either way
        if astutil.guarded_by_hasattr(node):
            return  # ``if hasattr(x, "detach"): x.detach()``: never runs where the method is missing
        receiver = func.expr
        if _torch_idiom_call(receiver):
            return  # ``m.unsqueeze_(0).unsqueeze_(0)``: the first call fails first, and is judged itself
        if _rooted_in_torch(receiver):
            return  # ``torch.zeros(d).cuda()``: a torch tensor (or a NameError), not a MindSpore one
        if _returned_by_torch_module(receiver):
            return  # ``flow = estimate(a, b)`` of an unported torch module: its tensor is torch's
        if _returned_by_foreign_function(receiver):
            return  # ``sample_points(mesh).detach()`` of a package not MindSpore's: not proven a MindSpore tensor
        analysis = scope.analysis(node.root())
        if idiom.receiver == "tensor":
            in_cell = not facts.torch_api and (
                analysis.in_graph_or_differentiated(node) or analysis.pynative_cell_code(node) is not None)
            if not (in_cell and analysis.depends_on_tensor(receiver)):
                # evaluation code, module level, a file that also imports torch: the
                # receiver itself must be a MindSpore tensor; in a module of MindSpore
                # code only, .detach()/.cpu() exist on no object it can hold (neither
                # MindSpore's tensors nor numpy's arrays; a Cell's is another rule's)
                found = values.mindspore_object(receiver)
                if found is None and func.attrname in apis.TORCH_SIZE_METHODS:
                    found = values.cell_output(receiver)  # ``feats = self.pre(x)``: a layer's tensor
                anywhere = facts.mindspore_only and not facts.torch_library and func.attrname in apis.TORCH_TENSOR_ONLY_METHODS and found != values.CELL
                if anywhere and found != values.TENSOR and values.callers_pass_no_tensor(receiver):
                    # a helper's parameter whose callers in sight hand it torch values
                    # (or values mslint cannot name), never a MindSpore tensor
                    anywhere = False
                if found != values.TENSOR and not anywhere:
                    return
            if resolve.tensor_method_rebound(node, func.attrname):
                return  # the project gives Tensor this method (mslint.analysis.programs overrides)
        else:
            if idiom.receiver == "any" and (_lambda_parameter(receiver) or _not_a_mindspore_object(node, receiver)):
                return  # a callback's argument (torch.load's map_location), or a branch for other objects
            if idiom.receiver == "any" and resolve.tensor_method_rebound(node, func.attrname) \
                    and (values.mindspore_object(receiver) != values.CELL or resolve.cell_method_rebound(node, func.attrname)):
                return  # the project gives Tensor this method (``ms.Tensor.cuda = ...``); a Cell still lacks it
            if idiom.receiver == "optimizer" and facts.optimizer_compat and not self._mindspore_receiver(receiver, "optimizer"):
                return  # x2ms_adapter's optimizers define step()/zero_grad(); only a mindspore.nn one lacks them
            if not self._mindspore_code(node, analysis, idiom.receiver):
                # a file that also imports torch: judge the receiver, not the file
                if not self._mindspore_receiver(receiver, idiom.receiver):
                    return
            if not self._receiver_matches(receiver, idiom.receiver):
                return
            value = resolve.assigned_value(receiver, sole=True)
            if isinstance(value, nodes.Call) and _is_torch_qname(resolve.call_name(value)):
                return  # a torch object kept beside MindSpore code
            if _made_by_foreign_class(receiver) or _made_by_foreign_class(value):
                return  # ``BVH(...).cuda()``: an object of a class not MindSpore's
        changes = _size_edits(node) if func.attrname in apis.TORCH_SIZE_METHODS else None
        self._report(node, args=(f"{_short(node)}: {idiom.harm}", idiom.instead), changes=changes)

    @staticmethod
    def _mindspore_receiver(receiver: nodes.NodeNG, kind: str) -> bool:
        """The receiver is certainly a MindSpore object of the idiom's kind: a tensor
        or a Cell (``.cuda()``), a tensor (``loss.backward()``), an optimizer built
        from mindspore (``optimizer.step()``)."""
        if kind == "optimizer":
            value = resolve.assigned_value(receiver, sole=True) if isinstance(receiver, nodes.Name) else None
            return isinstance(value, nodes.Call) and resolve.call_name(value) in apis.OPTIMIZER_CLASSES
        found = values.mindspore_object(receiver)
        return found == values.TENSOR if kind == "loss" else found is not None

    @staticmethod
    def _receiver_matches(receiver: nodes.NodeNG, kind: str) -> bool:
        if kind == "any":
            return True
        name = _terminal_name(receiver)
        if kind == "loss":
            return (name is not None and "loss" in name.lower()) or _loss_cell_result(receiver)
        if kind == "optimizer":
            if name is not None and (
                re.search(apis.OPTIMIZER_PARAM_PATTERN, name, re.IGNORECASE)
                or re.search(apis.OPTIMIZER_SHORT_PARAM_PATTERN, name)
            ):
                return True
            value = resolve.assigned_value(receiver, sole=True)
            return isinstance(value, nodes.Call) and resolve.call_name(value) in apis.OPTIMIZER_CLASSES
        return False

    def _check_device(self, node: nodes.Call, func: nodes.Attribute) -> None:
        device = astutil.argument(node, 0, "device")
        if device is astutil.UNKNOWN:
            return
        spelled_device = self._torch_device(device, depth=0)
        if spelled_device is None:
            return
        if _rooted_in_torch(func.expr):
            return  # ``torch.zeros(d).to("cuda")``: a torch tensor's (or a NameError)
        analysis = scope.analysis(node.root())
        if not self._mindspore_code(node, analysis, "any") and values.mindspore_object(func.expr) is None:
            return  # a file that also imports torch: only a MindSpore tensor or Cell is judged
        value = resolve.assigned_value(func.expr, sole=True)
        if isinstance(value, nodes.Call) and _is_torch_qname(resolve.call_name(value)):
            return
        if _lambda_parameter(func.expr) or _not_a_mindspore_object(node, func.expr):
            return
        built = func.expr if isinstance(func.expr, nodes.Call) else value
        if isinstance(built, nodes.Call) and _cell_without_parameters(built):
            return  # Cell.to converts the Cell's parameters: with none, it returns the Cell (measured)
        self._report(
            node,
            args=(
                f"{_short(node)}: MindSpore's Tensor.to and Cell.to take a dtype or a MindSpore device "
                f'("CPU", "Ascend"); the PyTorch device {spelled_device} raises an error',
                'choose the device once with ms.set_device("GPU") and drop the device argument',
            ),
        )

    def _torch_device(self, expr: nodes.NodeNG | None, depth: int) -> str | None:
        """How a PyTorch device argument is spelled, or None when it is not one."""
        if expr is None or depth > 3:
            return None
        if isinstance(expr, nodes.Const) and isinstance(expr.value, str):
            if expr.value.lower().startswith(apis.TORCH_DEVICE_PREFIXES):
                return repr(expr.value).replace("'", '"')
            return None
        if isinstance(expr, nodes.Call):
            if resolve.call_name(expr) in apis.TORCH_DEVICE_CONSTRUCTORS:
                return _short(expr)
            return None
        if isinstance(expr, nodes.IfExp):
            return self._torch_device(expr.body, depth + 1) or self._torch_device(expr.orelse, depth + 1)
        if isinstance(expr, nodes.Name):
            assigned = resolve.assigned_value(expr, sole=True)
            if assigned is not None:
                return self._torch_device(assigned, depth + 1)
            return self._torch_device_parameter(expr, depth)
        if isinstance(expr, nodes.Attribute):
            # ``self.device``: every value its class (and user bases) assigns it is a
            # PyTorch device (``self.device = "cuda"``)
            attr = astutil.self_attribute(expr)
            found = astutil.enclosing_method(expr) if attr is not None else None
            if found is None:
                return None
            assigned = scope.analysis(expr.root()).class_facts(found[1]).values(attr)
            if not assigned or any(value is None for value in assigned):
                return None
            devices = [self._torch_device(value, depth + 1) for value in assigned]
            return devices[0] if all(devices) else None
        return None

    def _torch_device_parameter(self, name: nodes.Name, depth: int) -> str | None:
        """A parameter whose default is a PyTorch device (``def get_loss(name,
        device="cuda:0")``) and that no call in sight gives a constant that is not
        one: a device, never a dtype (callers in other modules are not in sight)."""
        found = values.parameter_default(name)
        if found is None:
            return None
        spelled_device = self._torch_device(found[1], depth + 1)
        if spelled_device is None:
            return None
        passed = values.values_at_calls(name) or ()
        if any(not (isinstance(value, str) and value.lower().startswith(apis.TORCH_DEVICE_PREFIXES)) for value in passed):
            return None  # a caller in the module passes something else, or a value mslint cannot read (a dtype?)
        return spelled_device

    def _check_torch_call(self, node: nodes.Call, qname: str) -> None:
        analysis = scope.analysis(node.root())
        if analysis.in_graph_or_differentiated(node):
            self._report(
                node,
                args=(
                    f"{spelled(node.func)}() is a PyTorch function: it rejects MindSpore tensors "
                    "(TypeError) and graph mode cannot compile it",
                    "use the mindspore.ops or mindspore.mint equivalent",
                ),
            )
            return
        last = qname.rsplit(".", 1)[-1]
        builds_torch_object = (
            qname in apis.TORCH_TENSOR_FACTORIES
            or qname in apis.TORCH_PARAMETER_CLASSES
            or (qname.startswith(tuple(p + "." for p in apis.TORCH_LAYER_PACKAGES)) and last[:1].isupper())
            or (_root(qname) in apis.TORCH_LAYER_LIBRARIES and last[:1].isupper())
        )
        if builds_torch_object and self._in_cell(node, analysis) and not _host_interop(node) \
                and not _converted_before_return(node) \
                and not (qname not in apis.TORCH_TENSOR_FACTORIES and qname not in apis.TORCH_PARAMETER_CLASSES
                         and _weight_donor(node)):
            self._report(
                node,
                args=(
                    f"{spelled(node.func)}(...) inside a MindSpore Cell builds a PyTorch object: the Cell "
                    "neither registers nor trains it, and MindSpore tensors cannot be mixed with it",
                    "use the mindspore.nn/mint layer, or a mindspore Tensor or Parameter",
                ),
            )

    # -- torch.no_grad() --------------------------------------------------------
    def _no_grad_message(self, node: nodes.NodeNG, context: nodes.NodeNG) -> None:
        self._report(
            node,
            args=(
                f"{spelled(context)} does not stop MindSpore's gradients: ms.grad still "
                "differentiates through it",
                "wrap the values in ops.stop_gradient(...)",
            ),
        )

    @staticmethod
    def _no_grad_context(expr: nodes.NodeNG) -> bool:
        target = expr.func if isinstance(expr, nodes.Call) else expr
        if not isinstance(target, (nodes.Name, nodes.Attribute)):
            return False
        return resolve.qualified_name(target) in apis.TORCH_NO_GRAD_CONTEXTS

    @only_required_for_messages("ms-torch-in-cell")
    def visit_with(self, node: nodes.With) -> None:
        for expr, _ in node.items:
            if _stop_gradient_as_context(expr):
                # ``with ops.stop_gradient():``, a port of ``with torch.no_grad():``: wherever it runs
                self._report(expr, args=(
                    f"{spelled(expr.func)}() is no context manager: called without the value whose gradient "
                    "it stops, it raises TypeError",
                    "delete the with line (code outside the function given to ms.grad or value_and_grad is not "
                    "differentiated) and wrap a value in ops.stop_gradient(x) where its gradient must stop",
                ))
        if self._module_facts(node.root()).torch_is_mindtorch:
            return  # mindtorch's no_grad, not PyTorch's
        for expr, _ in node.items:
            if not self._no_grad_context(expr):
                continue
            analysis = scope.analysis(node.root())
            if analysis.in_graph_or_differentiated(node) or self._in_cell(node, analysis):
                self._no_grad_message(expr, expr)

    @only_required_for_messages("ms-torch-in-cell")
    def visit_functiondef(self, node: nodes.FunctionDef) -> None:
        if not node.decorators or self._module_facts(node.root()).torch_is_mindtorch:
            return
        for decorator in node.decorators.nodes:
            if not self._no_grad_context(decorator):
                continue
            analysis = scope.analysis(node.root())
            if node in analysis.kinds or self._in_cell(node, analysis):
                self._no_grad_message(decorator, decorator)

    visit_asyncfunctiondef = visit_functiondef


def _stop_gradient_as_context(expr: nodes.NodeNG) -> bool:
    """``ops.stop_gradient()`` with no argument, as a with item (measured: TypeError,
    the value is required; tests/oracle/test_torch_idioms.py)."""
    return isinstance(expr, nodes.Call) and not expr.args and not expr.keywords \
        and isinstance(expr.func, (nodes.Name, nodes.Attribute)) \
        and resolve.qualified_name(expr.func) in apis.GRADIENT_STOPPING_CALLS


# ---------------------------------------------------------------------------
# Torch on purpose: a host-side conversion in a method no graph compiles
# ---------------------------------------------------------------------------
_HOST_DEPTH = 6


def _returned_by_torch_module(receiver: nodes.NodeNG) -> bool:
    """``flow.permute(1, 2, 0)`` where ``flow = estimate(a, b)`` and ``estimate`` is a
    function of a project module that imports torch and not mindspore (an unported
    helper): what it returns is a torch value, whatever it was given."""
    root = astutil.read_root(receiver)
    value = values.reaching_value(root) if isinstance(root, nodes.Name) else root
    if not (isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute))):
        return False
    callee = resolve.project_function(value.func)
    if callee is None:
        return False
    imported = [name for node in astutil.module_nodes(callee.root(), (nodes.Import, nodes.ImportFrom))
                for name in ([name for name, _ in node.names] if isinstance(node, nodes.Import) else [node.modname or ""])]
    return any(_root(name) == "torch" for name in imported) and not any(_mindspore_family(_root(name)) for name in imported)


def _builds_raised_error(call: nodes.Call) -> bool:
    """``call`` is part of the exception a ``raise`` statement builds (its message):
    were the call to fail, the program would stop at that statement anyway."""
    child, node = call, call.parent
    while node is not None and not isinstance(node, (nodes.Lambda, nodes.FunctionDef, nodes.ClassDef, nodes.Module)):
        if isinstance(node, nodes.Raise):
            return child is node.exc
        if node.is_statement:
            return False
        child, node = node, node.parent
    return False


# packages whose functions return values whose methods mslint knows: MindSpore's
# family (judged as MindSpore), numpy's arrays and Python's own values
_KNOWN_RESULT_PACKAGES = frozenset({"numpy", "builtins", "math"})


def _returned_by_foreign_function(receiver: nodes.NodeNG) -> bool:
    """``receiver`` is what a function of an outside package returns, directly
    (``sample_points_from_meshes(mesh, 5000).detach()``, imported from a pytorch3d
    port) or through the one value a name holds: neither MindSpore's family nor the
    project's, so whether it is a MindSpore tensor is not proven."""
    if isinstance(receiver, nodes.Attribute) and astutil.is_self(receiver.expr):
        # ``self.finalizer.detach()``: every ``self.finalizer = ...`` of the class
        # (``weakref.finalize(...)``, whose object has its own detach)
        owner = astutil.enclosing_class(receiver)
        assigned = [target.parent.value for target in values.self_assignments_of(owner, receiver.attrname)
                    if isinstance(target.parent, nodes.Assign)] if owner is not None else []
        made = [value for value in assigned if not (isinstance(value, nodes.Const) and value.value is None)]
        return bool(made) and all(_foreign_call(value) for value in made)  # (None: a placeholder, nothing to call)
    root = astutil.read_root(receiver) if not isinstance(receiver, nodes.Call) else receiver
    value = values.reaching_value(root) if isinstance(root, nodes.Name) else root
    return _foreign_call(value)


def _foreign_call(value: nodes.NodeNG | None) -> bool:
    """``value`` is a call of a function of an outside package (see _returned_by_foreign_function)."""
    if not (isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute))):
        return False
    if resolve.project_function(value.func) is not None or resolve.user_class_of_call(value) is not None:
        return False
    qname = resolve.qualified_name(value.func)
    if qname is None or "." not in qname:
        return False
    package = _root(qname)
    return not _mindspore_family(package) and package not in _KNOWN_RESULT_PACKAGES and not _is_torch_qname(qname)


def _made_by_foreign_class(expr: nodes.NodeNG | None) -> bool:
    """``expr`` is an object built by a class that is neither MindSpore's nor a
    project Cell: a name defined nowhere in sight (``BVH(...)`` of a PyTorch
    extension whose import is missing), one imported from a package outside
    MindSpore and the project, or a project class that is not a Cell. Its
    ``.cuda()`` may well exist: what the call does is not proven."""
    if not isinstance(expr, nodes.Call) or not isinstance(expr.func, (nodes.Name, nodes.Attribute)):
        return False
    if values.mindspore_object(expr) is not None or resolve.project_function(expr.func) is not None:
        return False
    cls = resolve.user_class_of_call(expr)
    if cls is not None:
        return not resolve.is_cell_class(cls)
    qname = resolve.qualified_name(expr.func)
    if qname is None:
        # a bare name bound nowhere (not a builtin): undefined here
        return isinstance(expr.func, nodes.Name) and resolve.binding(expr.func) is None
    return not _mindspore_family(_root(qname)) and "." in qname


def _host_interop(call: nodes.Call) -> bool:
    """A torch tensor built, in a Cell method no graph compiles (the caller
    checks that), from host data (``x.asnumpy()``, a numpy array, another torch
    value, what a library returns for them) and kept out of MindSpore's
    computation: not stored on the Cell, never handed to a MindSpore call or a
    sub-cell. A conversion for a torch library (mesh export with mcubes or
    kaolin): nothing is left untrained, no MindSpore tensor meets a torch one."""
    method = call.frame()
    if not isinstance(method, nodes.FunctionDef) or isinstance(call.func, nodes.Attribute) and \
            resolve.qualified_name(call.func) in apis.TORCH_PARAMETER_CLASSES:
        return False
    data = [call.args[0]] if call.args else [keyword.value for keyword in call.keywords or () if keyword.arg == "data"]
    if not all(_host_side(value, 0) for value in data):
        return False
    return _kept_out_of_mindspore(call, method)


def _weight_donor(call: nodes.Call) -> bool:
    """A torch module (a layer, not a tensor) kept as ``self.<attr>`` in ``__init__`` (``self.torch_stem =
    torch.nn.Sequential(...).cuda()``, the call itself or one in its arguments) and read
    nowhere but in ``__init__``: the PyTorch original the port copies its initial
    weights from (``spnn.Conv3d(..., weight=self.torch_stem[0].kernel.data)``). Nothing
    the Cell runs meets it, so nothing is left untrained. Not where the file reaches
    attributes by name (``getattr(self, ...)``, ``__dict__``)."""
    init = call.frame()
    if not (isinstance(init, nodes.FunctionDef) and init.name == "__init__"):
        return False
    child, parent = call, call.parent
    while isinstance(parent, (nodes.Call, nodes.Attribute, nodes.Keyword, nodes.List, nodes.Tuple)):
        if isinstance(parent, nodes.Call) and child is parent.func:
            child, parent = parent, parent.parent  # ``Sequential(...).cuda()``
            continue
        child, parent = parent, parent.parent
    if not (isinstance(parent, nodes.Assign) and len(parent.targets) == 1):
        return False
    attr = astutil.self_attribute(parent.targets[0])
    if attr is None:
        return False
    module = call.root()
    if training_code.mentions(module, _GENERIC_ATTRIBUTE_ACCESS):
        return False
    return not any(
        node.attrname == attr and node.frame() is not init
        for node in astutil.module_nodes(module, nodes.Attribute)
    )


# reaching a Cell's attributes by name: any of them may be read there
_GENERIC_ATTRIBUTE_ACCESS = re.compile(rb"getattr\(\s*self\b|__dict__|vars\(\s*self")


def _converted_before_return(call: nodes.Call) -> bool:
    """``self.edges = torch.zeros(n).long()`` in a Cell method no graph compiles (the
    caller checks that), filled with torch, then rebound to ``ms.Tensor(self.edges.numpy())``
    further down the method's own body, before any return: the Cell keeps a MindSpore
    tensor and the torch value was scratch. Not when the attribute meets MindSpore
    (a MindSpore call, a call on self) while it holds the torch value."""
    method = call.frame()
    statement = call.statement()
    if not isinstance(method, nodes.FunctionDef) or not isinstance(statement, nodes.Assign) \
            or statement.parent is not method or len(statement.targets) != 1:
        return False
    attr = astutil.self_attribute(statement.targets[0])
    if attr is None:
        return False
    for later in method.body[method.body.index(statement) + 1:]:
        if isinstance(later, (nodes.Return, nodes.FunctionDef, nodes.ClassDef)):
            return False
        if isinstance(later, nodes.Assign) and len(later.targets) == 1 \
                and astutil.self_attribute(later.targets[0]) == attr:
            return isinstance(later.value, nodes.Call) and resolve.call_name(later.value) in apis.TENSOR_CONSTRUCTORS
        if any(astutil.self_attribute(read) == attr and _meets_mindspore(read, set())
               for read in later.nodes_of_class(nodes.Attribute)):
            return False
    return False


def _host_side(expr: nodes.NodeNG, depth: int) -> bool:
    """``expr`` holds host data or a torch value, never a MindSpore tensor."""
    if depth > _HOST_DEPTH:
        return False
    if isinstance(expr, nodes.Const) or values.host_data(expr):
        return True
    if isinstance(expr, (nodes.Subscript, nodes.Attribute)):
        return _host_side(expr.value if isinstance(expr, nodes.Subscript) else expr.expr, depth + 1)
    if isinstance(expr, (nodes.Tuple, nodes.List)):
        return all(_host_side(element, depth + 1) for element in expr.elts)
    if isinstance(expr, nodes.BinOp):
        return _host_side(expr.left, depth + 1) and _host_side(expr.right, depth + 1)
    if isinstance(expr, nodes.Name):
        assign = values.reaching_assignment(expr)
        return assign is not None and _host_side(assign.value, depth + 1)
    if isinstance(expr, nodes.Call) and isinstance(expr.func, (nodes.Name, nodes.Attribute)):
        qname = resolve.qualified_name(expr.func)
        if _is_torch_qname(qname):
            return True
        if qname is None:  # a method of the value: x.contiguous(), v.astype(np.int64)
            return isinstance(expr.func, nodes.Attribute) and _host_side(expr.func.expr, depth + 1)
        # a library's function (mcubes, kaolin) given host data: its result is host data too
        return bool(expr.args) and _host_side(expr.args[0], depth + 1) and not _project_callee(expr.func) and \
            not _mindspore_family(_root(qname))
    return False


def _mindspore_family(package: str) -> bool:
    """MindSpore and the libraries built on it (mindcv, mindnlp, mindformers...),
    whose functions may return MindSpore tensors."""
    return package == apis.MINDSPORE_PACKAGE or package.startswith("mind")


def _project_callee(func: nodes.NodeNG) -> bool:
    """A function or a class of the project."""
    if isinstance(func, nodes.Name) and isinstance(resolve.binding(func), nodes.ClassDef):
        return True
    return resolve.project_callee(func) is not None or resolve.user_class(func) is not None


def _kept_out_of_mindspore(call: nodes.Call, method: nodes.FunctionDef) -> bool:
    """The torch value of ``call``, and the names it reaches in ``method``, are
    never stored on ``self`` nor handed to a MindSpore call or a sub-cell."""
    held: set[str] = set()
    if _meets_mindspore(call, held):
        return False
    statement = call.statement()
    if isinstance(statement, nodes.Assign):
        held.update(name for target in statement.targets for name in astutil.target_names(target))
    grown = True
    while grown:  # names computed from the torch values (final = occupancys[:-1])
        grown = False
        for assign in method.nodes_of_class(nodes.Assign, skip_klass=(nodes.FunctionDef, nodes.Lambda)):
            if values.host_data(assign.value):
                continue  # a host copy (t.numpy()) is no torch value
            if any(isinstance(name, nodes.Name) and name.name in held for name in assign.value.nodes_of_class(nodes.Name)):
                new = {name for target in assign.targets for name in astutil.target_names(target)} - held
                if any(astutil.self_attribute(target) for target in assign.targets):
                    return False  # stored on the Cell
                if new:
                    held.update(new)
                    grown = True
    return not any(
        isinstance(use, nodes.Name) and use.name in held and _meets_mindspore(use, held)
        for use in method.nodes_of_class(nodes.Name, skip_klass=(nodes.FunctionDef, nodes.Lambda))
    )


def _meets_mindspore(value: nodes.NodeNG, held: set[str]) -> bool:
    """``value`` (a torch value) is stored on ``self`` or passed as such to a
    MindSpore call or a call on ``self`` (a sub-cell, a method)."""
    parent = value.parent
    if isinstance(parent, nodes.Assign) and any(astutil.self_attribute(target) for target in parent.targets):
        return True
    if isinstance(parent, nodes.Keyword):
        parent = parent.parent
    if not (isinstance(parent, nodes.Call) and value is not parent.func):
        return False
    callee = parent.func
    if isinstance(callee, (nodes.Name, nodes.Attribute)):
        qname = resolve.qualified_name(callee)
        if qname is not None and _root(qname) == apis.MINDSPORE_PACKAGE:
            return True
    root, _ = astutil.attribute_chain(callee)
    return root is not None and astutil.is_self(root)


def _size_edits(call: nodes.Call) -> list | None:
    """``x.size()`` -> ``x.shape``, ``x.size(d)`` -> ``x.shape[d]`` (one positional dimension)."""
    if call.keywords:
        return None
    if not call.args:
        return [edits.replace_method_call(call, ".shape")]
    dimension = edits.source_segment(call.args[0]) if len(call.args) == 1 else None
    return [edits.replace_method_call(call, f".shape[{dimension}]")] if dimension else None


def register(linter: PyLinter) -> None:
    linter.register_checker(TorchIdiomsChecker(linter))


def _lambda_parameter(receiver: nodes.NodeNG) -> bool:
    """``storage`` in ``torch.load(path, map_location=lambda storage, loc:
    storage.cuda())``: a lambda's parameter holds what its caller passes, which
    no code in sight shows."""
    if not isinstance(receiver, nodes.Name):
        return False
    bound = resolve.binding(receiver)
    return isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Arguments) \
        and isinstance(bound.parent.parent, nodes.Lambda)


def _not_a_mindspore_object(call: nodes.Call, receiver: nodes.NodeNG) -> bool:
    """The call sits where ``receiver`` is not a MindSpore Cell or Tensor: the body
    of ``if not isinstance(receiver, nn.Cell):`` (the ``else`` of ``if
    isinstance(receiver, nn.Cell):``), a branch for other objects."""
    text = receiver.as_string()
    child, node = call, call.parent
    frame = call.frame()
    while node is not None and node is not frame:
        if isinstance(node, (nodes.If, nodes.IfExp)) and child is not node.test:
            in_body = child in node.body if isinstance(node, nodes.If) else child is node.body
            test, negated = node.test, False
            if isinstance(test, nodes.UnaryOp) and test.op == "not":
                test, negated = test.operand, True
            if negated == in_body and isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) \
                    and test.func.name == "isinstance" and len(test.args) == 2 and test.args[0].as_string() == text:
                kinds = test.args[1].elts if isinstance(test.args[1], nodes.Tuple) else [test.args[1]]
                names = [resolve.qualified_name(kind) if isinstance(kind, (nodes.Name, nodes.Attribute)) else None
                         for kind in kinds]
                if names and all(name is not None and (resolve.is_cell_qname(name) or name in apis.TENSOR_ANNOTATIONS)
                                 for name in names):
                    return True
        child, node = node, node.parent
    return False


def _cell_without_parameters(construction: nodes.Call) -> bool:
    """``CharbonnierLoss(eps)``: a project Cell whose ``__init__`` (and its project
    bases') builds nothing but plain values (``super().__init__()``, ``self.eps =
    eps``, MindSpore operators): it holds no Parameter, so ``.to(device)`` has
    nothing to move and returns the Cell unchanged (measured on 2.10)."""
    cls = resolve.user_class_of_call(construction)
    if cls is None or not resolve.is_cell_class(cls):
        return False
    user, external = resolve.class_hierarchy(cls)
    if not external <= apis.CELL_ROOT_CLASSES:
        return False
    for klass in user:
        init = astutil.own_method(klass, "__init__")
        for call in init.nodes_of_class(nodes.Call) if init is not None else ():
            if isinstance(call.func, nodes.Attribute) and call.func.attrname == "__init__":
                continue  # super().__init__() / nn.Cell.__init__(self)
            qname = resolve.call_name(call)
            if qname is None or not (qname.startswith("mindspore.ops.") or resolve.is_builtin_name(qname)):
                return False
    return True
