"""The internals of pylint mslint reaches into, with the signatures it was
written against (:data:`EXPECTED`): :func:`check_signatures` compares them with
what is installed and raises :class:`IncompatibleVersions`, naming the
versions, at the first difference, so that a patch that no longer fits fails
loudly instead of quietly changing findings.

Here are the hooks the layers below the command use: :func:`walker` (pylint's
walker over some checkers, for mslint.checkers.follow),
:func:`record_message_nodes` (the node each message was added for, read while
the tree is alive: the command's fixes and runtime confirmation's anchors) and
:func:`honour_pragmas_on_headers` (a pragma at the end of a class or def line
covers its block, for the plugin and the command alike) and
:func:`fresh_import_errors` (astroid's cached import errors keep no stack) and
:func:`survivors_frozen` (the collector's policy while pylint checks). The astroid
adjustments and the command's linter are mslint.run.compat's.
"""

from __future__ import annotations

import contextlib
import gc
import importlib
import inspect
import sys
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from mslint.knowledge.version import VERSION

if TYPE_CHECKING:
    from pylint.lint import PyLinter
    from pylint.message import Message

# (module, name in it) -> the parameter names mslint's patches, overrides and
# calls were written against.
EXPECTED: dict[tuple[str, str], tuple[str, ...]] = {
    # patched while the command lints
    ("astroid.manager", "AstroidManager.ast_from_module_name"): ("self", "modname", "context_file", "use_cache"),
    ("astroid.manager", "AstroidManager.visit_transforms"): ("self", "node"),
    ("astroid.builder", "AstroidBuilder.add_from_names_to_locals"): ("self", "node", "global_name"),
    ("astroid.builder", "AstroidBuilder.delayed_assattr"): ("self", "node"),
    ("astroid.builder", "AstroidBuilder.file_build"): ("self", "path", "modname"),
    ("astroid.builder", "AstroidBuilder._data_build"): ("self", "data", "modname", "path"),
    ("astroid.builder", "AstroidBuilder._post_build"): ("self", "module", "builder", "encoding"),
    ("astroid.builder", "_parse_string"): ("data", "type_comments", "modname"),
    # overridden by the command's linter (linter_class)
    ("pylint.lint", "PyLinter.get_ast"): ("self", "filepath", "modname", "data"),
    ("pylint.lint", "PyLinter.prepare_checkers"): ("self",),
    ("pylint.lint", "PyLinter._check_astroid_module"): ("self", "node", "walker", "rawcheckers", "tokencheckers"),
    ("pylint.lint", "PyLinter._astroid_module_checker"): ("self",),
    ("pylint.lint", "PyLinter.check_astroid_module"): ("self", "ast_node", "walker", "rawcheckers", "tokencheckers"),
    # wrapped per instance (record_message_nodes)
    ("pylint.lint", "PyLinter.check"): ("self", "files_or_modules"),
    ("pylint.lint", "PyLinter.add_message"): (
        "self", "msgid", "line", "node", "args", "confidence", "col_offset", "end_lineno", "end_col_offset",
    ),
    ("pylint.reporters", "BaseReporter.handle_message"): ("self", "msg"),
    # wrapped for every linter (honour_pragmas_on_headers), and called from there
    ("pylint.utils.file_state", "FileState.set_msg_status"): ("self", "msg", "line", "status", "scope"),
    ("pylint.utils.file_state", "FileState._set_message_state_on_line"): ("self", "msg", "line", "state", "original_lineno"),
    # private or internal functions called
    ("astroid.manager", "AstroidManager.ast_from_file"): ("self", "filepath", "modname", "fallback", "source"),
    ("astroid.manager", "AstroidManager.file_from_module_name"): ("self", "modname", "contextfile"),
    ("astroid.manager", "AstroidManager.clear_cache"): ("self",),
    ("astroid.context", "_invalidate_cache"): (),
    ("astroid.inference_tip", "clear_inference_tip_cache"): (),
    ("pylint.checkers.clear_lru_cache", "clear_lru_caches"): (),
    ("pylint.message.message_definition_store", "MessageDefinitionStore.get_message_definitions"): ("self", "msgid_or_symbol"),
    ("pylint.config.config_initialization", "_config_initialization"): (
        "linter", "args_list", "reporter", "config_file", "verbose_mode",
    ),
    ("pylint.lint", "PyLinter.set_current_module"): ("self", "modname", "filepath"),
    # a walker of its own (walker): mslint.checkers.follow walks code of other modules
    ("pylint.utils.ast_walker", "ASTWalker.__init__"): ("self", "linter"),
    ("pylint.utils.ast_walker", "ASTWalker.add_checker"): ("self", "checker"),
    ("pylint.utils.ast_walker", "ASTWalker.walk"): ("self", "astroid"),
}


class IncompatibleVersions(RuntimeError):
    """The installed pylint or astroid is not what mslint's patches fit."""


_CHECKED: list[bool] = []


def versions() -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    found = []
    for name in ("pylint", "astroid"):
        try:
            found.append(f"{name} {version(name)}")
        except PackageNotFoundError:
            found.append(f"{name} (version unknown)")
    return " and ".join(found)


def check_signatures(expected: dict[tuple[str, str], tuple[str, ...]] | None = None) -> None:
    """Raise IncompatibleVersions unless every function in ``expected`` (default
    :data:`EXPECTED`) exists with exactly the expected parameter names. Checked
    once per process for the default."""
    if expected is None:
        if _CHECKED:
            return
        expected = EXPECTED
    problems = []
    for (module_name, qualname), parameters in expected.items():
        where = f"{module_name}.{qualname}"
        try:
            found: Any = importlib.import_module(module_name)
            for part in qualname.split("."):
                found = getattr(found, part)
            actual = tuple(inspect.signature(found).parameters)
        except (ImportError, AttributeError) as error:
            problems.append(f"{where} is missing ({error})")
            continue
        except (TypeError, ValueError) as error:
            problems.append(f"{where} has no readable signature ({error})")
            continue
        if actual != parameters:
            problems.append(f"{where}({', '.join(actual)}), expected ({', '.join(parameters)})")
    if problems:
        raise IncompatibleVersions(
            f"mslint {VERSION} does not work with the installed {versions()}: "
            + "; ".join(problems)
            + ". Install the pylint and astroid versions mslint's pyproject.toml names."
        )
    if expected is EXPECTED:
        _CHECKED.append(True)


def walker(linter: PyLinter, checkers: Iterable[Any]) -> Any:
    """pylint's own AST walker with ``checkers`` only (their visit and leave
    methods of enabled messages, as pylint picks them), for walking code outside
    the module pylint walks (mslint.checkers.follow). Its ``walk(node)`` raises what a
    checker raises, without printing a traceback."""
    from pylint.utils.ast_walker import ASTWalker  # noqa: PLC0415

    check_signatures()
    found = ASTWalker(linter)
    found.exception_msg = True  # pylint prints a traceback once per walker unless set
    for checker in checkers:
        found.add_checker(checker)
    return found


def confidence_from_reach(linter: PyLinter) -> None:
    """From now on, mslint's messages added without a confidence get pylint's
    HIGH when a program in sight reaches the code they are about, INFERENCE when
    none does (mslint.analysis.programs), and stay UNDEFINED when no program is
    in sight to say. Wraps ``add_message`` on this instance only."""
    from pylint.interfaces import HIGH, INFERENCE, UNDEFINED  # noqa: PLC0415

    from mslint.analysis import programs  # noqa: PLC0415

    wrapped = ("pylint.lint", "PyLinter.add_message")
    check_signatures({wrapped: EXPECTED[wrapped]})  # only what this wraps: the plugin loads it
    add = linter.add_message
    ours: dict[str, bool] = {}

    def is_ours(msgid: str) -> bool:
        known = ours.get(msgid)
        if known is None:
            try:
                known = linter.msgs_store.get_message_definitions(msgid)[0].symbol.startswith("ms-")
            except Exception:  # noqa: BLE001 - an unknown message: pylint reports it
                known = False
            ours[msgid] = known
        return known

    def add_message(msgid, line=None, node=None, args=None, confidence=None, col_offset=None,  # noqa: ANN001, ANN202, PLR0913
                    end_lineno=None, end_col_offset=None):
        if (confidence is None or confidence == UNDEFINED) and node is not None and is_ours(msgid):
            reached = programs.reached_at(getattr(node.root(), "file", None), programs.reach_name(node))
            if reached is not None:
                confidence = HIGH if reached else INFERENCE
        return add(msgid, line, node, args, confidence or UNDEFINED, col_offset, end_lineno, end_col_offset)

    linter.add_message = add_message


def models_before_trees(linter: PyLinter) -> None:
    """From now on, this linter's ``check`` first builds the program model of each
    path it is given (mslint.analysis.programs.build_models_first), while the
    process is small enough for the model to read the project's facts in forked
    readers; pylint then parses every file before checking any, under
    :func:`survivors_frozen`. Wraps ``check`` on this instance only."""
    from mslint.analysis import programs  # noqa: PLC0415

    wrapped = ("pylint.lint", "PyLinter.check")
    check_signatures({wrapped: EXPECTED[wrapped]})
    check = linter.check

    def check_after_models(files_or_modules):  # noqa: ANN001, ANN202
        programs.build_models_first([files_or_modules] if isinstance(files_or_modules, str) else files_or_modules)
        with survivors_frozen():
            return check(files_or_modules)

    linter.check = check_after_models


# CPython's collector up to 3.13 is generational; 3.14's is incremental, where
# repeated freezes were measured slow (mypy, python/mypy#21207): left alone there.
FREEZES_SURVIVORS = sys.implementation.name == "cpython" and sys.version_info < (3, 14) and hasattr(gc, "freeze")


def _freeze_survivors(phase: str, info: dict[str, int]) -> None:
    if phase == "stop" and info["generation"] == 2:
        gc.freeze()


@contextlib.contextmanager
def survivors_frozen() -> Iterator[None]:
    """While pylint checks: after each full collection, what survived it is moved
    out of the collector's sight (``gc.freeze()``); at the end everything is handed
    back (``gc.unfreeze()``, also what the host process had frozen itself).

    pylint keeps every tree it builds until the run ends, so the objects alive
    grow all run, and CPython collects everything again each time they have grown
    by a quarter: on mindone's 1,729 files, 27 full collections took 73 s of the
    plugin's 220 s (56 s of the do-nothing floor's 156 s). Objects that survived
    a full collection are almost all trees still in use; frozen, they are not
    walked again. Measured on mindone: the same 186 findings in 128 s, full
    collections 4.5 s, peak memory 2% higher (garbage that forms among objects
    already frozen waits for the end of the run). Nested uses are one."""
    if not FREEZES_SURVIVORS or _freeze_survivors in gc.callbacks:
        yield
        return
    gc.callbacks.append(_freeze_survivors)
    try:
        yield
    finally:
        gc.callbacks.remove(_freeze_survivors)
        gc.unfreeze()


def record_message_nodes(linter: PyLinter, on_message: Callable[[Message, Any], None]) -> None:
    """From now on, call ``on_message(message, node)`` for every message this
    linter's reporter receives, with the astroid node it was added for (None
    when added by line only), while that node's tree is alive. Wraps the two
    methods on these instances only."""
    check_signatures()
    add, reporter = linter.add_message, linter.reporter
    handle = reporter.handle_message
    adding: list[Any] = [None]

    def add_message(*args: Any, **kwargs: Any) -> None:
        # (msgid, line, node, ...): EXPECTED says node comes third
        adding.append(kwargs["node"] if "node" in kwargs else args[2] if len(args) > 2 else None)
        try:
            add(*args, **kwargs)
        finally:
            adding.pop()

    def handle_message(msg: Message) -> None:
        on_message(msg, adding[-1])
        handle(msg)

    linter.add_message = add_message
    reporter.handle_message = handle_message


def fresh_import_errors() -> None:
    """astroid keeps the error of each module it failed to find
    (``AstroidManager._mod_file_cache``) and raises that same object at every
    later import of the name. Raising gives it the traceback of the raise, which
    the cached object then keeps: the frames of the whole stack at that moment,
    up to pylint's check of the module then linted, with that module's tokens.
    The ImportError inside it keeps, as its context, the KeyError of the cache
    miss, with the stack of the first import. So each missing module held one
    or two stacks; on mindocr and mindnlp that was 200,000 tokens alive at the
    end, and the collector walked them at every full collection. From now on
    each raise is a copy (same class, message and attributes), and the cached
    error and the exceptions it holds keep no traceback. Wraps
    AstroidManager.file_from_module_name once per process."""
    import copy  # noqa: PLC0415

    from astroid.exceptions import AstroidBuildingError  # noqa: PLC0415
    from astroid.manager import AstroidManager  # noqa: PLC0415

    check_signatures()
    original = AstroidManager.file_from_module_name
    if getattr(original, "_mslint_fresh", False):
        return

    def file_from_module_name(self: Any, modname: str, contextfile: str | None) -> Any:
        try:
            return original(self, modname, contextfile)
        except AstroidBuildingError as error:
            cached = error
        _drop_tracebacks(cached)
        raise copy.copy(cached)

    file_from_module_name._mslint_fresh = True  # type: ignore[attr-defined]
    AstroidManager.file_from_module_name = file_from_module_name  # type: ignore[method-assign]


def _drop_tracebacks(error: BaseException) -> None:
    """No traceback left on ``error``, its ``error`` attribute (astroid's cause)
    and their causes and contexts."""
    pending, seen = [error], set()
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        current.__traceback__ = None
        pending.extend(inner for inner in (current.__context__, current.__cause__, getattr(current, "error", None))
                       if isinstance(inner, BaseException))


# Message ids whose pragmas on a class or def line cover the block (honour_pragmas_on_headers).
_HEADER_MSGIDS: set[str] = set()


def honour_pragmas_on_headers(msgids: Iterable[str]) -> None:
    """A ``# pylint: disable=`` (or enable) at the end of a ``class`` or ``def``
    line applies to the whole class or function, as pylint intends, for the
    messages ``msgids``. pylint does so only when nothing else starts on that
    line: its FileState hands the pragma to the innermost node on the line
    first, and the bases of ``class Net(nn.Cell):`` or the arguments of ``def
    construct(self, x):`` keep it for that one line, so it silenced nothing in
    the block. Wraps FileState.set_msg_status once per process."""
    from pylint.utils.file_state import FileState  # noqa: PLC0415

    check_signatures()
    _HEADER_MSGIDS.update(msgids)
    if getattr(FileState.set_msg_status, "_mslint_headers", False):
        return
    original = FileState.set_msg_status

    def set_msg_status(self: Any, msg: Any, line: int, status: bool, scope: str = "package") -> None:
        original(self, msg, line, status, scope)
        module = getattr(self, "_module", None)
        if scope != "module" or msg.msgid not in _HEADER_MSGIDS or module is None:
            return
        headers = getattr(self, "_mslint_headers", None)
        if headers is None:  # once per file
            headers = self._mslint_headers = _header_blocks(module)
        block = headers.get(line)
        if block is not None:  # later pragmas, processed after this one, still override their lines
            for number in range(line, block.tolineno + 1):
                self._set_message_state_on_line(msg, number, status, line)

    set_msg_status._mslint_headers = True  # type: ignore[attr-defined]
    FileState.set_msg_status = set_msg_status  # type: ignore[method-assign]


def _header_blocks(module: Any) -> dict[int, Any]:
    """Each line of a class or function header that a pragma there covers the
    block from (its ``class``/``def`` line, or the line closing a header that
    spans lines) -> the innermost such class or function."""
    from astroid import nodes  # noqa: PLC0415

    found: dict[int, Any] = {}
    for node in module.nodes_of_class((nodes.ClassDef, nodes.FunctionDef)):
        body = getattr(node, "body", None) or []
        closing = body[0].fromlineno - 1 if body and body[0].fromlineno - 1 > node.lineno else None
        for line in (node.lineno, closing):
            if line is not None and (line not in found or node.lineno > found[line].lineno):
                found[line] = node
    return found
