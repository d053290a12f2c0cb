"""Reading MindSpore's compile errors and logs: where they point and what they say.

Measured on MindSpore 2.10: a graph compile error names each source location as
``In file PATH:LINE, COL~ENDCOL`` (or ``PATH:LINE~ENDLINE, COL~ENDCOL`` for a
statement or a function spanning lines), outermost call first, innermost last,
e.g.::

    # 0 In file /src/model.py:31, 15~24
            return helper(x) * 2
    # 1 In file /src/model.py:9, 18~27
        return Tensor(np.exp(x), ms.float32)

Columns are 0-based like Python's ``col_offset``. Under LAX, differentiating
through JIT fallback logs ``The gradient will be stopped from propagating at the
PyExecute node created at the location: In file PATH:LINE, ...``.

Pure Python: used by the parent (matching) and by the worker.
"""

from __future__ import annotations

import os
import re
from typing import NamedTuple

_LOCATION = re.compile(
    r"In file (?P<path>.+?):(?P<line>\d+)(?:~(?P<end_line>\d+))?"
    r"(?:,\s*(?P<col>\d+)(?:~(?P<end_col>\d+))?)?\s*$"
)
GRADIENT_CUT_MARK = "The gradient will be stopped from propagating"

# Lines of MindSpore's error text that are never the useful first line.
_NOISE = re.compile(r"^(-{5,}|- C\+\+ Call Stack|- The Traceback of Net Construct Code|#\s*\d*\s*In file|In file )")
# Advice MindSpore appends to the first line, which says nothing about the user's code.
_ADVICE = re.compile(
    r"\s*(You can use os\.environ\[.*$|More details please refer to.*$|For more details, please refer to.*$"
    r"|Try to set jit_syntax_level to LAX\.?)"
)
_OBJECT_ID = re.compile(r"<(\w+)::\d+>")  # '<Net::140027676230672>': an address, not a name


class Location(NamedTuple):
    path: str
    line: int
    end_line: int
    column: int | None
    end_column: int | None

    def as_list(self) -> list:
        return [self.path, self.line, self.end_line, self.column, self.end_column]

    @classmethod
    def from_list(cls, item: list) -> Location:
        return cls(str(item[0]), int(item[1]), int(item[2]), item[3], item[4])


def locations(text: str) -> list[Location]:
    """Every ``In file PATH:LINE`` location in the text, in order, without repeats."""
    found: list[Location] = []
    for raw in text.splitlines():
        index = raw.find("In file ")
        if index < 0:
            continue
        match = _LOCATION.search(raw[index:])
        if match is None:
            continue
        line = int(match["line"])
        location = Location(
            match["path"].strip(),
            line,
            int(match["end_line"]) if match["end_line"] else line,
            int(match["col"]) if match["col"] is not None else None,
            int(match["end_col"]) if match["end_col"] is not None else None,
        )
        if location not in found:
            found.append(location)
    return found


def first_useful_line(text: str, limit: int = 300) -> str:
    """MindSpore's message without the stack dumps, advice or file references."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or _NOISE.match(line):
            continue
        line = _OBJECT_ID.sub(r"\1", _ADVICE.sub("", line)).strip()
        if not line:
            continue
        if len(line) > limit:
            line = line[: limit - 3].rstrip() + "..."
        return line
    return ""


def gradient_cut_locations(log: str) -> list[Location]:
    """Where MindSpore says it stopped the gradient (JIT fallback under LAX)."""
    return locations("\n".join(line for line in log.splitlines() if GRADIENT_CUT_MARK in line))


def same_file(a: str, b: str) -> bool:
    if a == b:
        return True
    try:
        return os.path.realpath(a) == os.path.realpath(b)
    except (OSError, ValueError):
        return False
