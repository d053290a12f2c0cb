"""Migration analysis: every PyTorch API a module uses, and what porting it means.

``scan(source)`` reads one module with Python's ``ast`` (never importing it) and
returns its uses of PyTorch (torch, torchvision, torchaudio, torchtext): names
resolved through the module's imports and aliases (``import torch.nn as nn``,
``from torch.nn import functional as F``, ``Conv = nn.Conv2d``), and the
methods and attributes of values it can tell are tensors (the result of a
PyTorch function that returns one, of a tensor method, of a ``torch.nn`` layer
called, arithmetic and indexing of those, a parameter annotated ``Tensor``).
Each call records how it passes its arguments, so that only the differences
that matter for those arguments are reported.

``judge(uses)`` turns the uses of a project into the report the ``mslint
migration`` command prints (mslint/report/migration.py formats it): per API its
status (same / differs / missing) and MindSpore 2.10 counterpart from the
generated mapping data (mslint/knowledge/mapping), the differences that matter
for the arguments this code passes, and the mslint rules that check them in the
ported code.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

from mslint.knowledge import apis, mapping
from mslint.knowledge.manifest import BY_SYMBOL
from mslint.knowledge.mapping.compare import describe

TORCH_ROOTS = frozenset({"torch", "torchvision", "torchaudio", "torchtext"})
TENSOR_TYPES = frozenset({"torch.Tensor", "torch.FloatTensor", "torch.LongTensor"})
# Tensor attributes that are tensors themselves (properties have no signature).
_TENSOR_PROPERTIES = frozenset({"T", "mT", "H", "mH", "data", "grad", "real", "imag"})
# Modules of tensor operators: one applied to a tensor returns a tensor unless the
# data knows otherwise.
_OPERATOR_MODULES = ("torch.nn.functional.", "torch.special.", "torch.linalg.", "torch.fft.")
# torch.nn classes whose instances, called, do not return a tensor.
_NOT_LAYERS = frozenset({"torch.nn.Module", "torch.nn.ModuleList", "torch.nn.ModuleDict", "torch.nn.ParameterList",
                         "torch.nn.ParameterDict", "torch.nn.Parameter"})


@dataclass(frozen=True)
class Call:
    """How a call passes its arguments: how many positionally, which keywords;
    ``unknown`` when ``*args``/``**kwargs`` hide some."""

    positional: int
    keywords: tuple[str, ...]
    unknown: bool = False


@dataclass
class Use:
    """One use of a PyTorch API."""

    api: str
    line: int
    column: int  # 0-based, as pylint's
    how: str = "reference"  # "call", "reference", "base" (a class's base), "method" (on a tensor)
    call: Call | None = None
    path: str = ""
    cell: tuple[int, int, int] | None = None  # a notebook: (cell, line, column) as the notebook shows it


# ---------------------------------------------------------------------------
# Scanning one module
# ---------------------------------------------------------------------------
def _dotted(node: ast.AST) -> tuple[str, list[str]] | None:
    """``a.b.c`` -> ("a", ["b", "c"]); None when the chain does not start at a name."""
    attrs = []
    while isinstance(node, ast.Attribute):
        attrs.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        return node.id, attrs[::-1]
    return None


class _Imports:
    """What each module-level name means: PyTorch modules and objects bound by
    imports (anywhere in the module) and by simple alias assignments."""

    def __init__(self, tree: ast.Module) -> None:
        self.names: dict[str, str] = {}
        self.modules: set[str] = set(mapping.data().get("torch_modules", ()))
        other: set[str] = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    root = alias.name.split(".", 1)[0]
                    if root not in TORCH_ROOTS:
                        other.add(alias.asname or root)
                        continue
                    self.modules.add(alias.name)
                    if alias.asname:
                        self.names[alias.asname] = alias.name
                    else:
                        self.names[root] = root
            elif isinstance(node, ast.ImportFrom):
                module = node.module or ""
                if node.level or module.split(".", 1)[0] not in TORCH_ROOTS:
                    other.update(alias.asname or alias.name for alias in node.names)
                    continue
                self.modules.add(module)
                for alias in node.names:
                    if alias.name != "*":
                        self.names[alias.asname or alias.name] = f"{module}.{alias.name}"
        for name in other & set(self.names):
            del self.names[name]  # bound to something else too: cannot tell
        # ``Conv = nn.Conv2d`` at module level, assigned once
        assigned: dict[str, list[ast.AST]] = {}
        for node in tree.body:
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                assigned.setdefault(node.targets[0].id, []).append(node.value)
        for name, values in assigned.items():
            if len(values) == 1 and name not in self.names:
                qname = self.resolve(values[0])
                if qname is not None:
                    self.names[name] = qname

    def resolve(self, node: ast.AST) -> str | None:
        dotted = _dotted(node)
        if dotted is None:
            return None
        root, attrs = dotted
        base = self.names.get(root)
        if base is None:
            return None
        return ".".join([base, *attrs])

    def is_module(self, qname: str) -> bool:
        return qname in self.modules


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _own_nodes(scope: ast.AST):
    """The nodes of a scope, not those of the functions and classes inside it."""
    stack = list(ast.iter_child_nodes(scope))
    while stack:
        node = stack.pop()
        yield node
        if not isinstance(node, _SCOPES):
            stack.extend(ast.iter_child_nodes(node))


def _call_of(node: ast.Call) -> Call:
    unknown = any(isinstance(arg, ast.Starred) for arg in node.args) or any(kw.arg is None for kw in node.keywords)
    return Call(
        positional=sum(1 for arg in node.args if not isinstance(arg, ast.Starred)),
        keywords=tuple(kw.arg for kw in node.keywords if kw.arg is not None),
        unknown=unknown,
    )


class _Scanner(ast.NodeVisitor):
    def __init__(self, tree: ast.Module) -> None:
        self.imports = _Imports(tree)
        self.uses: list[Use] = []
        self.tensor_attributes = frozenset(mapping.data().get("torch_tensor_attributes", ()))
        self._tensors: list[set[str]] = [set()]  # names known to hold tensors, per function
        self._layers: list[set[str]] = [set()]  # names holding torch.nn layers, per function
        self._self_layers: list[set[str]] = [set()]  # self.<attr> holding torch.nn layers, per class
        self._calls: dict[int, ast.Call] = {}

    # -- what a value is ---------------------------------------------------
    def _is_layer_class(self, qname: str | None) -> bool:
        if qname is None or not qname.startswith("torch.nn.") or qname in _NOT_LAYERS:
            return False
        entry = mapping.entry(qname)
        last = qname.rsplit(".", 1)[-1]
        return (entry is not None and entry.get("kind") == "class") or (last[:1].isupper() and "functional" not in qname)

    def _is_layer(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self._layers[-1]
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) and node.value.id == "self":
            return node.attr in self._self_layers[-1]
        return False

    def is_tensor(self, node: ast.AST) -> bool:
        if isinstance(node, ast.Name):
            return node.id in self._tensors[-1]
        if isinstance(node, ast.Call):
            qname = self.imports.resolve(node.func)
            if qname is not None:
                entry = mapping.entry(qname)
                returns = (entry.get("torch") or {}).get("returns_tensor") if entry else None
                if returns is None and qname.startswith(_OPERATOR_MODULES) and node.args:
                    # an operator the data says nothing of, applied to a tensor (F.max_pool2d(out, 2))
                    return self.is_tensor(node.args[0])
                return bool(returns) or qname in TENSOR_TYPES
            if isinstance(node.func, ast.Attribute) and self.is_tensor(node.func.value):
                entry = mapping.entry(f"torch.Tensor.{node.func.attr}")
                return bool(entry and (entry.get("torch") or {}).get("returns_tensor"))
            return self._is_layer(node.func)
        if isinstance(node, ast.BinOp):
            return self.is_tensor(node.left) or self.is_tensor(node.right)
        if isinstance(node, ast.UnaryOp):
            return self.is_tensor(node.operand)
        if isinstance(node, ast.Subscript):
            return self.is_tensor(node.value)
        if isinstance(node, ast.Attribute):
            return node.attr in _TENSOR_PROPERTIES and self.is_tensor(node.value)
        return False

    # -- scopes -------------------------------------------------------------
    def _annotated_tensor(self, annotation: ast.AST | None) -> bool:
        return annotation is not None and self.imports.resolve(annotation) in TENSOR_TYPES

    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        tensors = {a.arg for a in [*node.args.posonlyargs, *node.args.args, *node.args.kwonlyargs]
                   if self._annotated_tensor(a.annotation)}
        self._tensors.append(tensors)
        self._layers.append(set())
        self._learn(node)
        self.generic_visit(node)
        self._tensors.pop()
        self._layers.pop()

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._tensors.append(set())
        self._layers.append(set())
        self.generic_visit(node)
        self._tensors.pop()
        self._layers.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for base in node.bases:
            qname = self.imports.resolve(base)
            if qname is not None and not self.imports.is_module(qname):
                self._record(qname, base, "base")
            else:
                self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        for decorator in node.decorator_list:
            self.visit(decorator)
        # methods that build a layer (``def _make_layer(...): return nn.Sequential(*layers)``)
        builders = set()
        for method in node.body:
            if isinstance(method, (ast.FunctionDef, ast.AsyncFunctionDef)):
                returns = [n.value for n in _own_nodes(method) if isinstance(n, ast.Return) and n.value is not None]
                if returns and all(isinstance(v, ast.Call) and self._is_layer_class(self.imports.resolve(v.func))
                                   for v in returns):
                    builders.add(method.name)
        layers = set()
        for inner in ast.walk(node):
            if isinstance(inner, ast.Assign) and len(inner.targets) == 1 and isinstance(inner.value, ast.Call):
                target, func = inner.targets[0], inner.value.func
                builds = self._is_layer_class(self.imports.resolve(func)) or (
                    isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name) and func.value.id == "self"
                    and func.attr in builders)
                if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) \
                        and target.value.id == "self" and builds:
                    layers.add(target.attr)
        self._self_layers.append(layers)
        for statement in node.body:
            self.visit(statement)
        self._self_layers.pop()

    def _learn(self, function: ast.AST) -> None:
        """The local names of ``function`` that hold tensors (every assignment to
        them is a tensor) and torch.nn layers; two passes, so that ``y = x + 1``
        after ``x = torch.ones(2)`` is known whatever the order of discovery."""
        assignments: dict[str, list[ast.AST]] = {}
        for node in _own_nodes(function):
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    if isinstance(target, ast.Name):
                        assignments.setdefault(target.id, []).append(node.value)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and isinstance(node.target, ast.Name) and node.value:
                assignments.setdefault(node.target.id, []).append(node.value)
            elif isinstance(node, (ast.For, ast.comprehension)) and isinstance(node.target, ast.Name):
                assignments.setdefault(node.target.id, []).append(ast.Constant(None))  # not known
        for name, values in assignments.items():
            if all(isinstance(v, ast.Call) and self._is_layer_class(self.imports.resolve(v.func)) for v in values):
                self._layers[-1].add(name)
        # A name holds a tensor when every assignment to it does, some of them
        # without counting on the name itself (``out = self.conv(x)`` then
        # ``out = F.max_pool2d(out, 2)``): the largest set where every assignment
        # is a tensor, kept to the names one grounded assignment reaches.
        known = set(self._tensors[-1])
        current = known | set(assignments)
        while True:
            self._tensors[-1] = current
            kept = known | {name for name in current if name in assignments
                            and all(self.is_tensor(value) for value in assignments[name])}
            if kept == current:
                break
            current = kept
        grounded = set(known)
        while True:
            self._tensors[-1] = grounded
            more = {name for name in current - grounded
                    if any(self.is_tensor(value) for value in assignments.get(name, ()))}
            if not more:
                break
            grounded |= more
        self._tensors[-1] = grounded

    def visit_Module(self, node: ast.Module) -> None:
        self._learn(node)
        self.generic_visit(node)

    # -- uses ---------------------------------------------------------------
    def _record(self, qname: str, node: ast.AST, how: str) -> None:
        qname = mapping.public_name(qname)
        call = self._calls.get(id(node))
        self.uses.append(Use(qname, node.lineno, node.col_offset, "call" if call is not None else how,
                             _call_of(call) if call is not None else None))

    def visit_Call(self, node: ast.Call) -> None:
        self._calls[id(node.func)] = node
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:  # an import is not a use
        return

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        return

    def visit_Attribute(self, node: ast.Attribute) -> None:
        qname = self.imports.resolve(node)
        if qname is not None:
            if not self.imports.is_module(qname):
                self._record(qname, node, "reference")
            return
        op = self._named_tuple_op(node.value) if node.attr in mapping.TORCH_NAMED_TUPLE_FIELDS else None
        if op is not None:
            # ``x.topk(k).indices``: a field of torch.return_types.topk, not Tensor.indices
            # (a sparse tensor's method); MindSpore's topk returns a plain tuple
            self._record(f"torch.return_types.{op}.{node.attr}", node, "reference")
        elif node.attr in self.tensor_attributes and self.is_tensor(node.value):
            self._record(f"torch.Tensor.{node.attr}", node, "method")
        self.visit(node.value)

    def _named_tuple_op(self, value: ast.AST) -> str | None:
        """The op of ``x.max(dim=1)`` / ``torch.topk(x, 3)`` when it returns a named tuple."""
        if not isinstance(value, ast.Call):
            return None
        func = value.func
        qname = self.imports.resolve(func)
        if qname is not None:
            module, _, op = qname.rpartition(".")
            return op if module == "torch" and op in mapping.TORCH_NAMED_TUPLE_OPS else None
        if isinstance(func, ast.Attribute) and func.attr in mapping.TORCH_NAMED_TUPLE_OPS and self.is_tensor(func.value):
            return func.attr
        return None

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            return
        qname = self.imports.names.get(node.id)
        if qname is not None and not self.imports.is_module(qname):
            self._record(qname, node, "reference")


def scan(source: str, path: str = "") -> list[Use]:
    """The PyTorch uses of one module's text (SyntaxError for text that does not parse)."""
    tree = ast.parse(source, filename=path or "<unknown>")
    scanner = _Scanner(tree)
    scanner.visit(tree)
    for use in scanner.uses:
        use.path = path
    return scanner.uses


def uses_torch(source: str) -> bool:
    """A cheap test before parsing: the text names a PyTorch package."""
    return any(root in source for root in TORCH_ROOTS)


# ---------------------------------------------------------------------------
# Judging a project's uses
# ---------------------------------------------------------------------------
def _positional_index(params: list[list] | None, name: str) -> int | None:
    if not params:
        return None
    slots = mapping.compare.positional(params)
    return slots.index(name) if name in slots else None


def matters(difference: dict, call: Call | None, torch_params: list[list] | None) -> bool:
    """Whether a difference changes anything for a call passing ``call``'s arguments
    (None: not a call, only behaviour and required parameters matter)."""
    kind = difference["kind"]
    if kind == "extra":
        return True
    if call is None:
        return False
    if call.unknown:
        return True
    name = difference.get("torch")
    index = _positional_index(torch_params, name) if name else None
    passed = name in call.keywords or (index is not None and index < call.positional)
    if kind == "missing":
        return passed
    if kind in ("renamed", "positional_only"):
        return name in call.keywords
    if kind == "position":
        return call.positional > difference["index"]
    if kind in ("default", "required"):
        return not passed
    return True


def _rule_of(ms_api: str, difference: dict) -> str | None:
    """The mslint rule that checks this difference in code calling ``ms_api``."""
    kind, torch_name, ms_name = difference["kind"], difference.get("torch"), difference.get("mindspore")
    keyword_api = apis.TORCH_KEYWORD_APIS.get(ms_api)
    layer = apis.LAYER_APIS.get(ms_api) or apis.POSITIONAL_APIS.get(ms_api)
    if kind in ("renamed", "missing") and keyword_api is not None and torch_name in keyword_api.keywords:
        return "ms-torch-keyword-args"
    if kind == "position" and layer is not None:
        if layer.family == "dropout":
            return "ms-dropout-keep-prob"
        if any(trap.index >= difference["index"] for trap in layer.positional_traps):
            return "ms-torch-positional-args"
    if kind == "default" and layer is not None:
        if layer.family == "batchnorm" and ms_name == "momentum":
            return "ms-batchnorm-momentum"
        if layer.family == "pool" and ms_name == "stride":
            return "ms-pool-implicit-stride"
        if any(diff.ms_param == ms_name for diff in layer.default_differs):
            return "ms-layer-default-differs"
    if kind == "default" and ms_name == "reduction" and ms_api in apis.LOSS_REDUCTIONS:
        return "ms-loss-without-reduction"
    return None


# Rules that guard a MindSpore API whatever the arguments (its behaviour).
_FAMILY_RULES = {
    "conv": ("ms-conv-padding-ignored", "ms-conv-implicit-pad-mode", "ms-torch-positional-args",
             "ms-layer-default-differs"),
    "conv_transpose": ("ms-conv-padding-ignored", "ms-conv-implicit-pad-mode", "ms-torch-positional-args"),
    "pool": ("ms-conv-padding-ignored", "ms-pool-implicit-stride", "ms-torch-positional-args"),
    "dropout": ("ms-dropout-keep-prob",),
    "batchnorm": ("ms-batchnorm-momentum",),
    "dense": ("ms-torch-positional-args",),
    "layernorm": ("ms-torch-positional-args", "ms-torch-argument-type", "ms-layer-default-differs"),
    "embedding": ("ms-torch-positional-args", "ms-layer-default-differs"),
    "leakyrelu": ("ms-layer-default-differs",),
    "instancenorm": ("ms-layer-default-differs",),
    "gelu": ("ms-layer-default-differs",),
    "positional": ("ms-torch-positional-args",),
}
# PyTorch APIs whose port other rules check (the class a network derives from...).
_TORCH_API_RULES = {
    "torch.nn.Module": ("ms-forward-not-construct", "ms-torch-module-method", "ms-torch-in-cell"),
}


def rules_for(ms_api: str | None, torch_api: str) -> list[str]:
    """Every mslint rule that checks code using ``ms_api`` (ported from ``torch_api``)."""
    found: list[str] = []
    if ms_api is not None:
        layer = apis.LAYER_APIS.get(ms_api) or apis.POSITIONAL_APIS.get(ms_api)
        if layer is not None:
            found += _FAMILY_RULES.get(layer.family, ())
            if layer.positional_traps:
                found.append("ms-torch-positional-args")
        if ms_api in apis.TORCH_KEYWORD_APIS:
            found.append("ms-torch-keyword-args")
        if ms_api in apis.LOSS_REDUCTIONS:
            found.append("ms-loss-without-reduction")
        if ms_api in apis.TRAIN_MODE_CELLS:
            found.append("ms-missing-set-train")
    found += _TORCH_API_RULES.get(torch_api, ())
    return sorted({rule for rule in found if rule in BY_SYMBOL})


@dataclass
class ApiReport:
    api: str
    uses: list[Use] = field(default_factory=list)
    status: str = "missing"
    counterpart: str | None = None
    differences: list[str] = field(default_factory=list)
    other_differences: list[str] = field(default_factory=list)
    rules: list[str] = field(default_factory=list)
    kind: str | None = None
    notes: list[str] = field(default_factory=list)
    alternatives: list[dict] = field(default_factory=list)
    verified: bool = False
    docs: dict | None = None
    affected: int = 0  # uses whose arguments meet a difference (all of them for a behaviour difference)


def _text(difference: dict, ms_api: str) -> str:
    rule = _rule_of(ms_api, difference)
    return describe(difference) + (f" ({rule})" if rule else "")


def _docs_said(candidate: dict) -> str:
    """What the mapping pages say of a pair the signatures could not compare."""
    docs = candidate.get("docs") or {}
    said = docs.get("summary") or docs.get("description") or "see the mapping pages"
    if said.strip().lower() == "diff":
        said = f"see the difference page {docs.get('diff_page')}"
    return f"the mapping pages ({docs.get('revision', '?')}): {said}"


def judge_api(api: str, uses: list[Use]) -> ApiReport:
    """The report of one PyTorch API over its uses."""
    report = ApiReport(api, uses)
    entry = mapping.entry(api)
    if entry is None:
        return report
    report.kind = entry.get("kind")
    report.status = entry.get("status", "missing")
    report.counterpart = entry.get("counterpart")
    report.docs = entry.get("docs")
    chosen = mapping.chosen(entry)
    if chosen is not None:
        report.verified = bool(chosen.get("verified"))
        torch_params = mapping.torch_signature(entry, chosen)
        mattering, other = [], []
        for difference in chosen.get("differences") or ():
            text = _text(difference, chosen["api"])
            target = mattering if any(matters(difference, use.call, torch_params) for use in uses) else other
            if text not in target:
                target.append(text)
        report.differences = mattering + list(chosen.get("notes") or ())
        report.other_differences = other
        if report.status == "differs":
            behaviour = bool(chosen.get("notes")) or not chosen.get("verified")
            report.affected = sum(
                1 for use in uses
                if behaviour or any(matters(d, use.call, torch_params) for d in chosen.get("differences") or ())
            )
        if report.status == "differs" and not report.differences and not other:
            report.differences = [_docs_said(chosen)]
    rules = set(rules_for(report.counterpart, api))
    for candidate in entry.get("candidates", ()):
        if candidate is chosen or candidate.get("status") == "absent":
            continue
        if candidate.get("origin") == "namesake" and not candidate.get("verified"):
            continue  # a namesake nothing compared: no advice
        candidate_rules = rules_for(candidate["api"], api)
        rules.update(candidate_rules)
        torch_params = mapping.torch_signature(entry, candidate)
        differences = [
            _text(d, candidate["api"]) for d in candidate.get("differences") or ()
            if any(matters(d, use.call, torch_params) for use in uses)
        ]
        report.alternatives.append({
            "counterpart": candidate["api"],
            "status": candidate["status"],
            "differences": differences + list(candidate.get("notes") or ()),
            "rules": candidate_rules,
        })
    report.rules = sorted(rules)
    return report


def judge(uses: list[Use]) -> list[ApiReport]:
    """Per API (most used first): status, counterpart, differences, rules."""
    by_api: dict[str, list[Use]] = {}
    for use in uses:
        by_api.setdefault(use.api, []).append(use)
    reports = [judge_api(api, found) for api, found in by_api.items()]
    reports.sort(key=lambda r: (-len(r.uses), r.api))
    return reports
