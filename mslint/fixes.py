"""Autofix: the exact edits a rule offers for a finding, and the engine that
applies them (``mslint --fix``, ``--unsafe-fixes``, ``--diff``).

A checker offers a fix next to its ``add_message`` call, while the file's tree
is alive: :func:`offer` records a :class:`Patch` (text edits on the source plus
an applicability) for the node the message is added for, and the command's
engine (mslint/engine.py) attaches it to the finding (:attr:`Finding.fix`), so
that the result cache, JSON and SARIF carry it. Outside the command (the pylint
plugin) nothing is recorded: :func:`offer` is a no-op and pylint never edits
files.

Applicability: "safe" when the code as written cannot run or the edit is a pure
rename; "unsafe" when the edit changes what the code computes, toward what the
author evidently meant. Each rule declares which in mslint/manifest.py.

Applying (:func:`apply_patches`, :func:`fix_files`): per file, non-overlapping
patches only (a patch whose edits overlap one already taken waits for the next
round), only the flagged characters change, the result must parse or nothing is
written, a file that does not parse is never touched, and writes are atomic
(a temporary file beside it, then ``os.replace``). :func:`run` lints, fixes and
lints again until nothing more applies (at most :data:`MAX_ROUNDS` rounds).
"""

from __future__ import annotations

import ast
import contextlib
import difflib
import io
import os
import re
import sys
import tempfile
import tokenize
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from astroid import nodes

    from mslint.findings import Finding

SAFE = "safe"
UNSAFE = "unsafe"
MAX_ROUNDS = 5


# ---------------------------------------------------------------------------
# Edits and patches
# ---------------------------------------------------------------------------


@dataclass(frozen=True, order=True)
class Edit:
    """Replace the text from (line, column) to (end_line, end_column) by ``text``.
    Lines are 1-based; columns are 1-based characters, ``end_column`` exclusive
    (the Finding convention). While a checker builds it, columns are astroid's
    0-based UTF-8 byte offsets; :meth:`Patch.in_characters` converts them."""

    line: int
    column: int
    end_line: int
    end_column: int
    text: str

    def data(self) -> dict[str, Any]:
        return {"line": self.line, "column": self.column, "endLine": self.end_line, "endColumn": self.end_column, "text": self.text}


@dataclass(frozen=True)
class Patch:
    """A finding's fix: its edits, applied together or not at all."""

    description: str
    applicability: str  # SAFE or UNSAFE
    edits: tuple[Edit, ...] = field(default_factory=tuple)

    def data(self) -> dict[str, Any]:
        return {"description": self.description, "applicability": self.applicability, "edits": [edit.data() for edit in self.edits]}

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Patch:
        edits = tuple(
            Edit(item["line"], item["column"], item["endLine"], item["endColumn"], item["text"]) for item in data["edits"]
        )
        return cls(data["description"], data["applicability"], edits)

    def in_characters(self, lines: list[str]) -> Patch:
        """This patch with astroid's byte columns made 1-based character columns."""
        from mslint.findings import char_column  # noqa: PLC0415

        def column(line: int, byte: int) -> int:
            text = lines[line - 1] if 0 < line <= len(lines) else ""
            return char_column(text, byte) + 1

        edits = tuple(
            Edit(e.line, column(e.line, e.column), e.end_line, column(e.end_line, e.end_column), e.text) for e in self.edits
        )
        return Patch(self.description, self.applicability, edits)


def applies(patch: Patch | None, unsafe: bool) -> bool:
    """Whether ``--fix`` (with ``--unsafe-fixes`` when ``unsafe``) applies it."""
    return patch is not None and bool(patch.edits) and (patch.applicability == SAFE or unsafe)


def fixable(item: Finding, unsafe: bool) -> bool:
    """Whether the fix loop applies ``item``'s fix: a finding of a Python source
    file, or of a notebook (its edits are on the notebook's shadow module and
    go back into its code cells, see mslint/notebooks.py)."""
    return applies(item.fix, unsafe) and item.path.endswith((".py", ".pyi", ".ipynb"))


# ---------------------------------------------------------------------------
# Offering a fix (checkers), taking it (the engine)
# ---------------------------------------------------------------------------

# (symbol, id(node)) -> patch, for the file being checked; None: not recording
_offered: dict[tuple[str, int], Patch] | None = None


def start_recording() -> None:
    """Record the fixes checkers offer (the mslint command's engine calls it)."""
    global _offered  # noqa: PLW0603
    _offered = {}


def offer(symbol: str, node: nodes.NodeNG, edits: Iterable[Edit | None] | None, description: str = "") -> None:
    """Offer a fix for the finding of ``symbol`` about to be added for ``node``:
    its applicability is the one the rule declares in mslint/manifest.py, its
    description ``description`` or the declared one. ``edits`` None or holding
    None (the fix cannot be made exactly): nothing is offered."""
    if _offered is None or edits is None:
        return
    from mslint.manifest import BY_SYMBOL  # noqa: PLC0415

    declared = BY_SYMBOL[symbol].fix
    edits = tuple(edits)
    if declared is not None and edits and None not in edits and not _in_formatted_string(node):
        _offered[(symbol, id(node))] = Patch(description or declared.description, declared.applicability, edits)


def _in_formatted_string(node: nodes.NodeNG) -> bool:
    """Inside an f-string: before Python 3.12 the positions of the expressions
    there are not reliable, so no edit is offered."""
    if sys.version_info >= (3, 12):
        return False
    while node is not None and not node.is_statement:
        if type(node).__name__ == "JoinedStr":
            return True
        node = node.parent
    return False


def take(symbol: str, node: Any) -> Patch | None:
    if not _offered or node is None:
        return None
    return _offered.pop((symbol, id(node)), None)


def forget() -> None:
    """Drop what was offered for the file just checked."""
    if _offered:
        _offered.clear()


# ---------------------------------------------------------------------------
# Building edits from astroid nodes (byte columns; see Edit)
# ---------------------------------------------------------------------------


def replace(node: nodes.NodeNG, text: str) -> Edit:
    return Edit(node.lineno, node.col_offset, node.end_lineno, node.end_col_offset, text)


def insert_before(node: nodes.NodeNG, text: str) -> Edit:
    return Edit(node.lineno, node.col_offset, node.lineno, node.col_offset, text)


def insert_after(node: nodes.NodeNG, text: str) -> Edit:
    return Edit(node.end_lineno, node.end_col_offset, node.end_lineno, node.end_col_offset, text)


def rename_keyword(keyword: nodes.Keyword, name: str) -> Edit:
    """``old=value`` -> ``name=value``: only the keyword's name changes."""
    width = len(keyword.arg.encode("utf-8"))
    return Edit(keyword.lineno, keyword.col_offset, keyword.lineno, keyword.col_offset + width, name)


def arguments(call: nodes.Call) -> list[nodes.NodeNG]:
    """A call's arguments (positional values and Keyword nodes) in source order."""
    return sorted([*call.args, *(call.keywords or ())], key=lambda node: (node.lineno, node.col_offset))


def add_keyword(call: nodes.Call, name: str, text: str, before: nodes.NodeNG | None = None) -> Edit | None:
    """Add ``name=text`` to a call: just before the argument ``before`` when
    given, else after its last argument. None when the call cannot take one
    there (``f(*a)``-like calls are never fixed)."""
    if before is not None:
        return insert_before(before, f"{name}={text}, ")
    present = arguments(call)
    if present:
        return insert_after(present[-1], f", {name}={text}")
    # f(): just inside the closing parenthesis, the call's last character
    return Edit(call.end_lineno, call.end_col_offset - 1, call.end_lineno, call.end_col_offset - 1, f"{name}={text}")


def delete_argument(call: nodes.Call, argument: nodes.NodeNG) -> Edit | None:
    """Delete one argument and the comma that separates it from its neighbour."""
    present = arguments(call)
    index = next((i for i, node in enumerate(present) if node is argument), None)
    if index is None:
        return None
    if index + 1 < len(present):
        following = present[index + 1]
        return Edit(argument.lineno, argument.col_offset, following.lineno, following.col_offset, "")
    if index > 0:
        previous = present[index - 1]
        return Edit(previous.end_lineno, previous.end_col_offset, argument.end_lineno, argument.end_col_offset, "")
    return replace(argument, "")  # the only argument (a trailing comma left behind fails the parse check)


def keyword_named(call: nodes.Call, name: str) -> nodes.Keyword | None:
    return next((keyword for keyword in call.keywords or () if keyword.arg == name), None)


def set_argument(call: nodes.Call, value: nodes.NodeNG | None, name: str, text: str, before: str | None = None) -> Edit | None:
    """Give parameter ``name`` the value ``text``: replace its value node when the
    call passes one, else add it as a keyword (before the keyword ``before`` when
    the call has it, else at the end)."""
    if value is not None:
        return replace(value, text)
    return add_keyword(call, name, text, keyword_named(call, before) if before else None)


def module_alias(module: nodes.Module, qname: str) -> tuple[str | None, Edit | None]:
    """How ``module`` can spell the module ``qname`` (``mindspore.ops``): a name
    its imports bind to it (``ops``, ``P``), an attribute of an imported parent
    (``ms.ops``), or ``ops`` with an edit adding ``from mindspore import ops``
    after the last top-level import (the file's own style of import). (None,
    None) when the short name is taken by something else."""
    from astroid import nodes as astroid_nodes  # noqa: PLC0415

    parent, _, short = qname.rpartition(".")
    spellings: dict[str, str] = {}
    last_import = None
    for statement in module.body:
        if isinstance(statement, astroid_nodes.Import):
            last_import = statement
            for name, alias in statement.names:
                if name == qname and alias:
                    spellings.setdefault("alias", alias)
                elif name == parent and alias:
                    spellings.setdefault("parent", f"{alias}.{short}")
                elif name in (qname, parent) and not alias:
                    spellings.setdefault("dotted", qname)
        elif isinstance(statement, astroid_nodes.ImportFrom) and not statement.level:
            last_import = statement
            for name, alias in statement.names:
                if statement.modname == parent and name == short:
                    spellings.setdefault("alias", alias or name)
    for kind in ("alias", "parent", "dotted"):
        if kind in spellings:
            return spellings[kind], None
    if short in module.locals or last_import is None:
        return None, None
    line = last_import.end_lineno + 1
    return short, Edit(line, 0, line, 0, f"from {parent} import {short}\n")


def rename_definition(function: nodes.FunctionDef, name: str) -> Edit | None:
    """``def old(`` -> ``def name(``: only the name changes."""
    position = getattr(function, "position", None)
    if position is None or position.lineno != position.end_lineno:
        return None
    width = len(function.name.encode("utf-8"))
    return Edit(position.end_lineno, position.end_col_offset - width, position.end_lineno, position.end_col_offset, name)


def replace_method_call(call: nodes.Call, text: str) -> Edit | None:
    """``receiver.old(...)`` -> ``receiver`` + ``text`` (``.new()``, or "" to drop the call)."""
    receiver = getattr(call.func, "expr", None)
    if receiver is None or receiver.end_lineno is None:
        return None
    return Edit(receiver.end_lineno, receiver.end_col_offset, call.end_lineno, call.end_col_offset, text)


def rename_method(call: nodes.Call, name: str) -> Edit | None:
    """``receiver.old(args)`` -> ``receiver.name(args)``: only the method name changes."""
    func = call.func
    width = len(func.attrname.encode("utf-8"))
    if func.end_lineno is None:
        return None
    return Edit(func.end_lineno, func.end_col_offset - width, func.end_lineno, func.end_col_offset, name)


def source_segment(node: nodes.NodeNG) -> str | None:
    """The node's text exactly as written (one line only), or None."""
    if node.lineno is None or node.end_lineno != node.lineno or node.end_col_offset is None:
        return None
    try:
        line = node.root().file_bytes
    except AttributeError:
        line = None
    data = line if isinstance(line, bytes) else _file_bytes(node.root().file)
    if data is None:
        return None
    lines = data.split(b"\n")
    if node.lineno > len(lines):
        return None
    segment = lines[node.lineno - 1][node.col_offset : node.end_col_offset]
    try:
        return segment.decode("utf-8")
    except UnicodeDecodeError:
        return None


def _file_bytes(path: str | None) -> bytes | None:
    if not path:
        return None
    try:
        return Path(path).read_bytes()
    except OSError:
        return None


# ---------------------------------------------------------------------------
# Applying patches to text
# ---------------------------------------------------------------------------

_LINE_END = re.compile(r"\r\n|\r|\n")


def _line_starts(text: str) -> list[int]:
    return [0] + [match.end() for match in _LINE_END.finditer(text)]


def _offset(starts: list[int], text: str, line: int, column: int) -> int:
    if line < 1 or line > len(starts):
        raise ValueError("edit outside the file")
    offset = starts[line - 1] + column - 1
    end = starts[line] if line < len(starts) else len(text)
    if column < 1 or offset > end:
        raise ValueError("edit outside the line")
    return offset


def apply_patches(text: str, patches: Sequence[Patch]) -> tuple[str, list[Patch]]:
    """``text`` with every patch applied that overlaps no patch taken before it
    (in source order), and the patches taken. Edits identical to one already
    taken (the same import added by two fixes) are shared, not repeated."""
    starts = _line_starts(text)
    taken_spans: dict[tuple[int, int, str], None] = {}
    taken: list[Patch] = []
    ordered = sorted(patches, key=lambda patch: min(patch.edits))
    for patch in ordered:
        try:
            spans = [(_offset(starts, text, e.line, e.column), _offset(starts, text, e.end_line, e.end_column), e.text) for e in patch.edits]
        except ValueError:
            continue
        if any(start > end for start, end, _ in spans):
            continue
        new = [span for span in spans if span not in taken_spans]
        if any(_overlaps(span, other) for span in new for other in taken_spans) or any(
            _overlaps(a, b) for i, a in enumerate(new) for b in new[i + 1 :]
        ):
            continue
        taken_spans.update(dict.fromkeys(new))
        taken.append(patch)
    result = text
    for start, end, replacement in sorted(taken_spans, key=lambda span: (span[0], span[1]), reverse=True):
        result = result[:start] + replacement + result[end:]
    return result, taken


def _overlaps(first: tuple[int, int, str], second: tuple[int, int, str]) -> bool:
    (a_start, a_end, _), (b_start, b_end, _) = first, second
    if a_start == b_start:
        return True  # two edits at one place: their order would be a guess
    return a_start < b_end and b_start < a_end


# ---------------------------------------------------------------------------
# Files
# ---------------------------------------------------------------------------


@dataclass
class Source:
    """A Python file's text as decoded, and how to write it back byte for byte
    alike (its encoding and byte-order mark)."""

    text: str
    encoding: str
    bom: bool

    @classmethod
    def read(cls, path: str) -> Source | None:
        """None when the file cannot be read, decoded or parsed: never edited."""
        try:
            data = Path(path).read_bytes()
            encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
            bom = encoding == "utf-8-sig"
            text = data.decode(encoding)
        except (OSError, SyntaxError, UnicodeDecodeError, LookupError):
            return None
        if bom and text.startswith("\ufeff"):
            text = text[1:]
        if not parses(text):
            return None
        return cls(text, "utf-8" if bom else encoding, bom)

    def encoded(self, text: str) -> bytes:
        return (b"\xef\xbb\xbf" if self.bom else b"") + text.encode(self.encoding)


def parses(text: str) -> bool:
    try:
        ast.parse(text)
    except (SyntaxError, ValueError):  # ValueError: a NUL byte
        return False
    return True


def write_atomically(path: str, data: bytes) -> None:
    """Replace the file's content in one step: a crash leaves the old file or the
    new one, never half of one. Keeps the file's permission bits."""
    folder = os.path.dirname(os.path.abspath(path))
    mode = os.stat(path).st_mode & 0o7777
    handle, temporary = tempfile.mkstemp(prefix=".mslint-fix-", suffix=".tmp", dir=folder)
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        os.chmod(temporary, mode)
        os.replace(temporary, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise


def fixed_text(source: Source, patches: Sequence[Patch]) -> tuple[str, list[Patch]]:
    """The source with ``patches`` applied, keeping only what still parses: when
    the whole set breaks the parse, the patches are tried one by one."""
    text, taken = apply_patches(source.text, patches)
    if not taken or parses(text):
        return text, taken
    text, kept = source.text, []
    for patch in taken:
        attempt, applied = apply_patches(text, [patch])
        if applied and parses(attempt):
            text = attempt
            kept.append(patch)
    return text, kept


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
        from mslint import notebooks  # noqa: PLC0415

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
    from mslint.findings import relative_path  # noqa: PLC0415

    shown = relative_path(path, os.getcwd()) or path
    lines = difflib.unified_diff(
        before.splitlines(keepends=True), after.splitlines(keepends=True), fromfile=f"a/{shown.lstrip('/')}", tofile=f"b/{shown.lstrip('/')}"
    )
    return "".join(line if line.endswith("\n") else line + "\n\\ No newline at end of file\n" for line in lines)
