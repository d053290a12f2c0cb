"""The internals of pylint mslint reaches into, with the signatures it was
written against (:data:`EXPECTED`): :func:`check_signatures` compares them with
what is installed and raises :class:`IncompatibleVersions`, naming the
versions, at the first difference, so that a patch that no longer fits fails
loudly instead of quietly changing findings.

Here are the hooks the layers below the command use: :func:`walker` (pylint's
walker over some checkers, for mslint.checkers.follow) and
:func:`record_message_nodes` (the node each message was added for, read while
the tree is alive: the command's fixes and runtime confirmation's anchors). The
astroid adjustments and the command's linter are mslint.run.compat's.
"""

from __future__ import annotations

import importlib
import inspect
from collections.abc import Callable, Iterable
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
    # overridden by the command's linter (linter_class)
    ("pylint.lint", "PyLinter.get_ast"): ("self", "filepath", "modname", "data"),
    ("pylint.lint", "PyLinter.prepare_checkers"): ("self",),
    ("pylint.lint", "PyLinter._check_astroid_module"): ("self", "node", "walker", "rawcheckers", "tokencheckers"),
    # wrapped per instance (record_message_nodes)
    ("pylint.lint", "PyLinter.add_message"): (
        "self", "msgid", "line", "node", "args", "confidence", "col_offset", "end_lineno", "end_col_offset",
    ),
    ("pylint.reporters", "BaseReporter.handle_message"): ("self", "msg"),
    # private or internal functions called
    ("astroid.manager", "AstroidManager.ast_from_file"): ("self", "filepath", "modname", "fallback", "source"),
    ("astroid.manager", "AstroidManager.file_from_module_name"): ("self", "modname", "contextfile"),
    ("astroid.context", "_invalidate_cache"): (),
    ("astroid.inference_tip", "clear_inference_tip_cache"): (),
    ("pylint.checkers.clear_lru_cache", "clear_lru_caches"): (),
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
