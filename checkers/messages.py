"""Shared wording of the checkers' messages: consequences that depend on the
jit_syntax_level, how a call is spelled; whether a message can be reported at all."""

from __future__ import annotations

import os

from astroid import nodes
from pylint.checkers import BaseChecker

from mslint.analysis import programs, values


def jit_syntax_level(checker: BaseChecker) -> str:
    """The level the code being checked compiles under: STRICT where the setting
    or the programs that compile it select it (``set_context(jit_syntax_level=
    STRICT)``, mslint.analysis.programs), else LAX."""
    setting = getattr(checker.linter.config, "jit_syntax_level", "lax")
    if setting == "strict":
        return setting
    current = getattr(checker.linter, "current_file", None)
    return "strict" if current and programs.module_decision(current).syntax_level == "strict" else setting


def export_consequence(exported_by: str) -> str:
    """The consequence of JIT-fallback code in a module that is compiled only to be
    exported (mslint.analysis.scope.EXPORT): measured, mindspore.export compiles under STRICT
    whatever the context selects (tests/oracle/test_graph.py)."""
    return (
        f"{exported_by} exports it, and mindspore.export compiles under jit_syntax_level STRICT whatever "
        "the context selects: there it fails to compile"
    )


def host_code_consequence(checker: BaseChecker, kind: str, loses_gradient: bool = True, use: str = values.DATA) -> str:
    """What happens to host (numpy, asnumpy, custom class) code applied to a runtime
    tensor, in graph code (kind "graph") or differentiated PyNative code.
    ``loses_gradient`` False: nothing is lost under LAX, only STRICT's compile error
    is a harm; ``use`` (mslint.analysis.values.DATA, STRUCTURE, UNSURE): how the value reaches
    tensor operations, which then run through JIT fallback."""
    if kind != "graph":
        return "the gradient through it is silently zero"
    if jit_syntax_level(checker) == "strict":
        if not loses_gradient:
            return "it fails to compile under jit_syntax_level STRICT"
        return "it fails to compile under jit_syntax_level STRICT (under LAX the gradient through it is silently zero)"
    if use == values.STRUCTURE:
        return (
            "under the default LAX level the operation taking it as a shape, size or index runs through JIT "
            "fallback and its gradient is silently zero or fails (STRICT: compile error)"
        )
    if use == values.UNFOLLOWED:
        return (
            "under the default LAX level it is a JIT fallback value, and the tensor operations it reaches lose "
            "their gradient or fail (STRICT: compile error)"
        )
    return "under the default LAX level it compiles through JIT fallback and the gradient through it is silently zero (STRICT: compile error)"


def spelled(node) -> str:
    """The callee as the user wrote it, for messages: ``np.exp``, ``self.helper``."""
    try:
        return node.as_string()
    except Exception:  # noqa: BLE001 - as_string on hostile trees
        return "<call>"


def may_report(linter, symbol: str) -> bool:
    """Whether ``symbol`` can be reported in the file being checked: enabled, or
    named by one of the file's pragmas (which may enable it on some lines). A
    rule that is off skips its analysis: its findings would be dropped."""
    if linter.is_message_enabled(symbol):
        return True
    states = getattr(getattr(linter, "file_state", None), "_module_msgs_state", None)
    if not isinstance(states, dict):
        return True  # another pylint: do the work
    try:
        msgids = linter.msgs_store.message_id_store.get_active_msgids(symbol)
    except Exception:  # noqa: BLE001 - an unknown message: do the work
        return True
    return any(msgid in states for msgid in msgids)


def in_other_file(node: nodes.NodeNG, here: nodes.NodeNG) -> str:
    """`` of ../train.py``: the file of ``node``, relative to ``here``'s, when it is
    another module; empty in the same one."""
    there, mine = node.root().file, here.root().file
    if there and mine and os.path.realpath(there) != os.path.realpath(mine):
        return f" of {os.path.relpath(there, os.path.dirname(mine))}"
    return ""


def place(node: nodes.NodeNG, here: nodes.NodeNG) -> str:
    """``line 12``, with the file relative to ``here``'s when it is another module."""
    return f"line {node.lineno}{in_other_file(node, here)}"
