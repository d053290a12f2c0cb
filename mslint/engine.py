"""How the ``mslint`` command runs pylint: one configured PyLinter per process,
one file at a time, in-process or in a pool of worker processes, with findings
that do not depend on the number of processes, the order of files or what is
installed.

Adjustments to astroid, active only while the command lints (never in
``pylint --load-plugins mslint``):

- :class:`SkipLibraries`: astroid does not load mindspore, torch and the like.
  mslint resolves their names from import statements and never needs their
  sources; parsing them (mindspore is 600,000 lines) would cost more than the
  user's code, be repeated in every worker, and make findings depend on whether
  and which version of them is installed.
- :class:`LazyStarImports`: when astroid builds a module with
  ``from .models import *`` it builds ``.models`` and everything that star-imports
  in turn, only to learn the names they define. A package's ``__init__.py`` of
  that kind pulls the whole package into whichever worker checks it, so with
  N workers the package would be parsed N times. The names are computed here
  instead from Python's own parser, with astroid's rules for what a module
  binds (tests/test_cache.py checks they agree); the modules themselves are
  built later only if inference needs them. The tree astroid builds for the
  importing module is the same: its locals map each name to the ImportFrom.
- :class:`LeanTrees`: when only mslint's rules are enabled, no brain transforms,
  no inference of ``self`` attributes, and a garbage collector tuned for
  long-lived trees (what only pylint's own checkers would miss).
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import inspect
import io
import os
import signal
import sys
import threading
import tokenize
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from mslint import cache as result_cache

# Libraries astroid is kept out of (see the module docstring).
SKIPPED_LIBRARIES = frozenset({"mindspore", "torch", "torchvision", "torchaudio", "tensorflow", "jax", "paddle"})
# Memory for all processes together; each worker drops astroid's caches when its
# share is used up (see Engine.after_file), whatever the size of the corpus.
MEMORY_BUDGET = int(os.environ.get("MSLINT_MEMORY_BUDGET_MB", "900")) * 2**20
MIN_WORKER_MEMORY = 100 * 2**20  # a worker needs about 50 MiB before any tree
# What the main process keeps while workers run (measured: 40 MiB without the
# result cache, 75 MiB with it, after _release_freed_memory); the rest is shared
# among the workers.
MAIN_PROCESS_MEMORY = 100 * 2**20
FILES_PER_WORKER = 4  # fewer files to check than this per worker: check in-process
BATCHES_AT_LEAST = 64  # per worker: no batch is smaller than 1/64 of a worker's share of the work (see batches())
RESET_EVERY = 2000  # files; also drop astroid's caches this often whatever the memory
# What an astroid tree costs in memory, about: measured on mindone, 300 MiB of
# trees for 6 to 7 MB of source as pylint builds them, 900 MiB for 43 MB as
# LeanTrees builds them (35, not 21: a process's resident size also holds what
# freed trees leave fragmented; at 25 the full corpus peaked at 1013 MiB).
TREE_BYTES_PER_SOURCE_BYTE = 45
LEAN_TREE_BYTES_PER_SOURCE_BYTE = 35
# gc thresholds while LeanTrees is active (Python's default: 700, 10, 10)
GC_THRESHOLDS = (100_000, 50, 1000)
TREE_COST_WITHOUT_SOURCE = 200_000


@dataclass
class Settings:
    """What a process needs to lint files exactly like every other one."""

    enabled: list[str]
    jit_syntax_level: str
    roots: list[str]
    skipped_libraries: list[str] = field(default_factory=list)
    memory_limit: int = MEMORY_BUDGET
    # seconds per file (0: none); a file over it is reported and its result not cached
    timeout: float = 0.0
    # only mslint's rules (and pylint's fatal messages) are enabled, no other pylint
    # message: astroid can skip work only pylint's own checkers use
    only_mslint: bool = False

    def fingerprint(self) -> dict[str, Any]:
        """What the findings depend on, for the cache key. The roots are not in
        it: they change findings only through the dependency files, which are
        (see mslint/cache.py)."""
        return {"enabled": self.enabled, "jit_syntax_level": self.jit_syntax_level, "skipped": self.skipped_libraries}


# ---------------------------------------------------------------------------
# Module names
# ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=4096)
def _package_of(folder: str) -> tuple[str, tuple[str, ...]]:
    """The folder above the top package containing ``folder`` (what pylint puts
    on sys.path) and the package names from there down to ``folder``."""
    parts: list[str] = []
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        parts.insert(0, os.path.basename(folder))
        folder = parent
    return folder, tuple(parts)


def package_root(path: str) -> str:
    """The folder pylint puts on sys.path for ``path``: above its top package."""
    return _package_of(os.path.dirname(os.path.realpath(path)))[0]


def module_name(path: str) -> str:
    real = os.path.realpath(path)
    stem = os.path.basename(real).rsplit(".", 1)[0]
    _, packages = _package_of(os.path.dirname(real))
    parts = list(packages) if stem == "__init__" else [*packages, stem]
    return ".".join(parts) or stem


def skipped_libraries(files: Iterable[str]) -> list[str]:
    """SKIPPED_LIBRARIES, except a library being checked itself."""
    checked = {module_name(path).split(".", 1)[0] for path in files}
    return sorted(SKIPPED_LIBRARIES - checked)


# ---------------------------------------------------------------------------
# astroid adjustments
# ---------------------------------------------------------------------------


class _Patches:
    """Replaces attributes of astroid's classes while active (a ``with`` block)
    and puts the originals back on exit, last replaced first restored."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []

    def _replace(self, owner: Any, name: str, value: Any) -> None:
        """Install ``value`` as ``owner.name`` until the block ends."""
        self._saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    def __exit__(self, *exc: object) -> None:
        while self._saved:
            owner, name, original = self._saved.pop()
            setattr(owner, name, original)


class SkipLibraries(_Patches):
    """While active, astroid refuses to load modules of the given top-level
    packages, as if they were not installed."""

    def __init__(self, names: Iterable[str]) -> None:
        super().__init__()
        self.names = frozenset(names)

    def __enter__(self) -> SkipLibraries:
        from astroid.exceptions import AstroidImportError  # noqa: PLC0415
        from astroid.manager import AstroidManager  # noqa: PLC0415

        original = AstroidManager.ast_from_module_name
        names = self.names

        def ast_from_module_name(manager, modname, *args, **kwargs):  # noqa: ANN001, ANN202
            if modname and modname.partition(".")[0] in names:
                raise AstroidImportError(f"mslint does not analyse the library {modname!r}")
            return original(manager, modname, *args, **kwargs)

        self._replace(AstroidManager, "ast_from_module_name", ast_from_module_name)
        return self


_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_COMPREHENSIONS = (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)


class _Bindings(ast.NodeVisitor):
    """The names astroid's rebuilder binds in a module's own scope, in the order
    it binds them, and the ``from`` imports it handles afterwards (with the
    names declared global where they stand)."""

    def __init__(self) -> None:
        self.names: dict[str, None] = {}
        # astroid reads a function's global names when it handles its `from`
        # imports after the build: the whole function's, hence the live sets
        self.import_froms: list[tuple[ast.ImportFrom, bool, set[str]]] = []
        # one entry per enclosing function: its global names (astroid pushes
        # one per function only; classes, lambdas and comprehensions share it)
        self._globals: list[set[str]] = []
        self._depth = 0  # nesting in non-module scopes

    def _bind(self, name: str | None, *, walrus: bool = False) -> None:
        if not name:
            return
        if self._globals and name in self._globals[-1]:
            self.names.setdefault(name, None)
        elif self._depth == 0 or (walrus and self._walrus_module):
            self.names.setdefault(name, None)

    _walrus_module = False

    # -- scopes ------------------------------------------------------------------
    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._visit_arguments_defaults(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        self._globals.append(set())
        self._depth += 1
        for statement in node.body:
            self.visit(statement)
        self._depth -= 1
        self._globals.pop()
        self._bind_plain(node.name)

    def _bind_plain(self, name: str) -> None:
        # a def/class statement binds in its parent scope, globals ignored
        if self._depth == 0:
            self.names.setdefault(name, None)

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def _visit_arguments_defaults(self, arguments: ast.arguments) -> None:
        for default in [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]:
            self.visit(default)
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]:
            if arg is not None and arg.annotation is not None:
                self.visit(arg.annotation)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        for base in node.bases:
            self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        self._depth += 1
        for statement in node.body:
            self.visit(statement)
        self._depth -= 1
        self._bind_plain(node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_arguments_defaults(node.args)
        self._depth += 1
        saved, self._walrus_module = self._walrus_module, False
        self.visit(node.body)
        self._walrus_module = saved
        self._depth -= 1

    def _comprehension(self, node: ast.AST) -> None:
        # a comprehension is a scope of its own, but a walrus inside it binds
        # in the enclosing frame (the module, at top level)
        top = self._depth == 0 or self._walrus_module
        self._depth += 1
        saved, self._walrus_module = self._walrus_module, top
        self.generic_visit(node)
        self._walrus_module = saved
        self._depth -= 1

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self._bind(node.target.id, walrus=True)

    # -- bindings ------------------------------------------------------------------
    def visit_Global(self, node: ast.Global) -> None:
        if self._globals:
            self._globals[-1].update(node.names)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._bind(node.id)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._bind((alias.asname or alias.name).split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        globals_here = self._globals[-1] if self._globals else set()
        self.import_froms.append((node, self._depth == 0, globals_here))

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        self._bind(node.name)
        for statement in node.body:
            self.visit(statement)

    def visit_MatchAs(self, node: ast.AST) -> None:
        if getattr(node, "pattern", None) is not None:
            self.visit(node.pattern)
        self._bind(getattr(node, "name", None))

    def visit_MatchStar(self, node: ast.AST) -> None:
        self._bind(getattr(node, "name", None))

    def visit_MatchMapping(self, node: ast.AST) -> None:
        self.generic_visit(node)
        self._bind(getattr(node, "rest", None))


class LazyStarImports(_Patches):
    """While active, astroid learns the names a ``from X import *`` brings from
    X's source with Python's parser instead of building X (see the module
    docstring). Only for X a ``.py`` file of the project (under ``roots``);
    anything else, or any surprise, goes the usual way."""

    def __init__(self, roots: Iterable[str]) -> None:
        super().__init__()
        self.roots = tuple(os.path.join(os.path.realpath(root), "") for root in roots)
        self._done: dict[str, list[str]] = {}
        self._in_progress: dict[str, list[str]] = {}

    def usable(self) -> bool:
        from astroid.builder import AstroidBuilder  # noqa: PLC0415

        try:
            parameters = list(inspect.signature(AstroidBuilder.add_from_names_to_locals).parameters)
        except (TypeError, ValueError):
            return False
        return parameters == ["self", "node", "global_name"]

    def __enter__(self) -> LazyStarImports:
        from astroid.builder import AstroidBuilder  # noqa: PLC0415

        if not self.usable():
            return self
        original = AstroidBuilder.add_from_names_to_locals
        lazy = self

        def add_from_names_to_locals(builder, node, global_name):  # noqa: ANN001, ANN202
            if [name for name, _ in node.names] != ["*"]:
                return original(builder, node, global_name)
            names = lazy.star_names(node)
            if names is None:
                return original(builder, node, global_name)
            module = node.root()
            for name in names:
                target = module if name in global_name else node.parent
                target.set_local(name, node)
                target.scope().locals[name].sort(key=lambda n: n.fromlineno or 0)
            return None

        self._replace(AstroidBuilder, "add_from_names_to_locals", add_from_names_to_locals)
        return self

    def clear(self) -> None:
        self._done.clear()

    # -- names ---------------------------------------------------------------------
    def star_names(self, node) -> list[str] | None:  # noqa: ANN001
        """The names ``node`` (a star ImportFrom being built) brings, or None to
        let astroid build the module."""
        return self._names_from(node.root(), node.modname, node.level)

    def _names_from(self, importer, modname: str, level: int | None) -> list[str] | None:  # noqa: ANN001
        import astroid  # noqa: PLC0415
        from astroid.exceptions import AstroidBuildingError, TooManyLevelsError  # noqa: PLC0415
        from astroid.interpreter._import import spec  # noqa: PLC0415

        manager = astroid.MANAGER
        try:
            absolute = importer.relative_to_absolute_name(modname, level)
        except TooManyLevelsError:
            return []  # astroid: AstroidBuildingError, no names
        if absolute == importer.name:
            return None  # a module importing itself: astroid skips its cache
        candidates = [absolute]
        if not (level and level >= 1) and modname != absolute:
            candidates.append(modname)
        for name in candidates:
            if name in manager.module_denylist:
                continue
            cached = manager.astroid_cache.get(name)
            if cached is not None:
                return cached.public_names()
            try:
                found = manager.file_from_module_name(name, None)
            except AstroidBuildingError:
                continue
            if found.type not in (spec.ModuleType.PY_SOURCE, spec.ModuleType.PKG_DIRECTORY) or not found.location:
                return None
            location = found.location
            if not location.endswith(".py"):
                location = os.path.join(location, "__init__.py")
            if not os.path.isfile(location) or not os.path.realpath(location).startswith(self.roots):
                return None
            return self._module_names(name, location)
        return []

    def _module_names(self, name: str, path: str) -> list[str] | None:
        from astroid import nodes  # noqa: PLC0415

        path = os.path.abspath(path)
        if path in self._done:
            return list(self._done[path])
        if path in self._in_progress:  # a star-import cycle: astroid sees what is bound so far
            return list(self._in_progress[path])
        try:
            with tokenize.open(path) as handle:
                source = handle.read()
            tree = ast.parse(source, path)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
            return []  # astroid fails to build it too: no names
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        package = os.path.splitext(os.path.basename(path))[0] == "__init__"
        module = nodes.Module(name=name, file=path, path=[path], package=package)
        bindings = _Bindings()
        try:
            bindings.visit(tree)
        except RecursionError:
            return None
        names = self._in_progress[path] = list(bindings.names)
        seen = set(names)
        try:
            for node, at_module, globals_here in bindings.import_froms:
                imported: list[str]
                if [alias.name for alias in node.names] == ["*"]:
                    found = self._names_from(module, node.module or "", node.level or None)
                    if found is None:
                        return None
                    imported = found
                else:
                    imported = [alias.asname or alias.name for alias in node.names]
                for item in imported:
                    if (at_module or item in globals_here) and item not in seen:
                        seen.add(item)
                        names.append(item)
        finally:
            del self._in_progress[path]
        public = [item for item in names if not item.startswith("_")]
        self._done[path] = public
        return list(public)


# ---------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------


def decoding_problem(data: bytes) -> str | None:
    """Why the bytes are not decodable Python source, or None."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        if "encoding" not in str(error):
            return str(error)
        encoding = "utf-8"  # a non-UTF-8 byte in the first two lines
    try:
        data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        return (
            f"cannot decode the file as {encoding} (byte 0x{data[error.start]:02x} on line {line}) and it declares "
            "no other encoding; save it as UTF-8 or add a coding declaration (PEP 263)"
        )
    except LookupError:
        return f"the file declares an unknown encoding {encoding!r}"
    return None


def file_finding(path: str, symbol: str, msg_id: str, message: str, lines: list[str]) -> dict[str, Any]:
    """A finding about a whole file (it could not be read, decoded or analysed)."""
    from mslint import sarif  # noqa: PLC0415

    return sarif.finding(
        path=path,
        line=1,
        byte_column=0,
        end_line=None,
        end_byte_column=None,
        symbol=symbol,
        msg_id=msg_id,
        message=message,
        module=module_name(path),
        lines=lines,
    )


def _resident_memory() -> int | None:
    try:
        with open("/proc/self/statm", "rb") as handle:
            return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError, AttributeError):
        return None


class Engine:
    """A configured PyLinter that checks one file at a time and returns findings.
    Use it inside :func:`adjusted_astroid`."""

    def __init__(self, settings: Settings, stars: LazyStarImports | None = None) -> None:
        self.settings = settings
        self.stars = stars
        self._sizes: dict[str, int] = {}
        for root in reversed(settings.roots):
            if root not in sys.path:
                sys.path.insert(0, root)
        self._build()

    def _build(self) -> None:
        from pylint import reporters  # noqa: PLC0415
        from pylint.config.config_initialization import _config_initialization  # noqa: PLC0415
        from pylint.lint import PyLinter  # noqa: PLC0415

        class _Linter(PyLinter):
            """pylint's get_ast without the traceback it prints when astroid
            itself fails (Engine.check reports that file as astroid-error)."""

            def get_ast(self, filepath, modname, data=None):  # noqa: ANN001, ANN202, ARG002
                import astroid  # noqa: PLC0415
                from pylint.interfaces import HIGH  # noqa: PLC0415

                try:
                    return astroid.MANAGER.ast_from_file(filepath, modname, source=True)
                except astroid.AstroidSyntaxError as error:
                    self.add_message(
                        "syntax-error",
                        line=getattr(error.error, "lineno", None) or 0,
                        col_offset=getattr(error.error, "offset", None),
                        args=f"Parsing failed: '{error.error}'",
                        confidence=HIGH,
                    )
                except astroid.AstroidBuildingError as error:
                    self.add_message("parse-error", args=error)
                return None

            # Set by Engine.check: whether the source can hold a ``# pylint:`` pragma.
            may_have_pragmas = True
            _needed_checkers = None

            def prepare_checkers(self):  # noqa: ANN202
                # pylint sorts all of its checkers again for every file (comparing
                # their message tables as text); what is enabled never changes here
                if self._needed_checkers is None:
                    self._needed_checkers = super().prepare_checkers()
                return list(self._needed_checkers)

            def _check_astroid_module(self, node, walker, rawcheckers, tokencheckers):  # noqa: ANN001, ANN202
                # pylint tokenizes every module, only to read its pragmas (no token
                # or raw checker of mslint's is enabled): a module whose source does
                # not contain "pylint:" has none, and its tokens are skipped.
                if self.may_have_pragmas or rawcheckers or tokencheckers:
                    return super()._check_astroid_module(node, walker, rawcheckers, tokencheckers)
                walker.walk(node)
                return True

        linter = _Linter()
        linter.load_default_plugins()
        linter.load_plugin_modules(["mslint"])
        self.reporter = reporters.CollectingReporter()
        enabled = self.settings.enabled or ["syntax-error"]
        arguments = [
            "--disable=all",
            f"--enable={','.join(enabled)}",
            f"--jit-syntax-level={self.settings.jit_syntax_level}",
            "--persistent=n",
            "--score=n",
            "--reports=n",
        ]
        _config_initialization(linter, arguments, reporter=self.reporter)
        linter.set_reporter(self.reporter)
        linter.initialize()
        linter.open()
        self.linter = linter
        self._enabled = frozenset(enabled)
        self.checked_since_reset = 0

    def check(self, path: str, modname: str, expected_hash: str | None = None) -> tuple[list[dict[str, Any]], str | None]:
        """Findings for one file, and the hash of the content they are for (None
        when the file changed since ``expected_hash`` was taken: not cacheable)."""
        from pylint.typing import FileItem  # noqa: PLC0415
        from pylint.utils import LinterStats  # noqa: PLC0415

        from mslint import sarif  # noqa: PLC0415

        try:
            data = Path(path).read_bytes()
        except OSError as error:
            return [file_finding(path, "fatal", "F0001", f"cannot read the file ({error.strerror})", [])], None
        content_hash = result_cache.digest(data)
        lines = sarif.source_lines(data)
        problem = decoding_problem(data)
        if problem is not None:
            return [file_finding(path, "syntax-error", "E0001", problem, lines)], content_hash
        self.linter.stats = LinterStats()
        self.linter.may_have_pragmas = b"pylint:" in data  # what every pragma contains
        crash = None
        # pylint prints a traceback when a checker fails; the file is reported
        # as astroid-error instead (MSLINT_DEBUG=1 shows the traceback)
        stderr, sys.stderr = sys.stderr, io.StringIO()
        try:
            with _time_limit(self.settings.timeout):
                self.linter.check_single_file_item(FileItem(modname, path, path))
        except FileTimeout:
            crash = (
                f"checking this file took longer than {self.settings.timeout:g} s, so it was not checked; "
                "raise --timeout (or [tool.mslint] timeout) to check it"
            )
            content_hash = None  # depends on the machine's speed: never cached
            _fresh_astroid()  # the interrupted build may have left half a tree behind
        except Exception as error:  # noqa: BLE001 - one file's crash must not stop the run
            cause = error.__cause__ or error
            if isinstance(cause, RecursionError):
                crash = "the file nests too deeply for the analysis (RecursionError); it was not checked"
            else:
                crash = f"mslint could not analyse this file ({type(cause).__name__}: {cause}); please report it"
        finally:
            written, sys.stderr = sys.stderr.getvalue(), stderr
        if written and (crash is None or os.environ.get("MSLINT_DEBUG")):
            sys.stderr.write(written)
        messages = list(self.reporter.messages)
        self.reporter.reset()
        if crash is not None:
            self._build()  # a crash can leave checkers half-open
            return [file_finding(path, "astroid-error", "F0002", crash, lines)], content_hash
        # pylint reports some of its own messages whatever is enabled (an inline
        # `# pylint: disable=` of a removed message gives useless-option-value)
        enabled = self._enabled
        found = [sarif.finding_from_message(message, lines) for message in messages if message.symbol in enabled]
        for item in found:  # pylint may spell the path differently
            item["path"] = path
        self.after_file()
        if expected_hash is not None and content_hash != expected_hash:
            return found, None
        return found, content_hash

    def after_file(self) -> None:
        """Keep memory flat: drop astroid's trees once this process holds about
        its share of the budget in them (findings do not depend on what is
        cached). The trees held are counted, not the resident size: memory
        freed by Python stays with the process and is reused, so the resident
        size does not fall after a reset and would say nothing."""
        self.checked_since_reset += 1
        if self.checked_since_reset < RESET_EVERY:
            if self.checked_since_reset % 8:
                return
            import astroid  # noqa: PLC0415

            limit = self.settings.memory_limit
            held = sum(self._tree_cost(module) for module in list(astroid.MANAGER.astroid_cache.values()))
            if held < limit:
                return
        _fresh_astroid()
        if self.stars is not None:
            self.stars.clear()
        self._build()
        gc.collect()  # astroid trees are cycles: free them now

    def _tree_cost(self, module) -> int:  # noqa: ANN001
        """What astroid's tree of ``module`` costs in memory, about: a multiple
        of its source size (measured on mindone), a fixed amount without one."""
        path = getattr(module, "file", None)
        if not path:
            return TREE_COST_WITHOUT_SOURCE
        size = self._sizes.get(path)
        if size is None:
            size = self._sizes[path] = _source_size(path)
        per_byte = LEAN_TREE_BYTES_PER_SOURCE_BYTE if self.settings.only_mslint else TREE_BYTES_PER_SOURCE_BYTE
        return per_byte * size


class FileTimeout(BaseException):
    """Raised in the middle of a file's check when its time is up. A BaseException,
    so that no ``except Exception`` in pylint or astroid swallows it."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block with FileTimeout after ``seconds`` (0: never). Uses a
    real-time timer signal, so only where one can be set: POSIX, main thread."""
    usable = (
        seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def expire(signum, frame):  # noqa: ANN001, ANN202, ARG001
        raise FileTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _source_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _clear_checker_caches() -> None:
    """Drop what mslint's resolver and pylint's checkers memoise per node."""
    from mslint import resolve  # noqa: PLC0415

    resolve.clear_caches()
    try:
        from pylint.checkers.clear_lru_cache import clear_lru_caches  # noqa: PLC0415

        clear_lru_caches()
    except ImportError:  # pragma: no cover - older pylint
        pass


def _fresh_astroid() -> None:
    """Drop every tree and inference result astroid, pylint and mslint hold."""
    import astroid  # noqa: PLC0415

    astroid.MANAGER.clear_cache()
    _clear_checker_caches()


def _forget_run(modules_before: set[str]) -> None:
    """After an in-process run: drop what it added to astroid's caches (trees
    built with the adjustments, inference results), so that later users of
    astroid in this process (a test suite, an editor) see astroid as it was."""
    import astroid  # noqa: PLC0415
    from astroid import context  # noqa: PLC0415
    from astroid.inference_tip import clear_inference_tip_cache  # noqa: PLC0415

    cache = astroid.MANAGER.astroid_cache
    for name in set(cache) - modules_before:
        del cache[name]
    context._invalidate_cache()  # noqa: SLF001
    clear_inference_tip_cache()
    _clear_checker_caches()


class LeanTrees(_Patches):
    """While active, astroid builds only what mslint's rules read, about 40% less
    work per tree, used only when no pylint checker of its own is enabled:

    - no inference of ``self`` for every ``self.x = ...`` (done only to record
      instance attributes, which pylint's ``no-member`` reads and mslint never);
    - no "brain" transforms (inference tips and rewritten nodes for the standard
      library and popular packages: mslint reads names, bases and locals as
      written, never infers);
    - the cyclic garbage collector runs far less often: it otherwise walks every
      live tree node again and again (a third of the time), while trees are
      dropped as a whole and collected by Engine.after_file.

    The findings are the same as pylint's plugin run with mslint's rules
    (tests/test_cli.py compares them on every fixture)."""

    def __init__(self, active: bool) -> None:
        super().__init__()
        self.active = active
        self.original_gc: tuple[int, ...] | None = None

    def __enter__(self) -> LeanTrees:
        if not self.active:
            return self
        from astroid import nodes  # noqa: PLC0415
        from astroid.builder import AstroidBuilder  # noqa: PLC0415
        from astroid.manager import AstroidManager  # noqa: PLC0415

        original = AstroidBuilder.delayed_assattr

        def delayed_assattr(builder, node):  # noqa: ANN001, ANN202
            expr = node.expr
            if isinstance(expr, nodes.Name) and expr.name == "self":
                return None
            return original(builder, node)

        self._replace(AstroidBuilder, "delayed_assattr", delayed_assattr)
        self._replace(AstroidManager, "visit_transforms", lambda manager, node: node)
        self.original_gc = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        return self

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        if self.original_gc is not None:
            gc.set_threshold(*self.original_gc)
            self.original_gc = None


class adjusted_astroid:  # noqa: N801 - used like a function
    """The astroid adjustments, for the lifetime of a ``with`` block."""

    def __init__(self, settings: Settings) -> None:
        self.skip = SkipLibraries(settings.skipped_libraries)
        self.stars = LazyStarImports(settings.roots)
        self.lean = LeanTrees(settings.only_mslint)

    def __enter__(self) -> LazyStarImports:
        self.skip.__enter__()
        self.stars.__enter__()
        self.lean.__enter__()
        return self.stars

    def __exit__(self, *exc: object) -> None:
        self.lean.__exit__(*exc)
        self.stars.__exit__(*exc)
        self.skip.__exit__(*exc)


# ---------------------------------------------------------------------------
# Worker processes
# ---------------------------------------------------------------------------

_WORKER: Engine | None = None
_LINTED_HERE: list[bool] = []  # lint() ran in this process before


def _worker_start(settings: Settings) -> None:
    global _WORKER  # noqa: PLW0603 - one engine per worker process
    stars = adjusted_astroid(settings).__enter__()  # for the worker's lifetime
    _WORKER = Engine(settings, stars)


def _worker_check(
    batch: list[tuple[str, str, str | None]],
) -> list[tuple[str, list[dict[str, Any]], str | None]]:
    assert _WORKER is not None
    results = []
    for path, modname, expected in batch:
        found, content_hash = _WORKER.check(path, modname, expected)
        results.append((path, found, content_hash))
    return results


def batches(tasks: list[tuple[str, str, str | None]], workers: int) -> list[list[tuple[str, str, str | None]]]:
    """Neighbouring files in batches, one batch at a time per worker. Files of one
    package import the same modules, whose trees a worker then builds once and
    reuses (sorted by size instead, a worker rebuilt them for nearly every file:
    twice the work in all). Batches shrink as the work left does (guided
    scheduling, weighed in source bytes): long runs of neighbours first, small
    batches at the end so that the workers finish together."""
    ordered = sorted(tasks, key=lambda task: task[0])
    sizes = [max(1, _source_size(task[0])) for task in ordered]
    left = sum(sizes)
    smallest = left // (workers * BATCHES_AT_LEAST) + 1
    found: list[list[tuple[str, str, str | None]]] = []
    batch: list[tuple[str, str, str | None]] = []
    weight = 0
    for task, size in zip(ordered, sizes):
        batch.append(task)
        weight += size
        if weight >= max(smallest, left // (workers * 2)):
            found.append(batch)
            left -= weight
            batch, weight = [], 0
    if batch:
        found.append(batch)
    return found


def _release_freed_memory() -> None:
    """Give memory this process no longer uses back to the system: free what
    only cycles hold, then ask glibc to return its free pages."""
    gc.collect()
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # noqa: PLC0415

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (musl): nothing to trim
        pass


def default_jobs(limit: int = 8) -> int:
    try:
        count = len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, min(count, limit))


def lint(
    tasks: list[tuple[str, str, str | None]], settings: Settings, jobs: int
) -> dict[str, tuple[list[dict[str, Any]], str | None]]:
    """Lint ``tasks`` (path, module name, expected content hash) with up to
    ``jobs`` processes; the same findings whatever ``jobs`` is."""
    results: dict[str, tuple[list[dict[str, Any]], str | None]] = {}
    if not tasks:
        return results
    if _LINTED_HERE:
        _fresh_astroid()  # trees cached by an earlier run in this process may be stale
    _LINTED_HERE.append(True)
    workers = min(jobs, max(1, len(tasks) // FILES_PER_WORKER))
    if workers <= 1:
        settings.memory_limit = max(MIN_WORKER_MEMORY, MEMORY_BUDGET)
        import astroid  # noqa: PLC0415

        before = set(astroid.MANAGER.astroid_cache)
        saved_path = list(sys.path)
        try:
            with adjusted_astroid(settings) as stars:
                engine = Engine(settings, stars)
                for path, modname, expected in tasks:
                    results[path] = engine.check(path, modname, expected)
        finally:
            sys.path[:] = saved_path
            _forget_run(before)
        return results
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    settings.memory_limit = max(MIN_WORKER_MEMORY, (MEMORY_BUDGET - MAIN_PROCESS_MEMORY) // workers)
    _release_freed_memory()  # each forked worker would hold a copy of it
    method = "fork" if sys.platform.startswith("linux") else "spawn"
    context = multiprocessing.get_context(method)
    todo = batches(tasks, workers)
    try:
        with ProcessPoolExecutor(
            max_workers=workers, mp_context=context, initializer=_worker_start, initargs=(settings,)
        ) as pool:
            for batch_results in pool.map(_worker_check, todo, chunksize=1):
                for path, found, content_hash in batch_results:
                    results[path] = (found, content_hash)
    except BrokenProcessPool:  # a worker was killed (out of memory?): finish here
        left = [task for batch in todo for task in batch if task[0] not in results]
        results.update(lint(left, settings, 1))
    return results
