"""Shared wording for messages whose consequence depends on the jit_syntax_level."""

from __future__ import annotations

from pylint.checkers import BaseChecker


def jit_syntax_level(checker: BaseChecker) -> str:
    return getattr(checker.linter.config, "jit_syntax_level", "lax")


def host_code_consequence(checker: BaseChecker, kind: str) -> str:
    """What happens to host (numpy, asnumpy, custom class) code applied to a runtime
    tensor, in graph code (kind "graph") or differentiated PyNative code."""
    if kind != "graph":
        return "the gradient through it is silently zero"
    if jit_syntax_level(checker) == "strict":
        return "it fails to compile under jit_syntax_level STRICT (under LAX the gradient through it is silently zero)"
    return "under the default LAX level it compiles through JIT fallback and the gradient through it is silently zero (STRICT: compile error)"


def spelled(node) -> str:
    """The callee as the user wrote it, for messages: ``np.exp``, ``self.helper``."""
    try:
        return node.as_string()
    except Exception:  # noqa: BLE001 - as_string on hostile trees
        return "<call>"

