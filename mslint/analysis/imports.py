"""The imports a source text makes, read without building a tree: for the result
cache's dependency keys (mslint.run.cache) and the program graph
(mslint.analysis.mode)."""

from __future__ import annotations

import re
from typing import Any

# `from X import ...` / `import ...` at a line start or after `:` / `;`
# (`try: import x`, `if y: from . import z`). Generous on purpose.
_IMPORT_RE = re.compile(
    r"(?:^|[:;])[ \t]*(?:"
    r"from[ \t]+(?P<from>\.*[\w.]*)[ \t]+import[ \t]*(?P<names>\([^)]*\)|(?:[^\n#;]|\\\n)*)"
    r"|import[ \t]+(?P<modules>(?:[^\n#;]|\\\n)*))",
    re.MULTILINE,
)
_NAME_RE = re.compile(r"[\w.]+")
# The same at line starts only: 2.5 times faster, for mslint.analysis.mode's program
# graph, where an import after `:` or `;` missed costs no soundness.
LINE_START_IMPORT_RE = re.compile(_IMPORT_RE.pattern.replace(r"(?:^|[:;])[ \t]*", r"^[ \t]*", 1), re.MULTILINE)


def scan_imports(data: bytes, pattern: re.Pattern = _IMPORT_RE) -> list[list[Any]]:
    """The imports in a source text: ``[level, module, [names]]`` for ``from``
    imports, ``[0, module, None]`` for plain imports."""
    text = data.decode("utf-8", errors="replace")
    found: list[list[Any]] = []
    for match in pattern.finditer(text):
        source = match.group("from")
        if source is not None:
            level = len(source) - len(source.lstrip("."))
            module = source[level:]
            names = []
            for part in match.group("names").replace("\\\n", " ").strip("() \t").split(","):
                words = part.split()
                if words and _NAME_RE.fullmatch(words[0]) and words[0] != "*":
                    names.append(words[0])
            found.append([level, module, names])
            continue
        for part in match.group("modules").replace("\\\n", " ").split(","):
            words = part.split()
            if words and _NAME_RE.fullmatch(words[0]):
                found.append([0, words[0], None])
    return found
