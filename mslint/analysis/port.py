"""Which modules are ports from PyTorch, as the code shows it.

The port rules (ms-conv-implicit-pad-mode, ms-pool-implicit-stride,
ms-layer-default-differs: mslint.knowledge.manifest, ``port=True``) compare a
mindspore.nn layer's defaults with PyTorch's. Native MindSpore code means
MindSpore's defaults, so they are off by default; a module ported from PyTorch
needs exactly them. The ``mslint`` command turns them on where the code shows it
is a port (mslint.report.ports):

- the code carries PyTorch idioms mslint flags (the evidence rules:
  ``manifest.PORT_EVIDENCE``, read from the module's findings, in the same
  top-level class or function as the port-rule finding, or at module level);
- the project keeps the PyTorch original beside it: a file of the project that
  imports torch defines classes with the same names as the module's, or the file
  of the same name in a sibling tree does (``SparseTSF（P）/layers/Embed.py``
  beside ``SparseTSF（M）/layers/Embed.py``) (:func:`pytorch_originals`);
- the user says so: ``[tool.mslint] port-from = "pytorch"`` or ``--port``.

Where the original is in sight, the port rules compare a layer with what the
original really passes (:func:`original_layer`): the layer is found in the same
method of the same class, by the attribute that holds it or by its rank among
the calls of that layer class there. Read with regular expressions over the bytes
of the project's files, and the original parsed with :mod:`ast`: nothing is
imported.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Iterator
from typing import NamedTuple

from mslint.analysis import forked, sites
from mslint.analysis.astutil import UNKNOWN

PORT_FROM = ("pytorch",)

_IMPORT_TORCH_LINE = re.compile(rb"[ \t]*(?:import[ \t]+torch\b|from[ \t]+torch[\w.]*[ \t]+import\b)")
_IMPORT_MINDSPORE_LINE = re.compile(rb"[ \t]*(?:import[ \t]+mindspore\b|from[ \t]+mindspore[\w.]*[ \t]+import\b)")
_CLASS_LINE = re.compile(rb"[ \t]*class[ \t]+([A-Za-z_]\w*)")


def _line_matches(data: bytes, word: bytes, line: re.Pattern[bytes]) -> Iterator[re.Match[bytes]]:
    """``line`` matched from the start of each line of ``data`` that holds ``word``.
    Only those lines are tried: a regular expression anchored at every line start
    of every file was most of the time this module took on a large corpus."""
    found = data.find(word)
    while found != -1:
        matched = line.match(data, data.rfind(b"\n", 0, found) + 1)
        if matched:
            yield matched
        end = data.find(b"\n", found)
        if end == -1:
            return
        found = data.find(word, end)


def _class_names(data: bytes) -> list[bytes]:
    """The names of the classes ``data`` defines (a line opening with ``class``)."""
    return [matched.group(1) for matched in _line_matches(data, b"class", _CLASS_LINE)]


def _imports_torch(data: bytes) -> bool:
    return next(_line_matches(data, b"torch", _IMPORT_TORCH_LINE), None) is not None


def _imports_mindspore(data: bytes) -> bool:
    return next(_line_matches(data, b"mindspore", _IMPORT_MINDSPORE_LINE), None) is not None


# Names too generic to say that two files hold the same model.
_GENERIC_CLASSES = frozenset({"Net", "Model", "Config", "Args", "Trainer", "Dataset", "Block", "Identity", "MLP"})


def _original_folder(path: str) -> str:
    """Where a module's PyTorch original may be: its project folder, or the folder
    above it when PyTorch code sits right there (a ``MindSpore/`` folder beside the
    PyTorch scripts it ports) and the project folder is no repository's root."""
    folder = sites.project_folder(path)
    parent = os.path.dirname(folder)
    if parent == folder or os.path.dirname(parent) == parent:
        return folder
    if any(os.path.exists(os.path.join(folder, marker)) for marker in _REPOSITORY_MARKERS):
        return folder  # the repository's own root: the folder above holds other projects
    try:
        scripts = sorted(name for name in os.listdir(parent) if name.endswith(".py"))[:50]
    except OSError:
        return folder
    for name in scripts:  # PyTorch code right there, beside the port's folder
        data = sites.read_source(os.path.join(parent, name))
        if data is not None and _imports_torch(data):
            return parent
    return folder


def _torch_classes(folder: str, cache: dict[str, dict[str, str]]) -> dict[str, str]:
    """Class name -> the torch file of the folder's project that defines it."""
    known = cache.get(folder)
    if known is None:
        known = {}
        for path in sites.python_files(folder):
            data = sites.read_source(path)
            if data is None or not _imports_torch(data) or _imports_mindspore(data):
                continue
            for name in _class_names(data):
                known.setdefault(name.decode("ascii", "replace"), path)
        cache[folder] = known
    return known


def pytorch_originals(paths: list[str], cache: dict[str, dict[str, str]] | None = None) -> dict[str, str]:
    """For each MindSpore module among ``paths`` whose project keeps PyTorch code
    defining classes of the same names (two or more, or one that is not a generic
    name such as ``Net``): why it reads as a port, naming that code. ``cache``
    receives the torch classes of each folder read (_torch_classes)."""
    cache = {} if cache is None else cache
    reasons: dict[str, str] = {}
    for path in paths:
        data = sites.read_source(path)
        if data is None or not _imports_mindspore(data) or _imports_torch(data):
            continue
        mine = {name.decode("ascii", "replace") for name in _class_names(data)}
        if not mine:
            continue
        torch_classes = dict(_mirrored_classes(path))
        torch_classes.update(_torch_classes(_original_folder(path), cache))
        shared = sorted(name for name in mine if name in torch_classes)
        if len(shared) < 2 and not any(name not in _GENERIC_CLASSES for name in shared):
            continue
        original = torch_classes[shared[0]]
        where = os.path.relpath(original, os.path.dirname(os.path.abspath(path)))
        reasons[os.path.abspath(path)] = f"its PyTorch original {where} defines {', '.join(shared[:3])}"
    return reasons


# project folder -> class name -> torch file (kept by the command's main process across
# its workers, forked.carried, and given what its background read, offer_torch_classes)
_ORIGINALS: dict[str, dict[str, str]] = forked.carried("port.originals", {})
_ORIGINALS_LIMIT = 256  # folders (the benchmark's corpus has 18: a limit of 16 read them again and again)
_REPOSITORY_MARKERS = (".git", "setup.py", "pyproject.toml", "setup.cfg")
# How far above a port's folder a sibling tree holding its original is looked for,
# and how many sibling folders each level looks into.
_MIRROR_LEVELS = 4
_MIRROR_SIBLINGS = 32


def _is_torch_file(data: bytes | None) -> bool:
    return data is not None and _imports_torch(data) and not _imports_mindspore(data)


def _mirrored_file(path: str) -> str | None:
    """The PyTorch file at the same place in a sibling tree (a repository that keeps
    ``model（P）/layers/embed.py`` beside the port ``model（M）/layers/embed.py``): for
    each folder above the port's (up to _MIRROR_LEVELS, not past a repository's
    root), the same relative path under each sibling of that folder."""
    path = os.path.abspath(path)
    folder = os.path.dirname(path)
    for _ in range(_MIRROR_LEVELS):
        parent = os.path.dirname(folder)
        if parent == folder or _is_repository_root(folder):
            return None  # the repository's root: the folders beside it are other projects
        tail = os.path.relpath(path, folder)
        first = tail.split(os.sep, 1)[0]
        siblings = _siblings(parent)
        if siblings is None:
            return None
        for sibling, inside in siblings:
            if inside is None or first not in inside or sibling == folder:
                continue  # (inside None: a file, or a folder that cannot be read)
            candidate = os.path.join(sibling, tail)
            if os.path.isfile(candidate) and _is_torch_file(sites.read_source(candidate)):
                return candidate
        folder = parent
    return None


# Folder listings and repository-root tests, asked of the same folders for every
# file below them (each file looks at up to _MIRROR_LEVELS parents and their
# siblings); kept for one run (forget()).
_LISTINGS: dict[str, frozenset[str] | None] = {}
_ROOTS: dict[str, bool] = {}


def _listing(folder: str) -> frozenset[str] | None:
    found = _LISTINGS.get(folder, False)
    if found is False:
        if len(_LISTINGS) > 4096:
            _LISTINGS.clear()
        try:
            found = frozenset(os.listdir(folder))
        except OSError:  # a file, or a folder that cannot be read
            found = None
        _LISTINGS[folder] = found
    return found


_SIBLINGS: dict[str, tuple[tuple[str, frozenset[str] | None], ...] | None] = {}


def _siblings(parent: str) -> tuple[tuple[str, frozenset[str] | None], ...] | None:
    """The first _MIRROR_SIBLINGS entries of ``parent`` by name (hidden ones left
    out), each with its listing."""
    found = _SIBLINGS.get(parent, False)
    if found is False:
        if len(_SIBLINGS) > 4096:
            _SIBLINGS.clear()
        names = _listing(parent)
        found = None if names is None else tuple(
            (os.path.join(parent, name), _listing(os.path.join(parent, name)))
            for name in sorted(name for name in names if not name.startswith("."))[:_MIRROR_SIBLINGS])
        _SIBLINGS[parent] = found
    return found


def _is_repository_root(folder: str) -> bool:
    found = _ROOTS.get(folder)
    if found is None:
        if len(_ROOTS) > 4096:
            _ROOTS.clear()
        found = _ROOTS[folder] = any(os.path.exists(os.path.join(folder, marker)) for marker in _REPOSITORY_MARKERS)
    return found


_MIRRORS: dict[str, dict[str, str]] = {}  # port file -> class name -> its mirrored torch file


def _mirrored_classes(path: str) -> dict[str, str]:
    """Class name -> the mirrored PyTorch file (:func:`_mirrored_file`) defining it."""
    known = _MIRRORS.get(path)
    if known is None:
        if len(_MIRRORS) > 256:
            _MIRRORS.clear()
        original = _mirrored_file(path)
        data = sites.read_source(original) if original else None
        known = _MIRRORS[path] = {
            name.decode("ascii", "replace"): original for name in _class_names(data)
        } if data is not None and original is not None else {}
    return known


def _original_file(path: str, class_name: str) -> str | None:
    """The torch file beside ``path`` (in its project, else a mirrored tree) that
    defines ``class_name``."""
    folder = _original_folder(path)
    if len(_ORIGINALS) > _ORIGINALS_LIMIT:
        _ORIGINALS.clear()
    return _torch_classes(folder, _ORIGINALS).get(class_name) or _mirrored_classes(os.path.abspath(path)).get(class_name)


def offer_torch_classes(cache: dict[str, dict[str, str]]) -> None:
    """The torch classes of folders read elsewhere (pytorch_originals' ``cache``)."""
    if isinstance(cache, dict):
        _ORIGINALS.update(cache)


def forget() -> None:
    """Forget the folders read (a new run: the files may have changed)."""
    _ORIGINALS.clear()
    _MIRRORS.clear()
    _LISTINGS.clear()
    _SIBLINGS.clear()
    _ROOTS.clear()


_TREES: dict[str, ast.Module | None] = {}


def _parsed(path: str) -> ast.Module | None:
    tree = _TREES.get(path, False)
    if tree is False:
        if len(_TREES) > 16:
            _TREES.clear()
        data = sites.read_source(path)
        try:
            with forked.collector_paused():
                tree = ast.parse(data) if data is not None else None
        except (SyntaxError, ValueError):
            tree = None
        _TREES[path] = tree
    return tree


def _original_class(path: str, class_name: str) -> tuple[str, ast.Module, ast.ClassDef] | None:
    original = _original_file(path, class_name)
    tree = _parsed(original) if original else None
    if tree is None:
        return None
    cls = next((node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == class_name), None)
    return (original, tree, cls) if cls is not None else None


def original_argument(path: str, class_name: str, attr: str, keyword: str, position: int) -> object:
    """In the PyTorch original the project keeps beside ``path`` (a torch file
    defining ``class_name``), the literal value of ``keyword`` (or the positional
    argument at ``position``) of the layer ``self.<attr> = ...(...)`` in that class's
    ``__init__``: the number or tuple written there, None when that layer leaves it
    out; UNKNOWN when there is no such original or layer, or the value is not a literal."""
    found = _original_class(path, class_name)
    if found is None:
        return UNKNOWN
    for assign in (node for node in ast.walk(found[2]) if isinstance(node, ast.Assign) and len(node.targets) == 1):
        target = assign.targets[0]
        if isinstance(target, ast.Attribute) and target.attr == attr and isinstance(assign.value, ast.Call):
            return _argument(assign.value, keyword, position)
    return UNKNOWN


def _argument(call: ast.Call, keyword: str, position: int) -> object:
    given = next((kw.value for kw in call.keywords if kw.arg == keyword), None)
    if given is None and len(call.args) > position and not any(isinstance(arg, ast.Starred) for arg in call.args):
        given = call.args[position]
    if given is None:
        return None if not any(kw.arg is None for kw in call.keywords) else UNKNOWN  # **kwargs may give it
    try:
        return ast.literal_eval(given)
    except (ValueError, SyntaxError, TypeError):
        return UNKNOWN


# ---------------------------------------------------------------------------
# The layer a port's call stands for in the original
# ---------------------------------------------------------------------------


class Redraw(NamedTuple):
    """How the original draws a layer's weight again after building it."""

    text: str  # the call as written in the original (``uniform_(-0.1, 0.1)``)
    # the distribution in MindSpore's initializer terms, when it is one of them:
    # ("uniform", scale) for U(-scale, scale), ("normal", sigma) for N(0, sigma)
    distribution: tuple[str, float] | None


class OriginalLayer(NamedTuple):
    """A layer of the PyTorch original: where it is, and how it is built."""

    path: str  # the torch file
    line: int
    call: ast.Call
    tree: ast.Module
    cls: ast.ClassDef  # the original's class that builds it
    attr: str | None  # the ``self.<attr>`` that holds it there, if any

    def argument(self, keyword: str, position: int | None) -> object:
        """The literal value written for ``keyword`` (or at ``position``): None when
        the call leaves it out (PyTorch's default), UNKNOWN when it is not a literal."""
        return _argument(self.call, keyword, position if position is not None else len(self.call.args))

    def redraw(self) -> Redraw | None:
        """How the original draws this layer's ``weight`` again (``self.emb.weight.data
        .uniform_(-r, r)`` in an init method it runs, ``nn.init.normal_(...)``, a new
        Parameter assigned): None when nothing in the original file does."""
        return _redraw(self.tree, self.cls, self.attr) if self.attr is not None else None


def original_layer(path: str, class_name: str, method: str, layer: str, index: int, count: int,
                   attr: str | None) -> OriginalLayer | None:
    """The call of ``layer`` (a class's last name, ``Conv2d``) that a port's call
    stands for, in the PyTorch original of ``class_name`` kept beside ``path``: in
    the same method, the one held by the same ``self.<attr>`` when there is one,
    else the one of the same rank (``index``) among that method's ``count`` calls of
    ``layer`` when the original makes as many. None when there is no original or no
    such layer."""
    found = _original_class(path, class_name)
    if found is None:
        return None
    original, tree, cls = found
    function = next((node for node in cls.body if isinstance(node, ast.FunctionDef) and node.name == method), None)
    if function is None:
        return None
    calls = sorted(
        (node for node in ast.walk(function) if isinstance(node, ast.Call) and _last_name(node.func) == layer),
        key=lambda node: (node.lineno, node.col_offset),
    )
    held = _held_as(function)
    if attr is not None:
        mine = [call for call in calls if held.get(id(call)) == attr]
        if len(mine) == 1:
            return OriginalLayer(original, mine[0].lineno, mine[0], tree, cls, attr)
    if len(calls) != count or not 0 <= index < count:
        return None
    call = calls[index]
    return OriginalLayer(original, call.lineno, call, tree, cls, held.get(id(call)))


def _last_name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else None


def _held_as(function: ast.FunctionDef) -> dict[int, str]:
    """id of a call -> X for the calls assigned as ``self.X = call`` in ``function``."""
    held: dict[int, str] = {}
    for node in ast.walk(function):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.value, ast.Call):
            target = node.targets[0]
            if isinstance(target, ast.Attribute) and isinstance(target.value, ast.Name) and target.value.id == "self":
                held[id(node.value)] = target.attr
    return held


# PyTorch's in-place draws and torch.nn.init's functions (tensor first) that give a
# MindSpore initializer: name -> the distribution's kind
_DRAWS = {"uniform_": "uniform", "normal_": "normal"}


def _redraw(tree: ast.Module, cls: ast.ClassDef, attr: str) -> Redraw | None:
    """How ``<...>.<attr>.weight`` is drawn again or replaced in the original file,
    in a function that runs: ``cls``'s ``__init__`` or a method of ``cls`` the file
    calls by name, or a module-level function the file calls (another class's
    ``self.<attr>`` is another layer)."""
    called = {_last_name(node.func) for node in ast.walk(tree) if isinstance(node, ast.Call)}
    kinds = (ast.FunctionDef, ast.AsyncFunctionDef)
    methods = [node for node in cls.body if isinstance(node, kinds)]
    for function in [*methods, *(node for node in tree.body if isinstance(node, kinds))]:
        if not (function.name in called or function.name == "__init__" and function in methods):
            continue
        for node in ast.walk(function):
            found = _redraw_at(node, attr, function)
            if found is not None:
                return found
    return None


def _weight_of(node: ast.AST, attr: str) -> bool:
    """``<...>.<attr>.weight`` (or its ``.data``)."""
    if isinstance(node, ast.Attribute) and node.attr == "data":
        node = node.value
    return isinstance(node, ast.Attribute) and node.attr == "weight" and isinstance(node.value, ast.Attribute) \
        and node.value.attr == attr


def _redraw_at(node: ast.AST, attr: str, function: ast.FunctionDef) -> Redraw | None:
    if isinstance(node, ast.Assign) and any(_weight_of(target, attr) for target in node.targets):
        return Redraw(ast.unparse(node.value), None)  # a new Parameter, a pretrained table
    if not isinstance(node, ast.Call):
        return None
    func = node.func
    if isinstance(func, ast.Attribute) and func.attr.endswith("_") and _weight_of(func.value, attr):
        arguments = [*node.args]  # ``weight.data.uniform_(-r, r)``
    elif node.args and _weight_of(node.args[0], attr) and _last_name(func) and _last_name(func).endswith("_"):
        arguments = node.args[1:]  # ``nn.init.uniform_(weight, -r, r)``
    else:
        return None
    name = _last_name(func) or ""
    written = [ast.unparse(arg) for arg in arguments] + [f"{kw.arg}={ast.unparse(kw.value)}" for kw in node.keywords if kw.arg]
    text = f"{name}({', '.join(written)})"
    kind = _DRAWS.get(name)
    keywords = {kw.arg: kw.value for kw in node.keywords if kw.arg}
    if kind is not None:
        first, second = _DRAW_PARAMETERS[kind]
        low = _number(_given(arguments, keywords, 0, first[0]), function, first[1])
        high = _number(_given(arguments, keywords, 1, second[0]), function, second[1])
        if kind == "uniform" and low is not None and high is not None and low == -high and high > 0:
            return Redraw(text, ("uniform", high))
        if kind == "normal" and low == 0 and high is not None and high > 0:
            return Redraw(text, ("normal", high))
    return Redraw(text, None)


# the two parameters of each draw, with PyTorch's defaults: uniform_(a=0, b=1),
# normal_(mean=0, std=1) (Tensor methods and torch.nn.init alike)
_DRAW_PARAMETERS = {"uniform": (("a", 0.0), ("b", 1.0)), "normal": (("mean", 0.0), ("std", 1.0))}


def _given(arguments: list[ast.AST], keywords: dict[str, ast.AST], position: int, keyword: str) -> ast.AST | None:
    return arguments[position] if position < len(arguments) else keywords.get(keyword)


def _number(node: ast.AST | None, function: ast.FunctionDef, default: float | None = None) -> float | None:
    """A number written there, or a name the function binds once to one
    (``initrange = 0.1`` then ``uniform_(-initrange, initrange)``); ``default``
    where nothing is written."""
    if node is None:
        return default
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand, function)
        return -inner if inner is not None else None
    if isinstance(node, ast.Name):
        bound = [assign.value for assign in ast.walk(function) if isinstance(assign, ast.Assign)
                 and any(isinstance(target, ast.Name) and target.id == node.id for target in assign.targets)]
        return _number(bound[0], function) if len(bound) == 1 and not isinstance(bound[0], ast.Name) else None
    try:
        value = ast.literal_eval(node)
    except (ValueError, SyntaxError, TypeError):
        return None
    return float(value) if isinstance(value, (int, float)) and not isinstance(value, bool) else None
