"""Parent side, static: which worker checks each finding needs.

For every module with confirmable findings this works out, with mslint's own
scope analysis (no user code imported): the layer calls to build, the Cells and
@jit functions whose compilation reaches each graph finding, and how to build
each of them (factory and inputs from ``[tool.mslint.confirm]`` or a
``# mslint:`` hint). The worker only executes the plan.
"""

from __future__ import annotations

import contextlib
import os
from dataclasses import asdict, dataclass, field
from pathlib import Path

from mslint.confirm import rules, specs


@dataclass
class Target:
    id: str
    kind: str  # "cell" or "function"
    name: str  # the class or function name in the module
    method: str = "construct"  # for cells: construct or a @jit method
    wrap_jit: bool = False  # a function made graph code by ms.jit(fn), not a decorator
    line: int = 0
    factory: str | None = None
    inputs: list | None = None
    inputs_from: str | None = None
    required_params: list[str] = field(default_factory=list)
    problem: str | None = None


@dataclass
class GraphCheck:
    index: int
    symbol: str
    line: int
    targets: list[str]
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None


@dataclass
class LayerCheck:
    index: int
    symbol: str
    line: int
    qname: str
    args: list[str]
    kwargs: dict[str, str]


@dataclass
class ModulePlan:
    path: str
    module: str
    sys_path: list[str]
    layer_checks: list[LayerCheck] = field(default_factory=list)
    graph_checks: list[GraphCheck] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    # findings decided without running anything: index -> confirmation
    preset: dict[int, dict] = field(default_factory=dict)

    @property
    def needs_worker(self) -> bool:
        return bool(self.layer_checks or self.graph_checks)

    def job(self) -> dict:
        """What the worker needs, as JSON."""
        return {
            "path": self.path,
            "module": self.module,
            "sys_path": self.sys_path,
            "layer_checks": [asdict(check) for check in self.layer_checks],
            "targets": [asdict(target) for target in self.targets] if self.graph_checks else [],
        }


def not_run(detail: str) -> dict:
    return {"status": rules.NOT_RUN, "detail": detail}


# -- module names ------------------------------------------------------------
def import_root(path: Path) -> Path:
    """The directory to put on sys.path: above the outermost package holding path."""
    folder = path.parent
    while (folder / "__init__.py").exists() and folder.parent != folder:
        folder = folder.parent
    return folder


def module_name(path: Path, root: Path) -> str:
    relative = path.with_suffix("").relative_to(root)
    parts = list(relative.parts)
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def module_names(path: Path, project_root: Path) -> tuple[str, list[str], list[str]]:
    """(import name, names a [tool.mslint.confirm] key may use, sys.path entries)."""
    root = import_root(path)
    name = module_name(path, root)
    names = [name]
    sys_path = [str(root)]
    try:
        from_project = module_name(path, project_root)
    except ValueError:
        from_project = None
    if from_project and from_project not in names:
        names.append(from_project)
    if str(project_root) not in sys_path:
        sys_path.append(str(project_root))
    return name, names, sys_path


# -- config --------------------------------------------------------------------
def load_config(project_root: Path) -> dict:
    """``[tool.mslint.confirm]`` of project_root/pyproject.toml ({} when absent)."""
    pyproject = project_root / "pyproject.toml"
    if not pyproject.is_file():
        return {}
    try:
        import tomllib  # noqa: PLC0415 - Python 3.11+
    except ModuleNotFoundError:  # pragma: no cover - Python < 3.11
        try:
            import tomli as tomllib  # type: ignore[no-redef]  # noqa: PLC0415
        except ModuleNotFoundError:
            return {}
    try:
        data = tomllib.loads(pyproject.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    table = data.get("tool", {}).get("mslint", {}).get("confirm", {})
    return table if isinstance(table, dict) else {}


def _config_entry(config: dict, names: list[str], symbol: str) -> tuple[dict | None, str | None]:
    for name in names:
        value = config.get(f"{name}:{symbol}")
        if value is not None:
            try:
                return specs.parse_config_entry(f"{name}:{symbol}", value), None
            except specs.SpecError as error:
                return None, str(error)
    return None, None


# -- planning ----------------------------------------------------------------
def plan_module(path: str, findings: list[tuple[int, dict]], project_root: Path, config: dict) -> ModulePlan:
    file_path = Path(path).resolve()
    name, names, sys_path = module_names(file_path, project_root)
    plan = ModulePlan(path=str(file_path), module=name, sys_path=sys_path)
    wanted = []
    for index, finding in findings:
        symbol = finding.get("symbol")
        if symbol in rules.CONFIRMABLE:
            wanted.append((index, finding))
        else:
            plan.preset[index] = not_run(rules.NO_CHECK)
    if not wanted:
        return plan
    try:
        source = file_path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        for index, _ in wanted:
            plan.preset[index] = not_run(f"cannot read the module: {type(error).__name__}: {error}")
        return plan
    with _no_external_inference(source):
        try:
            module = _parse(file_path, source, name)
        except Exception as error:  # noqa: BLE001 - unparsable file
            for index, _ in wanted:
                plan.preset[index] = not_run(f"cannot parse the module: {type(error).__name__}: {error}")
            return plan
        _plan_findings(plan, module, source, names, config, wanted)
    return plan


def _plan_findings(plan: ModulePlan, module, source: str, names: list[str], config: dict, wanted) -> None:
    lines = source.splitlines()
    planner = _TargetPlanner(module, lines, names, config)
    for index, finding in wanted:
        symbol = finding["symbol"]
        # findings carry 1-based columns (SARIF style, like mslint's own output);
        # astroid's col_offset is 0-based
        line, column = int(finding["line"]), int(finding.get("column") or 1) - 1
        if symbol in rules.LAYER_RULES:
            check, problem = _layer_check(module, index, symbol, line, column)
            if problem:
                plan.preset[index] = not_run(problem)
            else:
                plan.layer_checks.append(check)
            continue
        target_ids, problem = planner.targets_for(line, column)
        if problem:
            plan.preset[index] = not_run(problem)
        else:
            plan.graph_checks.append(
                GraphCheck(
                    index,
                    symbol,
                    line,
                    target_ids,
                    column,
                    finding.get("end_line"),
                    int(finding["end_column"]) - 1 if finding.get("end_column") else None,
                )
            )
    if plan.graph_checks:
        # every other Cell and @jit function of the module too: compile errors
        # that no finding predicted are reported as ms-graph-compile-error
        planner.add_all_entries()
    plan.targets = planner.targets()


def _parse(path: Path, source: str, name: str):
    """The module's astroid tree: the linter's own when it is still cached (the
    ``mslint`` command and plugin mode lint in this process), else a fresh one."""
    import astroid  # noqa: PLC0415 - only the parent plans, and only in runtime mode

    for cached in list(astroid.MANAGER.astroid_cache.values()):
        cached_file = getattr(cached, "file", None)
        if cached_file and cached_file.endswith(".py") and os.path.realpath(cached_file) == str(path):
            return cached
    return astroid.parse(source, module_name=name, path=str(path))


@contextlib.contextmanager
def _no_external_inference(source: str):
    """Keep astroid out of mindspore/torch/... while planning, as the rules do:
    names are resolved from import statements, and building those packages
    for inference costs seconds."""
    import ast  # noqa: PLC0415

    import astroid  # noqa: PLC0415

    from mslint import apis  # noqa: PLC0415

    denied = set(apis.EXTERNAL_PACKAGES)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        tree = None
    for node in ast.walk(tree) if tree is not None else ():
        names = []
        if isinstance(node, ast.Import):
            names = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
            names = [node.module] + [f"{node.module}.{alias.name}" for alias in node.names]
        for name in names:
            if name.split(".", 1)[0] in apis.EXTERNAL_PACKAGES:
                parts = name.split(".")
                denied.update(".".join(parts[:cut]) for cut in range(1, len(parts) + 1))
    added = denied - astroid.MANAGER.module_denylist
    astroid.MANAGER.module_denylist.update(added)
    try:
        yield
    finally:
        astroid.MANAGER.module_denylist.difference_update(added)


def _nodes_at(module, line: int, column: int):
    from astroid import nodes  # noqa: PLC0415

    exact, on_line = [], []
    for node in module.nodes_of_class(nodes.NodeNG):
        if getattr(node, "lineno", None) != line:
            continue
        on_line.append(node)
        if node.col_offset == column:
            exact.append(node)
    return exact, on_line


def _layer_check(module, index: int, symbol: str, line: int, column: int) -> tuple[LayerCheck | None, str | None]:
    from astroid import nodes  # noqa: PLC0415

    from mslint import resolve  # noqa: PLC0415

    exact, on_line = _nodes_at(module, line, column)
    calls = [node for node in exact if isinstance(node, nodes.Call)]
    if not calls:
        calls = [node for node in on_line if isinstance(node, nodes.Call)]
    candidates = []
    for call in calls:
        qname = resolve.qualified_name(call.func) if isinstance(call.func, (nodes.Name, nodes.Attribute)) else None
        if qname and qname.startswith("mindspore."):
            candidates.append((call, qname))
    if not candidates:
        return None, f"no MindSpore layer call found at line {line}"
    call, qname = candidates[0]
    args, kwargs = [], {}
    for arg in call.args:
        if isinstance(arg, nodes.Starred):
            return None, "the call passes *args: its arguments are not literals"
        args.append(arg.as_string())
    for keyword in call.keywords or ():
        if keyword.arg is None:
            return None, "the call passes **kwargs: its arguments are not literals"
        kwargs[keyword.arg] = keyword.value.as_string()
    return LayerCheck(index, symbol, line, qname, args, kwargs), None


class _TargetPlanner:
    """Entry points of graph code in one module and what each one reaches."""

    def __init__(self, module, lines: list[str], names: list[str], config: dict) -> None:
        from mslint import scope  # noqa: PLC0415

        self.module = module
        self.lines = lines
        self.names = names
        self.config = config
        self.analysis = scope.analysis(module)
        self._targets: dict[object, Target] = {}
        self._reach: dict[object, set] = {}
        self._edges = self._call_edges()

    def _call_edges(self) -> dict:
        from astroid import nodes  # noqa: PLC0415

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

    def _reachable(self, entry) -> set:
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

    def targets_for(self, line: int, column: int) -> tuple[list[str], str | None]:
        from mslint import scope  # noqa: PLC0415

        exact, on_line = _nodes_at(self.module, line, column)
        nodes_here = exact or on_line
        found = None
        for node in nodes_here:
            found = self.analysis.enclosing(node)
            if found is not None:
                break
        if found is None:
            return [], "not inside graph code that runtime mode can compile"
        func, kind = found
        if kind != scope.GRAPH:
            return [], "in differentiated PyNative code, not graph code: runtime mode compiles graph code only"
        entries = [
            entry
            for entry in self.analysis.entries
            if self.analysis.kinds.get(entry) == scope.GRAPH and func in self._reachable(entry)
        ]
        ids, problems = [], []
        for entry in sorted(entries, key=lambda node: node.lineno or 0):
            target = self._target(entry)
            if isinstance(target, str):
                problems.append(target)
            else:
                ids.append(target.id)
        if ids:
            return ids, None
        return [], problems[0] if problems else "no Cell or @jit function reaching this line"

    def _target(self, entry) -> Target | str:
        known = self._targets.get(entry)
        if known is not None:
            return known
        target = self._describe(entry)
        if isinstance(target, Target):
            target.id = f"t{len(self._targets)}"
            self._targets[entry] = target
        return target

    def add_all_entries(self) -> None:
        from mslint import scope  # noqa: PLC0415

        for entry in sorted(self.analysis.entries, key=lambda node: node.lineno or 0):
            if self.analysis.kinds.get(entry) == scope.GRAPH:
                self._target(entry)

    def targets(self) -> list[Target]:
        return list(self._targets.values())

    def _describe(self, entry) -> Target | str:
        from astroid import nodes  # noqa: PLC0415

        from mslint import apis, resolve  # noqa: PLC0415

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
            target = Target(id="", kind="cell", name=parent.name, method=entry.name, line=parent.lineno)
        elif isinstance(parent, nodes.Module):
            decorated = resolve.has_decorator(entry, apis.JIT_DECORATORS)
            target = Target(id="", kind="function", name=entry.name, wrap_jit=not decorated, line=entry.lineno)
        else:
            return f"{entry.name} is a nested function: runtime mode compiles Cells and module-level functions"
        target.required_params = _required_params(entry, bound=target.kind == "cell")
        self._add_build_info(target)
        return target

    def _add_build_info(self, target: Target) -> None:
        entry, entry_problem = _config_entry(self.config, self.names, target.name)
        hint, hint_problem = specs.hint_for(self.lines, target.line)
        problem = entry_problem or hint_problem
        if problem:
            target.problem = problem
            return
        for source, values in (("pyproject.toml", entry), ("hint", hint)):
            if not values:
                continue
            if target.factory is None and values.get("factory"):
                target.factory = values["factory"]
            if target.inputs is None and "inputs" in values:
                target.inputs = list(values["inputs"])
                target.inputs_from = source


def _required_params(func, bound: bool) -> list[str]:
    args = func.args
    positional = list(args.posonlyargs or []) + list(args.args or [])
    if bound and positional:
        positional = positional[1:]
    with_default = len(args.defaults or [])
    required = positional[: len(positional) - with_default] if with_default else positional
    required_kwonly = [
        arg for arg, default in zip(args.kwonlyargs or [], args.kw_defaults or []) if default is None
    ]
    return [arg.name for arg in required + required_kwonly]

