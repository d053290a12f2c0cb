"""Worker side: build the module's real Cells, recording where each is created.

Runtime mode judges a finding on the objects the program itself builds, not on
the literals of the flagged line: while the module's Cells are built,
:class:`Recorder` notes where (file and line of the creating call, from the
stack) every Cell is created, and for the layer classes of the layer findings,
the argument values the program computed (kernel sizes from configs, groups
from variables) with the instance, or the error construction raised.

How Cells are built, without configuration (:func:`build_module`):

1. each Cell class of the module whose constructor takes no required argument;
2. the module's own factories: module-level functions that build and return a
   Cell (a model registry's ``resnet50(pretrained=False, ...)``): a function
   whose return annotation is a Cell class, or whose ``return`` is a call of a
   Cell class or of another factory (or a name bound to one), called with no
   required argument and ``pretrained=False`` where it takes one;

until every flagged line has been reached and every Cell class asked for has
an instance, or the time budget is spent. ``[tool.mslint.confirm]`` and the
``# mslint:`` hint stay overrides (applied by the worker before this).

Worker-only: imports mindspore through the worker, runs the user's code.
"""

from __future__ import annotations

import ast
import inspect
import os
import sys
import time
from dataclasses import dataclass, field
from typing import Any

from mslint.confirm.errors import first_useful_line


@dataclass
class Made:
    """One construction of a flagged layer class: the values it got, and the
    instance or the error construction raised."""

    args: tuple
    kwargs: dict
    instance: Any = None
    error: BaseException | None = None
    recipe: str = ""


@dataclass
class Recorder:
    """Wraps ``nn.Cell.__init__`` (every Cell: the first instance of each
    class, and how it was made) and the ``__init__`` of the given layer classes
    (the arguments, at the creating call's file and line)."""

    cell_class: type
    layer_classes: list = field(default_factory=list)
    layers: dict = field(default_factory=dict)  # (realpath, line) -> [Made]
    first: dict = field(default_factory=dict)  # class -> (instance, recipe)
    recipe: str = ""
    _saved: list = field(default_factory=list)

    def __enter__(self) -> Recorder:
        self._wrap(self.cell_class, self._cell_init)
        for cls in self.layer_classes:
            self._wrap(cls, self._layer_init)
        return self

    def __exit__(self, *exc_info) -> None:
        for cls, had, original in reversed(self._saved):
            if had:
                cls.__init__ = original
            else:
                del cls.__init__
        self._saved.clear()

    def _wrap(self, cls: type, make) -> None:
        if any(saved[0] is cls for saved in self._saved):
            return
        had = "__init__" in cls.__dict__
        original = cls.__init__
        self._saved.append((cls, had, cls.__dict__.get("__init__")))
        cls.__init__ = make(original)

    def _cell_init(self, original):
        recorder = self

        def __init__(cell, *args, **kwargs):  # noqa: N807 - stands in for Cell.__init__
            original(cell, *args, **kwargs)
            recorder.first.setdefault(type(cell), (cell, recorder.recipe))

        return __init__

    def _layer_init(self, original):
        recorder = self

        def __init__(layer, *args, **kwargs):  # noqa: N807 - stands in for the layer's __init__
            made = Made(args, dict(kwargs), recipe=recorder.recipe)
            site = creation_site(layer)
            if site is not None:
                recorder.layers.setdefault(site, []).append(made)
            try:
                original(layer, *args, **kwargs)
            except BaseException as error:
                made.error = error
                raise
            made.instance = layer

        return __init__

    def made_at(self, path: str, line: int, cls: type) -> Made | None:
        """The first construction of ``cls`` (or a subclass) created at the line."""
        for made in self.layers.get((os.path.realpath(path), line), ()):
            if made.error is not None or isinstance(made.instance, cls):
                return made
        return None

    def instance_of(self, name: str, module_name: str):
        """(instance, recipe) of the module's class ``name`` built so far, or None."""
        for cls, found in self.first.items():
            if cls.__name__ == name and cls.__module__ == module_name:
                return found
        return None


def creation_site(instance) -> tuple[str, int] | None:
    """(real path, line) of the call creating ``instance``: the first frame up
    the stack that is not one of its own ``__init__`` methods (super() chain)."""
    frame = sys._getframe(2)  # noqa: SLF001 - the caller of the wrapped __init__
    while frame is not None and frame.f_locals.get("self") is instance:
        frame = frame.f_back
    while frame is not None and frame.f_code.co_name == "__init__" and any(
        value is instance for value in frame.f_locals.values()
    ):
        frame = frame.f_back  # an __init__ whose first parameter is not called self
    if frame is None:
        return None
    line = frame.f_lineno
    try:  # the start of the call expression, when it spans several lines
        positions = list(frame.f_code.co_positions())
        start = positions[frame.f_lasti // 2][0]
        line = start or line
    except (AttributeError, IndexError):
        pass
    return os.path.realpath(frame.f_code.co_filename), line


# -- what to build -------------------------------------------------------------
def cell_classes(module, cell_class: type) -> list[type]:
    """The Cell classes defined in the module, in source order."""
    found = [
        value
        for value in vars(module).values()
        if isinstance(value, type) and issubclass(value, cell_class) and value.__module__ == module.__name__
    ]
    return sorted(found, key=source_line)


def required_params(func) -> list[str] | None:
    """The parameters a call must give (None when the signature is unreadable)."""
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError):
        return None
    return [
        name
        for name, param in signature.parameters.items()
        if param.default is param.empty and param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)
    ]


def factories(module, cell_class: type) -> list:
    """The module's functions that build and return a Cell, in source order."""
    try:
        tree = ast.parse(inspect.getsource(module))
    except (OSError, TypeError, SyntaxError, ValueError):
        return []
    namespace = vars(module)

    def is_cell(name: str) -> bool:
        value = namespace.get(name)
        return isinstance(value, type) and issubclass(value, cell_class)

    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    found: set[str] = set()
    for name, node in functions.items():
        annotation = node.returns
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            annotation = ast.Name(annotation.value)
        if isinstance(annotation, ast.Name) and is_cell(annotation.id):
            found.add(name)
    changed = True
    while changed:  # a factory may return another factory's result
        changed = False
        for name, node in functions.items():
            if name not in found and _returns_built(node, lambda callee: is_cell(callee) or callee in found):
                found.add(name)
                changed = True
    result = []
    for name in sorted(found, key=lambda item: functions[item].lineno):
        value = namespace.get(name)
        if callable(value) and getattr(value, "__module__", None) == module.__name__:
            result.append(value)
    return result


def by_family(functions: list) -> list:
    """Factories in rounds: the first of each family (``efficientnet_b0``,
    ``efficientnet_v2_s``, ``resnet18``: the name without its last ``_part``
    and trailing digits), then the second of each, ...: a registry's variants
    of one model build the same classes, another family builds others."""
    families: dict[str, list] = {}
    for func in functions:
        name = func.__name__
        key = (name.rsplit("_", 1)[0] if "_" in name.strip("_") else name).rstrip("0123456789")
        families.setdefault(key, []).append(func)
    ordered = []
    for round_ in range(max((len(members) for members in families.values()), default=0)):
        ordered.extend(members[round_] for members in families.values() if round_ < len(members))
    return ordered


def _returns_built(func: ast.FunctionDef, builds) -> bool:
    bound: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, ast.Assign) and _call_name(node.value) and builds(_call_name(node.value)):
            bound.update(target.id for target in node.targets if isinstance(target, ast.Name))
    for node in ast.walk(func):
        if isinstance(node, ast.Return) and node.value is not None:
            callee = _call_name(node.value)
            if callee and builds(callee):
                return True
            if isinstance(node.value, ast.Name) and node.value.id in bound:
                return True
    return False


def _call_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name):
        return node.func.id
    return None


def source_line(obj) -> int:
    try:
        return inspect.getsourcelines(obj)[1]
    except (OSError, TypeError):
        return 0


def _error_text(error: BaseException) -> str:
    line = first_useful_line(str(error))
    return f"{type(error).__name__}: {line}" if line else type(error).__name__


@dataclass
class Built:
    """What building the module's Cells did: each attempt and how it ended."""

    tried: list[str] = field(default_factory=list)
    spent: float = 0.0
    out_of_time: bool = False

    def summary(self, limit: int = 4) -> str:
        shown = ", ".join(self.tried[:limit])
        more = f" and {len(self.tried) - limit} more" if len(self.tried) > limit else ""
        return (shown + more) if shown else "nothing could be built"


def build_module(module, recorder: Recorder, done, budget: float) -> Built:
    """Build the module's Cells (zero-argument classes, then factories) under
    ``recorder`` until ``done()`` or the budget (seconds) is spent."""
    built = Built()
    started = time.monotonic()
    cell_class = recorder.cell_class
    candidates = [(cls.__name__, cls, {}) for cls in cell_classes(module, cell_class) if required_params(cls) == []]
    for func in by_family(factories(module, cell_class)):
        required = required_params(func)
        if required is None or set(required) - {"pretrained"}:
            continue
        params = inspect.signature(func).parameters
        kwargs = {"pretrained": False} if "pretrained" in params else {}
        candidates.append((func.__name__, func, kwargs))
    for name, func, kwargs in candidates:
        if done():
            break
        if time.monotonic() - started > budget:
            built.out_of_time = True
            break
        shown = f"{name}({', '.join(f'{key}={value!r}' for key, value in kwargs.items())})"
        recorder.recipe = shown
        try:
            with recorder:
                func(**kwargs)
            built.tried.append(shown)
        except Exception as error:  # noqa: BLE001 - the user's code: note it, go on
            built.tried.append(f"{shown} raised {_error_text(error)[:120]}")
        finally:
            recorder.recipe = ""
    built.spent = time.monotonic() - started
    return built
