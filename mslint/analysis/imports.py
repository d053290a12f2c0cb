"""The imports a source text makes: for the result cache's dependency keys
(mslint.run.cache), read with Python's own parser (every spelling Python
accepts: a ``)`` in a comment inside parentheses, a backslash continuation with
CRLF, a form feed...); and for the program graph (mslint.analysis.mode), with a
faster, generous scan of the text."""

from __future__ import annotations

import ast
import re
import warnings
from typing import Any

from mslint.analysis import forked

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
# Every import the parser would find, and a few more (for a pre-filter that must miss none).
ANY_IMPORT_RE = _IMPORT_RE


def scan_imports(data: bytes, pattern: re.Pattern | None = None) -> list[list[Any]]:
    """The imports in a source text: ``[level, module, [names]]`` for ``from``
    imports, ``[0, module, None]`` for plain imports, wherever they are (in a
    function, a ``try``, a branch). Read with Python's parser; a text it cannot
    parse (a syntax error, a newer Python's syntax) is scanned with the generous
    pattern instead (a module too many only costs a re-check). ``pattern``: scan
    with that pattern, never the parser (mslint.analysis.mode's fast scan)."""
    if pattern is None:
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")  # SyntaxWarning: an invalid escape, `x is 1`
                with forked.collector_paused():
                    tree = ast.parse(data)
        except (SyntaxError, ValueError, RecursionError, MemoryError):
            pattern = _IMPORT_RE
        else:
            return tree_imports(tree)
    return _pattern_imports(data, pattern)


# The fields that hold statements: an import statement is never inside an expression,
# so only these are walked (a tenth of the time of walking every node).
_STATEMENT_FIELDS = ("body", "handlers", "orelse", "finalbody", "cases")
_STATEMENT_HOLDERS = (ast.stmt, ast.excepthandler, ast.match_case)


def tree_imports(tree: ast.AST) -> list[list[Any]]:
    """The imports of a parsed file, in the order of the source."""
    found: list[list[Any]] = []
    pending: list[ast.AST] = [tree]
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Import):
            found.extend([0, alias.name, None] for alias in node.names)
            continue
        if isinstance(node, ast.ImportFrom):
            found.append([node.level or 0, node.module or "", [alias.name for alias in node.names if alias.name != "*"]])
            continue
        inner: list[ast.AST] = []
        for field in _STATEMENT_FIELDS:
            value = getattr(node, field, None)
            if isinstance(value, list):
                inner.extend(child for child in value if isinstance(child, _STATEMENT_HOLDERS))
        pending.extend(reversed(inner))
    return found


def _pattern_imports(data: bytes, pattern: re.Pattern) -> list[list[Any]]:
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
