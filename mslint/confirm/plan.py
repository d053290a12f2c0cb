"""Parent side, static: which worker checks each finding needs.

For every module with confirmable findings this works out, from the findings'
anchors (mslint/confirm/anchors.py: recorded from the live tree at lint time,
no user code imported, the file not parsed again): the layer calls to build,
the Cells and @jit functions whose compilation reaches each graph finding, and
how to build each of them (factory and inputs from ``[tool.mslint.confirm]`` or
a ``# mslint:`` hint). The worker only executes the plan.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from pathlib import Path

from mslint.confirm import rules, specs
from mslint.report.findings import Entry, Finding, read_source_lines


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
class CallCheck:
    index: int
    symbol: str
    line: int
    name: str  # the Cell class to build and call
    required_params: list[str] = field(default_factory=list)
    attribute: str | None = None  # look this method up instead of calling the Cell


@dataclass
class ModulePlan:
    path: str
    module: str
    sys_path: list[str]
    layer_checks: list[LayerCheck] = field(default_factory=list)
    graph_checks: list[GraphCheck] = field(default_factory=list)
    call_checks: list[CallCheck] = field(default_factory=list)
    targets: list[Target] = field(default_factory=list)
    # findings decided without running anything: index -> confirmation
    preset: dict[int, dict] = field(default_factory=dict)
    # compile every Cell class and @jit function of the module (--confirm-all-cells)
    compile_all: bool = False

    @property
    def needs_worker(self) -> bool:
        return bool(self.layer_checks or self.graph_checks or self.call_checks or self.compile_all)

    def job(self) -> dict:
        """What the worker needs, as JSON."""
        return {
            "path": self.path,
            "module": self.module,
            "sys_path": self.sys_path,
            "layer_checks": [asdict(check) for check in self.layer_checks],
            "call_checks": [asdict(check) for check in self.call_checks],
            "compile_all": self.compile_all,
            "targets": [asdict(target) for target in self.targets] if self.graph_checks else [],
            # a compile error at one of these lines ends the search for inputs
            "finding_lines": sorted({check.line for check in self.graph_checks}),
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
NO_ANCHOR = "the finding carries no anchor (what reaches its line was not recorded when it was linted): lint it with mslint"


def plan_module(path: str, findings: list[tuple[int, Finding]], project_root: Path, config: dict) -> ModulePlan:
    """The plan for one module's findings, from their anchors (recorded from the
    live tree when they were linted: the file is not parsed again)."""
    file_path = Path(path).resolve()
    name, names, sys_path = module_names(file_path, project_root)
    plan = ModulePlan(path=str(file_path), module=name, sys_path=sys_path)
    targets = _Targets(file_path, names, config)
    module_entries: dict[Entry, None] = {}
    for index, finding in findings:
        anchor = finding.anchor
        if finding.symbol not in rules.CONFIRMABLE:
            plan.preset[index] = not_run(rules.no_check(finding.symbol))
        elif anchor is None:
            plan.preset[index] = not_run(NO_ANCHOR)
        elif anchor.problem:
            plan.preset[index] = not_run(anchor.problem)
        elif finding.symbol in rules.LAYER_RULES and anchor.call is not None:
            call = anchor.call
            plan.layer_checks.append(LayerCheck(index, finding.symbol, finding.line, call.qname, list(call.args), dict(call.kwargs)))
        elif finding.symbol in rules.GRAPH_RULES and anchor.entries:
            ids = [targets.add(entry).id for entry in anchor.entries]
            plan.graph_checks.append(
                GraphCheck(
                    index,
                    finding.symbol,
                    finding.line,
                    ids,
                    # verdicts compare with MindSpore's 0-based columns
                    finding.column - 1,
                    finding.end_line,
                    finding.end_column - 1 if finding.end_column else None,
                )
            )
            module_entries.update(dict.fromkeys(anchor.module_entries))
        elif finding.symbol in rules.CALL_RULES | rules.ATTRIBUTE_RULES and anchor.entries:
            entry = anchor.entries[0]
            attribute = entry.method if finding.symbol in rules.ATTRIBUTE_RULES else None
            plan.call_checks.append(CallCheck(index, finding.symbol, finding.line, entry.name, list(entry.required_params), attribute))
        else:
            plan.preset[index] = not_run(NO_ANCHOR)
    if plan.graph_checks:
        # every other Cell and @jit function of the module too: compile errors
        # that no finding predicted are reported as ms-graph-compile-error
        for entry in module_entries:
            targets.add(entry)
        plan.targets = targets.all()
    return plan


class _Targets:
    """The entries to compile, each once, with how to build and feed it
    ([tool.mslint.confirm] or a ``# mslint:`` hint above it)."""

    def __init__(self, path: Path, names: list[str], config: dict) -> None:
        self.path = path
        self.names = names
        self.config = config
        self._targets: dict[Entry, Target] = {}
        self._lines: list[str] | None = None

    def add(self, entry: Entry) -> Target:
        target = self._targets.get(entry)
        if target is None:
            target = Target(
                id=f"t{len(self._targets)}",
                kind=entry.kind,
                name=entry.name,
                method=entry.method,
                wrap_jit=entry.wrap_jit,
                line=entry.line,
                required_params=list(entry.required_params),
            )
            self._add_build_info(target)
            self._targets[entry] = target
        return target

    def all(self) -> list[Target]:
        return list(self._targets.values())

    def _add_build_info(self, target: Target) -> None:
        if self._lines is None:  # hints are comments: the text, not a tree
            self._lines = read_source_lines(self.path)
        entry, entry_problem = _config_entry(self.config, self.names, target.name)
        hint, hint_problem = specs.hint_for(self._lines, target.line)
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
