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
"""

from __future__ import annotations

import hashlib
import json
import os
import re
from dataclasses import dataclass, field
from pathlib import Path

from mslint.findings import Finding

SUFFIX = ".ipynb"
_MAGIC = re.compile(r"^\s*(?:[%!]|\w+\s*=\s*[%!])")  # %magic, !shell, x = !shell
PYTHON_CELL_MAGICS = ("%%time", "%%timeit", "%%capture", "%%prun")  # the cell below is still Python


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
        document = json.loads(raw)
    except (OSError, UnicodeDecodeError, ValueError) as error:
        raise NotebookError(f"not a readable notebook ({error})") from error
    cells = document.get("cells") if isinstance(document, dict) else None
    if not isinstance(cells, list):
        raise NotebookError("not a notebook (no list of cells)")
    file_lines = raw.split("\n")
    shadow = Shadow(notebook=os.path.abspath(path))
    lines: list[str] = []
    search_from = 0
    for number, cell in enumerate(cells, 1):
        if not isinstance(cell, dict) or cell.get("cell_type") != "code":
            continue
        source = _source_lines(cell)
        blank_cell = bool(source) and source[0].lstrip().startswith("%%") and not source[0].strip().startswith(PYTHON_CELL_MAGICS)
        for index, text in enumerate(source):
            if blank_cell or _MAGIC.match(text):
                indent = text[: len(text) - len(text.lstrip())]
                text = f"{indent}pass" if indent else ""  # inside a block: keep it a block
            lines.append(text)
            shadow.origin.append((number, index + 1))
            where, offset = _locate(file_lines, source[index], index == len(source) - 1, search_from)
            if where:
                search_from = where
            shadow.file_lines.append(where)
            shadow.file_columns.append(offset)
    shadow.text = "\n".join(lines) + "\n"
    return shadow


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


def write_shadow(shadow: Shadow, path: str) -> None:
    target = Path(path)
    target.parent.mkdir(parents=True, exist_ok=True)
    data = shadow.text.encode("utf-8")
    try:
        if target.read_bytes() == data:
            return  # unchanged: its mtime and cache entry stay
    except OSError:
        pass
    target.write_bytes(data)


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
