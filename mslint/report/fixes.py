"""The fix loop of ``mslint --fix``, ``--unsafe-fixes`` and ``--diff``: apply
the findings' fixes, lint the changed files again, repeat.

Applying (mslint.report.patches): per file, non-overlapping patches only (a
patch whose edits overlap one already taken waits for the next round), only the
flagged characters change, the result must parse or nothing is written, a file
that does not parse is never touched, and writes are atomic. :func:`run` lints,
fixes and lints again until nothing more applies (at most :data:`MAX_ROUNDS`
rounds).
"""

from __future__ import annotations

import contextlib
import difflib
import os
import tempfile
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from mslint.analysis.edits import Patch, applies
from mslint.report.patches import Source, fixed_text, write_atomically

if TYPE_CHECKING:
    from mslint.report.findings import Finding

MAX_ROUNDS = 5


def fixable(item: Finding, unsafe: bool) -> bool:
    """Whether the fix loop applies ``item``'s fix: a finding of a Python source
    file, or of a notebook (its edits are on the notebook's shadow module and
    go back into its code cells, see mslint/report/notebooks.py)."""
    return applies(item.fix, unsafe) and item.path.endswith((".py", ".pyi", ".ipynb"))


# ---------------------------------------------------------------------------
# The fix loop
# ---------------------------------------------------------------------------


@dataclass
class Outcome:
    findings: list[Finding]  # after the last round
    fixed: dict[str, int] = field(default_factory=dict)  # path -> fixes applied
    diffs: list[str] = field(default_factory=list)  # with --diff: one unified diff per changed file
    rounds: int = 0


def run(
    lint: Callable[[list[str]], list[Finding]],
    files: list[str],
    found: list[Finding],
    *,
    unsafe: bool,
    write: bool,
) -> Outcome:
    """Fix ``files`` whose findings are ``found``: apply the fixes, lint the
    changed files again with ``lint``, and repeat until no fix applies or
    MAX_ROUNDS. ``write`` False (``--diff``): work on the text in memory, write
    nothing, and return a unified diff per file."""
    by_path: dict[str, list[Finding]] = {path: [] for path in files}
    for item in found:
        by_path.setdefault(item.path, []).append(item)
    outcome = Outcome(findings=found)
    originals: dict[str, str] = {}  # path -> its text before the first round
    current: dict[str, str] = {}
    scratch: dict[str, str] = {}  # --diff: the path of a working copy
    try:
        pending = {path for path, items in by_path.items() if any(fixable(item, unsafe) for item in items)}
        while pending and outcome.rounds < MAX_ROUNDS:
            outcome.rounds += 1
            changed: list[str] = []
            for path in sorted(pending):
                target = scratch.get(path, path)
                patches = [item.fix for item in by_path[path] if fixable(item, unsafe)]
                result = _fixed_file(target, patches)
                if result is None:
                    continue
                before, text, data, taken = result
                originals.setdefault(path, before)
                if not taken or text == before:
                    continue
                if not write and path not in scratch:
                    scratch[path] = target = _scratch_copy(path)
                write_atomically(target, data)
                current[path] = text
                outcome.fixed[path] = outcome.fixed.get(path, 0) + len(taken)
                changed.append(path)
            if not changed:
                break
            relinted = lint([scratch.get(path, path) for path in changed])
            back = {scratch.get(path, path): path for path in changed}
            for path in changed:
                by_path[path] = []
            for item in relinted:
                item.path = back.get(item.path, item.path)
                by_path.setdefault(item.path, []).append(item)
            pending = {path for path in changed if any(fixable(item, unsafe) for item in by_path[path])}
    finally:
        for copy in scratch.values():
            with contextlib.suppress(OSError):
                os.unlink(copy)
    outcome.findings = [item for path in by_path for item in by_path[path]]
    if not write:
        for path in sorted(current):
            outcome.diffs.append(unified_diff(path, originals[path], current[path]))
    return outcome


def _fixed_file(path: str, patches: list[Patch]) -> tuple[str, str, bytes, list[Patch]] | None:
    """The file's text, its text with ``patches`` applied, the bytes to write and
    the patches taken; None when the file cannot be read (never edited then)."""
    if path.endswith(".ipynb"):
        from mslint.report import notebooks  # noqa: PLC0415

        try:
            raw = Path(path).read_text(encoding="utf-8")
            text, taken = notebooks.fixed_notebook(raw, path, patches)
        except (OSError, UnicodeDecodeError, notebooks.NotebookError):
            return None
        return raw, text, text.encode("utf-8"), taken
    source = Source.read(path)
    if source is None:
        return None
    text, taken = fixed_text(source, patches)
    return source.text, text, source.encoded(text), taken


def _scratch_copy(path: str) -> str:
    """A copy of ``path`` beside it (same package, so it lints alike) for --diff."""
    folder, name = os.path.split(os.path.abspath(path))
    stem, suffix = os.path.splitext(name)
    suffix = suffix if suffix in (".py", ".ipynb") else ".py"
    handle, copy = tempfile.mkstemp(prefix=f".mslint-diff-{stem if name.endswith(suffix) else name}-", suffix=suffix, dir=folder)
    os.close(handle)
    return copy


def unified_diff(path: str, before: str, after: str) -> str:
    from mslint.report.findings import relative_path  # noqa: PLC0415

    shown = relative_path(path, os.getcwd()) or path
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{shown.lstrip('/')}", tofile=f"b/{shown.lstrip('/')}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
