"""The fix loop of ``mslint --fix``, ``--unsafe-fixes`` and ``--diff``: apply
the findings' fixes, lint the changed files again, repeat.

Applying (mslint.report.patches): per file, non-overlapping patches only (a
patch whose edits overlap one already taken waits for the next round), only the
flagged characters change, the result must compile or nothing is written, a
file that does not compile is never touched. :func:`run` lints, fixes and lints
again until nothing more applies (at most :data:`MAX_ROUNDS` rounds).

What the edits are computed on: the findings of a file come with the hash of
the exact bytes they were found in (mslint.run.engine analyses the bytes it
read). A file is fixed only when it still holds those bytes, and it is written
only if it still holds them under its lock at the instant of writing
(patches.rewrite): a file another program (an editor, a formatter, a second
``mslint --fix``) wrote meanwhile is left as it is and reported, never given an
edit computed on other text. ``--diff`` keeps the fixed text in memory and
checks it there (the engine's ``sources``): it writes nothing anywhere.
"""

from __future__ import annotations

import difflib
import os
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from mslint.analysis.edits import Patch, applies
from mslint.analysis.project import content_hash
from mslint.report.patches import CannotWrite, FileChanged, Source, fixed_text, rewrite

if TYPE_CHECKING:
    from mslint.report.findings import Finding

MAX_ROUNDS = 5

# lint(paths, sources) -> (findings, path -> hash of the bytes checked, None when
# unknown); ``sources``: path -> bytes to check instead of the file's (--diff)
Lint = Callable[[list[str], dict[str, bytes]], tuple[list["Finding"], dict[str, "str | None"]]]


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
    changed: dict[str, str] = field(default_factory=dict)  # path -> why it was left: another program wrote it
    unwritable: dict[str, str] = field(default_factory=dict)  # path -> why it could not be written


def run(
    lint: Lint,
    files: list[str],
    found: list[Finding],
    *,
    unsafe: bool,
    write: bool,
    hashes: dict[str, str | None],
) -> Outcome:
    """Fix ``files`` whose findings are ``found`` (found in the content whose
    hash ``hashes`` gives per path): apply the fixes, lint the changed files
    again with ``lint``, and repeat until no fix applies or MAX_ROUNDS.
    ``write`` False (``--diff``): work on the text in memory, write nothing,
    and return a unified diff per file."""
    by_path: dict[str, list[Finding]] = {path: [] for path in files}
    for item in found:
        by_path.setdefault(item.path, []).append(item)
    hashes = dict(hashes)
    outcome = Outcome(findings=found)
    originals: dict[str, bytes] = {}  # path -> its bytes before the first round
    current: dict[str, bytes] = {}  # --diff: path -> its fixed bytes (never written)
    stale: set[str] = set()  # left because it changed: checked again for the report
    pending = {path for path, items in by_path.items() if any(fixable(item, unsafe) for item in items)}
    while pending and outcome.rounds < MAX_ROUNDS:
        outcome.rounds += 1
        changed: list[str] = []
        for path in sorted(pending):
            data = current.get(path)
            if data is None:
                data = _read(path)
                if data is None:
                    continue  # unreadable now: never edited (its findings stand)
                if not _holds(path, data, hashes.get(path)):
                    outcome.changed[path] = "it changed since mslint checked it (another program wrote it)"
                    stale.add(path)
                    continue
            patches = [item.fix for item in by_path[path] if fixable(item, unsafe)]
            result = _fixed_file(path, data, patches)
            if result is None:
                continue
            new, taken = result
            if not taken or new == data:
                continue
            if write:
                try:
                    wrote = rewrite(path, data, new)
                except FileChanged as reason:
                    outcome.changed[path] = f"{reason} (another program wrote it)"
                    stale.add(path)
                    continue
                except CannotWrite as reason:
                    outcome.unwritable[path] = str(reason)
                    continue
                if not wrote:  # another mslint wrote the same fix first
                    changed.append(path)
                    continue
            else:
                current[path] = new
            originals.setdefault(path, data)
            outcome.fixed[path] = outcome.fixed.get(path, 0) + len(taken)
            changed.append(path)
        if not changed:
            break
        relinted, rehashed = lint(changed, {path: current[path] for path in changed if path in current})
        hashes.update(rehashed)
        for path in changed:
            by_path[path] = []
        for item in relinted:
            by_path.setdefault(item.path, []).append(item)
        pending = {path for path in changed if any(fixable(item, unsafe) for item in by_path[path])}
    if stale:  # the report shows what those files hold now
        relinted, _ = lint(sorted(stale), {})
        for path in stale:
            by_path[path] = []
        for item in relinted:
            by_path.setdefault(item.path, []).append(item)
        for path in stale:  # nothing left to fix (another mslint --fix fixed it): nothing to say
            if not any(fixable(item, unsafe) for item in by_path[path]):
                outcome.changed.pop(path, None)
    outcome.findings = [item for path in by_path for item in by_path[path]]
    if not write:
        for path in sorted(current):
            outcome.diffs.append(unified_diff(path, _text(path, originals[path]), _text(path, current[path])))
    return outcome


def _read(path: str) -> bytes | None:
    from mslint.report.patches import READ_LIMIT  # noqa: PLC0415

    try:
        with open(path, "rb") as stream:
            data = stream.read(READ_LIMIT + 1)
    except OSError:
        return None
    return data if len(data) <= READ_LIMIT else None


def _holds(path: str, data: bytes, expected: str | None) -> bool:
    """Whether ``data`` is the content the findings of ``path`` were found in (a
    notebook: the content of its shadow module). Unknown (None): no."""
    if expected is None:
        return False
    if path.endswith(".ipynb"):
        from mslint.report import notebooks  # noqa: PLC0415

        try:
            shadow = notebooks.shadow_from(data.decode("utf-8"), path)
        except (UnicodeDecodeError, notebooks.NotebookError):
            return False
        return content_hash(shadow.text.encode("utf-8")) == expected
    return content_hash(data) == expected


def _fixed_file(path: str, data: bytes, patches: list[Patch]) -> tuple[bytes, list[Patch]] | None:
    """The bytes with ``patches`` applied and the patches taken; None when the
    content cannot be decoded or does not compile (never edited then)."""
    if path.endswith(".ipynb"):
        from mslint.report import notebooks  # noqa: PLC0415

        try:
            raw = data.decode("utf-8")
            text, taken = notebooks.fixed_notebook(raw, path, patches)
        except (UnicodeDecodeError, notebooks.NotebookError):
            return None
        return text.encode("utf-8"), taken
    source = Source.from_bytes(data)
    if source is None:
        return None
    text, taken = fixed_text(source, patches)
    return source.encoded(text), taken


def _text(path: str, data: bytes) -> str:
    if path.endswith(".ipynb"):
        return data.decode("utf-8", errors="replace")
    source = Source.from_bytes(data)
    return source.text if source is not None else data.decode("utf-8", errors="replace")


def unified_diff(path: str, before: str, after: str) -> str:
    from mslint.report.findings import relative_path  # noqa: PLC0415

    shown = relative_path(path, os.getcwd()) or path
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{shown.lstrip('/')}", tofile=f"b/{shown.lstrip('/')}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
