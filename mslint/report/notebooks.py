"""Jupyter notebooks (``.ipynb``): their code cells checked as one Python module.

A notebook is turned into a *shadow* module: its code cells one after the
other, IPython magics (``%time``, ``%%capture``) and shell lines (``!pip
install``) blanked out (a cell magic that runs another language, ``%%bash``,
blanks its whole cell). The shadow is written under the cache folder at a path
fixed by the notebook's own (so the result cache works for it as for any file)
and checked as a file of the notebook's folder. Its findings are then moved
back: ``path`` becomes the notebook, ``line`` and the columns those of the
``.ipynb`` file holding that source line (what SARIF viewers and GitHub open),
and ``cell`` (cell, line, column) says where it is as a notebook shows it:
``train.ipynb:cell 3:line 2:5``.
Cells are numbered from 1 among all the notebook's cells, markdown included, as
editors show them.

``mslint --fix``: a finding's edits are on the shadow; :func:`fixed_notebook`
applies them there (parse check), writes the changed lines back into the code
cells' ``source`` and the JSON in the file's own style, never touching a
blanked (magic, shell, other-language) line.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from mslint.analysis.edits import Edit, Patch
from mslint.report.patches import Source, apply_patches, fixed_text
from mslint.report.findings import Finding

SUFFIX = ".ipynb"
_MAGIC = re.compile(r"^\s*(?:[%!]|\w+\s*=\s*[%!])")  # %magic, !shell, x = !shell
PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")  # the cell below is still Python
# IPython's automagic: a cell of one line starting with the name of a line magic or
# of a default shell alias runs it without the ``%`` (``pip install mindspore``);
# IPython applies it to one-line cells only (InteractiveShell.transform_cell), and
# only where the line is not Python (an operator after the name: ``cd = 3``).
_AUTOMAGIC = frozenset({
    "pip", "conda", "mamba", "cd", "pwd", "env", "set_env", "time", "timeit", "matplotlib", "load_ext",
    "reload_ext", "run", "who", "whos", "history", "pushd", "popd", "dhist", "bookmark", "autoreload",
    "config", "reset", "store", "xmode", "precision", "pylab", "prun", "sx", "system", "alias", "lsmagic",
    # the default aliases on POSIX
    "cat", "cp", "ldir", "lf", "lk", "ll", "ls", "lx", "mkdir", "mv", "rm", "rmdir", "clear", "less", "more", "man",
})
_AUTOMAGIC_LINE = re.compile(r"^\s*([A-Za-z_]\w*)(?![\w.])\s*(.*)$")
_PYTHON_AFTER_NAME = "!=()<>,+*/%^&|"  # IPython's PythonOpsChecker: the line is Python


class NotebookError(ValueError):
    """Not a notebook that can be read."""


@dataclass
class Shadow:
    """The Python text of a notebook and, per shadow line (0-based), where it
    came from: (cell number, line in the cell), both 1-based, and the line and
    column offset of that text in the .ipynb file (0: unknown)."""

    notebook: str
    text: str = ""
    origin: list[tuple[int, int]] = field(default_factory=list)
    file_lines: list[int] = field(default_factory=list)
    file_columns: list[int] = field(default_factory=list)
    own_text: list[bool] = field(default_factory=list)  # per shadow line: the cell's own text (not a blanked magic)

    def cell_spans(self) -> list[tuple[int, int]]:
        """Each code cell's lines in the shadow: (first, end), 0-based, end excluded."""
        spans: list[tuple[int, int]] = []
        for index, (cell, _) in enumerate(self.origin):
            if spans and self.origin[spans[-1][0]][0] == cell:
                spans[-1] = (spans[-1][0], index + 1)
            else:
                spans.append((index, index + 1))
        return spans


def is_notebook(path: str) -> bool:
    return path.endswith(SUFFIX)


def _source_lines(cell: dict) -> list[str]:
    source = cell.get("source", "")
    text = "".join(source) if isinstance(source, list) else str(source)
    return text.split("\n") if text else []


def shadow_of(path: str) -> Shadow:
    """The shadow module of the notebook at ``path``."""
    try:
        raw = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise NotebookError(f"not a readable notebook ({error})") from error
    return shadow_from(raw, path)


def _cells(raw: str) -> tuple[dict, list]:
    try:
        document = json.loads(raw)
    except ValueError as error:
        raise NotebookError(f"not a readable notebook ({error})") from error
    cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(cells, list):
        raise NotebookError("not a notebook (no list of cells)")
    return document, cells


def shadow_from(raw: str, path: str) -> Shadow:
    """The shadow module of the notebook text ``raw`` (the file ``path``)."""
    _, cells = _cells(raw)
    file_lines = raw.split("\n")
    shadow = Shadow(notebook=os.path.abspath(path))
    lines: list[str] = []
    search_from = 0
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = _source_lines(cell)
        blank_cell = bool(source) and source[0].lstrip().startswith("%%") and not source[0].strip().startswith(PYTHON_CELL_MAGICS)
        blank_cell = blank_cell or _automagic_cell(source)
        continued = False  # this line continues a magic or shell line ending in a backslash
        for index, text in enumerate(source):
            blanked = blank_cell or continued or bool(_MAGIC.match(text))
            if blanked:
                # IPython joins a magic or shell line ending in "\" with the lines after it
                # into one command: those lines are part of it, not Python
                indent = text[: len(text) - len(text.lstrip())]
                # inside a block: keep it a block; a cell's first line is never inside
                # one (IPython drops the indentation a cell opens with)
                opens_cell = not any(line.strip() for line in source[:index])
                text = f"{indent}pass" if indent and not continued and not opens_cell else ""
                continued = not blank_cell and source[index].rstrip("\r").endswith("\\")
            lines.append(text)
            shadow.own_text.append(not blanked)
            shadow.origin.append((number, index + 1))
            where, offset = _locate(file_lines, source[index], index == len(source) - 1, search_from)
            if where:
                search_from = where
            shadow.file_lines.append(where)
            shadow.file_columns.append(offset)
    shadow.text = "\n".join(lines) + "\n"
    return shadow


def _automagic_cell(source: list[str]) -> bool:
    """A one-line cell that IPython runs as a line magic or shell alias, not as
    Python: ``pip install mindspore``, ``ls data`` (and a line that parses as
    Python stays Python: ``ls`` alone, ``time(x)``)."""
    lines = [line for line in source if line.strip()]
    if len(lines) != 1 or len(source) > 2:
        return False
    match = _AUTOMAGIC_LINE.match(lines[0].rstrip("\r\n"))
    if match is None or match.group(1) not in _AUTOMAGIC or match.group(2)[:1] in tuple(_PYTHON_AFTER_NAME):
        return False
    try:
        compile(lines[0].strip(), "<cell>", "exec")
    except (SyntaxError, ValueError):
        return True
    return False


def _locate(file_lines: list[str], text: str, last: bool, start: int) -> tuple[int, int]:
    """The 1-based line of the .ipynb file holding source line ``text`` (as a
    JSON string, from line ``start`` on) and the column offset of its text."""
    encoded = json.dumps(text if last else text + "\n", ensure_ascii=False)
    for number in range(start, len(file_lines)):
        column = file_lines[number].find(encoded)
        if column >= 0:
            return number + 1, column + 1
    return 0, 0


def shadow_path(notebook: str, folder: Path) -> str:
    """Where the shadow of ``notebook`` is written: fixed by its path, so that
    the result cache finds it again."""
    key = hashlib.blake2b(os.path.abspath(notebook).encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    stem = re.sub(r"\W", "_", Path(notebook).stem) or "notebook"
    return str(folder / "notebooks" / key / f"{stem}.py")


def write_shadow(shadow: Shadow, path: str, base: Path) -> None:
    """Write the shadow module to ``path`` (below the folder ``base``), never
    through a symbolic link: each folder below ``base`` is opened without
    following links and must be this user's, and the file is written under a
    new name, then renamed over ``path`` (a link planted there is replaced, not
    followed). OSError when that cannot be done."""
    relative = Path(path).relative_to(base)
    data = shadow.text.encode("utf-8")
    Path(base).mkdir(parents=True, exist_ok=True, mode=0o700)
    flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    folder = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for part in relative.parts[:-1]:
            try:
                os.mkdir(part, 0o700, dir_fd=folder)
            except FileExistsError:
                pass
            inner = os.open(part, flags, dir_fd=folder)  # ELOOP/ENOTDIR: a link or a file there
            os.close(folder)
            folder = inner
            if hasattr(os, "geteuid") and os.fstat(folder).st_uid != os.geteuid():
                raise PermissionError(f"{part} belongs to another user")
        name = relative.parts[-1]
        try:
            existing = os.open(name, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0), dir_fd=folder)
        except OSError:
            existing = None
        if existing is not None:
            try:
                if os.read(existing, len(data) + 1) == data:
                    return  # unchanged: its mtime and cache entry stay
            finally:
                os.close(existing)
        temporary = f".{name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        handle = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600, dir_fd=folder)
        try:
            with os.fdopen(handle, "wb") as stream:
                stream.write(data)
            os.replace(temporary, name, src_dir_fd=folder, dst_dir_fd=folder)
        except BaseException:
            try:
                os.unlink(temporary, dir_fd=folder)
            except OSError:
                pass
            raise
    finally:
        os.close(folder)


def relocate(item: Finding, shadow: Shadow) -> Finding:
    """``item`` (a finding of the shadow module) at its place in the notebook."""
    item.path = shadow.notebook
    index = item.line - 1
    if 0 <= index < len(shadow.origin):
        item.cell = (*shadow.origin[index], item.column)
        file_line = shadow.file_lines[index]
        offset = shadow.file_columns[index]
        end_index = (item.end_line or 0) - 1
        if file_line:
            item.line = file_line
            item.column += offset
            if item.end_line and 0 <= end_index < len(shadow.origin) and shadow.file_lines[end_index]:
                item.end_line = shadow.file_lines[end_index]
                if item.end_column is not None:
                    item.end_column += shadow.file_columns[end_index]
            else:
                item.end_line = item.end_column = None
        else:
            item.line, item.end_line, item.end_column = 1, None, None
    return item


# ---------------------------------------------------------------------------
# Fixing (mslint --fix): edits on the shadow written back into the cells
# ---------------------------------------------------------------------------


def fixed_notebook(raw: str, path: str, patches: list) -> tuple[str, list]:
    """The notebook text ``raw`` with ``patches`` (edits on its shadow module)
    applied to its code cells, and the patches taken. A patch touching a magic
    or shell line (or a line of a non-Python cell) is never taken. Only the
    JSON strings of the changed source lines change, in place in ``raw``: the
    rest of the file (indentation, tabs, CRLF, a one-line file, numbers written
    ``1.0e-5``, escaping, outputs) stays byte for byte. Nothing is taken when
    the rewritten notebook would not give back the fixed shadow exactly."""

    shadow = shadow_from(raw, path)
    _, cells = _cells(raw)

    def editable(edit) -> bool:
        span = range(edit.line, edit.end_line + 1)
        return 0 < edit.line <= edit.end_line <= len(shadow.origin) and all(shadow.own_text[line - 1] for line in span) and (
            shadow.origin[edit.line - 1][0] == shadow.origin[edit.end_line - 1][0])

    usable = [patch for patch in patches if all(editable(edit) for edit in patch.edits)]
    text, taken = fixed_text(Source(shadow.text, "utf-8", False), usable)
    if not taken or text == shadow.text:
        return raw, []
    per_cell: dict[int, list] = {}
    for patch in taken:
        for edit in patch.edits:
            number, line = shadow.origin[edit.line - 1]
            end_line = shadow.origin[edit.end_line - 1][1]
            per_cell.setdefault(number, []).append(Patch(patch.description, patch.applicability, (
                Edit(line, edit.column, end_line, edit.end_column, edit.text),)))
    sources: dict[int, str] = {}
    for number, cell_patches in per_cell.items():
        source = cells[number - 1].get("source", "")
        before = "".join(source) if isinstance(source, list) else str(source)
        after, applied = apply_patches(before, cell_patches)
        if len(applied) != len(cell_patches):
            return raw, []
        sources[number - 1] = after
    try:
        fixed = _splice_sources(raw, sources)
    except (NotebookError, ValueError, IndexError):
        return raw, []
    if shadow_from(fixed, path).text != text:
        return raw, []
    return fixed, taken


def _source_list(text: str) -> list[str]:
    """A cell's text as nbformat stores it: lines, each with its newline."""
    parts = text.split("\n")
    return [part + "\n" for part in parts[:-1]] + ([parts[-1]] if parts[-1] else [])


# -- the notebook's JSON text, edited in place ---------------------------------

_WHITESPACE = re.compile(r"[ \t\n\r]*")
_DECODER = json.JSONDecoder()


def _skip(raw: str, index: int) -> int:
    return _WHITESPACE.match(raw, index).end()


def _members(raw: str, index: int):
    """(key, value start, value end) of the JSON object at ``index`` ('{')."""
    if raw[index] != "{":
        raise NotebookError("not a JSON object")
    index = _skip(raw, index + 1)
    if raw[index] == "}":
        return
    while True:
        if raw[index] != '"':
            raise NotebookError("a JSON key expected")
        key, index = json.decoder.scanstring(raw, index + 1)
        index = _skip(raw, index)
        if raw[index] != ":":
            raise NotebookError("':' expected")
        start = _skip(raw, index + 1)
        _, index = _DECODER.raw_decode(raw, start)
        yield key, start, index
        index = _skip(raw, index)
        if raw[index] == ",":
            index = _skip(raw, index + 1)
        elif raw[index] == "}":
            return
        else:
            raise NotebookError("',' or '}' expected")


def _elements(raw: str, index: int) -> list[tuple[int, int]]:
    """(start, end) of each element of the JSON array at ``index`` ('[')."""
    if raw[index] != "[":
        raise NotebookError("not a JSON array")
    found: list[tuple[int, int]] = []
    index = _skip(raw, index + 1)
    if raw[index] == "]":
        return found
    while True:
        _, end = _DECODER.raw_decode(raw, index)
        found.append((index, end))
        index = _skip(raw, end)
        if raw[index] == ",":
            index = _skip(raw, index + 1)
        elif raw[index] == "]":
            return found
        else:
            raise NotebookError("',' or ']' expected")


def _value_of(raw: str, start: int, key: str) -> tuple[int, int] | None:
    return next(((begin, end) for name, begin, end in _members(raw, start) if name == key), None)


def _splice_sources(raw: str, sources: dict[int, str]) -> str:
    """``raw`` with the ``source`` of the cells ``sources`` names (0-based index
    -> new text) replaced, nothing else touched: each unchanged source line
    keeps its JSON string as written, a changed one is written in the file's
    escaping, the separators between lines are the file's own."""
    begin = _skip(raw, 0)
    cells = _value_of(raw, begin, "cells")
    if cells is None:
        raise NotebookError("no list of cells")
    spans = _elements(raw, cells[0])
    replacements: list[tuple[int, int, str]] = []
    for index, text in sources.items():
        value = _value_of(raw, spans[index][0], "source")
        if value is None:
            raise NotebookError("a cell without source")
        start, end = value
        if raw[start] == '"':
            replacements.append((start, end, _json_string(text, raw[start:end], raw)))
            continue
        replacements.append((start, end, _source_array(raw, start, end, _source_list(text))))
    for start, end, text in sorted(replacements, reverse=True):
        raw = raw[:start] + text + raw[end:]
    return raw


def _source_array(raw: str, start: int, end: int, lines: list[str]) -> str:
    """A cell's ``source`` array holding ``lines``, in the style of the array
    ``raw[start:end]``: its strings kept where the line is unchanged."""
    elements = _elements(raw, start)
    old = [(raw[a:b], json.loads(raw[a:b])) for a, b in elements]
    if elements:
        opening = raw[start + 1 : elements[0][0]]
        closing = raw[elements[-1][1] : end - 1]
        separator = raw[elements[0][1] : elements[1][0]] if len(elements) > 1 else "," + (opening or " ")
    else:
        opening = closing = ""
        separator = ", "
    sample = "".join(token for token, _ in old)
    tokens = []
    for position, line in enumerate(lines):
        if position < len(old) and old[position][1] == line:
            tokens.append(old[position][0])
        else:
            tokens.append(_json_string(line, sample, raw))
    return "[" + opening + separator.join(tokens) + closing + "]"


def _json_string(text: str, sample: str, raw: str) -> str:
    """``text`` as a JSON string escaped as the notebook escapes (non-ASCII as
    ``\\uXXXX`` when its strings do)."""
    if not text.isascii():
        escaped = re.search(r"\\u00[89a-fA-F][0-9a-fA-F]|\\u0[1-9a-fA-F][0-9a-fA-F]{2}|\\u[1-9a-fA-F][0-9a-fA-F]{3}", sample or raw)
        literal = not (sample or raw).isascii()
        return json.dumps(text, ensure_ascii=bool(escaped) and not literal)
    return json.dumps(text)
