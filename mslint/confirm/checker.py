"""Runtime confirmation in plugin mode: ``pylint --load-plugins mslint --confirm=y``.

The checker makes a finding of each of mslint's messages as the reporter
receives it (with its anchor, from the node the message was added for, while
the tree is alive: see mslint.checkers.pylint_hooks.record_message_nodes), and when
the run ends (``close()``; with ``--jobs`` > 1, pylint's map/reduce hook in the
parent process) hands them to :func:`mslint.confirm.confirm_findings`, which
compiles the flagged code with MindSpore in separate worker processes. It then
prints a results section and a summary line, adds an
``ms-graph-compile-error`` message for each compile error no rule predicted,
and annotates the collected messages (a ``confirmation`` attribute, and the
status appended to their text for reporters that have not printed them yet:
json, json2, sarif).

Without ``--confirm=y`` nothing here runs, and static mode never imports mindspore.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pylint.checkers import BaseChecker
from pylint.constants import WarningScope
from pylint.reporters.text import TextReporter

from mslint.checkers import pylint_hooks
from mslint.confirm import rules
from mslint.knowledge import manifest
from mslint.report import findings
from mslint.report.findings import Finding

if TYPE_CHECKING:
    from pylint.lint import PyLinter
    from pylint.message import Message

# Read from the manifest, not mslint.confirm: static mode loads this checker
# without touching the runtime-mode package.
_COMPILE_ERROR = manifest.BY_SYMBOL["ms-graph-compile-error"]
_WRAPPED = "_mslint_confirm_wrapped"


class RuntimeConfirmationChecker(BaseChecker):
    name = "mslint-runtime"
    msgs = {
        _COMPILE_ERROR.msgid: (
            "%s",
            _COMPILE_ERROR.symbol,
            "Runtime mode only (--confirm): MindSpore's graph compiler rejects this line "
            "(GRAPH_MODE, jit_syntax_level STRICT, or LAX where noted) and no static rule "
            "predicted it. The message is MindSpore's own, trimmed to its first useful line.",
            {"scope": WarningScope.LINE},
        ),
    }
    options = (
        (
            "confirm",
            {
                "default": False,
                "type": "yn",
                "metavar": "<y or n>",
                "help": "Confirm mslint's findings by compiling the flagged code with MindSpore "
                "in GRAPH_MODE, in separate worker processes (needs mslint[runtime]).",
            },
        ),
        (
            "device",
            {
                "default": "CPU",
                "type": "choice",
                "choices": ["CPU", "GPU", "Ascend"],
                "metavar": "<CPU|GPU|Ascend>",
                "help": "Device MindSpore compiles for when --confirm=y.",
            },
        ),
        (
            "confirm-timeout",
            {
                "default": rules.DEFAULT_TIMEOUT,
                "type": "float",
                "metavar": "<seconds>",
                "help": f"Time limit for each module's worker when --confirm=y (default {rules.DEFAULT_TIMEOUT:g}).",
            },
        ),
    )

    def __init__(self, linter: PyLinter) -> None:
        super().__init__(linter)
        self._collected: list[Finding] = []
        self._lines: dict[str, list[str]] = {}  # of the file being checked
        self._report_new = True

    # -- collecting ----------------------------------------------------------
    def _enabled(self) -> bool:
        return bool(getattr(self.linter.config, "confirm", False))

    def open(self) -> None:
        if not self._enabled():
            return
        reporter = self.linter.reporter
        if getattr(reporter, _WRAPPED, None) is self:
            return
        symbols = _mslint_symbols(self.linter)

        def collect(msg: Message, node: Any) -> None:
            if msg.symbol in symbols and msg.symbol != _COMPILE_ERROR.symbol:
                self._collected.append(self._finding(msg, node))

        pylint_hooks.record_message_nodes(self.linter, collect)
        setattr(reporter, _WRAPPED, self)

    def _finding(self, msg: Message, node: Any) -> Finding:
        from mslint.confirm.anchors import anchor_of  # noqa: PLC0415

        path = os.path.abspath(msg.abspath or msg.path)
        if path not in self._lines:
            self._lines = {path: findings.read_source_lines(path)}  # one file at a time
        return findings.from_message(msg, self._lines[path], anchor_of(msg.symbol, node))

    def get_map_data(self) -> Any:
        """Parallel mode, in a worker process: this file's findings."""
        if not self._enabled():
            return None
        collected, self._collected = self._collected, []
        return collected

    def reduce_map_data(self, linter: PyLinter, data: list[Any]) -> None:
        """Parallel mode, in the parent: confirm everything once."""
        collected = [finding for chunk in data for finding in chunk]
        self._confirm(collected, _messages_of(self.linter.reporter))

    def close(self) -> None:
        if not self._enabled() or self._parallel():
            return
        collected, self._collected = self._collected, []
        self._confirm(collected, _messages_of(self.linter.reporter))

    def _parallel(self) -> bool:
        return int(getattr(self.linter.config, "jobs", 1) or 1) > 1 and not getattr(
            self.linter.config, "from_stdin", False
        )

    # -- confirming ----------------------------------------------------------
    def _confirm(self, collected: list[Finding], messages: list[Message]) -> None:
        from mslint.confirm import RuntimeModeUnavailable, confirm_findings, format_suffix, format_summary  # noqa: PLC0415

        out = _text_stream(self.linter.reporter)
        try:
            confirmed, new = confirm_findings(
                collected,
                device=self.linter.config.device,
                timeout=float(self.linter.config.confirm_timeout),
                jobs=max(1, int(getattr(self.linter.config, "jobs", 1) or 1)),
                project_root=_project_root(collected),
                config={},
                syntax_level=getattr(self.linter.config, "jit_syntax_level", "lax"),
            )
        except RuntimeModeUnavailable as error:
            print(f"mslint: {error}", file=sys.stderr)
            self.linter.msg_status |= 32  # pylint's "usage error" bit: a non-zero exit
            return
        by_key = {_key(msg): msg for msg in messages}
        for finding in confirmed:
            msg = by_key.get(_key_of(finding))
            if msg is not None:
                _annotate(msg, finding.confirmation, in_text=out is None, suffix=format_suffix)
        if not self._report_new:
            new = []  # ms-graph-compile-error is disabled
        module_of = {finding.path: finding.module for finding in collected if finding.module}
        added = self._add_new(new, module_of)
        for finding, msg in added:
            if msg is not None:
                msg.confirmation = finding.confirmation
        self._print_section(confirmed, new, out, format_suffix, format_summary(confirmed, new))

    def _add_new(self, new: list[Finding], module_of: dict[str, str]) -> list[tuple[Finding, Message | None]]:
        """Report new findings as messages of their file. pylint attributes a
        message to the current module, so switch to it; set_current_module
        resets that module's statistics, so they are restored afterwards."""
        from mslint.confirm.plan import import_root, module_name  # noqa: PLC0415

        added = []
        reporter = self.linter.reporter
        by_module = self.linter.stats.by_module
        saved: dict[str, dict] = {}
        for finding in new:
            path = Path(finding.path)
            modname = module_of.get(str(path))
            if modname is None:
                try:
                    modname = module_name(path, import_root(path))
                except ValueError:
                    modname = path.stem
            if modname != self.linter.current_name or str(path) != self.linter.current_file:
                if modname in by_module and modname not in saved:
                    saved[modname] = dict(by_module[modname])
                self.linter.set_current_module(modname, str(path))
            before = len(getattr(reporter, "messages", None) or [])
            self.add_message(
                _COMPILE_ERROR.symbol,
                line=finding.line,
                col_offset=finding.column - 1,
                end_lineno=finding.end_line,
                end_col_offset=finding.end_column - 1 if finding.end_column else None,
                args=(finding.message,),
            )
            stored = getattr(reporter, "messages", None) or []
            added.append((finding, stored[-1] if len(stored) > before else None))
        for modname, counts in saved.items():
            current = by_module[modname]
            for key, value in counts.items():
                current[key] = current.get(key, 0) + value
        return added

    @staticmethod
    def _print_section(confirmed, new, out, format_suffix, summary: str) -> None:
        stream = out if out is not None else sys.stderr
        cwd = os.getcwd()
        lines = ["", "-" * 70, "mslint runtime confirmation (GRAPH_MODE)"]
        for finding in sorted(confirmed + new, key=Finding.sort_key):
            shown = os.path.relpath(finding.path, cwd) if finding.path.startswith(cwd + os.sep) else finding.path
            lines.append(f"{shown}:{finding.line}: {finding.symbol}{format_suffix(finding.confirmation)}")
        lines.append(summary)
        stream.write("\n".join(lines) + "\n")
        stream.flush()


def _mslint_symbols(linter: PyLinter) -> frozenset[str]:
    symbols = set()
    for checker in linter.get_checkers():
        if type(checker).__module__.startswith("mslint."):
            symbols.update(definition.symbol for definition in checker.messages)
    return frozenset(symbols)


def _key(msg: Message) -> tuple:
    """A message and its finding share it (columns differ: bytes and characters)."""
    return (os.path.abspath(msg.abspath or msg.path), msg.line, msg.symbol, msg.msg)


def _key_of(finding: Finding) -> tuple:
    return (finding.path, finding.line, finding.symbol, finding.message)


def _messages_of(reporter) -> list[Message]:
    """Messages a reporter keeps until the end (json, json2, sarif, collecting)."""
    messages = list(getattr(reporter, "messages", None) or [])
    for sub in getattr(reporter, "_sub_reporters", ()) or ():
        messages.extend(getattr(sub, "messages", None) or [])
    return messages


def _text_stream(reporter):
    """The output stream of a reporter that already printed the messages, else None."""
    if isinstance(reporter, TextReporter):
        return reporter.out
    for sub in getattr(reporter, "_sub_reporters", ()) or ():
        if isinstance(sub, TextReporter):
            return sub.out
    return None


def _annotate(msg: Message, confirmation: dict, in_text: bool, suffix) -> None:
    if getattr(msg, "confirmation", None) is not None:
        return
    msg.confirmation = confirmation
    if in_text:
        msg.msg = f"{msg.msg}{suffix(confirmation)}"


def _project_root(collected: list[Finding]) -> Path:
    """The nearest folder holding a pyproject.toml above the findings, else the cwd."""
    paths = [finding.path for finding in collected if finding.path]
    if not paths:
        return Path.cwd()
    try:
        start = Path(os.path.commonpath(paths))
    except ValueError:
        return Path.cwd()
    if start.is_file():
        start = start.parent
    for folder in (start, *start.parents):
        if (folder / "pyproject.toml").is_file():
            return folder
    return Path.cwd()


def load_configuration(linter: PyLinter) -> None:
    """Called from mslint's plugin hook once options are read: with --confirm=y the
    checker must run even when ms-graph-compile-error is disabled (``--disable=all``
    plus a few rules); new findings are then not reported."""
    if not getattr(linter.config, "confirm", False):
        return
    for checker in linter.get_checkers():
        if isinstance(checker, RuntimeConfirmationChecker):
            checker._report_new = linter.is_message_enabled(_COMPILE_ERROR.symbol)  # noqa: SLF001
            if not checker._report_new:  # noqa: SLF001
                linter.enable(_COMPILE_ERROR.symbol)


def register(linter: PyLinter) -> None:
    linter.register_checker(RuntimeConfirmationChecker(linter))
