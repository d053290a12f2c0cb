"""The exact edits a rule offers for a finding: text replacements computed from
astroid nodes while the file's tree is alive.

A checker offers a fix next to its ``add_message`` call: :func:`offer` records a
:class:`Patch` (text edits on the source plus an applicability) for the node the
message is added for, and the command's engine (mslint/run/engine.py) takes it
(:func:`take`) and attaches it to the finding, so that the result cache, JSON
and SARIF carry it. Outside the command (the pylint plugin) nothing is
recorded: :func:`offer` is a no-op and pylint never edits files.

Applicability: "safe" when the code as written cannot run or the edit is a pure
rename; "unsafe" when the edit changes what the code computes, toward what the
author evidently meant. Each rule declares which in mslint/knowledge/manifest.py.
Applying patches is mslint.report.patches' and mslint.report.fixes' work.
"""

from __future__ import annotations

import sys
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from astroid import nodes

SAFE = "safe"
UNSAFE = "unsafe"


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


# ---------------------------------------------------------------------------
# Offering a fix (checkers), taking it (the engine)
# ---------------------------------------------------------------------------

# (symbol, id(node)) -> patch, for the file being checked; None: not recording
_offered: dict[tuple[str, int], Patch] | None = None


def start_recording() -> None:
    """Record the fixes checkers offer (the mslint command's engine calls it)."""
    global _offered  # noqa: PLW0603
    _offered = {}


def offer(
    symbol: str, node: nodes.NodeNG, edits: Iterable[Edit | None] | None, description: str = "", *, unsafe: bool = False
) -> None:
    """Offer a fix for the finding of ``symbol`` about to be added for ``node``:
    its applicability is the one the rule declares in mslint/manifest.py (``unsafe``:
    this finding's fix changes what code that runs computes, so it is unsafe whatever
    the declaration), its description ``description`` or the declared one. ``edits``
    None or holding None (the fix cannot be made exactly): nothing is offered."""
    if _offered is None or edits is None:
        return
    from mslint.knowledge.manifest import BY_SYMBOL  # noqa: PLC0415

    declared = BY_SYMBOL[symbol].fix
    edits = tuple(edits)
    if declared is not None and edits and None not in edits and not _in_formatted_string(node):
        applicability = "unsafe" if unsafe else declared.applicability
        _offered[(symbol, id(node))] = Patch(description or declared.description, applicability, edits)


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


def module_alias(module: nodes.Module, qname: str, at: nodes.NodeNG | None = None) -> tuple[str | None, Edit | None]:
    """How ``module`` can spell the module ``qname`` (``mindspore.ops``): a name
    its imports bind to it (``ops``, ``P``), an attribute of an imported parent
    (``ms.ops``), or ``ops`` with an edit adding ``from mindspore import ops``
    after the last top-level import (the file's own style of import). (None,
    None) when the short name is taken by something else, in the module or,
    where the spelling is used (``at``), by a parameter or local of an
    enclosing function (``def construct(self, x, ops)``)."""
    spelling, edit = _module_alias(module, qname)
    if spelling is not None and at is not None and _shadowed(spelling.split(".", 1)[0], at, module):
        return None, None
    return spelling, edit


def _shadowed(name: str, at: nodes.NodeNG, module: nodes.Module) -> bool:
    """Whether ``name`` at ``at`` means a local of an enclosing scope, not the
    module's global (a class body's names are seen only in that body)."""
    from astroid import nodes as astroid_nodes  # noqa: PLC0415

    scope = at.scope()
    innermost = True
    while scope is not None and scope is not module:
        if name in scope.locals and (innermost or not isinstance(scope, astroid_nodes.ClassDef)):
            return True
        innermost = False
        scope = scope.parent.scope() if scope.parent is not None else None
    return False


def _module_alias(module: nodes.Module, qname: str) -> tuple[str | None, Edit | None]:
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


def add_line_after(node: nodes.NodeNG, text: str) -> Edit | None:
    """A new line ``text`` right after the statement ``node`` (after its whole
    block), indented as ``node`` is; None when that cannot be made exactly."""
    data = _module_bytes(node)
    if data is None or node.lineno is None or node.end_lineno is None:
        return None
    lines = data.split(b"\n")
    if not 0 < node.lineno <= node.end_lineno <= len(lines):
        return None
    indent = lines[node.lineno - 1][: node.col_offset]
    if indent.strip():
        return None  # ``x = 1; def f(): ...``: not at the start of its line
    prefix = indent.decode("utf-8")
    if node.end_lineno < len(lines):
        return Edit(node.end_lineno + 1, 0, node.end_lineno + 1, 0, f"{prefix}{text}\n")
    end = len(lines[-1].rstrip(b"\r"))  # the file's last line, without a final newline
    return Edit(node.end_lineno, end, node.end_lineno, end, f"\n{prefix}{text}")


def _module_bytes(node: nodes.NodeNG) -> bytes | None:
    data = getattr(node.root(), "file_bytes", None)
    if isinstance(data, str):
        data = data.encode("utf-8")
    return data if isinstance(data, bytes) else _file_bytes(node.root().file)


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


def drop_method(call: nodes.Call) -> Edit | None:
    """``receiver.old(args)`` -> ``receiver(args)``: the attribute is deleted."""
    receiver, func = getattr(call.func, "expr", None), call.func
    if receiver is None or receiver.end_lineno is None or func.end_lineno is None:
        return None
    return Edit(receiver.end_lineno, receiver.end_col_offset, func.end_lineno, func.end_col_offset, "")


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


def char_column(line_text: str | None, byte_offset: int) -> int:
    """The 0-based character offset of a UTF-8 byte offset into ``line_text``."""
    if byte_offset <= 0 or not line_text:
        return max(byte_offset, 0)
    encoded = line_text.encode("utf-8")
    if byte_offset >= len(encoded):
        return len(line_text) + (byte_offset - len(encoded))
    return len(encoded[:byte_offset].decode("utf-8", errors="ignore"))
