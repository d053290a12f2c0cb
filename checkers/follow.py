"""Graph code in other modules of the project: a helper in ``utils.py`` called
from construct, a method of a base Cell of another module called as
``self.pre(x)``.

When graph or differentiated code of the module being checked (the home module)
calls a function of another module of the user's project (never an installed
library's: mslint.analysis.resolve.project_function), the callee runs as graph code
too, with the tensors the call passes. After pylint walks the home module, the
graph checkers (those with mslint.checkers.messages.GraphModeNote) walk each such callee
in a view of it (mslint.analysis.scope.ModuleAnalysis.following: the callee, what it
calls to a bounded depth, the home module's mode), and each finding there is
reported at the call, where the user can act on it, with the rule's own message
and the callee's place appended::

    ... (in helper() at utils.py:12, called from graph code here)

The path is relative to the home module's folder. ``Finding.related``
(mslint.report.findings) reads that place back from the message, for SARIF's
``relatedLocations`` and the JSON output. The ``mslint`` command and ``pylint --load-plugins mslint`` both
get here through the checkers, so their messages are the same. One finding per
call, offending line and rule, but not a line of the callee in a branch this
call never takes (``if mode is None:`` where it omits ``mode``: what the call
writes or leaves to a default, mslint.analysis.values.guarded_off_by_call), except
for syntax, which MindSpore parses in every branch. The callee's module, when it
has graph code of its own calling it, reports the line there too.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field
from pathlib import PurePath
from typing import TYPE_CHECKING, Any

from astroid import nodes

from mslint.knowledge import apis
from mslint.analysis import compiled, resolve, scope, values
from mslint.analysis.places import place_note
from mslint.checkers import pylint_hooks

if TYPE_CHECKING:
    from pylint.lint import PyLinter


# Rules about a function's syntax: MindSpore parses a compiled function whole, so
# they hold in branches never taken too (measured on 2.10: a ``try`` under an
# ``else`` a constant test never reaches still fails to compile), while a
# function called only there is never compiled.
PARSE_ERRORS = frozenset({"ms-unsupported-syntax-in-graph", "ms-import-in-graph", "ms-loop-variable-after-loop"})


@dataclass
class _Walk:
    """The followed walk under way: its view and the calls it reports at."""

    view: scope.ModuleAnalysis
    calls: list[nodes.Call]
    kind: str
    callee: nodes.FunctionDef  # the function the calls run
    through: str  # its name as messages show it
    skips_self: dict[nodes.Call, bool]  # per call: whether it skips the callee's ``self``
    # (call, path, line, message id) already reported for the home module
    reported: set[tuple[Any, ...]] = field(default_factory=set)


_WALKING: list[_Walk] = []


def follow_calls(linter: PyLinter, module: nodes.Module) -> None:
    """Walk, with the graph checkers, the code of other modules that the graph
    code of ``module`` calls (once per module, whichever checker asks first)."""
    home = scope.analysis(module)
    if home.followed or home.home is not None:
        return
    home.followed = True
    if not home.foreign_calls:
        return
    groups: dict[tuple[Any, ...], list[nodes.Call]] = {}
    for (call, callee), (_, skips_self) in home.foreign_calls.items():
        found = home.enclosing(call)
        if found is not None:
            kind = found[1]
        elif home.at_compile_time(call):
            kind = scope.COMPILE_TIME
        else:
            continue
        known = home.values_at(call)
        tensors = frozenset(values.tensor_parameters_of_call(callee, call, skips_self, known)) if known else frozenset()
        typed = compiled.tensor_arguments(callee, call, skips_self, home)
        key = (callee, kind, tensors, home.compiled_in_every_mode(call), home.bytecode_only(call), typed)
        calls = groups.setdefault(key, [])
        if call not in calls:
            calls.append(call)
    walker = pylint_hooks.walker(linter, [checker for checker in linter.get_checkers() if isinstance(checker, GraphModeNote)])
    reported: set[tuple[Any, ...]] = set()
    for (callee, kind, tensors, everywhere, bytecode, typed), calls in groups.items():
        depth = len(_WALKING)
        view_kind = scope.kind_of_callee(callee, kind)
        if view_kind is None:
            continue
        try:
            view = scope.ModuleAnalysis.following(home, callee, view_kind, tensors, everywhere, bytecode, typed)
            _WALKING.append(_Walk(
                view, calls, kind if kind != scope.COMPILE_TIME else scope.GRAPH, callee, _function_name(callee),
                {call: home.foreign_calls[(call, callee)][1] for call in calls}, reported,
            ))
            with scope.viewing(view):
                for func in view.followed_functions():
                    walker.walk(func)
        except Exception:  # noqa: BLE001 - code of another module must not stop this one's check
            if os.environ.get("MSLINT_DEBUG"):
                raise
        finally:
            del _WALKING[depth:]


def walking() -> bool:
    """Whether the checkers are walking the callees of a module's graph or
    differentiated code (follow_calls), not the module itself."""
    return bool(_WALKING)


def redirect(msgid: str, node: nodes.NodeNG | None) -> list[tuple[nodes.Call, str]] | None:
    """Where a message the checkers add at ``node`` goes: None outside a
    followed walk (at ``node``); else (call, what to append to the message) for
    each call of the home module that reaches it, not reported there yet."""
    if not _WALKING or node is None:
        return None
    walk = _WALKING[-1]
    home = walk.view.home
    module = node.root()
    if module is home:
        return None
    if _never_run_for_tensors(node, walk.view, msgid in PARSE_ERRORS):
        return []
    path = _shown_path(getattr(module, "file", None), getattr(home, "file", None)) or module.name
    line = node.fromlineno or 0
    place = place_note(_function_name(node), path, line, walk.kind, walk.through)
    targets = []
    for call in walk.calls:
        if compiled.never_compiled(call, scope.analysis(home), False):
            continue  # the call itself is in code graph mode never compiles: so is what it runs
        if msgid not in PARSE_ERRORS and node.frame() is walk.callee \
                and values.guarded_off_by_call(node, walk.callee, call, walk.skips_self[call]):
            continue  # a branch of the callee this call's arguments never take (``if mode is None:``)
        key = (call, path, line, msgid)
        if key not in walk.reported:
            walk.reported.add(key)
            targets.append((call, place))
    return targets


def calls_into(func: nodes.NodeNG) -> list[tuple[nodes.Call, bool, scope.ModuleAnalysis]]:
    """In a followed walk of ``func`` (a function of another module that graph or
    differentiated code of the home module calls): (the home module's call, whether
    it skips ``self``, the home module's analysis) for each call that runs it;
    empty elsewhere."""
    if not _WALKING or _WALKING[-1].callee is not func:
        return []
    walk = _WALKING[-1]
    home = scope.analysis(walk.view.home)
    return [(call, walk.skips_self[call], home) for call in walk.calls]


def _never_run_for_tensors(
    node: nodes.NodeNG, view: scope.ModuleAnalysis, parsed: bool, seen: frozenset = frozenset()
) -> bool:
    """Whether ``node`` is in a branch taken only for host arrays, where the
    tensors graph code passes never go (``if isinstance(x, np.ndarray): ...``,
    in helpers that take a tensor or a numpy array; compiling folds the test),
    or in a function the view reaches only from such branches. With ``parsed``
    (a problem of the function's syntax), only the latter: a function
    compiled is parsed whole, its branches never taken included."""
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, (nodes.FunctionDef, nodes.Module)):
        if not parsed and isinstance(parent, (nodes.If, nodes.IfExp)) and _host_array_test(parent.test, view):
            taken = parent.body if isinstance(parent, nodes.If) else [parent.body]
            if child in taken:
                return True
        child, parent = parent, parent.parent
    func = parent if isinstance(parent, nodes.FunctionDef) else None
    if func is None or func in view.seeds or func in seen:
        return False
    sites = view.call_sites.get(func)
    return bool(sites) and all(_never_run_for_tensors(call, view, False, seen | {func}) for call, _, _ in sites)


def _host_array_test(test: nodes.NodeNG, view: scope.ModuleAnalysis) -> bool:
    """``isinstance(x, np.ndarray)`` (or a tuple of host array types) with ``x``
    a name holding a tensor graph code passed, or an item of one (``xs[0]``, the
    first of a tuple of tensors); or an ``and`` of tests one of which is that
    (``xs and isinstance(xs[0], np.ndarray)``): the arm runs only when it holds."""
    if isinstance(test, nodes.BoolOp) and test.op == "and":
        return any(_host_array_test(value, view) for value in test.values)
    if not (isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "isinstance"):
        return False
    if len(test.args) != 2:
        return False
    subject = test.args[0]
    if isinstance(subject, nodes.Subscript) and isinstance(subject.slice, nodes.Const):
        subject = subject.value  # an item of a tuple or list of tensors is a tensor
    if not isinstance(subject, nodes.Name):
        return False
    kinds = test.args[1].elts if isinstance(test.args[1], nodes.Tuple) else [test.args[1]]
    if not all(resolve.qualified_name(kind) in apis.HOST_ARRAY_TYPES for kind in kinds):
        return False
    return view.depends_on_tensor(test.args[0])


def _function_name(node: nodes.NodeNG) -> str:
    """``helper`` or ``Base.pre``: the function whose body holds ``node``."""
    frame = node.frame()
    while isinstance(frame, nodes.Lambda) and frame.parent is not None:
        frame = frame.parent.frame()
    if not isinstance(frame, nodes.FunctionDef):
        return "<lambda>"
    if isinstance(frame.parent, nodes.ClassDef):
        return f"{frame.parent.name}.{frame.name}"
    return frame.name


def _shown_path(path: str | None, home_file: str | None) -> str | None:
    """``path`` as a message shows it: relative to the home module's folder."""
    if not path:
        return None
    if not home_file:
        return PurePath(path).as_posix()
    try:  # real paths: astroid names an imported module's file by its real path
        relative = os.path.relpath(os.path.realpath(path), os.path.dirname(os.path.realpath(home_file)))
    except ValueError:  # another drive on Windows
        return PurePath(path).as_posix()
    return PurePath(relative).as_posix()


class GraphModeNote:
    """Mixed into the checkers of graph-only rules, whose message templates all end
    in ``%s``: it fills that with what the message must add when the program's
    mode was assumed rather than read (mslint.analysis.scope.ModuleAnalysis.mode_note).

    These checkers also check the code of other modules that graph code calls
    (below): once pylint has walked a module, they walk the callees, and
    a message there goes to the calls, with the callee's place appended.

    A message about code the programs never compile is dropped
    (mslint.analysis.compiled.never_compiled: a branch graph mode folds away, such
    as ``if not self.training:`` in code the programs only train, or a Cell called
    only there); a problem of the function's syntax (PARSE_ERRORS) only in the latter."""

    def add_message(self, msgid, line=None, node=None, args=None, **kwargs):
        if node is not None and compiled.never_compiled(node, scope.analysis(node.root()), msgid in PARSE_ERRORS):
            return  # the programs never compile it: a branch graph mode folds away, a Cell called only there
        note = scope.analysis(node.root()).mode_note(node) if node is not None else ""
        if args is None:
            args = ()
        elif not isinstance(args, tuple):
            args = (args,)
        targets = redirect(msgid, node)
        if targets is None:
            super().add_message(msgid, line, node, (*args, note), **kwargs)  # type: ignore[misc]
            return
        confidence = {"confidence": kwargs["confidence"]} if kwargs.get("confidence") is not None else {}
        for call, place in targets:  # at the call, whatever line and columns ``node`` had
            super().add_message(msgid, None, call, (*args, note + place), **confidence)  # type: ignore[misc]

    def leave_module(self, node) -> None:
        follow_calls(self.linter, node)  # type: ignore[attr-defined]
