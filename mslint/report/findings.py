"""A finding: one problem at one place in one file, typed.

A finding is made once, at one boundary: :func:`from_message` turns a pylint
message into one (the ``mslint`` command's engine, the plugin's SARIF reporter
and runtime confirmation in plugin mode all go through it); :func:`located`
makes one that no pylint message stands behind (a file that cannot be read, a
compile error MindSpore reported). Reporters (text, JSON, GitHub, SARIF) only
render findings, the result cache stores and loads them (:meth:`Finding.row`,
:func:`from_row`), runtime confirmation reads their :class:`Anchor`.

One column convention: lines are 1-based, columns are 1-based *character*
columns with ``end_column`` exclusive, as SARIF wants (pylint and astroid count
UTF-8 bytes from 0; MindSpore too). One fingerprint: :func:`assign_fingerprints`.

A finding in code of another module that graph code calls is reported at the
call (mslint.checkers.follow); its message ends with the place in that module
(mslint.analysis.places.place_note), which :attr:`Finding.related` reads back.
"""

from __future__ import annotations

import functools
import hashlib
import io
import os
import tokenize
from dataclasses import asdict, dataclass, field
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from mslint.report.catalog import CATEGORIES
from mslint.analysis.edits import Patch, char_column
from mslint.analysis.places import PLACE_NOTE

if TYPE_CHECKING:
    from pylint.message import Message

# pylint's syntax-error takes its column from SyntaxError.offset: already 1-based
# characters, not a UTF-8 byte offset.
CHARACTER_COLUMN_SYMBOLS = frozenset({"syntax-error"})


# ---------------------------------------------------------------------------
# Anchors: what runtime confirmation compiles or builds for a finding
# ---------------------------------------------------------------------------


@dataclass(frozen=True)
class Entry:
    """A Cell's ``construct`` (or @jit method) or a module-level function whose
    compilation runtime mode can run."""

    kind: str  # "cell" or "function"
    name: str  # the class or function name in the module
    method: str = "construct"  # for cells: construct or a @jit method
    wrap_jit: bool = False  # a function made graph code by ms.jit(fn), not a decorator
    line: int = 0  # of the class or def statement
    required_params: tuple[str, ...] = ()


@dataclass(frozen=True)
class LayerCall:
    """A flagged MindSpore layer call, its arguments as written."""

    qname: str
    args: tuple[str, ...] = ()
    kwargs: tuple[tuple[str, str], ...] = ()


@dataclass(frozen=True)
class Anchor:
    """Recorded from the live astroid tree when the finding was made (see
    mslint/confirm/anchors.py), so that runtime confirmation never parses the
    file again: the layer call to build, or the entries whose compilation
    reaches the finding's line and every graph entry of its module (compiled
    too, for errors no finding predicted); or why none can be checked."""

    problem: str | None = None
    call: LayerCall | None = None
    entries: tuple[Entry, ...] = ()
    module_entries: tuple[Entry, ...] = ()

    def data(self) -> dict[str, Any]:
        return asdict(self)

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> Anchor:
        call = data.get("call")
        return cls(
            problem=data.get("problem"),
            call=LayerCall(call["qname"], tuple(call["args"]), tuple(tuple(pair) for pair in call["kwargs"])) if call else None,
            entries=tuple(_entry(item) for item in data.get("entries", ())),
            module_entries=tuple(_entry(item) for item in data.get("module_entries", ())),
        )


def _entry(data: dict[str, Any]) -> Entry:
    return Entry(**dict(data, required_params=tuple(data.get("required_params", ()))))


# ---------------------------------------------------------------------------
# Places in other modules (mslint.checkers.follow)
# ---------------------------------------------------------------------------

@dataclass(frozen=True)
class Place:
    """Where in another module the problem of a finding reported at a call is."""

    path: str  # absolute
    line: int
    function: str
    kind: str  # of the calling code: "graph" or "differentiated"


def related_place(message: str, path: str) -> Place | None:
    """The place a message of a finding in ``path`` ends with (mslint.checkers.messages.place_note)."""
    match = PLACE_NOTE.search(message)
    if match is None:
        return None
    where = os.path.normpath(os.path.join(os.path.dirname(os.path.abspath(path)), match["path"]))
    return Place(where, int(match["line"]), match["function"], match["kind"])


# ---------------------------------------------------------------------------
# The finding
# ---------------------------------------------------------------------------


@dataclass
class Finding:  # pylint: disable=too-many-instance-attributes
    path: str  # absolute
    line: int  # 1-based
    column: int  # 1-based characters
    end_line: int | None
    end_column: int | None  # 1-based characters, exclusive
    symbol: str
    msg_id: str
    message: str
    category: str
    obj: str = ""
    module: str = ""
    line_hash: str = ""  # of the flagged line, whitespace normalised: see assign_fingerprints
    fingerprint: str = ""  # set by assign_fingerprints
    context: str = ""  # hash of the lines around it, set by assign_fingerprints: tells repeated lines apart
    # in a notebook (line and columns are then the .ipynb file's): the cell
    # (1-based, all cells counted), the line and the column in it, as it shows them
    cell: tuple[int, int, int] | None = None
    confirmation: dict[str, str] | None = None  # runtime mode: {"status": ..., "detail": ...}
    # how the program runs the file (mslint.analysis.mode): "graph" or "pynative", and why
    # ("train.py sets GRAPH_MODE", "assumed: no entry script in sight sets the mode")
    mode: str = ""
    mode_basis: str = ""
    # the compiled units (Cells, @jit functions) the finding is in, or whose
    # call it is: "<file>:<line>:<name>" (mslint.analysis.compiled.compiled_units;
    # ``mslint --graph-report`` counts findings by them)
    units: tuple[str, ...] = ()
    # whether a program in sight reaches the code (mslint.analysis.programs); None:
    # no program in sight to say
    reached: bool | None = None
    anchor: Anchor | None = field(default=None, compare=False)
    fix: Patch | None = field(default=None, compare=False)  # the rule's autofix (mslint.report.fixes)

    def row(self) -> dict[str, Any]:
        """What the result cache stores (the path is part of its key)."""
        row = {
            name: value
            for name, value in vars(self).items()
            if name not in ("path", "anchor", "confirmation", "fingerprint", "context", "cell", "fix")
        }
        if self.anchor is not None:
            row["anchor"] = self.anchor.data()
        if self.fix is not None:
            row["fix"] = self.fix.data()
        return row

    @property
    def related(self) -> Place | None:
        """Where in another module the problem is, for a finding at a call (see
        mslint.checkers.follow): read from the message, so the cache need not store it."""
        return related_place(self.message, self.path)

    def sort_key(self) -> tuple:
        return (self.path, self.line, self.column, self.symbol, self.end_line or 0, self.end_column or 0, self.message)


def from_row(row: dict[str, Any], path: str) -> Finding:
    """A finding from the result cache. Raises (KeyError, TypeError, ValueError)
    on a row written by another version: the caller counts that as a miss."""
    fields = dict(row)
    anchor = fields.pop("anchor", None)
    fix = fields.pop("fix", None)
    if "units" in fields:
        fields["units"] = tuple(fields["units"])
    found = Finding(
        path=path,
        **fields,
        anchor=Anchor.from_data(anchor) if anchor is not None else None,
        fix=Patch.from_data(fix) if fix is not None else None,
    )
    if not isinstance(found.line, int) or not isinstance(found.column, int) or not isinstance(found.symbol, str):
        raise ValueError(f"not a finding: {row!r}")
    return found


def located(  # noqa: PLR0913 - one field per argument
    *,
    path: str,
    line: int,
    byte_column: int,
    end_line: int | None,
    end_byte_column: int | None,
    symbol: str,
    msg_id: str,
    message: str,
    lines: list[str],
    category: str | None = None,
    obj: str = "",
    module: str = "",
    anchor: Anchor | None = None,
) -> Finding:
    """A finding at 1-based ``line`` and 0-based UTF-8 byte columns (pylint's,
    astroid's and MindSpore's), in a file whose lines are ``lines``."""
    line = line or 0
    start_text = _line(lines, line)
    if symbol in CHARACTER_COLUMN_SYMBOLS:
        column = max(byte_column or 0, 1)
    else:
        column = char_column(start_text, byte_column or 0) + 1
    end_column = None
    if end_line is not None and end_byte_column is not None and end_line >= line:
        end_column = char_column(_line(lines, end_line), end_byte_column) + 1
        if end_line == line and end_column < column:
            end_column = column
    else:
        end_line = None
    return Finding(
        path=path,
        line=line,
        column=column,
        end_line=end_line,
        end_column=end_column,
        symbol=symbol,
        msg_id=msg_id,
        message=message,
        category=category or CATEGORIES.get(msg_id[:1], "info"),
        obj=obj,
        module=module,
        line_hash=line_hash(start_text),
        anchor=anchor,
    )


def from_message(message: Message, lines: list[str], anchor: Anchor | None = None) -> Finding:
    """The finding of a pylint message, in a file whose lines are ``lines``."""
    return located(
        path=os.path.abspath(message.abspath or message.path),
        line=message.line,
        byte_column=message.column,
        end_line=message.end_line,
        end_byte_column=message.end_column,
        symbol=message.symbol,
        msg_id=message.msg_id,
        message=message.msg or "",
        obj=message.obj,
        module=message.module,
        lines=lines,
        anchor=anchor,
    )


# ---------------------------------------------------------------------------
# Fingerprints
# ---------------------------------------------------------------------------


def assign_fingerprints(findings: list[Finding], root: str) -> list[Finding]:
    """Sort findings and give each a fingerprint: a hash of its file (relative to
    ``root``), rule and whitespace-normalised source line, plus its occurrence
    number among identical ones in that file. Line numbers are not part of it, so
    edits above a finding keep it. (Baselines store these: keep them stable.)
    Each also gets a context hash (its neighbouring lines), with which a baseline
    tells a copied line from the one it recorded (see match_baseline)."""
    ordered = sorted(findings, key=Finding.sort_key)
    seen: dict[tuple[str, str, str], int] = {}
    lines_of: dict[str, list[str]] = {}
    contexts: dict[tuple[str, int], str] = {}
    for item in ordered:
        where = relative_path(item.path, root) or item.path
        key = (where, item.symbol, item.line_hash)
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        digest = hashlib.blake2b("\0".join(key).encode("utf-8", "surrogateescape"), digest_size=8).hexdigest()  # a non-UTF-8 file name
        item.fingerprint = f"{digest}:{occurrence}"
        if item.path not in lines_of:
            lines_of[item.path] = read_source_lines(item.path)
        if (item.path, item.line) not in contexts:  # many findings on one line: its context once
            contexts[(item.path, item.line)] = context_hash(lines_of[item.path], item.line)
        item.context = contexts[(item.path, item.line)]
    return ordered


CONTEXT_LINES = 2  # non-blank lines on each side


def context_hash(lines: list[str], number: int) -> str:
    """A hash of the non-blank lines around line ``number`` (1-based), whitespace
    normalised; empty when the file cannot be read."""
    if not lines or not 1 <= number <= len(lines):
        return ""

    def around(indexes: range) -> list[str]:
        found = []
        for index in indexes:
            text = " ".join(lines[index].split())
            if text:
                found.append(text)
                if len(found) == CONTEXT_LINES:
                    break
        return found

    before = "\n".join(reversed(around(range(number - 2, -1, -1))))
    after = "\n".join(around(range(number, len(lines))))
    return ":".join(hashlib.blake2b(side.encode("utf-8"), digest_size=6).hexdigest() for side in (before, after))


def _context_score(recorded: str, current: str) -> int:
    """How well two context hashes agree: 3 both sides, 2 the lines after
    (what a copy pasted above the line leaves to the original), 1 the lines
    before, 0 neither."""
    if not recorded or not current:
        return 0
    old, new = recorded.split(":", 1) + [""] * (":" not in recorded), current.split(":", 1) + [""] * (":" not in current)
    return 2 * (old[1] == new[1]) + (old[0] == new[0])


def match_baseline(found: list[Finding], baseline: dict[tuple[str, str], list[str]]) -> tuple[list[Finding], list[Finding]]:
    """Split ``found`` (fingerprinted) into (new, baselined). ``baseline`` maps
    (rule, fingerprint without its occurrence number) to the context hashes
    of its recorded findings ("" where the baseline has none). When a line
    recorded once now appears twice (a copy added above it), the one whose
    surroundings match the record keeps its match and the copy is new; without
    context, the first occurrences match (the fingerprints of earlier versions)."""
    groups: dict[tuple[str, str], list[Finding]] = {}
    for item in found:
        groups.setdefault((item.symbol, item.fingerprint.rsplit(":", 1)[0]), []).append(item)
    baselined: set[int] = set()
    for key, items in groups.items():
        recorded = list(baseline.get(key, ()))
        if len(items) <= len(recorded):
            baselined.update(id(item) for item in items)
            continue
        left = list(items)
        for wanted in (3, 2, 1):  # the best agreement of surroundings first
            for context in list(recorded):
                match = next((item for item in left if _context_score(context, item.context) == wanted), None)
                if match is not None:
                    recorded.remove(context)
                    left.remove(match)
                    baselined.add(id(match))
        baselined.update(id(item) for item in left[: len(recorded)])  # then in order
    return [item for item in found if id(item) not in baselined], [item for item in found if id(item) in baselined]


def repository_root(start: str) -> str:
    """The root report paths and fingerprints are relative to: the enclosing git
    repository's (what code scanning expects), else ``start``."""
    folder = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return os.path.abspath(start)
        folder = parent


def relative_path(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` in POSIX form, or None when outside it."""
    try:
        relative = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        return None
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    return PurePosixPath(*Path(relative).parts).as_posix()


@functools.lru_cache(maxsize=1024)  # many findings on one long line: hashed once
def line_hash(text: str | None) -> str:
    """A hash of a source line with its whitespace normalised."""
    normalised = " ".join((text or "").split())
    return hashlib.blake2b(normalised.encode("utf-8"), digest_size=8).hexdigest()


# ---------------------------------------------------------------------------
# Source lines and columns
# ---------------------------------------------------------------------------


def read_source_lines(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a Python file as the tokenizer sees them (declared encoding,
    BOM removed, only \\r\\n, \\r and \\n end a line). Empty when unreadable."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return []
    return source_lines(data)


def source_lines(data: bytes) -> list[str]:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        text = data.decode(encoding, errors="replace")
    except LookupError:
        text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def _line(lines: list[str], number: int | None) -> str | None:
    if number is None or number < 1 or number > len(lines):
        return None
    return lines[number - 1]
