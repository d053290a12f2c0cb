"""Shared wording for messages whose consequence depends on the jit_syntax_level."""

from __future__ import annotations

from pylint.checkers import BaseChecker

from mslint import values


def jit_syntax_level(checker: BaseChecker) -> str:
    return getattr(checker.linter.config, "jit_syntax_level", "lax")


def export_consequence(exported_by: str) -> str:
    """The consequence of JIT-fallback code in a module that is compiled only to be
    exported (mslint.scope.EXPORT): measured, mindspore.export compiles under STRICT
    whatever the context selects (tests/oracle/test_graph.py)."""
    return (
        f"{exported_by} exports it, and mindspore.export compiles under jit_syntax_level STRICT whatever "
        "the context selects: there it fails to compile"
    )


def host_code_consequence(checker: BaseChecker, kind: str, loses_gradient: bool = True, use: str = values.DATA) -> str:
    """What happens to host (numpy, asnumpy, custom class) code applied to a runtime
    tensor, in graph code (kind "graph") or differentiated PyNative code.
    ``loses_gradient`` False: nothing is lost under LAX, only STRICT's compile error
    is a harm; ``use`` (mslint.values.DATA, STRUCTURE, UNSURE): how the value reaches
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



class GraphModeNote:
    """Mixed into the checkers of graph-only rules, whose message templates all end
    in ``%s``: it fills that with what the message must add when the program's
    mode was assumed rather than read (mslint.scope.ModuleAnalysis.mode_note).

    These checkers also check the code of other modules that graph code calls
    (mslint.follow): once pylint has walked a module, they walk the callees, and
    a message there goes to the calls, with the callee's place appended."""

    def add_message(self, msgid, line=None, node=None, args=None, **kwargs):
        from mslint import follow, scope  # noqa: PLC0415

        note = scope.analysis(node.root()).mode_note(node) if node is not None else ""
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        targets = follow.redirect(msgid, node)
        if targets is None:
            super().add_message(msgid, line, node, (*args, note), **kwargs)  # type: ignore[misc]
            return
        confidence = {"confidence": kwargs["confidence"]} if kwargs.get("confidence") is not None else {}
        for call, place in targets:  # at the call, whatever line and columns ``node`` had
            super().add_message(msgid, None, call, (*args, note + place), **confidence)  # type: ignore[misc]

    def leave_module(self, node) -> None:
        from mslint import follow  # noqa: PLC0415

        follow.follow_calls(self.linter, node)  # type: ignore[attr-defined]
