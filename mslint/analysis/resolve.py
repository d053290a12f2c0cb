"""Qualified names of calls and base classes, without importing user code.

Names are resolved from the module's own import statements (``from mindspore
import nn`` makes ``nn.Conv2d`` mean ``mindspore.nn.Conv2d``). astroid inference
is used only for user classes imported from the user's own project, and never
walks into the frameworks listed in :data:`mslint.knowledge.apis.EXTERNAL_PACKAGES` nor
into any installed library: "external" is decided by where a module lives (the
standard library, site-packages), so mindformers' own classes are the project
when mindformers is linted.
"""

from __future__ import annotations

import functools
import os
import sysconfig
import weakref
from collections.abc import Iterator

import astroid
from astroid import nodes

from mslint.knowledge import apis, injections
from mslint.analysis import astutil, programs, project
from mslint.analysis.imports import LINE_START_IMPORT_RE, scan_imports

_SORTED_ALIASES = sorted(apis.MODULE_ALIASES.items(), key=lambda item: -len(item[0]))


@functools.lru_cache(maxsize=16384)
def canonical(qname: str) -> str:
    """Map an internal MindSpore path to its public spelling."""
    if not qname.startswith("mindspore."):
        return qname
    for prefix, replacement in _SORTED_ALIASES:
        if qname == prefix or qname.startswith(prefix + "."):
            qname = replacement + qname[len(prefix):]
            break
    for package in apis.FLATTENED_PACKAGES:
        if qname.startswith(package + "."):
            rest = qname[len(package) + 1:].split(".")
            # mindspore.nn.conv.Conv2d -> mindspore.nn.Conv2d (keep one public name)
            if len(rest) > 1 and rest[-1][:1].isupper() and all(p.islower() for p in rest[:-1]):
                return package + "." + rest[-1]
    return qname


def root_package(qname: str) -> str:
    return qname.split(".", 1)[0]


def is_external(qname: str) -> bool:
    """A name of one of the frameworks (mindspore, torch, numpy...), never the project."""
    return root_package(qname) in apis.EXTERNAL_PACKAGES


def _import_target(import_node: nodes.NodeNG, name: str) -> str | None:
    """The qualified name that ``name`` is bound to by an import statement."""
    if isinstance(import_node, nodes.Import):
        for modname, alias in import_node.names:
            if alias == name:
                return modname
            if alias is None and modname.split(".", 1)[0] == name:
                return name
        return None
    if isinstance(import_node, nodes.ImportFrom):
        modname = _import_target_module(import_node)
        if modname is None:
            return None
        for imported, alias in import_node.names:
            if imported == "*":
                return star_target(import_node.root(), modname, name) if modname else None
            if (alias or imported) == name:
                return f"{modname}.{imported}" if modname else imported
    return None


# ---------------------------------------------------------------------------
# Star imports: ``from pkg.common import *`` binds what Python binds
# ---------------------------------------------------------------------------
# (file, module name, name) -> qualified name or None, for project modules: each
# module's exports are worked out once per run (clear_caches empties it).
_STAR_MEMO: dict[tuple[str, str, str], object] = {}
_STAR_MEMO_LIMIT = 100000
_IN_PROGRESS = object()
_UNREADABLE_ALL = object()  # an ``__all__`` that is not a literal list of strings
# module -> its top-level star imports, in source order (module_stars)
_MODULE_STARS: dict[nodes.Module, tuple[nodes.ImportFrom, ...]] = {}
# (star import, name) -> whether it surely binds no such name (_star_leaves_out)
_LEAVES_OUT: dict[tuple[nodes.ImportFrom, str], bool] = {}
_LEAVES_OUT_LIMIT = 20000


def star_target(importer: nodes.Module, modname: str, name: str, depth: int = 0) -> str | None:
    """The qualified name ``name`` is bound to by ``from <modname> import *`` in
    ``importer`` (``modname`` absolute), as Python binds it: a framework module's
    names from the knowledge's tables of ``__all__`` (:func:`apis.star_exports`;
    unknown for other frameworks and installed libraries: unresolved); a project
    module's literal ``__all__`` if it defines one, else every public top-level
    name, with what it imports itself and what its own star imports bring. None
    when the name is not exported or what it is bound to is unsure."""
    if depth > _FOLLOW_DEPTH or not modname:
        return None
    if is_external(modname):
        exported = apis.star_exports(modname)
        return canonical(f"{modname}.{name}") if exported is not None and name in exported else None
    module = _star_project_module(importer, modname)
    if module is None:
        return None
    key = (project.real_path(module.file) if module.file else "", module.name, name)
    known = _STAR_MEMO.get(key, None)
    if known is _IN_PROGRESS:
        return None  # a star-import cycle
    if key in _STAR_MEMO:
        return known
    if len(_STAR_MEMO) >= _STAR_MEMO_LIMIT:
        _STAR_MEMO.clear()
    _STAR_MEMO[key] = _IN_PROGRESS
    try:
        found = _exported(module, name, depth)
    except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
        found = None
    _STAR_MEMO[key] = found
    return found


def _star_project_module(importer: nodes.Module, modname: str) -> nodes.Module | None:
    """The project module ``from <modname> import *`` in ``importer`` star-imports
    (``modname`` absolute, not a framework's); None for an installed library, one
    that cannot be read, the importer itself."""
    if is_installed(modname, importer.file):
        return None
    try:
        module = imported_module(importer, modname)
    except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
        return None
    if module is None or module is importer or _is_library_module(module):
        return None
    return module


def _exported(module: nodes.Module, name: str, depth: int) -> str | None:
    exports = _literal_all(module)
    if exports is _UNREADABLE_ALL or _all_leaves_out(exports, name):
        return None
    bound = module.locals.get(name, ())
    if not bound:
        # a name astroid did not bind (a framework's star import, or a module of
        # the same name elsewhere took the place of the project's): the star
        # imports bind it, the last one first
        for node in reversed(module_stars(module)):
            star = _import_target_module(node)
            found = star_target(module, star, name, depth + 1) if star else None
            if found is not None:
                return found
        return None
    return _module_binding_target(module, name, list(bound), depth)


def _module_binding_target(module: nodes.Module, name: str, bound: list[nodes.NodeNG], depth: int) -> str | None:
    """What a module's top-level ``name`` names once the module has run: one
    definition, or imports that all agree (a fallback in an ``except`` aside)."""
    imports = [node for node in bound if isinstance(node, (nodes.Import, nodes.ImportFrom))]
    others = [node for node in bound if node not in imports]
    if imports and others:
        others = [node for node in others if not _in_except_handler(node, module)]
        if others:
            return None
    if not imports:
        if len(others) == 1 and isinstance(others[0], (nodes.ClassDef, nodes.FunctionDef)) \
                and others[0].parent is module:
            return f"{module.name}.{name}"
        return None
    kept = [node for node in imports if not _in_except_handler(node, module)] or imports
    targets = set()
    for node in kept:
        if _is_star(node):
            star = _import_target_module(node)
            targets.add(star_target(module, star, name, depth + 1) if star else None)
        else:
            targets.add(_import_target(node, name))
    return targets.pop() if len(targets) == 1 else None


def _all_leaves_out(exports: frozenset[str] | None, name: str) -> bool:
    """Whether a star import of a module whose readable ``__all__`` is ``exports``
    (None: it has none) binds no ``name``: a name ``__all__`` does not list, or a
    private one where there is no ``__all__``."""
    return name.startswith("_") if exports is None else name not in exports


def _literal_all(module: nodes.Module) -> frozenset[str] | object | None:
    """A module's ``__all__``: the names of its literal list or tuple (``+=`` of
    literals included), None when it has none, or _UNREADABLE_ALL."""
    bound = module.locals.get("__all__")
    if not bound:
        return None
    names: set[str] = set()
    for node in bound:
        statement = node.parent
        if not isinstance(node, nodes.AssignName) or statement.parent is not module \
                or not isinstance(statement, (nodes.Assign, nodes.AugAssign)):
            return _UNREADABLE_ALL
        value = statement.value
        if not isinstance(value, (nodes.List, nodes.Tuple)) \
                or not all(isinstance(item, nodes.Const) and isinstance(item.value, str) for item in value.elts):
            return _UNREADABLE_ALL
        if isinstance(statement, nodes.Assign):
            names = set()
        names.update(item.value for item in value.elts)
    return frozenset(names)


def module_stars(module: nodes.Module) -> tuple[nodes.ImportFrom, ...]:
    """``module``'s top-level star imports, in source order (those in a
    top-level ``try``/``if`` included)."""
    known = _MODULE_STARS.get(module)
    if known is not None:
        return known
    found = []
    pending = list(module.body)
    while pending:
        node = pending.pop(0)
        if _is_star(node):
            found.append(node)
        elif isinstance(node, (nodes.If, nodes.Try)):
            pending[:0] = list(node.get_children())
        elif isinstance(node, nodes.ExceptHandler):
            pending[:0] = list(node.body)
    if len(_MODULE_STARS) > 256:
        _MODULE_STARS.clear()
    known = _MODULE_STARS[module] = tuple(found)
    return known


def _star_leaves_out(node: nodes.ImportFrom, name: str) -> bool:
    """Whether ``from <module> import *`` surely binds no ``name``: a private name
    of a module without ``__all__``, a name its literal ``__all__`` does not list,
    or a framework module's name its table of ``__all__`` lacks."""
    key = (node, name)
    known = _LEAVES_OUT.get(key)
    if known is None:
        if len(_LEAVES_OUT) >= _LEAVES_OUT_LIMIT:
            _LEAVES_OUT.clear()
        known = _LEAVES_OUT[key] = _leaves_out(node, name)
    return known


def _leaves_out(node: nodes.ImportFrom, name: str) -> bool:
    modname = _import_target_module(node)
    if not modname:
        return False
    if is_external(modname):
        exported = apis.star_exports(modname)
        return exported is not None and name not in exported
    module = _star_project_module(node.root(), modname)
    if module is None:
        return False
    exports = _literal_all(module)
    return exports is not _UNREADABLE_ALL and _all_leaves_out(exports, name)


def is_super_call(node: nodes.NodeNG) -> bool:
    """``super()`` or ``super(Cls, self)``: a call of the builtin ``super``, which no
    binding in sight shadows."""
    return (isinstance(node, nodes.Call) and isinstance(node.func, nodes.Name)
            and node.func.name == "super" and binding(node.func) is None)


def _star_binding(name_node: nodes.Name) -> nodes.ImportFrom | None:
    """For a name no scope binds: the star import of its module that binds it (a
    framework's, whose names astroid does not load, or a project module astroid
    did not find), the last one first; None for a builtin or an undefined name."""
    module = name_node.root()
    if not isinstance(module, nodes.Module):
        return None
    stars = module_stars(module)
    for node in reversed(stars):
        if _import_target(node, name_node.name) is not None:
            return node
    return None


# names every module has without binding them
_MODULE_DUNDERS = frozenset((
    "__name__", "__file__", "__doc__", "__package__", "__spec__", "__loader__",
    "__builtins__", "__path__", "__cached__", "__annotations__", "__dict__",
))


def never_bound(name_node: nodes.Name) -> bool:
    """Whether a bare name is bound nowhere it could be looked up: no scope in sight
    binds it (import, def, class, assignment, ``global``), it is no builtin or
    module attribute, and every star import of its module surely leaves it out (a
    star import that may bind it, or one whose exports are unknown, counts as a
    binding). Such a name raises NameError wherever the line runs."""
    name = name_node.name
    if name in _BUILTIN_NAMES or name in _MODULE_DUNDERS or binding(name_node) is not None:
        return False
    module = name_node.root()
    if not isinstance(module, nodes.Module):
        return False
    if any(not _star_leaves_out(star, name) for star in module_stars(module)):
        return False
    # ``globals()[name] = ...``, ``exec(...)``: the module may bind names no
    # statement in sight binds
    return not any(
        isinstance(call.func, nodes.Name) and call.func.name in ("globals", "exec")
        for call in astutil.module_nodes(module, nodes.Call)
    )


def _binding_scopes(node: nodes.NodeNG) -> Iterator[nodes.LocalsDictNodeNG]:
    """Scopes whose names are visible from ``node``, innermost first (Python's rules:
    a class body does not enclose its methods)."""
    scope = node.scope()
    first = True
    while scope is not None:
        if first or not isinstance(scope, nodes.ClassDef):
            yield scope
        first = False
        if scope.parent is None:
            return
        scope = scope.parent.scope()


def binding(name_node: nodes.Name) -> nodes.NodeNG | None:
    """The statement that binds a bare name, looked up without inference.

    Returns an Import/ImportFrom, ClassDef, FunctionDef or AssignName node, or
    None when the name is unbound here (a builtin). A name a star import binds
    gives that ImportFrom, also where astroid did not bind it (a framework's
    star import: :func:`star_target`).
    """
    name = name_node.name
    for scope in _binding_scopes(name_node):
        bound = scope.locals.get(name)
        if bound and any(_is_star(candidate) for candidate in bound):
            # astroid lists a star import among a name's bindings also where the
            # module's ``__all__`` leaves the name out: Python binds nothing then,
            # and ``import mindspore.nn as nn`` above it still holds
            bound = [candidate for candidate in bound if not (_is_star(candidate) and _star_leaves_out(candidate, name))]
        if not bound:
            continue
        # An import wins over a fallback such as
        # ``try: import numpy as np`` / ``except ImportError: np = None``.
        imports = [candidate for candidate in bound if isinstance(candidate, (nodes.Import, nodes.ImportFrom))]
        if imports and len(imports) < len(bound) and all(_is_star(candidate) for candidate in imports):
            # ``from .common import *`` then ``class Conv(...)``: a star import is
            # no guarded import with a fallback; the bindings count in source order
            return _reaching(bound, name_node) if scope is name_node.frame() else bound[-1]
        if imports:
            if scope is not name_node.frame():
                # ``from .spatial import feature`` then ``def feature(...)`` at the top
                # of the module: the definition replaces the import before any
                # function of the module runs
                replacing = [candidate for candidate in bound
                             if isinstance(candidate, (nodes.FunctionDef, nodes.ClassDef)) and candidate.parent is scope
                             and (candidate.lineno or 0) > max(imported.lineno or 0 for imported in imports)]
                if replacing:
                    return replacing[-1]
            return _reaching_import(imports, name_node, scope)[0]
        return _reaching(bound, name_node) if scope is name_node.frame() else bound[-1]
    return _star_binding(name_node)


def _reaching_import(imports: list[nodes.NodeNG], use: nodes.Name,
                     scope: nodes.LocalsDictNodeNG) -> tuple[nodes.NodeNG, bool]:
    """Of the imports that bind ``use``'s name in ``scope``, the one that reaches
    the use, and whether it surely does. ``from mindspore import nn`` then
    ``from torch import nn``: ``nn`` is torch's below the second. A use in the
    frame that imports (or a class body in it) reads the last import above it; a
    use inside a function of it runs when called, after every import of the
    module. The chosen import
    is sure when it sits straight in the scope's body (it always runs and
    replaces any earlier one) or when every import that may reach binds the same
    name; an import in an ``if``/``try`` branch beside another one leaves the
    name unsure. Imports in an ``except`` handler are fallbacks of the ``try``
    above them (the framework is installed where the code runs) when another
    import remains."""
    if len(imports) == 1:
        return imports[0], True
    kept = [imp for imp in imports if not _in_except_handler(imp, scope)] or imports
    if _runs_in_order(use, scope):
        line = use.statement().fromlineno or 0
        above = [imp for imp in kept if _bound_before(imp, use, line)]
        if not above:
            return kept[0], len({_import_target(imp, use.name) for imp in kept}) == 1
        kept = above
    kept.sort(key=lambda imp: imp.fromlineno or 0)
    chosen = kept[-1]
    if chosen.parent is scope:
        return chosen, True
    # Which branch ran is not known: sure only when the candidates agree (the
    # last straight-line import and everything after it).
    straight = [index for index, imp in enumerate(kept) if imp.parent is scope]
    reaching = kept[straight[-1]:] if straight else kept
    return chosen, len({_import_target(imp, use.name) for imp in reaching}) == 1


def _runs_in_order(use: nodes.NodeNG, scope: nodes.NodeNG) -> bool:
    """Whether ``use`` runs as ``scope``'s own code reaches it (a class body
    does), not later when a function defined there is called."""
    parent = use.parent
    while parent is not None and parent is not scope:
        if isinstance(parent, (nodes.FunctionDef, nodes.Lambda)):
            return False
        parent = parent.parent
    return True


def _in_except_handler(node: nodes.NodeNG, scope: nodes.NodeNG) -> bool:
    parent = node.parent
    while parent is not None and parent is not scope:
        if isinstance(parent, nodes.ExceptHandler):
            return True
        parent = parent.parent
    return False


def import_is_sure(name_node: nodes.Name, bound: nodes.NodeNG) -> bool:
    """Whether ``bound`` (what :func:`binding` gave for ``name_node``) is the
    only import that may reach the use (see :func:`_reaching_import`)."""
    if not isinstance(bound, (nodes.Import, nodes.ImportFrom)):
        return True
    scope = bound.scope()
    imports = [candidate for candidate in scope.locals.get(name_node.name, ())
               if isinstance(candidate, (nodes.Import, nodes.ImportFrom))]
    if len(imports) <= 1:
        return True
    return _reaching_import(imports, name_node, scope)[1]


def _reaching(bound: list[nodes.NodeNG], use: nodes.NodeNG) -> nodes.NodeNG:
    """Of the bindings of a name in the frame that uses it, the one that reaches
    the use in source order: the last whose statement comes before the use's (a
    notebook's ``net = Pretrain()`` for a cell that trains it, not a later
    cell's ``net = Classifier()``). A use above every binding (in a loop, or an
    error) keeps the last binding. A use inside a function of the frame is not
    here: it runs when called, after any of them."""
    line = use.statement().fromlineno or 0
    above = [candidate for candidate in bound if _bound_before(candidate.statement(), use, line)]
    return max(above or bound, key=lambda candidate: candidate.statement().fromlineno or 0)


def _bound_before(statement: nodes.NodeNG, use: nodes.NodeNG, line: int) -> bool:
    """Whether a binding ``statement`` has run when ``use`` (whose statement starts
    at ``line``) is read: it ends above, or it is a ``for``/``with``/``except``...
    holding the use (``net = Net(net)`` does not bind the ``net`` it reads)."""
    if (statement.tolineno or 0) < line:
        return True
    return not isinstance(statement, _SIMPLE_BINDINGS) and statement.parent_of(use)


_SIMPLE_BINDINGS = (nodes.Assign, nodes.AugAssign, nodes.AnnAssign)


def assigned_value(name_node: nodes.NodeNG, sole: bool = False) -> nodes.NodeNG | None:
    """The value last assigned to a bare name (``net = Net()``), or None; with
    ``sole``, only when that assignment is the name's one binding in its scope."""
    if not isinstance(name_node, nodes.Name):
        return None
    bound = binding(name_node)
    if not (isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Assign)):
        return None
    if sole and len(bound.scope().locals.get(name_node.name, ())) != 1:
        return None
    return bound.parent.value


# Every checker asks for the name of every call it visits: answer each node once.
# Keyed by the node itself (a name never changes within a tree); emptied per module
# by scope.analysis() and bounded, so it never keeps old trees alive for long.
_QNAME_MEMO: dict[nodes.NodeNG, str | None] = {}
_QNAME_MEMO_LIMIT = 50000


def qualified_name(node: nodes.NodeNG) -> str | None:
    """Canonical qualified name of a Name/Attribute expression, or None.

    ``nn.Conv2d`` -> ``mindspore.nn.Conv2d`` given ``from mindspore import nn``;
    a class or function defined in this module -> ``<module>.<name>``; builtins
    -> their bare name (``len``); anything else (locals, attributes of values) -> None.
    """
    try:
        return _QNAME_MEMO[node]
    except KeyError:
        pass
    if len(_QNAME_MEMO) >= _QNAME_MEMO_LIMIT:
        _QNAME_MEMO.clear()
    result = _QNAME_MEMO[node] = _qualified_name(node)
    return result


def _qualified_name(expr: nodes.NodeNG) -> str | None:
    node, parts = astutil.attribute_chain(expr)
    if node is None:
        return None
    bound = binding(node)
    if bound is None:
        base = node.name if node.name in _BUILTIN_NAMES else None
    elif isinstance(bound, (nodes.Import, nodes.ImportFrom)):
        base = _import_target(bound, node.name) if import_is_sure(node, bound) else None
    elif isinstance(bound, (nodes.ClassDef, nodes.FunctionDef)) and isinstance(bound.parent, nodes.Module):
        base = f"{bound.root().name}.{bound.name}"
    else:
        base = None
    if base is None:
        return None
    if parts:
        base = base + "." + ".".join(parts)
    qname = canonical(base)
    if is_external(qname):
        rebound = _rebound(expr.root(), qname)
        if rebound is not None:
            return rebound
    return qname


# ---------------------------------------------------------------------------
# Framework names the project rebinds (mslint.analysis.programs: ``nn.Dropout =
# CustomDropout`` in a module its package's ``__init__`` imports first)
# ---------------------------------------------------------------------------

_CANONICAL_OVERRIDES: dict[int, tuple[dict[str, str], dict[str, str]]] = {}


# Libraries that rebind MindSpore names when imported (mindnlp 0.3.x runs
# mindnlp/injection.py: ``nn.Dropout = CustomDropout`` taking PyTorch's ``p``,
# ``nn.LayerNorm`` accepting an int, ``Tensor.unflatten``...): in a module that
# imports one, the names its injection patched mean the library's replacement,
# whose version cannot be seen, and rules stay silent on them; the names it never
# patched (``nn.Parameter``, ``Tensor.cpu``) keep MindSpore's meaning.
_INJECTING_LIBRARIES = programs.INJECTING_LIBRARIES
_INJECTED: dict[str, dict[str, str]] = {}  # a file's path -> the names rebound for it
# a module built from its text (the command, an editor): kept while its tree lives
_INJECTED_BUILT: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()
_MERGED_OVERRIDES: dict[tuple[int, int], tuple[dict[str, str], dict[str, str], dict[str, str]]] = {}
_LIBRARY_TEXT = tuple(library.encode() for library in _INJECTING_LIBRARIES)


def _injected(module: nodes.NodeNG) -> dict[str, str]:
    """The names rebound by the libraries ``module`` imports (anywhere in it), or
    that a module of the project it imports imports (anywhere in that one: a
    helper whose function imports mindnlp, called before the layers are built).
    Asked for every framework name resolved, in whichever module it sits: kept
    per file, and a source that never names an injecting library is not walked."""
    path = getattr(module, "file", None)
    text = getattr(module, "file_bytes", None)  # a module built from a string: its own text
    key = path if path and text is None else None
    known = _INJECTED.get(key) if key else _INJECTED_BUILT.get(module)
    if known is not None:
        return known
    if text is None and path:
        text = project.read_source(path)
    if isinstance(text, str):
        text = text.encode("utf-8", "replace")
    found = _own_injections(module, text)
    if not found and isinstance(module, nodes.Module) and text is not None:
        for imported in _project_imports(module, text):
            # through a module of the project: the layer classes and Cell methods it
            # rebinds (what a layer takes, which methods a Cell has); its functions
            # and Tensor methods still return MindSpore tensors, and the rules on
            # values keep judging them
            found = {name: value for name, value in _own_injections(
                imported, project.read_source(imported.file) if imported.file else None).items()
                if name.startswith(_INJECTED_LAYERS)}
            if found:
                break
    if not found and isinstance(module, nodes.Module) and text is not None:
        found = _copied_library_injections(module, text)
    if key:
        if len(_INJECTED) > 16_384:
            _INJECTED.clear()
        _INJECTED[key] = found
    else:
        _INJECTED_BUILT[module] = found
    return found


_INJECTED_LAYERS = "mindspore.nn."
# file -> whether its text names an injecting library (asked for each module importing it)
_NAMES_LIBRARY: dict[str, bool] = {}


_COPY_SIBLINGS_READ = 200


def _copied_library_injections(module: nodes.Module, text: bytes) -> dict[str, str]:
    """The injections of the library a module was copied out of: a module whose
    relative imports name modules that are not in sight (``from ....utils import
    logging`` climbing above the project, ``from ...modeling_utils import
    PreTrainedModel`` with no such file: a folder of mindnlp's models copied into a
    repository), beside copies that import the library by name (the ``.py`` files
    of its folder and, inside its project, of the folders next to it, the first
    200): it runs only inside
    that library, whose import rebinds the framework names first."""
    if not module.file or b"from ." not in text or not any(
            level and _not_in_sight(module, modname) for level, modname in _imported_names(module, text)):
        return {}
    own = project.real_path(module.file)
    folder = os.path.dirname(own)
    parent = os.path.dirname(folder)
    candidates = [os.path.join(folder, name) for name in _listing(folder) if name.endswith(".py")]
    root = programs.project_root(own)
    # the folders next to it only inside its project: above the project they are
    # other projects (~/code/a beside ~/code/b), which never run this module
    beside_folders = _listing(parent) if parent == root or parent.startswith(root.rstrip(os.sep) + os.sep) else []
    for entry in beside_folders:
        beside = os.path.join(parent, entry)
        if beside.endswith(".py"):
            candidates.append(beside)
        elif beside != folder and not entry.startswith(".") and os.path.isdir(beside):
            candidates.extend(os.path.join(beside, name) for name in _listing(beside) if name.endswith(".py"))
    for path in candidates[:_COPY_SIBLINGS_READ]:
        if path == own or not _names_injecting_library(path):
            continue
        try:
            sibling = module_at(path, project.module_name(path))
        except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
            continue
        found = _own_injections(sibling, project.read_source(path))
        if found:
            return found
    return {}


def _not_in_sight(module: nodes.Module, modname: str | None) -> bool:
    """A relative import's target that is not here: above the top package (None),
    or a project module with no file, nor a package holding it."""
    if modname is None:
        return True
    return bool(modname) and not is_external(modname) and _project_file(module, modname) is None \
        and _project_file(module, modname.rpartition(".")[0]) is None


def _listing(folder: str) -> list[str]:
    try:
        return sorted(os.listdir(folder))
    except OSError:
        return []


def _names_injecting_library(path: str) -> bool:
    known = _NAMES_LIBRARY.get(path)
    if known is None:
        text = project.read_source(path)
        if isinstance(text, str):
            text = text.encode("utf-8", "replace")
        known = text is not None and any(library in text for library in _LIBRARY_TEXT)
        if len(_NAMES_LIBRARY) > 16_384:
            _NAMES_LIBRARY.clear()
        _NAMES_LIBRARY[path] = known
    return known


def _own_injections(module: nodes.NodeNG, text: bytes | str | None) -> dict[str, str]:
    """The names rebound by the injecting libraries ``module`` itself imports."""
    if isinstance(text, str):
        text = text.encode("utf-8", "replace")
    found: dict[str, str] = {}
    if text is None or any(library in text for library in _LIBRARY_TEXT):
        for node in astutil.module_nodes(module, (nodes.Import, nodes.ImportFrom)):
            if isinstance(node, nodes.ImportFrom):
                if node.level:
                    continue  # the project's own package
                names = [node.modname or ""]
            else:
                names = [name for name, _ in node.names]
            for name in names:
                library = name.split(".", 1)[0]
                patched = _INJECTING_LIBRARIES.get(library)
                if patched is not None and _may_inject(module, library):
                    found.update(patched)
    return found


def _project_imports(module: nodes.Module, text: bytes) -> Iterator[nodes.Module]:
    """The project modules ``module`` imports by name (``from models.helpers import
    build``, ``from .helpers import build``, ``import models.helpers``) whose
    text names an injecting library; not parsed otherwise. The import statements
    are read from the text (scan_imports' line-start scan: a walk of every
    module's tree for its imports cost 8% of the plugin's time)."""
    seen: set[str] = set()
    for _level, modname in _imported_names(module, text):
        if not modname or modname in seen or is_external(modname):
            continue
        seen.add(modname)
        path = _project_file(module, modname)
        if not path or not _names_injecting_library(path):
            continue
        try:
            yield imported_module(module, modname)
        except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
            continue


def _imported_names(module: nodes.Module, text: bytes) -> Iterator[tuple[int, str | None]]:
    """(level, the absolute module name) of each import statement of ``text``
    (scan_imports' line-start scan), relative ones made absolute from ``module``;
    None for a relative import that climbs above the top package."""
    for level, named, _names in scan_imports(text, LINE_START_IMPORT_RE):
        if not level:
            yield level, named
            continue
        try:
            yield level, module.relative_to_absolute_name(named, level)
        except Exception:  # noqa: BLE001 - a relative import above the top package
            yield level, None


def _may_inject(module: nodes.NodeNG, library: str) -> bool:
    """The library's injection may run (programs.may_inject)."""
    return programs.may_inject(getattr(module, "file", None), library)


def _overrides(module: nodes.NodeNG) -> dict[str, str]:
    """The framework names rebound for ``module``'s file: canonical name -> the
    project's replacement (or an injecting library's, which the project's own
    rebinding, seen later, overrides)."""
    mapping = programs.overrides_for(getattr(module, "file", None))
    injected = _injected(module) if isinstance(module, nodes.Module) else {}
    if not mapping:
        return injected or mapping
    known = _CANONICAL_OVERRIDES.get(id(mapping))
    if known is None or known[0] is not mapping:
        if len(_CANONICAL_OVERRIDES) > 256:
            _CANONICAL_OVERRIDES.clear()
        known = _CANONICAL_OVERRIDES[id(mapping)] = (mapping, {canonical(key): value for key, value in mapping.items()})
    if not injected:
        return known[1]
    key = (id(known[1]), id(injected))
    merged = _MERGED_OVERRIDES.get(key)
    if merged is None or merged[0] is not known[1] or merged[1] is not injected:
        if len(_MERGED_OVERRIDES) > 256:
            _MERGED_OVERRIDES.clear()
        merged = _MERGED_OVERRIDES[key] = (known[1], injected, {**injected, **known[1]})
    return merged[2]


def _rebound(module: nodes.NodeNG, qname: str) -> str | None:
    mapping = _overrides(module)
    return mapping.get(qname) if mapping else None


def rebound(module: nodes.NodeNG, qname: str) -> str | None:
    """What the project puts in place of the framework name ``qname`` (canonical)
    for the code of ``module``, or None when it keeps the framework's: rules then
    judge the project's object, or stay silent."""
    return _rebound(module.root(), canonical(qname))


def tensor_method_rebound(module: nodes.NodeNG, method: str) -> bool:
    """Whether the project gives Tensor the method ``method`` for the code of
    ``module`` (``Tensor.size = _size``): a PyTorch spelling may then be right."""
    return _method_rebound(module, "Tensor", method)


def cell_method_rebound(module: nodes.NodeNG, method: str) -> bool:
    """Whether the project gives nn.Cell the method ``method`` for the code of
    ``module`` (``nn.Cell.half = _half``)."""
    return _method_rebound(module, "Cell", method)


def _method_rebound(module: nodes.NodeNG, owner: str, method: str) -> bool:
    mapping = _overrides(module.root())
    return bool(mapping) and any(key.endswith(f"{owner}.{method}") for key in mapping)


_BUILTIN_NAMES = frozenset(dir(__import__("builtins")))


def is_builtin_name(name: str) -> bool:
    """``len``, ``print``, ``ValueError``: a name Python's builtins give."""
    return name in _BUILTIN_NAMES


def call_name(call: nodes.Call) -> str | None:
    return qualified_name(call.func)


def module_constant(module: nodes.Module, name: str) -> nodes.NodeNG | None:
    """The value of ``name = value``, the one binding of ``name`` at module level."""
    bound = module.locals.get(name, ())
    if len(bound) != 1:
        return None
    node = bound[0]
    statement = node.parent
    if isinstance(node, nodes.AssignName) and isinstance(statement, nodes.Assign) and statement.targets == [node]:
        return statement.value
    return None


def constant_binding(name_node: nodes.Name) -> nodes.NodeNG | None:
    """The value a module binds once to a bare name: ``BN_MOMENTUM = 0.1`` in this
    module, or in a project module it is imported from (``from .config import
    BN_MOMENTUM``); None for the frameworks, installed libraries, or when unsure."""
    bound = binding(name_node)
    if isinstance(bound, nodes.AssignName) and isinstance(bound.scope(), nodes.Module):
        return module_constant(bound.scope(), name_node.name)
    if not isinstance(bound, nodes.ImportFrom):
        return None
    target = _import_target(bound, name_node.name)
    modname, _, imported = (target or "").rpartition(".")
    if not modname or is_external(modname) or is_installed(modname, bound.root().file):
        return None
    try:
        module = imported_module(bound.root(), modname)
    except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
        return None
    return None if _is_library_module(module) else module_constant(module, imported)


# ---------------------------------------------------------------------------
# Modules as a file imports them
# ---------------------------------------------------------------------------
# Trees of project modules that astroid's cache, keyed by module name, holds for
# another file of the same name: realpath -> (modification time, size, tree).
_BY_FILE: dict[str, tuple[int, int, nodes.Module]] = {}
_BY_FILE_LIMIT = 256


def imported_module(importer: nodes.Module, modname: str) -> nodes.Module:
    """The module ``modname`` (absolute) as ``importer`` imports it: the project
    file below the importer's own package root when there is one (Python finds
    it there: a relative import, or an absolute one from the folder its program
    runs in), else astroid's lookup. Two projects of one repository often
    each have a ``src`` package, and astroid's cache, keyed by name, holds only
    the ``src.gru`` built first: DIEN's ``from .gru import GRU`` is DIEN's."""
    path = _project_file(importer, modname)
    if path is None:
        return importer.import_module(modname, level=None)
    cached = astroid.MANAGER.astroid_cache.get(modname)
    if cached is not None and cached.file and (cached.file == path or project.real_path(cached.file) == path):
        return cached
    try:
        info = os.stat(path)
    except OSError:
        return importer.import_module(modname, level=None)
    known = _BY_FILE.get(path)
    if known is not None and known[:2] == (info.st_mtime_ns, info.st_size):
        return known[2]
    module = astroid.MANAGER.ast_from_file(path, modname, source=True)  # cached only when the name is free
    if len(_BY_FILE) >= _BY_FILE_LIMIT:
        _BY_FILE.clear()
    _BY_FILE[path] = (info.st_mtime_ns, info.st_size, module)
    return module


def module_at(path: str, modname: str) -> nodes.Module:
    """The tree of the file at ``path`` (a real path) as module ``modname``: the one
    astroid already holds under that name when it is the same file, reached
    through another path (pylint given a symlinked folder keeps the path it was
    given; astroid's own lookup compares paths as written and, the name taken,
    builds the file again at every call); else astroid's."""
    cached = astroid.MANAGER.astroid_cache.get(modname)
    if cached is not None and cached.file and (cached.file == path or project.real_path(cached.file) == path):
        return cached
    return astroid.MANAGER.ast_from_file(path, modname, source=True)


def _project_file(importer: nodes.Module, modname: str) -> str | None:
    """The file of ``modname`` below the package root of ``importer``'s file;
    else below a folder between the two, the importer's own first: a program run
    from ``exp/src`` imports ``from model import common`` as ``exp/src/model``
    even when ``exp/src`` holds an ``__init__.py`` (Python puts the script's
    folder on sys.path; the program model searches the same folders)."""
    if not importer.file or not os.path.isabs(importer.file) or not modname:
        return None
    named = _RELATIVE.get((project.real_path(importer.file), modname)) if _RELATIVE else None
    if named is not None:
        return named
    root = project.package_root(importer.file)
    found = _file_below(root, modname)
    if found is not None:
        return found
    folder = os.path.dirname(importer.file)
    while folder.startswith(root) and folder != root:
        found = _file_below(folder, modname)
        if found is not None:
            return found
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        folder = parent
    return _file_above(root, modname.partition(".")[0], modname)


# folders above a package root searched for an absolute import, at most
_ABOVE_LIMIT = 4


def _file_above(root: str, top: str, modname: str) -> str | None:
    """The file of ``modname`` in the first folder above ``root`` that holds its
    top name (``src/``, ``src.py``): a module of ``proj/src/model/`` imports
    ``from src.model.blocks import X`` as ``proj/src/model/blocks.py``, because
    the program that runs it, ``proj/train.py``, puts ``proj`` first on sys.path
    (the program model searches the same folders); a sibling project's
    ``src/model.py``, also on pylint's sys.path in a monorepo, is not it."""
    folder = root
    for _ in range(_ABOVE_LIMIT):
        parent = os.path.dirname(folder)
        if parent == folder:
            return None
        folder = parent
        if os.path.exists(os.path.join(folder, top)) or os.path.isfile(os.path.join(folder, top + ".py")):
            return _file_below(folder, modname)
    return None


@functools.lru_cache(maxsize=8192)
def _file_below(root: str, modname: str) -> str | None:
    base = os.path.join(root, *modname.split("."))
    for candidate in (base + ".py", os.path.join(base, "__init__.py")):
        if os.path.isfile(candidate):
            return os.path.realpath(candidate)
    return None


# ---------------------------------------------------------------------------
# User classes
# ---------------------------------------------------------------------------

# Stands for a base class expression that could not be resolved.
UNRESOLVED_BASE = "?"

_BASES_CACHE: dict[nodes.ClassDef, tuple[list[nodes.ClassDef], frozenset[str]]] = {}
_CACHE_LIMIT = 20000


def clear_caches() -> None:
    _BASES_CACHE.clear()
    _installed_from.cache_clear()
    _QNAME_MEMO.clear()
    _BY_FILE.clear()
    _RELATIVE.clear()
    _file_below.cache_clear()
    _STAR_MEMO.clear()
    _MODULE_STARS.clear()
    _LEAVES_OUT.clear()
    _INJECTED.clear()
    _INJECTED_BUILT.clear()
    _NAMES_LIBRARY.clear()


def forget_names() -> None:
    """Empty the per-module name memo (a new module is being checked)."""
    _QNAME_MEMO.clear()
    _MODULE_STARS.clear()
    _LEAVES_OUT.clear()


def _resolve_base(base: nodes.NodeNG) -> tuple[nodes.ClassDef | None, str | None]:
    """A base-class expression as (user ClassDef, None) or (None, external qname)."""
    if isinstance(base, nodes.Subscript):  # Generic[T], SomeCell[...]
        base = base.value
    if isinstance(base, nodes.Name):
        bound = binding(base)
        if isinstance(bound, nodes.ClassDef):
            return bound, None
    qname = qualified_name(base)
    if qname is None:
        return None, None
    if is_external(qname) or root_package(qname) in _BUILTIN_NAMES or "." not in qname:
        return None, qname
    # A class from the user's own project: follow the import statements into the
    # module that defines it (astroid parses that module). No value inference:
    # inferring follows assignments and decorators into mindspore's sources.
    try:
        found = _follow_name(base, 0)
    except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
        return None, qname
    if isinstance(found, nodes.ClassDef):
        return found, None
    if isinstance(found, str):
        return None, found
    return None, qname


def class_named(expr: nodes.NodeNG) -> tuple[nodes.ClassDef | None, str | None]:
    """What a class expression (a base, a callee) names: (the user ClassDef, None),
    (None, the qualified name of an external class), or (None, None) unsure."""
    return _resolve_base(expr)


_FOLLOW_DEPTH = 8


def _follow_name(expr: nodes.NodeNG, depth: int) -> nodes.ClassDef | nodes.FunctionDef | str | None:
    """What a Name/Attribute expression denotes, by import statements only: a
    user ClassDef or module-level function, the qualified name of an external
    (or library) object, or None when unsure."""
    root, names = astutil.attribute_chain(expr)
    if root is None or depth > _FOLLOW_DEPTH:
        return None
    bound = binding(root)
    if isinstance(bound, nodes.ClassDef):
        return _nested_class(bound, names)
    if isinstance(bound, (nodes.Import, nodes.ImportFrom)):
        return _follow_import(bound, root.name, names, depth)
    return None


def _follow_import(node: nodes.Import | nodes.ImportFrom, name: str, rest: list[str], depth: int):
    target = _import_target(node, name)
    if target is None:
        return None
    if _is_star(node) and not is_external(target):
        # what the star-imported module binds, looked up there (its own imports)
        star = _import_target_module(node)
        module = imported_module(node.root(), star) if star else None
        if module is not None and not _is_library_module(module):
            return _lookup(module, [name, *rest], depth + 1)
    if isinstance(node, nodes.Import):
        # ``import pkg.models as models`` binds the module pkg.models; ``import pkg.models`` binds pkg
        modname = target
    else:
        modname, _, imported = target.rpartition(".")
        rest = [imported, *rest]
    if is_external(modname) or is_installed(modname, node.root().file):
        return canonical(".".join([modname, *rest]))
    module = imported_module(node.root(), modname)
    if _is_library_module(module):
        return ".".join([modname, *rest])
    return _lookup(module, rest, depth + 1)


def _lookup(module: nodes.Module, names: list[str], depth: int):
    """``names`` looked up in a user module, following its imports."""
    if not names or depth > _FOLLOW_DEPTH:
        return None
    first, rest = names[0], names[1:]
    candidates = module.locals.get(first)
    if not candidates:
        found = _lookup_in_star_imports(module, names, depth)
        if found is not None:
            return found
        # ``pkg.models.Net`` where pkg/__init__.py does not import models
        try:
            submodule = imported_module(module, f"{module.name}.{first}")
        except astroid.AstroidError:
            return None
        return None if _is_library_module(submodule) else _lookup(submodule, rest, depth + 1)
    chosen = next((c for c in candidates if isinstance(c, (nodes.Import, nodes.ImportFrom))), candidates[-1])
    if isinstance(chosen, nodes.ClassDef):
        return _nested_class(chosen, rest)
    if isinstance(chosen, nodes.FunctionDef):
        return None if rest else chosen
    if isinstance(chosen, nodes.ImportFrom) and any(imported == "*" for imported, _ in chosen.names) \
            and all((alias or imported) != first for imported, alias in chosen.names):
        star = _import_target_module(chosen)
        if star is None or is_external(star) or is_installed(star, module.file):
            return None  # what a star import binds depends on what is installed
        return _lookup(imported_module(chosen.root(), star), names, depth + 1)
    if isinstance(chosen, (nodes.Import, nodes.ImportFrom)):
        return _follow_import(chosen, first, rest, depth)
    if isinstance(chosen, nodes.AssignName) and isinstance(chosen.parent, nodes.Assign) and not rest:
        value = chosen.parent.value
        if isinstance(value, (nodes.Name, nodes.Attribute)):  # Base = nn.Cell
            qname = qualified_name(value)
            if qname is not None and (is_external(qname) or "." not in qname):
                return qname
            return _follow_name(value, depth + 1)
    return None


def project_function(expr: nodes.NodeNG) -> nodes.FunctionDef | None:
    """The function of another module of the user's project that a call's callee
    expression names through import statements (``helper`` after ``from .utils
    import helper``, ``utils.helper``), or None: a library's, a local one, unsure.
    Follows imports as astroid parses them (no inference, no import of user code)."""
    root, names = astutil.attribute_chain(expr)
    if root is None or not isinstance(binding(root), (nodes.Import, nodes.ImportFrom)):
        return None
    qname = qualified_name(expr)
    if qname is None or "." not in qname or is_external(qname) or root_package(qname) in _BUILTIN_NAMES:
        return None
    try:
        found = _follow_name(expr, 0)
    except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
        return None
    if not isinstance(found, nodes.FunctionDef) or _is_library_module(found.root()):
        return None
    return found


def project_callee(func: nodes.NodeNG) -> nodes.FunctionDef | None:
    """The function of the project a call of ``func`` runs: one of the same module
    called by its name (what :func:`binding` gives), or one of another module named
    through an import (:func:`project_function`); None otherwise."""
    if isinstance(func, nodes.Name):
        bound = binding(func)
        if isinstance(bound, nodes.FunctionDef):
            return bound
    return project_function(func)


def _lookup_in_star_imports(module: nodes.Module, names: list[str], depth: int):
    """``names`` looked up through the project modules ``module`` star-imports.
    astroid binds a star import's names when it builds the tree, by module name:
    where another project of the repository has a package of the same name
    (two ``zoo`` packages side by side), it finds that one, binds nothing, and
    the name seems undefined; the file the importer really imports has it."""
    for node in module_stars(module):
        star = _import_target_module(node)
        if star is None or is_external(star) or is_installed(star, module.file):
            continue
        try:
            found = _lookup(imported_module(module, star), names, depth + 1)
        except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
            continue
        if found is not None:
            return found
    return None


def _is_star(node: nodes.NodeNG) -> bool:
    return isinstance(node, nodes.ImportFrom) and [imported for imported, _ in node.names] == ["*"]


def _import_target_module(node: nodes.ImportFrom) -> str | None:
    """The absolute name of the module an ImportFrom names."""
    if not node.level:
        return node.modname
    root = node.root()
    try:
        return root.relative_to_absolute_name(node.modname, node.level)
    except Exception:  # noqa: BLE001 - a relative import above the top package
        pass
    # ``from .blocks import *`` in model/net.py where model/ has no __init__.py:
    # a namespace package where the program imports it (``from model.net import
    # Net``), and model/ is the folder the module's own name starts from
    # (mslint.analysis.project.module_name): the sibling module
    file = getattr(root, "file", None)
    if node.level == 1 and node.modname and file and not root.package \
            and "." not in root.name and not os.path.isfile(os.path.join(os.path.dirname(file), "__init__.py")):
        return node.modname
    return _namespace_relative(file, node.level, node.modname)


# (importing file, module name) -> the file a relative import in a namespace package
# names (_namespace_relative): imported_module loads that file for the name
_RELATIVE: dict[tuple[str, str], str] = {}


def _namespace_relative(file: str | None, level: int, modname: str) -> str | None:
    """``loss_base`` for ``from ..loss_base import CrossEntropy`` in
    lib/loss/impl/smooth.py where lib/ and lib/loss/ have no ``__init__.py``:
    PEP 420 namespace packages, where the program imports the module as
    ``loss.impl.smooth`` (or deeper), and Python finds lib/loss/loss_base.py. Only
    when the folder the import climbs to lies below the project's root (a
    script at the root, run as such, has no package to climb in: its relative
    import stays unresolved) and holds the module; the name then stands for that
    file (_RELATIVE). None otherwise."""
    if not file or not modname or level < 2 or not os.path.isabs(file):
        return None
    real = project.real_path(file)
    folder = os.path.dirname(real)
    for _ in range(level - 1):
        folder = os.path.dirname(folder)
    root = programs.project_root(real)
    if not folder.startswith(root + os.sep):
        return None
    found = _file_below(folder, modname)
    if found is None:
        return None
    if len(_RELATIVE) >= _BY_FILE_LIMIT * 16:
        _RELATIVE.clear()
    _RELATIVE[(real, modname)] = found
    return modname


def _nested_class(cls: nodes.ClassDef, names: list[str]) -> nodes.ClassDef | None:
    for name in names:
        inner = [member for member in cls.locals.get(name, ()) if isinstance(member, nodes.ClassDef)]
        if not inner:
            return None
        cls = inner[-1]
    return cls


def _library_dirs() -> tuple[str, ...]:
    paths = sysconfig.get_paths()
    found = {os.path.realpath(paths[key]) for key in ("stdlib", "platstdlib", "purelib", "platlib") if key in paths}
    return tuple(sorted(found))


_LIBRARY_DIRS = _library_dirs()


def is_installed(modname: str, context_file: str | None) -> bool:
    """Whether ``modname``, imported from ``context_file``, is found in the standard
    library or an installed package (site-packages), without building its tree: a
    package is external by where it lives, not by its name."""
    if _RELATIVE and context_file and (project.real_path(context_file), modname) in _RELATIVE:
        return False  # a project module a relative import names (_namespace_relative)
    cached = astroid.MANAGER.astroid_cache.get(modname)
    if cached is not None:
        return _is_library_module(cached)
    return _installed_from(modname, os.path.dirname(context_file) if context_file else None)


@functools.lru_cache(maxsize=8192)
def _installed_from(modname: str, context_dir: str | None) -> bool:
    # one search of sys.path per module name and importing folder, not per file
    context_file = os.path.join(context_dir, "__init__.py") if context_dir else None
    try:
        found = astroid.MANAGER.file_from_module_name(modname, context_file)
    except (astroid.AstroidError, ImportError, ValueError, OSError):
        return False  # not found: following it fails later, and nothing is built
    location = getattr(found, "location", None)
    return not location or is_library_path(location)


def _is_library_module(module: nodes.Module) -> bool:
    """A module of the standard library or an installed package (``decimal``,
    ``functools``): its classes are not the user's own classes."""
    path = module.file
    if not path:
        return True  # builtins and other modules without a source file
    return is_library_path(path)


def is_library_path(path: str) -> bool:
    """A file of the standard library or of an installed package."""
    real = project.real_path(path)
    if any(real.startswith(directory + os.sep) for directory in _LIBRARY_DIRS):
        return True
    parts = real.split(os.sep)
    return "site-packages" in parts or "dist-packages" in parts


def _base_expressions(cls: nodes.ClassDef) -> Iterator[nodes.NodeNG]:
    """The base-class expressions of ``cls``; both branches of a conditional base
    (``nn.Cell if HAVE_MS else object``): the class is a Cell where MindSpore is."""
    for base in cls.bases:
        if isinstance(base, nodes.IfExp):
            yield base.body
            yield base.orelse
        else:
            yield base


def _direct_bases(cls: nodes.ClassDef) -> tuple[list[nodes.ClassDef], list[str]]:
    user: list[nodes.ClassDef] = []
    external: list[str] = []
    for base in _base_expressions(cls):
        classdef, qname = _resolve_base(base)
        if classdef is not None:
            user.append(classdef)
        else:
            external.append(qname if qname is not None else UNRESOLVED_BASE)
    return user, external


def class_hierarchy(cls: nodes.ClassDef) -> tuple[list[nodes.ClassDef], frozenset[str]]:
    """The user classes in ``cls``'s ancestry (``cls`` first, in MRO-like order)
    and the qualified names of the external classes it derives from."""
    cached = _BASES_CACHE.get(cls)
    if cached is not None:
        return cached
    if len(_BASES_CACHE) > _CACHE_LIMIT:
        _BASES_CACHE.clear()
    user: list[nodes.ClassDef] = []
    external: set[str] = set()
    seen: set[int] = set()
    stack = [cls]
    while stack:  # iterative: recursive class hierarchies (A(B), B(A)) terminate
        current = stack.pop(0)
        if id(current) in seen:
            continue
        seen.add(id(current))
        user.append(current)
        direct_user, direct_external = _direct_bases(current)
        external.update(direct_external)
        stack.extend(direct_user)
    result = (user, frozenset(external))
    _BASES_CACHE[cls] = result
    return result


def is_cell_qname(qname: str) -> bool:
    if qname in apis.NON_CELL_CLASSES:
        return False
    for package in apis.CELL_PACKAGES:
        if qname.startswith(package + "."):
            last = qname.rsplit(".", 1)[-1]
            return last[:1].isupper()
    return False


def is_cell_class(cls: nodes.ClassDef) -> bool:
    _, external = class_hierarchy(cls)
    return any(is_cell_qname(q) for q in external)


def derives_from(cls: nodes.ClassDef, qnames: frozenset[str] | set[str]) -> bool:
    _, external = class_hierarchy(cls)
    return bool(external & qnames)


def find_method(cls: nodes.ClassDef, name: str) -> nodes.FunctionDef | None:
    """The method ``name`` as Python would find it among user classes."""
    user, _ = class_hierarchy(cls)
    for klass in user:
        for member in klass.locals.get(name, ()):
            if isinstance(member, nodes.FunctionDef):
                return member
    return None


def has_decorator(func: nodes.FunctionDef | nodes.ClassDef, qnames: frozenset[str]) -> bool:
    if not func.decorators:
        return False
    for decorator in func.decorators.nodes:
        target = decorator.func if isinstance(decorator, nodes.Call) else decorator
        qname = qualified_name(target)
        if qname in qnames:
            return True
    return False


def user_class(expr: nodes.NodeNG) -> nodes.ClassDef | None:
    """The user-defined class a Name/Attribute expression names (``Base`` in
    ``Base.__init__(self)``), by import statements only."""
    return _resolve_base(expr)[0] if isinstance(expr, (nodes.Name, nodes.Attribute)) else None


def user_class_of_call(call: nodes.Call) -> nodes.ClassDef | None:
    """The user-defined class a call constructs, when the callee is a bare name
    bound to a class in this module or imported from the user's project."""
    func = call.func
    if isinstance(func, nodes.Name):
        bound = binding(func)
        if isinstance(bound, nodes.ClassDef):
            return bound
        if isinstance(bound, nodes.ImportFrom):
            classdef, _ = _resolve_base(func)
            return classdef
    elif isinstance(func, nodes.Attribute):
        root = func.expr
        while isinstance(root, nodes.Attribute):
            root = root.expr
        # models.Net(...) through an import of the user's package; not Net.static(...)
        # on a class of this module (inferring that follows its decorators, e.g.
        # @ms.jit, into mindspore's sources)
        if not isinstance(root, nodes.Name) or not isinstance(binding(root), (nodes.Import, nodes.ImportFrom)):
            return None
        qname = qualified_name(func)
        if qname is not None and not is_external(qname) and "." in qname:
            classdef, _ = _resolve_base(func)
            return classdef
    return None
