"""How the program runs: which modules a program compiles (GRAPH_MODE) and which
it runs as plain Python (PyNative).

MindSpore 2.x runs PyNative unless the program selects GRAPH_MODE (FACTS.md:
``get_context("mode")`` is 1 by default); ``@jit`` code is compiled in every mode.
So construct code is graph code when a program that runs it compiles it. The
programs are the entry scripts of the linted set: files with
``if __name__ == "__main__":``, a ``set_context`` call at module level, or a
``grad``/``value_and_grad`` assigned at module level (a training script); a
module of a package is none (its main guard is a self-test). A
program's mode is what its ``set_context(mode=...)`` selects: the entry's own
call, else the calls of the project modules it imports that run: at their top
level (on import, before the entry's own code), or in a function the entry
calls (a config helper); none at all is PyNative. A call in an imported
function the entry never calls (a package's self-check) may still run through
other code: with no certain call, the mode is then assumed graph, and the
findings say why. A call in an imported module's main guard never runs. The
value is read statically: a literal, ``GRAPH_MODE`` /
``PYNATIVE_MODE`` in any spelling, a module constant, a parameter default
(``def init_env(cfg, mode=context.GRAPH_MODE)``), an argparse default (or its
choices, without one), a top-level key of a YAML file beside the entry
(``mode: 0``), and both branches of ``a if c else b``.

A module is graph code when any program that imports it (transitively, the
import resolved as the entry's ``sys.path`` would: its folder, then the
folders above it) runs in graph mode, or sets a mode mslint cannot read; it is
PyNative when every such program runs PyNative. An import that takes only plain
functions from a module (``from model import warp``, functions naming none of its
classes) does not count: the program runs them eagerly and compiles none of that
module's Cells (graph code that calls them is checked at the call, mslint.checkers.follow).
A module no linted entry
reaches runs where its package is used: when every program that imports its
nearest imported package runs PyNative, it is assumed PyNative (a module whose
training script is missing); otherwise (a library) it is assumed graph code,
and the findings say so.

A graph-mode module may still never be differentiated in graph mode: when every
program that compiles it shows it runs inference (``.predict(...)``,
``.eval(...)``, ``set_train(False)``, ``mindspore.export(...)``) and neither it
nor a project module it imports shows training (``grad``, ``value_and_grad``,
``GradOperation``, a ``TrainOneStep...`` Cell, ``.train(...)``, a ``Trainer``),
the decision says so (``Decision.trained`` False): under LAX a host copy there
compiles through JIT fallback and has no gradient to lose. Any sign of
training, or none of inference, keeps it trained. A program that calls
``mindspore.export`` is named (``Decision.exported_by``): export compiles under
jit_syntax_level STRICT whatever the context selects (measured,
tests/oracle/test_graph.py), so what needs JIT fallback fails to export (an
export script of a model trained in PyNative). The
``mode`` setting (``[tool.mslint] mode``, ``--mode``, the plugin's
``--mindspore-mode``) overrides the inference.

Nothing here imports user code: imports are scanned with mslint.analysis.imports' regex,
set_context calls parsed with the standard library's ``ast`` (only in files
that mention set_context).

The plugin (``pylint --load-plugins mslint``) lints file by file: it decides for
the Python files under the linted module's project folder (the folder pylint
puts on sys.path for it), once per folder and process.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

GRAPH = "graph"
PYNATIVE = "pynative"
UNKNOWN = "unknown"
MODES = ("auto", GRAPH, PYNATIVE)

_MAIN = re.compile(rb"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.MULTILINE)
_TOP_SET_CONTEXT = re.compile(rb"^[\w.]*set_context\s*\(", re.MULTILINE)
# a training script without a main guard: it differentiates at module level
_TOP_GRAD = re.compile(rb"^[\w.]+\s*=\s*[\w.]*\b(?:value_and_grad|grad)\s*\(", re.MULTILINE)
# a program that differentiates what it runs (anywhere in its project import
# closure), and one that runs inference: export, evaluation, prediction
# (any call whose name holds "train" or "grad": ``train_one_epoch(...)``,
# ``set_train()``, ``value_and_grad(...)``, but not ``set_train(False)``; an optimizer)
_TRAINS = re.compile(
    rb"\b\w*(?:[Tt]rain|[Gg]rad|jacfwd|jacrev|vjp|jvp)\w*\s*\((?!\s*(?:mode\s*=\s*)?False\b)"
    rb"|\bTrainOneStep\w*|\bTrainer\b|\bgrad_fn\b|\.fit\s*\("
    rb"|\b(?:Momentum|Adam\w*|SGD|Lamb|LARS|RMSProp|Optimizer)\s*\("
)
_INFERS = re.compile(rb"\b(?:export|predict|eval|infer)\s*\(|\bset_train\s*\(\s*(?:mode\s*=\s*)?False\b")
# a program that calls mindspore.export (which compiles under STRICT)
_EXPORTS = re.compile(
    rb"\b(?:ms|mindspore|serialization)\.export\s*\("
    rb"|^[ \t]*from[ \t]+mindspore[\w.]*[ \t]+import[ \t]+(?:\([^)]*|[^\n]*)\bexport\b(?![\w.])",
    re.MULTILINE,
)
_MODE_NAMES = {"GRAPH_MODE": GRAPH, "PYNATIVE_MODE": PYNATIVE}
_YAML_KEY = re.compile(r"^(\w+)\s*:\s*([^\s#]+)", re.MULTILINE)
# folders beside an entry script that hold its configuration files
_CONFIG_FOLDERS = ("", "config", "configs")


@dataclass(frozen=True)
class Decision:
    """The mode a module runs in, and why: ``basis`` is read by people."""

    mode: str  # GRAPH or PYNATIVE
    basis: str
    assumed: bool = False  # neither read from the project nor set by the user
    set_by_user: bool = False  # the mode setting, not the project
    # False: every program that compiles the module runs inference only (module docstring)
    trained: bool = True
    # when not trained: a program that compiles it for mindspore.export, which
    # compiles under STRICT (as the module's reader finds it: relative to its
    # folder); "" when none
    exported_by: str = ""

    def row(self) -> tuple[str, str, bool, bool, bool, str]:
        return (self.mode, self.basis, self.assumed, self.set_by_user, self.trained, self.exported_by)


LIBRARY = Decision(GRAPH, "no entry script in sight sets the mode", assumed=True)


def forced(mode: str, where: str) -> Decision:
    return Decision(mode, f"{where} mode = {mode!r}", set_by_user=True)


# ---------------------------------------------------------------------------
# Reading one file: is it an entry script, which modes does it select
# ---------------------------------------------------------------------------


def is_entry(source: bytes) -> bool:
    # substring tests first: the patterns are anchored at line starts and slow to miss
    return bool(
        (b"__main__" in source and _MAIN.search(source))
        or (b"set_context" in source and _TOP_SET_CONTEXT.search(source))
        or (b"grad" in source and _TOP_GRAD.search(source))
    )


# Where a set_context call runs (ContextCall.runs): when the module is imported,
# only when the module is run as a script, or when the named module-level
# function or class (ContextCall.runs is then its name) is called.
ON_IMPORT = ""
AS_SCRIPT = "__main__"


@dataclass(frozen=True)
class ContextCall:
    """One ``set_context(mode=...)`` call of a file: the modes it may select and when it runs."""

    modes: frozenset[str]
    runs: str = ON_IMPORT


def selected_modes(source: bytes, path: str = "") -> frozenset[str]:
    """The modes the file's ``set_context(mode=...)`` calls select (UNKNOWN for a
    value mslint cannot read); empty when it selects none."""
    found: frozenset[str] = frozenset()
    for call in context_calls(source, path):
        found |= call.modes
    return found


def context_calls(source: bytes, path: str = "") -> tuple[ContextCall, ...]:
    """The file's ``set_context`` calls that select a mode, each with when it runs."""
    if b"set_context" not in source:
        return ()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return (ContextCall(frozenset({UNKNOWN})),)
    reader = _ModeReader(tree, path)
    # a helper the module itself calls at its top level runs on import too
    return tuple(
        ContextCall(call.modes, ON_IMPORT) if call.runs in reader.called_on_import else call for call in reader.calls
    )


class _ModeReader(ast.NodeVisitor):
    def __init__(self, tree: ast.Module, path: str) -> None:
        self.path = path
        self.modes: set[str] = set()
        self.calls: list[ContextCall] = []
        self.called_on_import: set[str] = set()  # names the module's top-level code calls
        self._runs = ON_IMPORT  # when the code being visited runs
        self.constants: dict[str, ast.expr] = {}
        self.arguments: dict[str, ast.Call] = {}  # argparse dest -> add_argument call
        self._yaml: dict[str, list[str]] | None = None
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                self.constants[statement.targets[0].id] = statement.value
        for node in ast.walk(tree):
            if isinstance(node, ast.Call) and _last_name(node.func) == "add_argument":
                for arg in node.args:
                    if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("-"):
                        self.arguments.setdefault(arg.value.lstrip("-").replace("-", "_"), node)
                for keyword in node.keywords:
                    if keyword.arg == "dest" and isinstance(keyword.value, ast.Constant):
                        self.arguments[str(keyword.value.value)] = node
        self.visit(tree)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node)
        self._visit_deferred(node)
        self.functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        # counted as run when the class is used (``Env(cfg)``): a set_context in a
        # class body proper is too rare to tell apart from one in its methods
        self._visit_deferred(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_deferred(node)

    def _visit_deferred(self, node: ast.AST) -> None:
        """Visit a definition: code in it runs when the module-level function or
        class that holds it is called (its name), not when the module is imported."""
        runs = self._runs
        if runs == ON_IMPORT and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._runs = node.name
        elif runs in (ON_IMPORT, AS_SCRIPT):
            self._runs = "<lambda>"
        self.generic_visit(node)
        self._runs = runs

    def visit_If(self, node: ast.If) -> None:
        if self._runs == ON_IMPORT and _is_main_guard(node.test):
            self.visit(node.test)
            self._runs = AS_SCRIPT
            for statement in node.body:
                self.visit(statement)
            self._runs = ON_IMPORT
            for statement in node.orelse:
                self.visit(statement)
            return
        self.generic_visit(node)

    def visit_Call(self, node: ast.Call) -> None:
        name = _last_name(node.func)
        if self._runs == ON_IMPORT and name:
            self.called_on_import.add(name)
        if name == "set_context":
            selected: set[str] = set()
            for keyword in node.keywords:
                if keyword.arg == "mode":
                    selected |= self.evaluate(keyword.value, 0)
                elif keyword.arg is None:
                    selected.add(UNKNOWN)  # set_context(**config)
            if selected:
                self.modes |= selected
                self.calls.append(ContextCall(frozenset(selected), self._runs))
        self.generic_visit(node)

    def evaluate(self, node: ast.expr | None, depth: int) -> set[str]:  # noqa: C901, PLR0911
        if node is None or depth > 6:
            return {UNKNOWN}
        if isinstance(node, ast.Constant):
            return _constant_mode(node.value)
        if isinstance(node, ast.IfExp):
            return self.evaluate(node.body, depth + 1) | self.evaluate(node.orelse, depth + 1)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
            found: set[str] = set()
            for value in node.value.values:
                found |= self.evaluate(value, depth + 1)
            return found or {UNKNOWN}
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name is None:
            return {UNKNOWN}
        if name in _MODE_NAMES:
            return {_MODE_NAMES[name]}
        if isinstance(node, ast.Name):
            default = self._parameter_default(name)
            if default is not None:
                return self.evaluate(default, depth + 1)
            if name in self.constants:
                return self.evaluate(self.constants[name], depth + 1)
            return {UNKNOWN}
        # args.mode, config.mode: an argparse option, else a YAML key
        option = self.arguments.get(name)
        if option is not None:
            return self._option_modes(option, depth)
        values = self.yaml_values().get(name)
        if values:
            found = set()
            for value in values:
                found |= _constant_mode(_yaml_scalar(value))
            return found
        return {UNKNOWN}

    def _parameter_default(self, name: str) -> ast.expr | None:
        for function in reversed(self.functions):
            arguments = function.args
            positional = arguments.posonlyargs + arguments.args
            defaults = dict(zip([arg.arg for arg in positional][len(positional) - len(arguments.defaults):], arguments.defaults))
            defaults.update({arg.arg: value for arg, value in zip(arguments.kwonlyargs, arguments.kw_defaults) if value is not None})
            if name in defaults:
                return defaults[name]
            if any(arg.arg == name for arg in positional + arguments.kwonlyargs):
                return None  # a parameter without a default: whatever the caller passes
        return None

    def _option_modes(self, option: ast.Call, depth: int) -> set[str]:
        keywords = {keyword.arg: keyword.value for keyword in option.keywords if keyword.arg}
        default = keywords.get("default")
        if default is not None and not (isinstance(default, ast.Constant) and default.value is None):
            return self.evaluate(default, depth + 1)
        choices = keywords.get("choices")
        if isinstance(choices, (ast.List, ast.Tuple, ast.Set)):
            found: set[str] = set()
            for choice in choices.elts:
                found |= self.evaluate(choice, depth + 1)
            return found or {UNKNOWN}
        return {UNKNOWN}

    def yaml_values(self) -> dict[str, list[str]]:
        """Top-level keys of the YAML files beside the file (and in config/, configs/)."""
        if self._yaml is None:
            self._yaml = {}
            folder = os.path.dirname(self.path)
            for sub in _CONFIG_FOLDERS if self.path else ():
                where = os.path.join(folder, sub)
                try:
                    names = sorted(name for name in os.listdir(where) if name.endswith((".yaml", ".yml")))
                except OSError:
                    continue
                for name in names[:20]:
                    try:
                        with open(os.path.join(where, name), encoding="utf-8", errors="replace") as stream:
                            text = stream.read(50_000)
                    except OSError:
                        continue
                    for key, value in _YAML_KEY.findall(text):
                        self._yaml.setdefault(key, []).append(value)
        return self._yaml


def _yaml_scalar(text: str) -> object:
    text = text.strip("'\"")
    try:
        return int(text)
    except ValueError:
        return text


def _constant_mode(value: object) -> set[str]:
    if isinstance(value, bool):
        return {UNKNOWN}
    if value == 0:
        return {GRAPH}
    if value == 1:
        return {PYNATIVE}
    if isinstance(value, str):
        lowered = value.lower()
        if "graph" in lowered:
            return {GRAPH}
        if "pynative" in lowered:
            return {PYNATIVE}
    return {UNKNOWN}


def _is_main_guard(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    return any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides) and any(
        isinstance(side, ast.Constant) and side.value == "__main__" for side in sides
    )


def _last_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None


# ---------------------------------------------------------------------------
# The programs of a linted set and the mode of each module
# ---------------------------------------------------------------------------


class _Files:
    """What decide() reads of each file, read once."""

    def __init__(self, read: Callable[[str], bytes | None]) -> None:
        self._read = read
        self._imports: dict[str, list | None] = {}
        self._entry: dict[str, bool] = {}
        self._calls: dict[str, tuple[ContextCall, ...]] = {}
        self._called: dict[str, frozenset[str]] = {}
        self._data: dict[str, bytes | None] = {}
        self._definitions: dict[str, tuple[dict[str, frozenset[str]], frozenset[str]]] = {}

    def data(self, path: str) -> bytes | None:
        if path not in self._data:
            self._data[path] = self._read(path)
        return self._data[path]

    def imports(self, path: str) -> list:
        if path not in self._imports:
            from mslint.analysis.imports import LINE_START_IMPORT_RE, scan_imports  # noqa: PLC0415

            data = self.data(path)
            self._imports[path] = scan_imports(data, LINE_START_IMPORT_RE) if data is not None else []
        return self._imports[path] or []

    def entry(self, path: str) -> bool:
        if path not in self._entry:
            data = self.data(path)
            self._entry[path] = data is not None and is_entry(data)
        return self._entry[path]

    def calls(self, path: str) -> tuple[ContextCall, ...]:
        if path not in self._calls:
            data = self.data(path)
            self._calls[path] = context_calls(data, path) if data is not None else ()
        return self._calls[path]

    def modes(self, path: str) -> frozenset[str]:
        """Every mode the file's calls may select: an entry script runs them all."""
        found: frozenset[str] = frozenset()
        for call in self.calls(path):
            found |= call.modes
        return found

    def definitions(self, path: str) -> tuple[dict[str, frozenset[str]], frozenset[str]]:
        """The module's top-level functions (with the names their bodies use) and classes."""
        known = self._definitions.get(path)
        if known is None:
            functions: dict[str, frozenset[str]] = {}
            classes: set[str] = set()
            assigned: set[str] = set()
            tree = self._parse(path)
            for node in tree.body if tree is not None else ():
                if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    functions[node.name] = frozenset(used.id for used in ast.walk(node) if isinstance(used, ast.Name))
                elif isinstance(node, ast.ClassDef):
                    classes.add(node.name)
                elif isinstance(node, ast.Assign):
                    assigned.update(target.id for target in node.targets if isinstance(target, ast.Name))
            # a name bound twice (a def and a class or assignment) is not surely a function
            for name in assigned | classes:
                functions.pop(name, None)
            known = self._definitions[path] = (functions, frozenset(classes))
        return known

    def trains(self, path: str) -> bool:
        data = self.data(path)
        return data is not None and _TRAINS.search(data) is not None

    def infers(self, path: str) -> bool:
        data = self.data(path)
        return data is not None and _INFERS.search(data) is not None

    def exports(self, path: str) -> bool:
        data = self.data(path)
        return data is not None and b"export" in data and _EXPORTS.search(data) is not None

    def calls_name(self, path: str, name: str) -> bool:
        """Whether the file calls ``name(...)`` or ``<anything>.name(...)``."""
        if path not in self._called:
            tree = self._parse(path)
            names = (_last_name(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)) if tree else ()
            self._called[path] = frozenset(name for name in names if name)
        return name in self._called[path]

    def _parse(self, path: str) -> ast.Module | None:
        """The file's syntax tree; None when it cannot be read or parsed. Not kept:
        each question above keeps only its answer."""
        data = self.data(path)
        try:
            return ast.parse(data) if data is not None else None
        except (SyntaxError, ValueError):
            return None


def _is_file(path: str, cache: dict[str, bool]) -> bool:
    known = cache.get(path)
    if known is None:
        known = cache[path] = os.path.isfile(path)
    return known


def _module_file(folder: str, parts: list[str], cache: dict) -> str | None:
    key = (folder, *parts)
    if key in cache:
        return cache[key]
    found = cache[key] = _find_module_file(folder, parts, cache)
    return found


def _find_module_file(folder: str, parts: list[str], cache: dict) -> str | None:
    base = os.path.join(folder, *parts)
    for option in ((base + ".py", os.path.join(base, "__init__.py")) if parts else (os.path.join(base, "__init__.py"),)):
        if _is_file(option, cache):
            return option
    return None


def _search_path(entry: str, top: str) -> list[str]:
    """The folders an entry script's absolute imports are found in, first match
    first: its own folder (Python puts it first on sys.path), then the folders
    above it up to ``top`` (scripts that add ``..`` to sys.path; packages run
    from the repository root)."""
    folders = []
    folder = os.path.dirname(entry)
    while True:
        folders.append(folder)
        parent = os.path.dirname(folder)
        if folder == top or parent == folder or not folder.startswith(top):
            break
        folder = parent
    return folders


def _imported_files(
    path: str, imports: list, search: list[str], cache: dict[str, bool], store: _Files | None = None
) -> list[tuple[str, bool]]:
    """(file, whether its Cells come with it) for each project module an import of
    ``path`` loads. ``from M import f`` brings only plain functions of ``M`` when
    every name is a function of M that mentions none of M's classes (a preprocessing
    script taking ``warp_feature`` from a model module): the program runs M's code
    on import, but compiles none of M's Cells (graph code calling ``f`` is checked at
    its call: mslint.checkers.follow)."""
    found = []
    for level, module, names in imports:
        parts = [part for part in module.split(".") if part]
        if level:
            folder = os.path.dirname(path)
            for _ in range(level - 1):
                folder = os.path.dirname(folder)
            candidates = [(folder, parts)] + [(folder, [*parts, *name.split(".")]) for name in names or ()]
            for index, (where, dotted) in enumerate(candidates):
                target = _module_file(where, dotted, cache)
                if target is not None:
                    found.append((target, index > 0 or not _functions_only(store, target, names)))
            continue
        wanted = [parts[:end] for end in range(1, len(parts) + 1)]
        wanted += [[*parts, *name.split(".")] for name in names or ()]
        for dotted in wanted:
            for folder in search:
                target = _module_file(folder, dotted, cache)
                if target is not None:
                    found.append((target, dotted != parts or not _functions_only(store, target, names)))
                    break
    return found


def _functions_only(store: _Files | None, target: str, names: list | None) -> bool:
    """Whether ``names`` (imported from the module at ``target``) are all plain
    functions of it whose bodies name none of its classes."""
    if store is None or not names or target.endswith("__init__.py"):
        return False
    functions, classes = store.definitions(target)
    return all(name in functions and not (functions[name] & classes) for name in names)


def decide(
    files: Iterable[str], read: Callable[[str], bytes | None] | None = None, setting: str = "auto", where: str = "[tool.mslint]"
) -> dict[str, Decision]:
    """The mode of each of ``files`` (absolute paths), from the entry scripts among
    them; ``setting`` "graph" or "pynative" decides for all."""
    files = [os.path.abspath(path) for path in files]
    if setting in (GRAPH, PYNATIVE):
        decision = forced(setting, where)
        return dict.fromkeys(files, decision)
    store = _Files(read or _read_file)
    top = os.path.commonpath(files) if files else ""
    if files and os.path.isfile(top):
        top = os.path.dirname(top)
    exists: dict[str, bool] = {}
    # A module of a package with a main guard is a self-test or demo of a library,
    # not one of its programs: its mode must not decide the library's (a module
    # that sets a mode at its top level decides its own: mslint.analysis.scope).
    entries = [
        path for path in files
        if store.entry(path) and not _is_file(os.path.join(os.path.dirname(path), "__init__.py"), exists)
    ]
    # One import graph over every module the entries reach: a module's absolute
    # imports are found from its own folder upwards (as the entry's sys.path
    # finds them in practice), so the graph does not depend on the entry and
    # each question below is one walk over it, whatever the number of entries.
    edges: dict[str, list[str]] = {}
    cell_edges: dict[str, list[str]] = {}
    order = list(entries)
    seen = set(order)
    position = 0
    while position < len(order):
        current = order[position]
        position += 1
        found = _imported_files(current, store.imports(current), _search_path(current, top), exists, store)
        edges[current] = list(dict.fromkeys(os.path.abspath(target) for target, _ in found))
        # the modules whose Cells the program may run: not those it takes plain functions from
        with_cells = {os.path.abspath(target) for target, cells in found if cells}
        cell_edges[current] = [target for target in edges[current] if target in with_cells]
        for target in edges[current]:
            if target not in seen:
                seen.add(target)
                order.append(target)
    importers: dict[str, list[str]] = {}
    for source, targets in edges.items():
        for target in targets:
            importers.setdefault(target, []).append(source)
    # each program's mode (mslint.analysis.mode docstring), then each module's: that of the
    # first program of the most compiling kind that imports it
    programs = _ProgramModes(store, order, importers)
    kinds = {kind: [entry for entry in entries if programs.kind(entry)[0] == kind] for kind in _KINDS}
    reached = {kind: _walk(kinds[kind], cell_edges) for kind in _KINDS}
    # the compiling programs that may differentiate what they run: all but those
    # that show inference and import nothing that trains (module docstring)
    training = _walk([path for path in order if store.trains(path)], importers)
    compiling = [entry for kind in _KINDS if kind != _RUNS_PYNATIVE for entry in kinds[kind]]
    trained = _walk([entry for entry in compiling if entry in training or not store.infers(entry)], cell_edges)
    exported = _walk([entry for entry in compiling if store.exports(entry)], cell_edges)
    decisions = {}
    for path in files:
        for kind in _KINDS:
            entry = reached[kind].get(path)
            if entry:
                decisions[path] = programs.decision(entry, path)
                if kind != _RUNS_PYNATIVE and path not in trained:
                    decisions[path] = _not_trained(decisions[path], path, exported.get(path))
                break
        else:
            decisions[path] = _package_decision(path, reached, programs, exists)
    return decisions


# the kinds of program, most compiling first: a module imported by programs of
# several kinds is graph code if any of them compiles it
_SETS_GRAPH, _UNREADABLE, _MAY_SET, _RUNS_PYNATIVE = _KINDS = ("graph", "unreadable", "may set", "pynative")


class _ProgramModes:
    """The mode of each program: its own ``set_context``, else that of the modules
    it imports: calls at their top level (run on import, before the entry's own),
    and calls in their functions when the entry calls that function; a call in a
    function the entry never calls may still run (through other code), so it
    makes the mode an assumption, not a fact."""

    def __init__(self, store: _Files, order: list[str], importers: dict[str, list[str]]) -> None:
        self.store = store
        with_calls = [path for path in order if store.calls(path)]
        # the modules from which a call selecting each mode on import can be reached
        self.on_import = {
            selected: _walk([path for path in with_calls if _selects_on_import(store.calls(path), selected)], importers)
            for selected in (GRAPH, UNKNOWN, PYNATIVE)
        }
        # modules whose functions set a mode, and the modules that import them
        self.in_functions = {
            path: _walk([path], importers)
            for path in with_calls
            if any(call.runs not in (ON_IMPORT, AS_SCRIPT) for call in store.calls(path))
        }
        self._kinds: dict[str, tuple[str, str, str]] = {}

    def kind(self, entry: str) -> tuple[str, str, str]:
        """The program's kind, with the module and function that may set its mode
        (for _MAY_SET: empty otherwise)."""
        known = self._kinds.get(entry)
        if known is None:
            known = self._kinds[entry] = self._kind(entry)
        return known

    def _kind(self, entry: str) -> tuple[str, str, str]:
        modes = set(self.store.modes(entry))
        possible: list[tuple[str, str, frozenset[str]]] = []
        if not modes:
            modes = {selected for selected, reaching in self.on_import.items() if entry in reaching}
            for module, reaching in self.in_functions.items():
                if module == entry or entry not in reaching:
                    continue
                for call in self.store.calls(module):
                    if call.runs in (ON_IMPORT, AS_SCRIPT):
                        continue
                    if self.store.calls_name(entry, call.runs):
                        modes |= call.modes
                    elif call.modes - {PYNATIVE}:
                        possible.append((module, call.runs, call.modes))
        if GRAPH in modes:
            return (_SETS_GRAPH, "", "")
        if UNKNOWN in modes:
            return (_UNREADABLE, "", "")
        if not modes and possible:
            module, function, selected = possible[0]
            return (_MAY_SET, module, f"{function}() may set {'GRAPH_MODE' if GRAPH in selected else 'the mode'}")
        return (_RUNS_PYNATIVE, "", "")

    def decision(self, entry: str, path: str) -> Decision:
        """The decision for the module at ``path``, imported by the program ``entry``."""
        kind, module, what = self.kind(entry)
        shown = _shown(entry, path)
        if kind == _SETS_GRAPH:
            return Decision(GRAPH, f"{shown} sets GRAPH_MODE")
        if kind == _UNREADABLE:
            return Decision(GRAPH, f"the mode {shown} sets cannot be read", assumed=True)
        if kind == _MAY_SET:
            return Decision(GRAPH, f"{shown} imports {_shown(module, path)}, whose {what}", assumed=True)
        return Decision(PYNATIVE, f"{shown} runs PyNative")


def _not_trained(decision: Decision, path: str, exporter: str | None) -> Decision:
    """``decision`` for the module at ``path`` when every program that compiles it
    runs inference only; ``exporter``: one of them that exports it."""
    return replace(
        decision,
        basis=f"{decision.basis}, and every program that compiles it runs inference only",
        trained=False,
        exported_by=_shown(exporter, path) if exporter else "",
    )


def _selects_on_import(calls: tuple[ContextCall, ...], selected: str) -> bool:
    return any(selected in call.modes and call.runs == ON_IMPORT for call in calls)


def _package_decision(path: str, reached: dict[str, dict[str, str]], programs: _ProgramModes, exists: dict) -> Decision:
    """The mode of a module no program imports: a module of a package runs in the
    programs that import its package (its nearest package that one imports), so
    when all of those run PyNative it is assumed PyNative too; else, and outside
    packages, it is a library, assumed graph code."""
    folder = os.path.dirname(path)
    while _is_file(os.path.join(folder, "__init__.py"), exists):
        package = os.path.join(folder, "__init__.py")
        importing = [kind for kind in _KINDS if package in reached[kind]]
        if importing:
            if importing != [_RUNS_PYNATIVE]:
                return LIBRARY
            entry = reached[_RUNS_PYNATIVE][package]
            shown = _shown(entry, path)
            return Decision(PYNATIVE, f"no entry script imports it, and {shown}, which imports its package, runs PyNative", assumed=True)
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return LIBRARY


def _walk(sources: list[str], edges: dict[str, list[str]]) -> dict[str, str]:
    """Every node reached from ``sources`` along ``edges``, with the first source
    (in the order given) that reaches it."""
    found = {source: source for source in sources}
    queue = list(sources)
    position = 0
    while position < len(queue):
        current = queue[position]
        position += 1
        for target in edges.get(current, ()):
            if target not in found:
                found[target] = found[current]
                queue.append(target)
    return found


def _shown(entry: str, module: str) -> str:
    """The entry script as the module's reader finds it: relative to the module's folder."""
    try:
        return os.path.relpath(entry, os.path.dirname(module))
    except ValueError:
        return entry


def _read_file(path: str) -> bytes | None:
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError:
        return None


# ---------------------------------------------------------------------------
# The decisions of this process (the command's engine sets them; the plugin
# computes them per project folder)
# ---------------------------------------------------------------------------

_SKIPPED_FOLDERS = frozenset({".git", ".venv", "venv", "__pycache__", "build", "dist", "node_modules", "site-packages"})
_PLUGIN_FILE_LIMIT = 20_000


class _State:
    setting = "auto"
    where = "--mindspore-mode"
    decisions: dict[str, Decision] = {}
    by_folder: dict[str, dict[str, Decision]] = {}
    command = False  # the mslint command decided (configure); the plugin option is its echo


def configure(setting: str = "auto", decisions: dict[str, tuple] | None = None, where: str = "[tool.mslint]") -> None:
    """The command's settings for this process: the mode setting and the
    decisions it computed (path -> Decision.row()) before it shared the files out."""
    _State.setting = setting if setting in MODES else "auto"
    _State.where = where
    _State.decisions = {path: Decision(*row) for path, row in (decisions or {}).items()}
    _State.by_folder = {}
    _State.command = True


def release() -> None:
    """Forget the command's settings (after an in-process run): the plugin's own
    option decides again."""
    configure()
    _State.command = False
    _State.where = "--mindspore-mode"


def use_plugin_option(setting: str) -> None:
    """The plugin's ``--mindspore-mode`` (ignored when the command configured the process)."""
    if _State.command:
        return
    if setting != _State.setting:
        _State.by_folder = {}
    _State.setting = setting if setting in MODES else "auto"
    _State.where = "--mindspore-mode"


def setting_name() -> str:
    """Where the user sets the mode, for messages (the same text from the command
    and the plugin: their findings are equal)."""
    return "[tool.mslint] mode"


def decision_for(path: str | None) -> Decision:
    """The mode of the module at ``path``."""
    if _State.setting in (GRAPH, PYNATIVE):
        return forced(_State.setting, _State.where)
    if not path:
        return LIBRARY
    path = os.path.abspath(path)
    known = _State.decisions.get(path)
    if known is not None:
        return known
    from mslint.analysis.project import package_root  # noqa: PLC0415

    folder = package_root(path)
    decided = _State.by_folder.get(folder)
    if decided is None:
        decided = _State.by_folder[folder] = decide(_python_files(folder, path))
    return decided.get(path, LIBRARY)


def _python_files(folder: str, path: str) -> list[str]:
    found = [path]
    for current, dirnames, filenames in os.walk(folder):
        dirnames[:] = sorted(name for name in dirnames if name not in _SKIPPED_FOLDERS and not name.startswith("."))
        found.extend(os.path.join(current, name) for name in filenames if name.endswith(".py"))
        if len(found) > _PLUGIN_FILE_LIMIT:
            break
    return sorted(set(os.path.abspath(item) for item in found))
