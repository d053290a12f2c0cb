"""Anchors: what runtime confirmation compiles or builds to check a finding,
read from the live astroid tree when the finding is made (mslint's engine, and
the runtime checker in plugin mode), so that confirmation never parses the
file again or looks for nodes by line and column.

- a layer rule's finding: the flagged MindSpore call, its arguments as written;
- a graph rule's finding: the Cells and @jit functions whose compilation
  reaches its node (mslint's scope analysis: construct, the methods and module
  functions it calls), and every graph entry of its module, compiled too so
  that compile errors no finding predicted are reported;
- or why neither can be checked.

Static: astroid and mslint's analysis only, never mindspore.
"""

from __future__ import annotations

from typing import Any

from astroid import nodes

from mslint.knowledge import apis
from mslint.analysis import resolve, scope
from mslint.confirm import rules
from mslint.report.findings import Anchor, Entry, LayerCall


def anchor_of(symbol: str, node: nodes.NodeNG | None) -> Anchor | None:
    """The anchor of a finding of ``symbol`` added for ``node``; None for rules
    runtime mode does not check."""
    try:
        if symbol in rules.LAYER_RULES:
            return _layer_anchor(node)
        if symbol in rules.GRAPH_RULES:
            return _graph_anchor(node)
        if symbol in rules.CALL_RULES:
            return _call_anchor(node)
        if symbol in rules.ATTRIBUTE_RULES:
            return _attribute_anchor(node)
    except Exception as error:  # noqa: BLE001 - the finding stands; only its runtime check is lost
        return Anchor(problem=f"mslint could not work out what reaches this line ({type(error).__name__}: {error})")
    return None


# -- layer calls ---------------------------------------------------------------
def _layer_anchor(node: nodes.NodeNG | None) -> Anchor:
    call = node if isinstance(node, nodes.Call) else None
    qname = resolve.qualified_name(call.func) if call is not None and isinstance(call.func, (nodes.Name, nodes.Attribute)) else None
    if call is None or not qname or not qname.startswith("mindspore."):
        line = getattr(node, "lineno", None)
        return Anchor(problem=f"no MindSpore layer call found at line {line}")
    args = []
    for arg in call.args:
        if isinstance(arg, nodes.Starred):
            return Anchor(problem="the call passes *args: its arguments are not literals")
        args.append(arg.as_string())
    kwargs = []
    for keyword in call.keywords or ():
        if keyword.arg is None:
            return Anchor(problem="the call passes **kwargs: its arguments are not literals")
        kwargs.append((keyword.arg, keyword.value.as_string()))
    return Anchor(call=LayerCall(qname, tuple(args), tuple(kwargs)))


# -- Cells to call -------------------------------------------------------------
def _call_anchor(node: nodes.NodeNG | None) -> Anchor:
    """The Cell class the flagged method belongs to (ms-forward-not-construct:
    the finding is on ``forward``), to be built and called."""
    func = node if isinstance(node, nodes.FunctionDef) else None
    klass = func.parent if func is not None else None
    if not isinstance(klass, nodes.ClassDef):
        return Anchor(problem="not a method of a Cell class")
    if not isinstance(klass.parent, nodes.Module):
        return Anchor(problem=f"class {klass.name} is not defined at module level")
    owner = next((base for base in resolve.class_hierarchy(klass)[0][1:] if apis.CELL_FORWARD_METHOD in base.locals), None)
    if owner is not None:
        # calling it runs the inherited construct: no error to see, whichever method ran
        return Anchor(problem=f"class {klass.name} inherits construct from {owner.name}: calling it runs either way")
    entry = Entry("cell", klass.name, func.name, line=klass.lineno, required_params=_required_params(func, bound=True))
    return Anchor(entries=(entry,))


def _attribute_anchor(node: nodes.NodeNG | None) -> Anchor:
    """``self.parameters()`` in a method of a Cell class: the class to build,
    the method to look up on it."""
    func = node.func if isinstance(node, nodes.Call) else None
    if not (isinstance(func, nodes.Attribute) and isinstance(func.expr, nodes.Name) and func.expr.name == "self"):
        return Anchor(problem="the receiver is not self: runtime mode looks the method up on a Cell of the class it is in")
    method = node.scope()
    klass = method.parent if isinstance(method, nodes.FunctionDef) else None
    if not isinstance(klass, nodes.ClassDef) or not isinstance(klass.parent, nodes.Module):
        return Anchor(problem="not in a method of a module-level class")
    return Anchor(entries=(Entry("cell", klass.name, func.attrname, line=klass.lineno),))


# -- graph code ----------------------------------------------------------------
def _graph_anchor(node: nodes.NodeNG | None) -> Anchor:
    if node is None:
        return Anchor(problem="not inside graph code that runtime mode can compile")
    module = _Module.of(node.root())
    found = module.analysis.enclosing(node)
    if found is None:
        found = _bprop_construct(node, module)  # a Cell's bprop: compiled when the Cell is differentiated
    if found is None:
        return Anchor(problem="not inside graph code that runtime mode can compile")
    func, kind = found
    if kind != scope.GRAPH:
        return Anchor(problem="in differentiated PyNative code, not graph code: runtime mode compiles graph code only")
    entries, problems = [], []
    for entry in module.graph_entries:
        if func not in module.reachable(entry):
            continue
        described = module.describe(entry)
        (problems if isinstance(described, str) else entries).append(described)
    if not entries:
        return Anchor(problem=problems[0] if problems else "no Cell or @jit function reaching this line")
    return Anchor(entries=tuple(entries), module_entries=module.entries())


def _bprop_construct(node: nodes.NodeNG, module: _Module) -> tuple[nodes.NodeNG, str] | None:
    """For a node in a Cell's ``bprop``: the Cell's construct, whose compilation
    with a gradient (the worker differentiates Cells that define bprop) reaches it."""
    frame = node if isinstance(node, nodes.FunctionDef) else node.frame()
    if not (isinstance(frame, nodes.FunctionDef) and frame.name == apis.BPROP_METHOD):
        return None
    cls = frame.parent
    if not isinstance(cls, nodes.ClassDef) or not module.analysis.is_cell_class(cls):
        return None
    construct = resolve.find_method(cls, "construct")
    if construct is None or module.analysis.kinds.get(construct) != scope.GRAPH:
        return None
    return construct, scope.GRAPH


class _Module:
    """Graph entries of one module and what each one reaches (the last module
    asked about is kept: one module is checked at a time)."""

    _last: list[_Module] = []

    def __init__(self, module: nodes.Module) -> None:
        self.module = module
        self.analysis = scope.analysis(module)
        self.graph_entries = sorted(
            (entry for entry in self.analysis.entries if self.analysis.kinds.get(entry) == scope.GRAPH),
            key=lambda node: node.lineno or 0,
        )
        self._edges = self._call_edges()
        self._reach: dict[Any, set] = {}
        self._described: dict[Any, Entry | str] = {}
        self._entries: tuple[Entry, ...] | None = None

    @classmethod
    def of(cls, module: nodes.Module) -> _Module:
        if cls._last and cls._last[0].module is module and cls._last[0].analysis is scope.analysis(module):
            return cls._last[0]
        cls._last[:] = [cls(module)]
        return cls._last[0]

    def _call_edges(self) -> dict:
        edges: dict = {}
        for callee, sites in self.analysis.call_sites.items():
            for _call, caller, _skips in sites:
                edges.setdefault(caller, set()).add(callee)
        for func in self.analysis.kinds:
            parent = func.parent.frame() if func.parent is not None else None
            while parent is not None and not isinstance(parent, (nodes.Module, nodes.ClassDef)):
                if parent in self.analysis.kinds:
                    edges.setdefault(parent, set()).add(func)
                    break
                parent = parent.parent.frame() if parent.parent is not None else None
        return edges

    def reachable(self, entry: nodes.NodeNG) -> set:
        reached = self._reach.get(entry)
        if reached is None:
            reached, stack = {entry}, [entry]
            while stack:
                for callee in self._edges.get(stack.pop(), ()):
                    if callee not in reached:
                        reached.add(callee)
                        stack.append(callee)
            self._reach[entry] = reached
        return reached

    def entries(self) -> tuple[Entry, ...]:
        """Every graph entry of the module runtime mode can compile."""
        if self._entries is None:
            described = [self.describe(entry) for entry in self.graph_entries]
            self._entries = tuple(entry for entry in described if isinstance(entry, Entry))
        return self._entries

    def describe(self, entry: nodes.NodeNG) -> Entry | str:
        """How runtime mode compiles ``entry``, or why it cannot."""
        known = self._described.get(entry)
        if known is None:
            known = self._described[entry] = self._describe(entry)
        return known

    def _describe(self, entry: nodes.NodeNG) -> Entry | str:
        if not isinstance(entry, nodes.FunctionDef):
            return "reached only from a lambda: runtime mode compiles Cells and module-level functions"
        parent = entry.parent
        if isinstance(parent, nodes.ClassDef):
            if not isinstance(parent.parent, nodes.Module):
                return f"class {parent.name} is not defined at module level"
            if not self.analysis.is_cell_class(parent):
                return f"{parent.name}.{entry.name} is a method of a class that is not an nn.Cell"
            if entry.name not in apis.CELL_METHODS_COMPILED and not resolve.has_decorator(entry, apis.JIT_DECORATORS):
                return f"{parent.name}.{entry.name} is not construct or a @jit method"
            return Entry("cell", parent.name, entry.name, line=parent.lineno, required_params=_required_params(entry, bound=True))
        if isinstance(parent, nodes.Module):
            decorated = resolve.has_decorator(entry, apis.JIT_DECORATORS)
            return Entry(
                "function", entry.name, wrap_jit=not decorated, line=entry.lineno, required_params=_required_params(entry, bound=False)
            )
        return f"{entry.name} is a nested function: runtime mode compiles Cells and module-level functions"


def _required_params(func: nodes.FunctionDef, bound: bool) -> tuple[str, ...]:
    args = func.args
    positional = list(args.posonlyargs or []) + list(args.args or [])
    if bound and positional:
        positional = positional[1:]
    with_default = len(args.defaults or [])
    required = positional[: len(positional) - with_default] if with_default else positional
    required_kwonly = [arg for arg, default in zip(args.kwonlyargs or [], args.kw_defaults or []) if default is None]
    return tuple(arg.name for arg in required + required_kwonly)
