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
  imports torch defines classes with the same names as the module's
  (:func:`pytorch_originals`);
- the user says so: ``[tool.mslint] port-from = "pytorch"`` or ``--port``.

Read with regular expressions over the bytes of the project's files: nothing is
imported or parsed.
"""

from __future__ import annotations

import ast
import os
import re

from mslint.analysis import sites
from mslint.analysis.astutil import UNKNOWN

PORT_FROM = ("pytorch",)

_IMPORTS_TORCH = re.compile(rb"^[ \t]*(?:import[ \t]+torch\b|from[ \t]+torch[\w.]*[ \t]+import\b)", re.MULTILINE)
_IMPORTS_MINDSPORE = re.compile(rb"^[ \t]*(?:import[ \t]+mindspore\b|from[ \t]+mindspore[\w.]*[ \t]+import\b)", re.MULTILINE)
_CLASS = re.compile(rb"^[ \t]*class[ \t]+([A-Za-z_]\w*)", re.MULTILINE)
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
        if data is not None and _IMPORTS_TORCH.search(data):
            return parent
    return folder


def _torch_classes(folder: str, cache: dict[str, dict[str, str]]) -> dict[str, str]:
    """Class name -> the torch file of the folder's project that defines it."""
    known = cache.get(folder)
    if known is None:
        known = {}
        for path in sites.python_files(folder):
            data = sites.read_source(path)
            if data is None or not _IMPORTS_TORCH.search(data) or _IMPORTS_MINDSPORE.search(data):
                continue
            for name in _CLASS.findall(data):
                known.setdefault(name.decode("ascii", "replace"), path)
        cache[folder] = known
    return known


def pytorch_originals(paths: list[str]) -> dict[str, str]:
    """For each MindSpore module among ``paths`` whose project keeps PyTorch code
    defining classes of the same names (two or more, or one that is not a generic
    name such as ``Net``): why it reads as a port, naming that code."""
    cache: dict[str, dict[str, str]] = {}
    reasons: dict[str, str] = {}
    for path in paths:
        data = sites.read_source(path)
        if data is None or not _IMPORTS_MINDSPORE.search(data) or _IMPORTS_TORCH.search(data):
            continue
        mine = {name.decode("ascii", "replace") for name in _CLASS.findall(data)}
        if not mine:
            continue
        torch_classes = _torch_classes(_original_folder(path), cache)
        shared = sorted(name for name in mine if name in torch_classes)
        if len(shared) < 2 and not any(name not in _GENERIC_CLASSES for name in shared):
            continue
        original = torch_classes[shared[0]]
        where = os.path.relpath(original, os.path.dirname(os.path.abspath(path)))
        reasons[os.path.abspath(path)] = f"its PyTorch original {where} defines {', '.join(shared[:3])}"
    return reasons


_ORIGINALS: dict[str, dict[str, str]] = {}  # project folder -> class name -> torch file
_REPOSITORY_MARKERS = (".git", "setup.py", "pyproject.toml", "setup.cfg")


def original_argument(path: str, class_name: str, attr: str, keyword: str, position: int) -> object:
    """In the PyTorch original the project keeps beside ``path`` (a torch file
    defining ``class_name``), the literal value of ``keyword`` (or the positional
    argument at ``position``) of the layer ``self.<attr> = ...(...)`` in that class's
    ``__init__``: the number or tuple written there, None when that layer leaves it
    out; UNKNOWN when there is no such original or layer, or the value is not a literal."""
    folder = _original_folder(path)
    if len(_ORIGINALS) > 16:
        _ORIGINALS.clear()
    original = _torch_classes(folder, _ORIGINALS).get(class_name)
    data = sites.read_source(original) if original else None
    if data is None:
        return UNKNOWN
    try:
        tree = ast.parse(data)
    except (SyntaxError, ValueError):
        return UNKNOWN
    for cls in (node for node in ast.walk(tree) if isinstance(node, ast.ClassDef) and node.name == class_name):
        for assign in (node for node in ast.walk(cls) if isinstance(node, ast.Assign) and len(node.targets) == 1):
            target = assign.targets[0]
            if not (isinstance(target, ast.Attribute) and target.attr == attr and isinstance(assign.value, ast.Call)):
                continue
            call = assign.value
            given = next((kw.value for kw in call.keywords if kw.arg == keyword), None)
            if given is None and len(call.args) > position:
                given = call.args[position]
            if given is None:
                return None
            try:
                return ast.literal_eval(given)
            except (ValueError, SyntaxError, TypeError):
                return UNKNOWN
    return UNKNOWN
