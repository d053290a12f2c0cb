"""The facts of one file that the program model (mslint.analysis.programs)
reads: what it defines, imports, calls, names, looks up and registers, the modes
its ``set_context`` calls select, its argparse options, the configuration files
it names, the framework names it rebinds. Read with the standard library's
``ast`` (no user code run), independent of every other file: the command caches
them by content hash.

The facts are a JSON-able dict:

  bindings  top-level name -> ["def"] | ["class"] | ["module", dotted]
            | ["from", level, module, name] | ["alias", dotted] | ["dict"]
            | ["object"] | ["value"]
  stars     [[level, module]]: star imports at top level
  classes   name -> {"bases": [dotted], "decorators": [decorator], "params": [...]}
  functions name -> {"decorators": [decorator], "params": [...]}
  bodies    <module>, <main>, top-level function and class names ->
            {"calls": [[dotted, [spec], {kw: spec}, line, open]], "refs": [dotted],
             "returns": [spec | ["tuple", [spec]]] (a function's return values: absent
             in a generator),
             "lookups": [[dotted, spec, kind]], "imports": [[level, module, names]],
             "locals": {name: binding}, "stores": [[dotted, spec, spec]],
             "registers": [[callee dotted, dotted, key spec]],
             "uncalled": [[dotted, line, [attribute names], construct run directly]], "guard": line,
             "held": [[attribute, dotted, line]], "sets": [[attribute, literal]] (in ``Class.__init__``)};
            a lookup's kind: "item" (``REGISTRY[key]``) or "getattr"
            (``getattr(module, key)``, ``module.__dict__[key]``,
            ``vars(module)[key]``);
            "uncalled" (the top level, the main guard, top-level functions):
            objects built by ``name = C(...)`` whose every use leaves them
            uncalled: an attribute read or called (``m.encoder(x)``: a
            sub-cell, unless the program model finds a method of C by that
            name), ``load_param_into_net(m, ...)``, ``print(m)`` (see
            _INERT_CALLS), ``m.construct(x)`` in plain Python (a method call:
            C's construct is not compiled), with at least one attribute or
            weights use; and ``C(...).construct(...)`` (_built_not_called);
            "held" (a class's ``__init__``): the ``self.attr = C(...)``
            stores whose attribute the file names nowhere else (_held_not_read);
            "sets" (a class's ``__init__``): ``self.attr = <literal>`` in its own
            body (_literal_settings: a configuration class's fields);
            "registers": the names passed to a registering call
            (``REG.register_cls(Net, alias="net")``, ``add_model(Net)``) or
            stored into a table (``REG["net"] = Net``: callee ""), which are
            registered there, not run (they are not among "refs"); a
            function's statements past a guard that raises
            unless PyNative (mslint.analysis.mode.is_pynative_guard) are a body
            of their own, its name + PYNATIVE_PART, and "guard" its line
  dicts     name -> [[key, dotted]]: module-level dicts of names
  tables    name -> [[key, value]]: module-level dicts of literals (a value a
            string, a number, a list of them, or None: anything else); absent
            when the file has none
  contexts  [[modes, runs, line, options, levels, level_options, mappings]]
            (mappings: [[option, reading, [[value, mode]]]], mslint.analysis.mode.ContextCall)
  devices   [[devices, runs, line, options]]: the device settings
            (mslint.analysis.devices.DeviceCall); absent when the file has none
  arguments dest -> [default spec, [choices], line, runs]: runs is the body
            whose code adds the option (MODULE, MAIN, a top-level function
            or class name): the option is the program's only when it reaches it
  choices   name -> [[binding, [[key spec, [strings], otherwise]]]]: a top-level name
            that branches of ``if`` chains comparing an option with strings
            import differently (_import_choices); absent when the file has none
  configs   [file names of .yaml/.yml/.json the file mentions]
  rebinds   [[target dotted, value dotted or "", runs]]
  called    names the top level calls (a function called there runs on import)
  trains, infers, exports, sets_training, may_evaluate
            what its text shows a program doing (mslint.analysis.mode: TRAINS
            read by training_lines,
            INFERS, EXPORTS, SETS_TRAINING, MAY_EVALUATE)

A spec is what an argument or a key may be: ["lit", value], ["param", name,
owner], ["opt", key] (args.key, cfg["key"]), ["dname"] (the decorated
object's __name__), or None (anything). A lookup's key and a return value may
also be a local name the function assigns once: ["ret", callee dotted, index]
(``cfg, name = get_info(key)``: element ``index`` of what the callee returns,
-1 the whole), ["table", dotted, key spec, [index, ...]] (``name =
TABLE[key][0]``: a module-level table of literals read at the key).
"""

from __future__ import annotations

import ast
import collections
import functools
import json
import re
import warnings
from collections import Counter
from collections.abc import Callable, Iterator
from typing import Any

from mslint.analysis import devices, forked, mode
from mslint.analysis.imports import tree_imports

FACTS_VERSION = 16
MODULE = "<module>"  # a file's top-level code: runs when it is imported
MAIN = "<main>"  # an entry's main guard
# the part of a body past a guard that raises unless PyNative: ``PTQ.apply`` + PYNATIVE_PART
PYNATIVE_PART = "|pynative"
_CONFIG_NAME = re.compile(r"[\w./\\-]+\.(?:ya?ml|json)$")


def _bodies_at(tree: ast.Module, lines: list[int]) -> list[str]:
    """The bodies (as ``bodies`` names them) holding ``lines``: a function or class
    defined at the top of the module (``f``, ``C``), a method of such a class
    (``C.m``); MODULE for any other line (top-level code, the main guard, a
    definition inside ``if``/``try``: counted wherever the file is reached)."""
    found: set[str] = set()
    definitions = [statement for statement in tree.body
                   if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef))]
    for line in lines:
        where = MODULE
        for statement in definitions:
            start = min([statement.lineno, *(item.lineno for item in statement.decorator_list)])
            if not start <= line <= (statement.end_lineno or statement.lineno):
                continue
            where = statement.name
            if isinstance(statement, ast.ClassDef):
                for item in statement.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) \
                            and item.lineno <= line <= (item.end_lineno or item.lineno):
                        where = f"{statement.name}.{item.name}"
            break
        found.add(where)
    return sorted(found)


def read_facts(data: bytes, path: str = "") -> dict[str, Any]:
    """The facts of one file's source (see above)."""
    with forked.collector_paused():  # (read in the plugin's process, beside pylint's trees)
        return _read(data, path, with_imports=False)[0]


def _read(data: bytes, path: str, with_imports: bool) -> tuple[dict[str, Any], list | None]:
    """The facts of a source and, ``with_imports``, its imports as the result
    cache keeps them (mslint.analysis.imports), from the same parse; None when
    it does not parse."""
    # a model built and trained in the same file: asked twice below, searched once
    builds_and_trains = b"train" in data and mode.BUILDS_MODEL.search(data) is not None \
        and mode.TRAINS_MODEL.search(data) is not None
    facts: dict[str, Any] = {
        "v": FACTS_VERSION,
        "entry": mode.is_entry(data),
        "trains": mode.TRAINS_FOUND.found(data),
        "infers": mode.INFERS.found(data),
        "loads_weights": mode.LOADS_WEIGHTS.found(data),
        "calls_construct": mode.CALLS_CONSTRUCT.search(data) is not None,
        "exports": b"export" in data and mode.EXPORTS.search(data) is not None,
        "sets_training": b"train" in data and (
            mode.SETS_TRAINING.search(data) is not None or builds_and_trains
        ),
        "may_evaluate": mode.MAY_EVALUATE.found(data),
    }
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # SyntaxWarning: an invalid escape, `x is 1`
            tree = ast.parse(data)
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        facts.update(bindings={}, stars=[], classes={}, functions={}, bodies={}, dicts={}, contexts=[],
                     arguments={}, configs=[], rebinds=[], called=[], broken=True)
        return facts, None
    if facts["sets_training"] and not builds_and_trains:
        # only set_train calls on layers a construct builds itself: no network's flag turns on
        local = mode.local_set_train_lines(tree) if b"construct" in data else set()
        facts["sets_training"] = not local or any(
            data.count(b"\n", 0, found.start()) + 1 not in local for found in mode.SETS_TRAINING.finditer(data))
    if facts["trains"]:
        lines = mode.training_lines(data, tree)  # past comments, strings, idle optimizers
        facts["trains"] = lines is None or bool(lines)
        if lines:
            facts["trains_in"] = _bodies_at(tree, lines)
    try:
        facts.update(_FactsReader(tree, data, may_run=facts["entry"] or path.endswith(".ipynb")).facts())
        facts["contexts"] = [
            [sorted(call.modes), call.runs, call.line, list(call.options), sorted(call.levels), list(call.level_options),
             [[option, reading, [list(item) for item in table]] for option, reading, table in call.mappings],
             call.last]
            for call in mode.context_calls_of_tree(tree)
        ] if b"set_context" in data else []
        if b"device_target" in data or b"set_device" in data:
            facts["devices"] = [[sorted(call.devices), call.runs, call.line, list(call.options)]
                                for call in devices.device_calls_of_tree(tree)]
    except RecursionError:
        facts.update(bindings={}, stars=[], classes={}, functions={}, bodies={}, dicts={}, contexts=[],
                     arguments={}, configs=[], rebinds=[], called=[], broken=True)
        return facts, None
    return facts, tree_imports(tree) if with_imports else None


def _read_source(source: tuple[bytes, str], with_imports: bool) -> tuple[dict[str, Any], list | None]:
    return _read(*source, with_imports=with_imports)


def read_many(
    sources: list[tuple[bytes, str]], jobs: int = 1, with_imports: bool = False
) -> list[tuple[dict[str, Any], list | None]]:
    """The facts of each (source, path), in order, each ``with_imports`` of the
    file or None (see _read: the command's result cache keys files by them, and
    would parse each file again to find them); with ``jobs`` > 1 and many files,
    read by forked processes (mslint.analysis.forked: reading the facts of a
    large project is a fifth of the command's cold run, and done before any file
    is checked)."""
    return forked.read_all(functools.partial(_read_source, with_imports=with_imports), sources, jobs)


def _dotted(node: ast.AST) -> str | None:
    """``a.b.c`` for a Name/Attribute chain rooted at a name, else None."""
    parts = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


def _namespace_of(node: ast.expr) -> str | None:
    """``models`` for ``models.__dict__`` and ``vars(models)``: a module's
    namespace, looked up by key as ``getattr(models, key)`` is; else None."""
    if isinstance(node, ast.Attribute) and node.attr == "__dict__":
        return _dotted(node.value)
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "vars" \
            and len(node.args) == 1 and not node.keywords:
        return _dotted(node.args[0])
    return None


def _params(func: ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda) -> list[str]:
    arguments = func.args
    return [arg.arg for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs]


class _FactsReader:
    """Reads a parsed file into its facts in two passes: the top-level names
    first, then every body (what a reference names depends on them)."""

    def __init__(self, tree: ast.Module, data: bytes = b"", may_run: bool = True) -> None:
        self.tree = tree
        # whole-tree walks only where the text says they can find something
        self.mentions_arguments = not data or b"add_argument" in data
        # the objects built and never called are read only in what may be a program's
        # own script (an entry, a notebook, a script building one at its top level)
        self.reads_uncalled = not data or may_run or _TOP_LEVEL_BUILD.search(data) is not None
        # the source, for the sub-cells held and never read (_held_not_read); none given: none read
        self.data = data
        self._words: _WordCounts | None = None  # counted at the first __init__ that needs them
        # the functions it names other than to call them (handed to ms.grad, jit): read when
        # it calls a construct directly, which such a function may compile (_built_not_called)
        self._handed: set[str] | None = None if not data or b".construct(" in data else set()
        self.bindings: dict[str, list] = {}
        self.stars: list[list] = []
        self.classes: dict[str, dict] = {}
        self.functions: dict[str, dict] = {}
        self.bodies: dict[str, dict] = {}
        self.dicts: dict[str, list] = {}
        self.tables: dict[str, list] = {}
        self.rebinds: list[list] = []
        self.configs: list[str] = []
        self.called: set[str] = set()

    def _word_counts(self) -> _WordCounts:
        if self._words is None:
            self._words = _WordCounts(self.data)
        return self._words

    def facts(self) -> dict[str, Any]:
        top: list[ast.stmt] = []
        main: list[ast.stmt] = []
        definitions: list[ast.stmt] = []
        self._sort(self.tree.body, top, main, definitions)
        for statement in definitions:
            self._define(statement)
        for statement in top:
            self._bind_top(statement)
        for statement in main:
            self._bind_top(statement, in_main=True)
        self.bodies[MODULE] = self._body(top, None, top_level=True)
        if main:
            self.bodies[MAIN] = self._body(main, None)
        # Cells built into a module-level name and never called (the module's uses are its whole tree)
        for key, statements in ((MODULE, top), (MAIN, main)) if self.reads_uncalled else ():
            unused = _built_not_called(statements, self.tree) if statements else []
            if unused:
                self.bodies[key]["uncalled"] = unused
        if top and self.data and _TOP_LEVEL_LITERAL_BUILD.search(self.data):
            parked = _parked_not_read(top, self._word_counts())
            if parked:
                self.bodies[MODULE]["parked"] = parked
        for statement in definitions:
            name = statement.name  # type: ignore[attr-defined]
            bodies = self._bodies(name, statement)
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)) and self.reads_uncalled:
                # a function decorated (@jit) or handed on (to ms.grad, jit) may be compiled
                plain = not statement.decorator_list and statement.name not in self.handed()
                unused = _built_not_called(statement.body, statement, plain)
                if unused:
                    bodies[name]["uncalled"] = unused
            if isinstance(statement, ast.ClassDef):
                # each method a body of its own: a built class runs its special
                # methods and construct, the others when reached code names them
                for item in statement.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        bodies.update(self._bodies(f"{name}.{item.name}", item, method_of=statement))
                        if item.name == "__init__" and self.data:
                            held = _held_not_read(item, self.data, self._word_counts())
                            if held:
                                bodies[f"{name}.__init__"]["held"] = held
                        if item.name == "__init__":
                            sets = _literal_settings(item)
                            if sets:
                                bodies[f"{name}.__init__"]["sets"] = sets
            for key, body in bodies.items():
                known = self.bodies.get(key)
                self.bodies[key] = _merge(known, body) if known else body
        found = {
            "bindings": self.bindings,
            "stars": self.stars,
            "classes": self.classes,
            "functions": self.functions,
            "bodies": self.bodies,
            "dicts": self.dicts,
            "arguments": _arguments(self.tree) if self.mentions_arguments else {},
            "configs": sorted(set(self.configs))[:50],
            "rebinds": self.rebinds,
            "called": sorted(self.called),
        }
        if self.tables:
            found["tables"] = self.tables
        choices = _import_choices(top + main, self.bindings)
        if choices:
            found["choices"] = choices
        run = _runs_what_it_builds(top + main) if (top or main) and self.reads_uncalled else []
        if run:
            found["calls_built"] = run
        return found

    def handed(self) -> set[str]:
        if self._handed is None:
            self._handed = _handed_on(self.tree)
        return self._handed

    def _sort(self, statements: list[ast.stmt], top: list, main: list, definitions: list) -> None:
        """Top-level statements into the code that runs on import, the main guard's
        and the definitions, looking into ``if``/``try``/``with`` blocks."""
        for statement in statements:
            if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                definitions.append(statement)
                top.extend(statement.decorator_list)  # type: ignore[arg-type] - decorators run on import
                if isinstance(statement, ast.ClassDef):
                    top.extend(statement.bases)  # type: ignore[arg-type]
            elif isinstance(statement, ast.If) and mode.is_main_guard(statement.test):
                main.extend(statement.body)
                self._sort(statement.orelse, top, main, definitions)
            elif isinstance(statement, (ast.If, ast.Try, ast.With, ast.AsyncWith)) or type(statement).__name__ == "TryStar":
                top.append(statement)
                inner: list[ast.stmt] = []
                for field in ("body", "orelse", "finalbody"):
                    inner.extend(getattr(statement, field, ()) or ())
                for handler in getattr(statement, "handlers", ()) or ():
                    inner.extend(handler.body)
                nested_top: list = []
                self._sort(inner, nested_top, main, definitions)
            else:
                top.append(statement)

    def _define(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        decorators = [_decorator(item) for item in node.decorator_list]
        if isinstance(node, ast.ClassDef):
            self.bindings[node.name] = ["class"]
            init = next((item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"), None)
            self.classes[node.name] = {
                "bases": [base for base in (_dotted(item.value if isinstance(item, ast.Subscript) else item)
                                            for item in node.bases) if base],
                "decorators": decorators,
                "params": _params(init)[1:] if init is not None else [],
                "line": node.lineno,
                "methods": sorted({item.name for item in node.body if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))}),
            }
        else:
            self.bindings[node.name] = ["def"]
            self.functions[node.name] = {"decorators": decorators, "params": _params(node), "line": node.lineno}

    def _bind_top(self, statement: ast.stmt, in_main: bool = False) -> None:  # noqa: C901
        for node in _top_statements(statement):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.bindings[alias.asname] = ["module", alias.name]
                    else:
                        first = alias.name.split(".", 1)[0]
                        self.bindings[first] = ["module", first]
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name == "*":
                        self.stars.append([node.level, node.module or ""])
                    else:
                        self.bindings[alias.asname or alias.name] = ["from", node.level, node.module or "", alias.name]
            elif isinstance(node, ast.Assign):
                for target in node.targets:
                    self._bind_assignment(target, node.value, in_main)
            elif isinstance(node, (ast.AnnAssign, ast.AugAssign)) and node.value is not None:
                if isinstance(node, ast.AnnAssign):
                    self._bind_assignment(node.target, node.value, in_main)
                elif isinstance(node.target, ast.Name):
                    self.tables.pop(node.target.id, None)  # TABLE |= {...}: not the literal's
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call):
                call = node.value
                name = mode.last_name(call.func)
                if name:
                    self.called.add(name)
                if isinstance(call.func, ast.Name) and call.func.id == "setattr" and len(call.args) == 3 \
                        and isinstance(call.args[1], ast.Constant) and isinstance(call.args[1].value, str):
                    base = _dotted(call.args[0])
                    value = _rebinding_value(call.args[2])
                    if base and value is not None:
                        self.rebinds.append([f"{base}.{call.args[1].value}", value, mode.ON_IMPORT])

    def _bind_assignment(self, target: ast.expr, value: ast.expr, in_main: bool) -> None:
        if isinstance(target, ast.Name):
            if in_main and target.id in self.bindings:
                return
            self.tables.pop(target.id, None)  # rebound: a table no more
            dotted = _dotted(value)
            if dotted:
                self.bindings[target.id] = ["alias", dotted]
            elif isinstance(value, ast.Dict):
                self.bindings[target.id] = ["dict"]
                entries = []
                for key, item in zip(value.keys, value.values):
                    name = _dotted(item) if item is not None else None
                    if name and isinstance(key, ast.Constant):
                        entries.append([str(key.value), name])
                self.dicts[target.id] = entries
                table = _literal_table(value)
                if table is not None:
                    self.tables[target.id] = table
                else:
                    self.tables.pop(target.id, None)
                return
            elif isinstance(value, ast.Call):
                self.bindings[target.id] = ["object"]
            else:
                self.bindings[target.id] = ["value"]
        elif isinstance(target, ast.Attribute) and not in_main:
            dotted = _dotted(target)
            rebound = _rebinding_value(value)
            if dotted and dotted.split(".", 1)[0] not in ("self", "cls") and rebound is not None:
                self.rebinds.append([dotted, rebound, mode.ON_IMPORT])
        elif isinstance(target, (ast.Tuple, ast.List)):
            for item in target.elts:
                if isinstance(item, ast.Name):
                    self.bindings[item.id] = ["value"]
                    self.tables.pop(item.id, None)

    def _body(self, statements: list, owner: ast.AST | None, top_level: bool = False, method_of: ast.AST | None = None) -> dict:
        reader = _BodyReader(self, owner, top_level, method_of)
        for statement in statements:
            reader.visit(statement)
        return reader.result()

    def _bodies(self, name: str, statement: ast.AST, method_of: ast.AST | None = None) -> dict[str, dict]:
        """The body of a function or method, and, past a guard that raises unless
        PyNative, the rest as a body of its own (``name`` + PYNATIVE_PART)."""
        reader = _BodyReader(self, statement, False, method_of)
        reader.visit(statement)
        found = {name: reader.result()}
        if reader.guarded is not None:
            found[name]["guard"] = reader.guard_line
            found[name + PYNATIVE_PART] = reader.guarded.result()
        return found


# a script building an object at its top level (``net = Net()``): it may be a program without a main guard
_TOP_LEVEL_BUILD = re.compile(rb"^[A-Za-z_]\w*[ \t]*=[ \t]*(?:[A-Za-z_]\w*\.)*[A-Z]\w*\(", re.MULTILINE)
# calls that load or save a Cell's weights
_WEIGHT_CALLS = frozenset({"load_param_into_net", "load_checkpoint", "save_checkpoint"})
# calls that take a Cell without running it (loading or saving its weights, printing it)
_INERT_CALLS = frozenset({
    "load_param_into_net", "load_checkpoint", "save_checkpoint", "print", "len", "id", "isinstance",
    "type", "str", "repr", "hasattr", "format",
})


def _runs_what_it_builds(statements: list[ast.stmt]) -> list[str]:
    """The classes the script's own top-level code builds and runs forward, doing
    nothing else with them: ``Fusion(3, 1)(a, b)``, or ``net = Net()`` whose every
    use is a call ``net(x)`` or an attribute ``net.fc`` (never an argument handed on,
    where code mslint cannot follow might train it). A module's self-test checking
    shapes runs its own classes so (mslint.analysis.programs: Model._may_train)."""
    built: dict[str, list] = {}
    uses: dict[str, list[ast.Name]] = {}
    parents: dict[int, ast.AST] = {}
    run: list[str] = []
    for statement in statements:
        for node in _same_scope(statement):
            for child in ast.iter_child_nodes(node):
                parents[id(child)] = node
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Call):
                dotted = _dotted(node.func.func)
                if dotted and _builds_object(dotted):
                    run.append(dotted)
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Call):
                dotted = _dotted(node.value.func)
                built.setdefault(node.targets[0].id, []).append(dotted if dotted and _builds_object(dotted) else None)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load):
                uses.setdefault(node.id, []).append(node)
    for name, made in built.items():
        if len(made) != 1 or made[0] is None or not uses.get(name):
            continue
        calls = [isinstance(parents.get(id(use)), ast.Call) and parents[id(use)].func is use for use in uses[name]]
        if any(calls) and all(called or isinstance(parents.get(id(use)), ast.Attribute)
                              for use, called in zip(uses[name], calls)):
            run.append(made[0])
    return sorted(set(run))


def _built_not_called(statements: list[ast.stmt], scope: ast.AST, plain: bool = True) -> list[list]:
    """[dotted callee, line, [attribute names used on it], construct run
    directly] for each ``name = C(...)`` among ``statements`` (nested blocks
    included, not nested definitions) whose name is bound once in ``scope``
    and every use of which in ``scope`` leaves the object uncalled:
    ``name.attr`` (read, or called: the program model decides whether attr is
    a method), an argument of a call in _INERT_CALLS, ``name.construct(...)``
    in the scope's own code when it runs as plain Python (``plain``: not a
    function that may be compiled): a method call, which compiles nothing of
    C's own, where ``name(...)`` would (measured: tests/oracle/test_graph.py);
    and for each ``C(...).construct(...)`` there. Anything else
    (``name(...)``, passing it on, returning it, storing it, a
    ``.construct(...)`` in a nested function, which may be differentiated or
    jitted: compiled in GRAPH_MODE) and the object may be called."""
    built: dict[str, tuple[str, int]] = {}
    own: set[int] | None = None  # the scope's own nodes, walked only for a C(...).construct(...)
    chained: list[list] = []  # C(...).construct(...)
    for statement in statements:
        for node in _same_scope(statement):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name) \
                    and isinstance(node.value, ast.Call):
                dotted = _dotted(node.value.func)
                name = node.targets[0].id
                if dotted and _builds_object(dotted):
                    built[name] = (dotted, node.lineno) if name not in built else ("", 0)  # bound twice: unknown
                continue
            if not plain or not _direct_construct(node) or not isinstance(node.func.value, ast.Call):  # type: ignore[attr-defined]
                continue
            if own is None:
                own = {id(inner) for inner in _same_scope(scope)}
            if id(node) in own:
                dotted = _dotted(node.func.value.func)  # type: ignore[attr-defined]
                if dotted and _builds_object(dotted):
                    chained.append([dotted, node.lineno, [], True])
    built = {name: site for name, site in built.items() if site[0]}
    if not built and not chained:
        return []
    if own is None:
        own = {id(inner) for inner in _same_scope(scope)} if plain else set()
    parents: dict[int, ast.AST] = {}
    uses: dict[str, list[ast.Name]] = {}
    stores: dict[str, int] = {}
    constructions: dict[str, int] = {}  # callee -> its calls in the scope (another may be called)
    callees = {dotted for dotted, _ in built.values()} | {item[0] for item in chained}
    pending = collections.deque([scope])
    while pending:  # ast.walk's order, each node's children listed once
        node = pending.popleft()
        for child in ast.iter_child_nodes(node):
            parents[id(child)] = node
            pending.append(child)
        if isinstance(node, ast.Call) and _dotted(node.func) in callees:
            constructions[_dotted(node.func)] = constructions.get(_dotted(node.func), 0) + 1  # type: ignore[index]
        if isinstance(node, ast.Name) and node.id in built:
            if isinstance(node.ctx, ast.Load):
                uses.setdefault(node.id, []).append(node)
            else:
                stores[node.id] = stores.get(node.id, 0) + 1
    found = list(chained)
    for name, (dotted, line) in built.items():
        attributes: list[str] = []
        direct: list[bool] = []
        if stores.get(name, 0) == 1 and all(_inert_use(use, parents, attributes, own, direct) for use in uses.get(name, ())) \
                and any(_uses_parts(use, parents) for use in uses.get(name, ())):
            # (an object never used at all is left built: a notebook may call it later, by hand)
            found.append([dotted, line, sorted(set(attributes)), bool(direct)])
    # a class also built at a site not kept here may be called there
    return [item for item in found if constructions.get(item[0], 0) == sum(1 for other in found if other[0] == item[0])]


# what reads a Cell's children without naming them: the sub-cells it may call
_GENERIC_CHILD_ACCESS = re.compile(
    rb"\b(?:cells|name_cells|cells_and_names|_cells|getattr|__getattr__|__getattribute__|__dict__|vars)\b")


class _WordCounts:
    """How often a file's text names each word, and names it as the attribute a store
    assigns (``<name>.word =``), counted in one pass over the text: the held-not-read
    check asks about every ``self.attr = C(...)`` of every ``__init__``, and two
    searches of the whole text per attribute were a tenth of reading a large
    project's facts. A word outside ASCII is searched for itself (``\\w`` of a bytes
    pattern is ASCII only, so the counts would split it)."""

    def __init__(self, data: bytes) -> None:
        self.data = data
        self.generic_access = _GENERIC_CHILD_ACCESS.search(data) is not None
        self._mentions: Counter[bytes] | None = None
        self._stores: Counter[bytes] | None = None

    def mentions(self, word: bytes) -> int:
        if not word.isascii():
            return len(re.findall(rb"\b" + re.escape(word) + rb"\b", self.data))
        if self._mentions is None:
            self._mentions = Counter(_WORD.findall(self.data))
        return self._mentions[word]

    def stores(self, word: bytes) -> int:
        if not word.isascii():
            return len(re.findall(rb"\b\w+\s*\.\s*" + re.escape(word) + rb"\s*=(?!=)", self.data))
        if self._stores is None:
            self._stores = Counter(_STORED_ATTRIBUTE.findall(self.data))
        return self._stores[word]


_WORD = re.compile(rb"\w+")
# ``<name>.<attribute> =``, not ``==``: the attribute a store assigns
_STORED_ATTRIBUTE = re.compile(rb"\b\w+\s*\.\s*(\w+)\s*=(?!=)")


# ``name = [`` / ``(`` / ``{`` at a module's top level, a class built inside it: a
# literal of objects (the test for :func:`_parked_not_read`, before any walk)
# (within 64 lines of the ``=``: a bound, so a file of many tables is not searched to its end from each)
_TOP_LEVEL_LITERAL_BUILD = re.compile(rb"^[A-Za-z_]\w*[ \t]*=[ \t]*[\[({](?:[^\n]*\n){0,64}?[^\n]*\b[A-Z]\w*\(", re.MULTILINE)


def _parked_not_read(statements: list[ast.stmt], words: _WordCounts) -> list[list]:
    """[name, dotted callee, line] for each object built inside a literal (a list,
    tuple, dict or set, nested) that a module-level ``name = ...`` among ``statements``
    binds, when the file's text names ``name`` nowhere else (not in ``__all__``, no
    read, no string or comment): objects parked in a table this module never reads
    (``encoder_params = [[...], [Cell(...), Cell(...)]]`` for classes nobody builds).
    Built at import, their construct runs only when code that reads the name calls
    them: the program model checks the other files a program reaches."""
    found: list[list] = []
    for statement in statements:
        if not (isinstance(statement, ast.Assign) and len(statement.targets) == 1
                and isinstance(statement.targets[0], ast.Name)
                and isinstance(statement.value, (ast.List, ast.Tuple, ast.Dict, ast.Set))):
            continue
        name = statement.targets[0].id
        if words.mentions(name.encode()) != 1:
            continue
        pending: list[ast.AST] = [statement.value]
        while pending:
            node = pending.pop()
            if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
                pending.extend(node.elts)
            elif isinstance(node, ast.Dict):
                pending.extend(value for value in node.values if value is not None)
            elif isinstance(node, ast.Call):
                dotted = _dotted(node.func)
                if dotted and _builds_object(dotted):
                    found.append([name, dotted, node.lineno])
    if not found:
        return found
    # a class also built elsewhere at the top level may be called there: only those
    # the module builds nowhere but in such literals
    built: Counter[str] = Counter()
    for statement in statements:
        for node in _same_scope(statement):
            if isinstance(node, ast.Call):
                dotted = _dotted(node.func)
                if dotted:
                    built[dotted] += 1
    parked = Counter(dotted for _, dotted, _ in found)
    return [entry for entry in found if built[entry[1]] == parked[entry[1]]]


def _held_not_read(init: ast.FunctionDef | ast.AsyncFunctionDef, data: bytes, words: _WordCounts | None = None) -> list[list]:
    """[attribute, dotted callee, line] for each ``self.attr = C(...)`` in ``__init__``
    (nested blocks included, not nested definitions) whose attribute name the file's
    text names nowhere else: each mention of the word is such a store (another class's
    ``__init__`` may hold one by the same name), in no string, comment or read. Such a
    sub-cell is held and never called by this file's code (a Cell compiles the
    construct of the children its construct calls, not of those it holds: the program
    model checks the other files a program reaches). None where the file reads
    children without naming them (``self.cells()``, ``getattr``, ``__dict__``).
    ``words``: the file's counted words, shared by its ``__init__`` methods."""
    if words is None:
        words = _WordCounts(data)
    if words.generic_access:
        return []
    self_name = init.args.args[0].arg if init.args.args else None
    if self_name is None:
        return []
    found: list[list] = []
    for node in _same_scope(init):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call)):
            continue
        target = node.targets[0]
        if not (isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name):
            continue
        dotted = _dotted(node.value.func)
        if not dotted or not _builds_object(dotted):
            continue
        word = target.attr.encode()
        if words.mentions(word) == words.stores(word):
            found.append([target.attr, dotted, node.lineno])
    return found


def _literal_settings(init: ast.FunctionDef | ast.AsyncFunctionDef) -> list[list]:
    """[attribute, value] for each ``self.attr = <literal>`` (a string, number or
    bool) among the statements of ``__init__``'s own body (not under an ``if``): the
    fields a configuration class gives every instance (``self.context_mode =
    "pynative"``)."""
    self_name = init.args.args[0].arg if init.args.args else None
    found: list[list] = []
    for statement in init.body:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target, value = statement.targets[0], statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target, value = statement.target, statement.value
        else:
            continue
        if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == self_name \
                and isinstance(value, ast.Constant) and isinstance(value.value, (str, int, float, bool)):
            found.append([target.attr, value.value])
    return found[:50]


def _builds_object(dotted: str) -> bool:
    """A call of a capitalized name: a class being built (``Net(...)``, ``models.ResNet(...)``)."""
    return dotted.rsplit(".", 1)[-1][:1].isupper()


def _direct_construct(node: ast.AST) -> bool:
    """``<object>.construct(...)``: a Cell's construct called as a method."""
    return isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "construct"


def _uses_parts(use: ast.Name, parents: dict[int, ast.AST]) -> bool:
    """A use showing what the object is built for instead of being called: an
    attribute (a sub-cell, or construct run directly), or its weights loaded or saved."""
    parent = parents.get(id(use))
    if isinstance(parent, ast.keyword):
        parent = parents.get(id(parent))
    return (isinstance(parent, ast.Attribute) and parent.value is use) or (
        isinstance(parent, ast.Call) and (mode.last_name(parent.func) or "") in _WEIGHT_CALLS)


def _inert_use(use: ast.Name, parents: dict[int, ast.AST], attributes: list[str], plain: set[int],
               direct: list[bool]) -> bool:
    """A use leaving the object uncalled; the attribute names it uses into
    ``attributes``, but for ``.construct(...)`` called in plain Python (its
    node among ``plain``), which ``direct`` records."""
    parent = parents.get(id(use))
    if isinstance(parent, ast.Attribute) and parent.value is use:
        call = parents.get(id(parent))
        if id(use) in plain and call is not None and _direct_construct(call) and call.func is parent:  # type: ignore[attr-defined]
            direct.append(True)
        else:
            attributes.append(parent.attr)
        return True
    if isinstance(parent, ast.Call) and use in parent.args:
        return (mode.last_name(parent.func) or "") in _INERT_CALLS
    if isinstance(parent, ast.keyword):
        call = parents.get(id(parent))
        return isinstance(call, ast.Call) and (mode.last_name(call.func) or "") in _INERT_CALLS
    return False


def _handed_on(tree: ast.Module) -> set[str]:
    """The names the module uses other than to call them (``ms.grad(train_step)``,
    ``jit(main)``, ``callbacks = [main]``): its functions among them may be compiled."""
    calls = {id(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    return {node.id for node in ast.walk(tree)
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load) and id(node) not in calls}


def _same_scope(statement: ast.AST):
    """The nodes of ``statement`` outside the functions, classes and lambdas it defines."""
    stack = [statement]
    while stack:
        node = stack.pop()
        yield node
        for child in ast.iter_child_nodes(node):
            if not isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)):
                stack.append(child)


# keywords naming the key a registering call files its class under, and those passing the class
_KEY_KEYWORDS = frozenset({"name", "key", "alias", "module_name"})
_CLASS_KEYWORDS = frozenset({"module", "cls", "klass", "class_", "register_class", "obj", "fn", "func", "model", "cell", "target"})


def is_registering(name: str) -> bool:
    """A call named register*/add* (``register_cls``, ``registerModel``,
    ``add_model``), by its last name; not ``address``, ``addmm`` ... only the
    verb: ``add`` and ``register`` alone, or followed by ``_`` or a capital."""
    last = name.rsplit(".", 1)[-1].lstrip("_")
    lowered = last.lower()
    for verb in ("register", "add"):
        if lowered == verb or lowered.startswith(verb + "_") or (last[: len(verb)].lower() == verb
                                                                  and last[len(verb): len(verb) + 1].isupper()):
            return True
    return lowered.startswith("register")


def _rebinding_value(value: ast.expr) -> str | None:
    """What an assignment to a framework attribute puts there, as a rebinding:
    a name, "" for what a call returns (a wrapper), None for a plain value
    (``ImageFile.LOAD_TRUNCATED_IMAGES = True`` is a setting, not a replacement)."""
    dotted = _dotted(value)
    if dotted:
        return dotted
    return "" if isinstance(value, (ast.Call, ast.Lambda)) else None


def _import_choices(statements: list[ast.stmt], bindings: dict[str, list]) -> dict[str, list]:
    """Top-level names that branches of ``if`` chains import differently
    (``if config.net_name == "resnet18": from src.resnet import resnet18 as resnet``
    ``elif ...: ... as resnet``): name -> [[binding, [[key spec, [strings],
    otherwise], ...]]], each import with the tests of the branches holding it,
    outermost first; ``otherwise``: a chain's ``else`` (its key is none of the
    chain's strings). A key spec is None where the test is not a comparison of
    an option with strings (the branch may run). Only names every binding of
    which is such an import, with two or more different targets: the others
    keep their one binding."""
    found: dict[str, list] = {}
    unconditional: set[str] = set()

    def imported(statement: ast.stmt) -> Iterator[tuple[str, list]]:
        if isinstance(statement, ast.ImportFrom):
            for alias in statement.names:
                if alias.name != "*":
                    yield alias.asname or alias.name, ["from", statement.level, statement.module or "", alias.name]
        elif isinstance(statement, ast.Import):
            for alias in statement.names:
                if alias.asname:
                    yield alias.asname, ["module", alias.name]

    def walk(block: list[ast.stmt], guards: list) -> None:
        for statement in block:
            if isinstance(statement, ast.If) and not mode.is_main_guard(statement.test):
                chain: list[tuple[list | None, list[str]]] = []
                current: ast.stmt = statement
                while True:
                    spec, literals = _compared_option(current.test)  # type: ignore[attr-defined]
                    chain.append((spec, literals))
                    walk(current.body, [*guards, [spec, literals, False]])  # type: ignore[attr-defined]
                    rest = current.orelse  # type: ignore[attr-defined]
                    if len(rest) == 1 and isinstance(rest[0], ast.If):
                        current = rest[0]
                        continue
                    if rest:
                        same = len({repr(spec) for spec, _ in chain}) == 1 and chain[0][0] is not None
                        walk(rest, [*guards, [chain[0][0], [text for _, texts in chain for text in texts], True]
                                    if same else [None, [], False]])
                    break
            elif isinstance(statement, (ast.Import, ast.ImportFrom)):
                for name, binding in imported(statement):
                    if guards:
                        found.setdefault(name, []).append([binding, guards])
                    else:
                        unconditional.add(name)
            elif isinstance(statement, (ast.Try, ast.With, ast.AsyncWith)) or type(statement).__name__ == "TryStar":
                for field in ("body", "orelse", "finalbody"):
                    walk(getattr(statement, field, ()) or [], guards)
                for handler in getattr(statement, "handlers", ()) or ():
                    for name in (name for inner in handler.body for name, _ in imported(inner)):
                        unconditional.add(name)  # an import fallback: not a choice

    walk(statements, [])
    return {name: choices for name, choices in found.items()
            if name not in unconditional and len(choices) > 1 and bindings.get(name) == choices[-1][0]
            and len({repr(choice[0]) for choice in choices}) > 1}


def _compared_option(test: ast.expr) -> tuple[list | None, list[str]]:
    """(the option spec, the strings) of ``opt == "a"``, ``"a" == opt``,
    ``opt in ("a", "b")``; (None, []) for any other test."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None, []
    left, right, operator = test.left, test.comparators[0], test.ops[0]
    if isinstance(operator, ast.Eq) and isinstance(left, ast.Constant):
        left, right = right, left
    if isinstance(operator, ast.Eq) and isinstance(right, ast.Constant) and isinstance(right.value, str):
        literals = [right.value]
    elif isinstance(operator, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)) and right.elts \
            and all(isinstance(item, ast.Constant) and isinstance(item.value, str) for item in right.elts):
        literals = [item.value for item in right.elts]  # type: ignore[attr-defined]
    else:
        return None, []
    spec = _option_spec(left)
    return (spec, literals) if spec is not None else (None, [])


def _option_spec(node: ast.expr) -> list | None:
    """["opt", key] for an option read: ``args.model``, ``cfg.model_name``,
    ``cfg.model.name`` (mode.option_path), ``cfg["model"]``; None for anything
    else (``self.x`` and ``cls.x`` included)."""
    if isinstance(node, ast.Attribute):
        if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
            return None
        return ["opt", mode.option_path(node)]
    if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
        return ["opt", node.slice.value]
    return None


def _top_statements(statement: ast.AST):
    """``statement`` and, inside ``if``/``try``/``with`` blocks, the statements
    that run with it (not those of functions or classes defined there)."""
    yield statement
    if isinstance(statement, (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.While)) \
            or type(statement).__name__ == "TryStar":
        for field in ("body", "orelse", "finalbody"):
            for inner in getattr(statement, field, ()) or ():
                yield from _top_statements(inner)
        for handler in getattr(statement, "handlers", ()) or ():
            for inner in handler.body:
                yield from _top_statements(inner)


def _decorator(node: ast.expr) -> list:
    """[dotted, first argument spec, called]: ``@register``, ``@register("key")``,
    ``@REGISTRY.register_module(name="key")``."""
    if isinstance(node, ast.Call):
        spec = None
        if node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str):
            spec = node.args[0].value
        for keyword in node.keywords:
            if keyword.arg in ("name", "key", "module_name") and isinstance(keyword.value, ast.Constant):
                spec = str(keyword.value.value)
        return [_dotted(node.func) or "", spec, True]
    return [_dotted(node) or "", None, False]


def _arguments(tree: ast.AST) -> dict[str, list]:
    """argparse options: dest -> [default spec, [choices], line, runs]."""
    found: dict[str, list] = {}
    runs = _bodies_of_lines(tree)
    for dest, call in mode.argparse_options(tree).items():
        keywords = {keyword.arg: keyword.value for keyword in call.keywords if keyword.arg}
        default = keywords.get("default")
        choices = keywords.get("choices")
        literal_choices = []
        if isinstance(choices, (ast.List, ast.Tuple, ast.Set)):
            literal_choices = [item.value for item in choices.elts if isinstance(item, ast.Constant)]
        found[dest] = [_literal_spec(default), literal_choices, call.lineno, runs(call.lineno)]
    return found


def _bodies_of_lines(tree: ast.AST) -> Callable[[int], str]:
    """line -> the body that runs it: a top-level function's or class's name,
    MAIN (the main guard) or MODULE (the rest of the top level)."""
    spans: list[tuple[int, int, str]] = []
    for statement in getattr(tree, "body", ()):
        end = getattr(statement, "end_lineno", None) or statement.lineno
        if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            start = min([statement.lineno] + [decorator.lineno for decorator in statement.decorator_list])
            spans.append((start, end, statement.name))
        elif isinstance(statement, ast.If) and mode.is_main_guard(statement.test):
            spans.append((statement.lineno, end, MAIN))

    def body(line: int) -> str:
        return next((name for start, end, name in spans if start <= line <= end), MODULE)

    return body


def _table_value(node: ast.expr) -> object:
    """A table's value as the facts keep it: a string or number, a list of
    them (a list or tuple literal), else None."""
    if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) and not isinstance(node.value, bool):
        return node.value
    if isinstance(node, (ast.List, ast.Tuple)) and len(node.elts) <= 16:
        return [_table_value(item) for item in node.elts]
    return None


def _literal_table(node: ast.Dict) -> list | None:
    """The [[key, value]] of a dict literal whose keys are all strings (values
    by _table_value); None where a key is not (``**other``, a name) or no value
    is a literal."""
    if len(node.keys) > 500 or any(not (isinstance(key, ast.Constant) and isinstance(key.value, str)) for key in node.keys):
        return None
    entries = [[key.value, _table_value(value)] for key, value in zip(node.keys, node.values)]  # type: ignore[union-attr]
    return entries if any(value is not None for _, value in entries) else None


def _literal_spec(node: ast.expr | None) -> list | None:
    if isinstance(node, ast.Constant) and node.value is not None and isinstance(node.value, (str, int, float)):
        return ["lit", node.value]
    dotted = _dotted(node) if node is not None else None
    if dotted and dotted.rsplit(".", 1)[-1] in ("GRAPH_MODE", "PYNATIVE_MODE", "STRICT", "LAX"):
        return ["lit", dotted.rsplit(".", 1)[-1]]
    return None


def _merge(first: dict, second: dict) -> dict:
    merged = {}
    for key in set(first) | set(second):
        a, b = first.get(key), second.get(key)
        if isinstance(a, dict) or isinstance(b, dict):
            merged[key] = {**(a or {}), **(b or {})}
        elif not isinstance(a, list) and not isinstance(b, list):  # a line ("guard"): the first definition's
            merged[key] = a or b
        else:
            merged[key] = (a or []) + (b or [])
    return merged


class _BodyReader(ast.NodeVisitor):
    """What one body (the top level, the main guard, a top-level function or a
    class with all its methods) calls, names, looks up and imports."""

    def __init__(self, file: _FactsReader, owner: ast.AST | None, top_level: bool = False,
                 method_of: ast.AST | None = None) -> None:
        self.file = file
        self.owner = owner
        self.method_of = method_of  # the class of a method body
        self.attrs: dict[str, None] = {}  # attribute names used (x.name, x.name(...)): the methods they may run
        # the top level: functions and classes defined in its blocks are bodies of their own
        self.top_level = top_level
        self.calls: dict[str, list] = {}
        self.refs: dict[str, None] = {}
        self.lookups: list[list] = []
        self.imports: list[list] = []
        self.locals: dict[str, list] = {}
        self.stores: list[list] = []
        self.registers: list[list] = []
        self.returns: list = []  # the owner function's return values (specs)
        self._generator = False  # the owner function yields (its returns are not what a call gives), or returns too often
        # the owner function's local names: how often each is bound (anywhere in it), the value
        # each assignment of its own scope gives (a call's: with the name's position), and the
        # lookup keys and return values read from them when the body is done (_key_spec)
        self._stores: dict[str, int] = {}
        self._values: dict[str, tuple[ast.expr, int]] = {}
        self._pending: list[tuple[list, int, ast.expr]] = []
        self._functions: list[ast.AST] = []
        self._decorated_name: dict[str, str] = {}  # local name -> the parameter whose __name__ it holds
        self._skip: set[int] = set()  # nodes not to count as references
        # the statements of the owner function past a guard that raises unless PyNative
        self.guarded: _BodyReader | None = None
        self.guard_line = 0

    # a faster walk than ast.NodeVisitor's (the facts of every file the programs
    # reach are read): one dispatch table per class, no expression contexts
    _dispatch: dict[type, Any] = {}

    def visit(self, node: ast.AST) -> None:
        method = self._dispatch.get(type(node))
        if method is None:
            method = self._dispatch[type(node)] = getattr(type(self), "visit_" + type(node).__name__, _BodyReader.generic_visit)
        method(self, node)

    def generic_visit(self, node: ast.AST) -> None:
        for field in node._fields:
            if field == "ctx":
                continue
            value = getattr(node, field, None)
            if type(value) is list:
                for item in value:
                    if isinstance(item, ast.AST):
                        self.visit(item)
            elif isinstance(value, ast.AST):
                self.visit(value)

    def visit_Constant(self, node: ast.Constant) -> None:
        value = node.value
        if type(value) is str and value.endswith((".yaml", ".yml", ".json")) and len(value) < 300 \
                and _CONFIG_NAME.search(value):
            self.file.configs.append(value)  # a configuration file the code names

    def result(self) -> dict:
        found: dict[str, Any] = {}
        if self.calls:
            found["calls"] = list(self.calls.values())
        if self.refs:
            found["refs"] = list(self.refs)
        if self.attrs:
            found["attrs"] = list(self.attrs)
        for key, value in (("lookups", self.lookups), ("imports", self.imports), ("locals", self.locals), ("stores", self.stores),
                           ("registers", self.registers)):
            if value:
                found[key] = value
        if self._pending:
            functions, self._functions = self._functions, [self.owner]  # type: ignore[list-item]
            for container, index, node in self._pending:
                container[index] = self._key_spec(node)
            self._functions = functions
        if self.returns and not self._generator:
            found["returns"] = self.returns
        return found

    def _known(self, dotted: str) -> bool:
        first = dotted.split(".", 1)[0]
        return first in self.file.bindings or first in self.locals or bool(self.file.stars)

    # -- scopes ------------------------------------------------------------
    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for item in node.decorator_list:
            self.visit(item)
        for default in node.args.defaults + [item for item in node.args.kw_defaults if item is not None]:
            self.visit(default)
        if self.top_level and not self._functions:
            return
        if self._functions:
            self._bound(node.name)
        self._functions.append(node)
        for index, statement in enumerate(node.body):
            self.visit(statement)
            if node is self.owner and mode.is_pynative_guard(statement):
                # what follows runs only in PyNative mode: a body of its own
                self.guarded = self._continued()
                self.guard_line = statement.lineno
                for rest in node.body[index + 1:]:
                    self.guarded.visit(rest)
                break
        self._functions.pop()

    def _continued(self) -> _BodyReader:
        """A reader for the rest of this body: the names bound so far stay bound."""
        reader = _BodyReader(self.file, self.owner, False, self.method_of)
        reader.locals = dict(self.locals)
        reader._stores = dict(self._stores)
        reader._values = dict(self._values)
        reader._functions = list(self._functions)
        reader._decorated_name = dict(self._decorated_name)
        return reader

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Return(self, node: ast.Return) -> None:
        if node.value is not None:
            self.visit(node.value)
        if self._functions and self._functions[-1] is self.owner:
            value = node.value
            if len(self.returns) >= 50:
                self._generator = True  # more than are kept: not read
                return
            if isinstance(value, ast.Tuple) and not any(isinstance(item, ast.Starred) for item in value.elts):
                items: list = [None] * min(len(value.elts), 8)
                for index, item in enumerate(value.elts[:8]):
                    self._key_later(items, index, item)
                self.returns.append(["tuple", items])
            else:
                self.returns.append(None)
                if value is not None and not isinstance(value, ast.Tuple):
                    self._key_later(self.returns, len(self.returns) - 1, value)

    def visit_Yield(self, node: ast.Yield | ast.YieldFrom) -> None:
        if self._functions and self._functions[-1] is self.owner:
            self._generator = True
        self.generic_visit(node)

    visit_YieldFrom = visit_Yield

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._functions.append(node)
        self.visit(node.body)
        self._functions.pop()

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for item in node.decorator_list + node.bases:
            self.visit(item)
        if self.top_level and not self._functions:
            return
        if self._functions:
            self._bound(node.name)
        if node is self.owner:  # a class's own body: its methods are bodies of their own
            for statement in node.body:
                if isinstance(statement, (ast.FunctionDef, ast.AsyncFunctionDef)):
                    for item in statement.decorator_list:
                        self.visit(item)
                else:
                    self.visit(statement)
            return
        for statement in node.body:
            self.visit(statement)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:  # annotations name types, they build nothing
            self.visit(node.value)
        self.visit(node.target)

    def visit_arg(self, node: ast.arg) -> None:
        return  # annotations

    # -- imports -----------------------------------------------------------
    def _bound(self, name: str, times: int = 1) -> None:
        self._stores[name] = self._stores.get(name, 0) + times

    def visit_Global(self, node: ast.Global | ast.Nonlocal) -> None:
        if self._functions:
            for name in node.names:
                self._bound(name, 2)  # bound out of the function's sight

    visit_Nonlocal = visit_Global

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name and self._functions:
            self._bound(node.name)
        self.generic_visit(node)

    def visit_MatchAs(self, node: ast.AST) -> None:
        name = getattr(node, "name", None) or getattr(node, "rest", None)
        if name and self._functions:
            self._bound(name)
        self.generic_visit(node)

    visit_MatchStar = visit_MatchMapping = visit_MatchAs

    def visit_Import(self, node: ast.Import) -> None:
        self.imports.append([0, ",".join(alias.name for alias in node.names), None])
        if self._functions:
            for alias in node.names:
                self._bound((alias.asname or alias.name).split(".", 1)[0])
        for alias in node.names:
            if self._functions or self.owner is not None:
                if alias.asname:
                    self.locals[alias.asname] = ["module", alias.name]
                else:
                    first = alias.name.split(".", 1)[0]
                    self.locals[first] = ["module", first]

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        names = [alias.name for alias in node.names]
        self.imports.append([node.level, node.module or "", names])
        if self._functions:
            for alias in node.names:
                self._bound(alias.asname or alias.name)
        if self._functions or self.owner is not None:
            for alias in node.names:
                if alias.name != "*":
                    self.locals[alias.asname or alias.name] = ["from", node.level, node.module or "", alias.name]

    # -- what the body does ------------------------------------------------
    def visit_Call(self, node: ast.Call) -> None:
        func = node.func
        dotted = _dotted(func)
        if isinstance(func, ast.Attribute):
            self.attrs[func.attr] = None
        if dotted and dotted in ("isinstance", "issubclass"):
            for arg in node.args[1:]:
                self._skip.add(id(arg))
                for inner in ast.walk(arg):
                    self._skip.add(id(inner))
        elif dotted == "getattr" and len(node.args) >= 2:
            module = _dotted(node.args[0])
            if module and self._known(module):
                self.lookups.append([module, None, "getattr"])
                self._key_later(self.lookups[-1], 1, node.args[1])
        elif dotted and self._known(dotted) and dotted.split(".", 1)[0] not in ("self", "cls"):
            args = [self._spec(arg) for arg in node.args[:8]]
            keywords = {keyword.arg: self._spec(keyword.value) for keyword in node.keywords[:8] if keyword.arg}
            # open: ``*args``, ``**kwargs`` or more arguments than kept: what it passes is not all known
            unread = len(node.args) > 8 or len(node.keywords) > 8 or any(isinstance(arg, ast.Starred) for arg in node.args) \
                or any(keyword.arg is None for keyword in node.keywords)
            key = json.dumps([dotted, args, keywords], sort_keys=True)
            if key not in self.calls and len(self.calls) < 2000:
                self.calls[key] = [dotted, args, keywords, node.lineno, unread]
        if is_registering((func.attr if isinstance(func, ast.Attribute) else dotted) or ""):
            self._register(dotted or "", node)
        if dotted is not None:
            self._skip.add(id(func))
            for part in dotted.split(".")[1:]:
                self.attrs[part] = None
        elif not isinstance(func, ast.Attribute):
            self.visit(func)
        if isinstance(func, ast.Attribute) and dotted is None:
            self.visit(func.value)
        for arg in node.args:
            self.visit(arg)
        for keyword in node.keywords:
            self.visit(keyword.value)

    def visit_Subscript(self, node: ast.Subscript) -> None:
        dotted = _dotted(node.value)
        module = _namespace_of(node.value)
        if module and self._known(module) and isinstance(node.ctx, ast.Load):
            # models.__dict__[args.arch], vars(models)[name]: getattr(models, ...)
            self.lookups.append([module, None, "getattr"])
            self._key_later(self.lookups[-1], 1, node.slice)
        elif dotted and self._known(dotted):
            if isinstance(node.ctx, ast.Load):
                self.lookups.append([dotted, None, "item"])
                self._key_later(self.lookups[-1], 1, node.slice)
            self._skip.add(id(node.value))
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if self._functions and self._functions[-1] is self.owner and len(node.targets) == 1:
            target = node.targets[0]
            if isinstance(target, ast.Name):
                self._values[target.id] = (node.value, -1)
            elif isinstance(target, (ast.Tuple, ast.List)) and isinstance(node.value, ast.Call) \
                    and all(isinstance(item, ast.Name) for item in target.elts):
                for position, item in enumerate(target.elts):
                    self._values[item.id] = (node.value, position)  # type: ignore[attr-defined]
        for target in node.targets:
            if isinstance(target, ast.Attribute) and isinstance(self.owner, ast.FunctionDef) and self.method_of is None:
                # nn.Dense = Dense in a function: a rebinding when the top level calls it
                dotted = _dotted(target)
                binding = self.file.bindings.get(dotted.split(".", 1)[0]) if dotted else None
                rebound = _rebinding_value(node.value)
                if binding is not None and binding[0] in ("module", "from") and rebound is not None:
                    self.file.rebinds.append([dotted, rebound, self.owner.name])
            if isinstance(target, ast.Subscript):
                dotted = _dotted(target.value)
                if dotted:
                    self.stores.append([dotted, self._spec(target.slice), self._value_spec(node.value)])
                    self._register_name("", node.value, self._spec(target.slice))
            elif isinstance(target, ast.Name) and self._functions:
                # model_name = fn.__name__: a decorator's key
                if isinstance(node.value, ast.Attribute) and node.value.attr == "__name__" \
                        and isinstance(node.value.value, ast.Name):
                    self._decorated_name[target.id] = node.value.value.id
        self.generic_visit(node)

    def visit_Name(self, node: ast.Name) -> None:
        if not isinstance(node.ctx, ast.Load):
            if self._functions:
                self._bound(node.id)
            return
        if id(node) in self._skip or len(self.refs) >= 2000:
            return
        binding = self.locals.get(node.id) or self.file.bindings.get(node.id)
        if binding is not None and binding[0] in ("def", "class", "from", "module", "alias"):
            self.refs[node.id] = None

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.attrs[node.attr] = None
        dotted = _dotted(node)
        if dotted is None:
            self.generic_visit(node)
            return
        for part in dotted.split(".")[1:]:
            self.attrs[part] = None
        if isinstance(node.ctx, ast.Load) and id(node) not in self._skip and self._known(dotted) \
                and dotted.split(".", 1)[0] not in ("self", "cls") and len(self.refs) < 2000:
            self.refs[dotted] = None

    # -- registrations -------------------------------------------------------
    def _register(self, callee: str, node: ast.Call) -> None:
        """The names a registering call is given: registered, not run."""
        key = None
        for keyword in node.keywords:
            if keyword.arg in _KEY_KEYWORDS and isinstance(keyword.value, ast.Constant):
                key = ["lit", keyword.value.value]
        if key is None:
            key = next((["lit", arg.value] for arg in node.args
                        if isinstance(arg, ast.Constant) and isinstance(arg.value, str)), None)
        for value in [*node.args, *(keyword.value for keyword in node.keywords if keyword.arg in _CLASS_KEYWORDS)]:
            self._register_name(callee, value, key)

    def _register_name(self, callee: str, value: ast.expr, key: list | None) -> None:
        dotted = _dotted(value)
        if not dotted or not self._known(dotted) or dotted.split(".", 1)[0] in ("self", "cls") \
                or ("." in dotted and dotted.rsplit(".", 1)[1].isupper()):  # Kinds.WRAPPER: a key, not what is filed
            return
        self.registers.append([callee, dotted, key])
        self._skip.add(id(value))  # (program model: a class registered is not built; a function still runs)

    # -- specs -------------------------------------------------------------
    def _spec(self, node: ast.expr) -> list | None:
        if isinstance(node, ast.Constant) and isinstance(node.value, (str, int, float)) and not isinstance(node.value, bool):
            return ["lit", node.value]
        if isinstance(node, ast.Name):
            if node.id in self._decorated_name:
                return ["dname"]
            for func in reversed(self._functions):
                if node.id in _params(func):  # type: ignore[arg-type]
                    owner = getattr(func, "name", "")
                    return ["param", node.id, owner]
            return None
        if isinstance(node, ast.Attribute) and node.attr == "__name__":
            return ["dname"]
        return _option_spec(node)

    def _key_later(self, container: list, index: int, node: ast.expr) -> None:
        """``container[index]``: the spec of ``node``, a lookup's key or a return
        value; where it is a local name, or a table read, of the owner function,
        read when the body is done (result): every binding of it known."""
        spec = self._spec(node)
        container[index] = spec
        if spec is None and isinstance(node, (ast.Name, ast.Subscript)) and self._functions \
                and self._functions[-1] is self.owner:
            self._pending.append((container, index, node))

    def _key_spec(self, node: ast.expr, depth: int = 0) -> list | None:
        """A lookup key's or a return value's spec, read once the owner function's
        body is done: as _spec, a table read (_table_spec), and a local name the
        function binds once, by an assignment of its own scope, from a call
        (["ret", ...]), a table read, or another such name. A name bound again
        anywhere in the function (another assignment, a loop, ``with``, an
        import, a nested definition, ``global``) is not read."""
        spec = self._spec(node)
        if spec is not None or depth > 3 or not self._functions:
            return spec
        if isinstance(node, ast.Subscript):
            return self._table_spec(node, depth)
        if not isinstance(node, ast.Name) or self._stores.get(node.id) != 1:
            return None
        value, index = self._values.get(node.id, (None, -1))
        if isinstance(value, ast.Call):
            dotted = _dotted(value.func)
            if dotted and self._known(dotted) and dotted.split(".", 1)[0] not in ("self", "cls"):
                return ["ret", dotted, index]
            return None
        if value is None or index >= 0:
            return None
        return self._key_spec(value, depth + 1)

    def _table_spec(self, node: ast.expr, depth: int) -> list | None:
        """["table", dotted, key spec, [index, ...]] for ``TABLE[key]``, ``TABLE[key][0]``."""
        indices: list[int] = []
        while isinstance(node, ast.Subscript) and isinstance(node.value, ast.Subscript):
            index = node.slice
            if not (isinstance(index, ast.Constant) and type(index.value) is int):
                return None
            indices.append(index.value)
            node = node.value
        if not isinstance(node, ast.Subscript):
            return None
        dotted = _dotted(node.value)
        first = dotted.split(".", 1)[0] if dotted else ""
        if not dotted or not self._known(dotted) or first in ("self", "cls") or first in self._stores:
            return None  # (a name the function binds: not the module's table)
        key = self._key_spec(node.slice, depth + 1)
        return ["table", dotted, key, indices[::-1]] if key is not None else None

    def _value_spec(self, node: ast.expr) -> list | None:
        if isinstance(node, ast.Name):
            for func in reversed(self._functions):
                if node.id in _params(func):  # type: ignore[arg-type]
                    return ["param", node.id, getattr(func, "name", "")]
        dotted = _dotted(node)
        return ["name", dotted] if dotted else None

