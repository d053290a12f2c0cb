"""Applying patches to a source text, and writing a file back: the text-level
half of ``mslint --fix`` (mslint.report.fixes runs the loop; mslint.report.notebooks
maps a notebook's patches into its cells)."""

from __future__ import annotations

import ast
import contextlib
import io
import os
import re
import tempfile
import tokenize
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from mslint.analysis.edits import Patch


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
