"""Everything mslint changes in pylint and astroid, or reaches into them for,
in one place, with the signatures it was written against (mslint.checkers.pylint_hooks.EXPECTED).
:func:`check_signatures` compares them with what is installed and raises
:class:`IncompatibleVersions`, naming the versions, at the first difference:
a patch that no longer fits fails loudly instead of quietly changing findings.

Adjustments to astroid, active only while the ``mslint`` command lints (never in
``pylint --load-plugins mslint``), see :class:`adjusted_astroid`:

- :class:`SkipLibraries`: astroid does not load mindspore, torch and the like.
  mslint resolves their names from import statements and never needs their
  sources; parsing them (mindspore is 600,000 lines) would cost more than the
  user's code, be repeated in every worker, and make findings depend on whether
  and which version of them is installed.
- :class:`LazyStarImports`: when astroid builds a module with
  ``from .models import *`` it builds ``.models`` and everything that star-imports
  in turn, only to learn the names they define. A package's ``__init__.py`` of
  that kind pulls the whole package into whichever worker checks it, so with
  N workers the package would be parsed N times. The names are computed here
  instead from Python's own parser, with astroid's rules for what a module
  binds (tests/test_cache.py checks they agree); the modules themselves are
  built later only if inference needs them. The tree astroid builds for the
  importing module is the same: its locals map each name to the ImportFrom.
- :class:`LeanTrees`: when only mslint's rules are enabled, no brain transforms,
  no inference of ``self`` attributes, and a garbage collector tuned for
  long-lived trees (what only pylint's own checkers would miss).

For pylint: :func:`linter_class` (the command's PyLinter, with three overrides)
and the cache clearing of :func:`fresh_astroid` and :func:`forget_run`. The
table of signatures, and the hooks the lower layers use (a walker over some
checkers, the node each message was added for), are mslint.checkers.pylint_hooks'.
"""

from __future__ import annotations

import ast
import contextlib
import functools
import gc
import io
import os
import tokenize
from collections.abc import Callable, Iterable, Iterator
from typing import TYPE_CHECKING, Any

from mslint.analysis import forked
from mslint.checkers.pylint_hooks import check_signatures

if TYPE_CHECKING:
    from pylint.lint import PyLinter

# gc thresholds while LeanTrees is active (Python's default: 700, 10, 10)
GC_THRESHOLDS = (100_000, 50, 1000)

# ---------------------------------------------------------------------------
# astroid adjustments
# ---------------------------------------------------------------------------


class _Patches:
    """Replaces attributes of astroid's classes while active (a ``with`` block)
    and puts the originals back on exit, last replaced first restored."""

    def __init__(self) -> None:
        self._saved: list[tuple[Any, str, Any]] = []

    def _replace(self, owner: Any, name: str, value: Any) -> None:
        """Install ``value`` as ``owner.name`` until the block ends."""
        self._saved.append((owner, name, getattr(owner, name)))
        setattr(owner, name, value)

    def __exit__(self, *exc: object) -> None:
        while self._saved:
            owner, name, original = self._saved.pop()
            setattr(owner, name, original)


class SkipLibraries(_Patches):
    """While active, astroid refuses to load modules of the given top-level
    packages, as if they were not installed."""

    def __init__(self, names: Iterable[str]) -> None:
        super().__init__()
        self.names = frozenset(names)

    def __enter__(self) -> SkipLibraries:
        from astroid.exceptions import AstroidImportError  # noqa: PLC0415
        from astroid.manager import AstroidManager  # noqa: PLC0415

        check_signatures()
        original = AstroidManager.ast_from_module_name
        names = self.names

        def ast_from_module_name(manager, modname, *args, **kwargs):  # noqa: ANN001, ANN202
            if modname and modname.partition(".")[0] in names:
                raise AstroidImportError(f"mslint does not analyse the library {modname!r}")
            return original(manager, modname, *args, **kwargs)

        self._replace(AstroidManager, "ast_from_module_name", ast_from_module_name)
        return self




class _Bindings(ast.NodeVisitor):
    """The names astroid's rebuilder binds in a module's own scope, in the order
    it binds them, and the ``from`` imports it handles afterwards (with the
    names declared global where they stand)."""

    def __init__(self) -> None:
        self.names: dict[str, None] = {}
        # astroid reads a function's global names when it handles its `from`
        # imports after the build: the whole function's, hence the live sets
        self.import_froms: list[tuple[ast.ImportFrom, bool, set[str]]] = []
        # one entry per enclosing function: its global names (astroid pushes
        # one per function only; classes, lambdas and comprehensions share it)
        self._globals: list[set[str]] = []
        self._depth = 0  # nesting in non-module scopes

    def _bind(self, name: str | None, *, walrus: bool = False) -> None:
        if not name:
            return
        if self._globals and name in self._globals[-1]:
            self.names.setdefault(name, None)
        elif self._depth == 0 or (walrus and self._walrus_module):
            self.names.setdefault(name, None)

    _walrus_module = False

    # -- scopes ------------------------------------------------------------------
    def _function(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        self._visit_arguments_defaults(node.args)
        if node.returns is not None:
            self.visit(node.returns)
        self._globals.append(set())
        self._depth += 1
        for statement in node.body:
            self.visit(statement)
        self._depth -= 1
        self._globals.pop()
        self._bind_plain(node.name)

    def _bind_plain(self, name: str) -> None:
        # a def/class statement binds in its parent scope, globals ignored
        if self._depth == 0:
            self.names.setdefault(name, None)

    visit_FunctionDef = _function
    visit_AsyncFunctionDef = _function

    def _visit_arguments_defaults(self, arguments: ast.arguments) -> None:
        for default in [*arguments.defaults, *(d for d in arguments.kw_defaults if d is not None)]:
            self.visit(default)
        for arg in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs, arguments.vararg, arguments.kwarg]:
            if arg is not None and arg.annotation is not None:
                self.visit(arg.annotation)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        for decorator in node.decorator_list:
            self.visit(decorator)
        for base in node.bases:
            self.visit(base)
        for keyword in node.keywords:
            self.visit(keyword.value)
        self._depth += 1
        for statement in node.body:
            self.visit(statement)
        self._depth -= 1
        self._bind_plain(node.name)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_arguments_defaults(node.args)
        self._depth += 1
        saved, self._walrus_module = self._walrus_module, False
        self.visit(node.body)
        self._walrus_module = saved
        self._depth -= 1

    def _comprehension(self, node: ast.AST) -> None:
        # a comprehension is a scope of its own, but a walrus inside it binds
        # in the enclosing frame (the module, at top level)
        top = self._depth == 0 or self._walrus_module
        self._depth += 1
        saved, self._walrus_module = self._walrus_module, top
        self.generic_visit(node)
        self._walrus_module = saved
        self._depth -= 1

    visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _comprehension

    def visit_NamedExpr(self, node: ast.NamedExpr) -> None:
        self.visit(node.value)
        if isinstance(node.target, ast.Name):
            self._bind(node.target.id, walrus=True)

    # -- bindings ------------------------------------------------------------------
    def visit_Global(self, node: ast.Global) -> None:
        if self._globals:
            self._globals[-1].update(node.names)

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, (ast.Store, ast.Del)):
            self._bind(node.id)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self._bind((alias.asname or alias.name).split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        globals_here = self._globals[-1] if self._globals else set()
        self.import_froms.append((node, self._depth == 0, globals_here))

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.type is not None:
            self.visit(node.type)
        self._bind(node.name)
        for statement in node.body:
            self.visit(statement)

    def visit_MatchAs(self, node: ast.AST) -> None:
        if getattr(node, "pattern", None) is not None:
            self.visit(node.pattern)
        self._bind(getattr(node, "name", None))

    def visit_MatchStar(self, node: ast.AST) -> None:
        self._bind(getattr(node, "name", None))

    def visit_MatchMapping(self, node: ast.AST) -> None:
        self.generic_visit(node)
        self._bind(getattr(node, "rest", None))


# (roots, path) -> the public names of the module at path, read by a LazyStarImports
# with these roots; kept by the command's main process across its workers
# (forked.carried): they depend only on the files of a run
_STAR_NAMES: dict[tuple[tuple[str, ...], str], list[str]] = forked.carried("compat.star_names", {})


class LazyStarImports(_Patches):
    """While active, astroid learns the names a ``from X import *`` brings from
    X's source with Python's parser instead of building X (see the module
    docstring). Only for X a ``.py`` file of the project (under ``roots``);
    anything else, or any surprise, goes the usual way."""

    def __init__(self, roots: Iterable[str]) -> None:
        super().__init__()
        self.roots = tuple(os.path.join(os.path.realpath(root), "") for root in roots)
        self._in_progress: dict[str, list[str]] = {}

    def __enter__(self) -> LazyStarImports:
        from astroid.builder import AstroidBuilder  # noqa: PLC0415

        check_signatures()
        original = AstroidBuilder.add_from_names_to_locals
        lazy = self

        def add_from_names_to_locals(builder, node, global_name):  # noqa: ANN001, ANN202
            if [name for name, _ in node.names] != ["*"]:
                return original(builder, node, global_name)
            names = lazy.star_names(node)
            if names is None:
                return original(builder, node, global_name)
            module = node.root()
            for name in names:
                target = module if name in global_name else node.parent
                target.set_local(name, node)
                target.scope().locals[name].sort(key=lambda n: n.fromlineno or 0)
            return None

        self._replace(AstroidBuilder, "add_from_names_to_locals", add_from_names_to_locals)
        return self

    def clear(self) -> None:
        for key in [key for key in _STAR_NAMES if key[0] == self.roots]:
            del _STAR_NAMES[key]

    # -- names ---------------------------------------------------------------------
    def star_names(self, node) -> list[str] | None:  # noqa: ANN001
        """The names ``node`` (a star ImportFrom being built) brings, or None to
        let astroid build the module."""
        return self._names_from(node.root(), node.modname, node.level)

    def _names_from(self, importer, modname: str, level: int | None) -> list[str] | None:  # noqa: ANN001
        import astroid  # noqa: PLC0415
        from astroid.exceptions import AstroidBuildingError, TooManyLevelsError  # noqa: PLC0415
        from astroid.interpreter._import import spec  # noqa: PLC0415

        manager = astroid.MANAGER
        try:
            absolute = importer.relative_to_absolute_name(modname, level)
        except TooManyLevelsError:
            return []  # astroid: AstroidBuildingError, no names
        if absolute == importer.name:
            return None  # a module importing itself: astroid skips its cache
        candidates = [absolute]
        if not (level and level >= 1) and modname != absolute:
            candidates.append(modname)
        for name in candidates:
            if name in manager.module_denylist:
                continue
            cached = manager.astroid_cache.get(name)
            if cached is not None:
                return cached.public_names()
            try:
                found = manager.file_from_module_name(name, None)
            except AstroidBuildingError:
                continue
            if found.type not in (spec.ModuleType.PY_SOURCE, spec.ModuleType.PKG_DIRECTORY) or not found.location:
                return None
            location = found.location
            if not location.endswith(".py"):
                location = os.path.join(location, "__init__.py")
            if not os.path.isfile(location) or not os.path.realpath(location).startswith(self.roots):
                return None
            return self._module_names(name, location)
        return []

    def _module_names(self, name: str, path: str) -> list[str] | None:
        from astroid import nodes  # noqa: PLC0415

        path = os.path.abspath(path)
        done = _STAR_NAMES.get((self.roots, path))
        if done is not None:
            return list(done)
        if path in self._in_progress:  # a star-import cycle: astroid sees what is bound so far
            return list(self._in_progress[path])
        try:
            with tokenize.open(path) as handle:
                source = handle.read()
            with forked.collector_paused():
                tree = ast.parse(source, path)
        except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError, MemoryError):
            return []  # astroid fails to build it too: no names
        if name.endswith(".__init__"):
            name = name[: -len(".__init__")]
        package = os.path.splitext(os.path.basename(path))[0] == "__init__"
        module = nodes.Module(name=name, file=path, path=[path], package=package)
        bindings = _Bindings()
        try:
            bindings.visit(tree)
        except RecursionError:
            return None
        names = self._in_progress[path] = list(bindings.names)
        seen = set(names)
        try:
            for node, at_module, globals_here in bindings.import_froms:
                imported: list[str]
                if [alias.name for alias in node.names] == ["*"]:
                    found = self._names_from(module, node.module or "", node.level or None)
                    if found is None:
                        return None
                    imported = found
                else:
                    imported = [alias.asname or alias.name for alias in node.names]
                for item in imported:
                    if (at_module or item in globals_here) and item not in seen:
                        seen.add(item)
                        names.append(item)
        finally:
            del self._in_progress[path]
        public = [item for item in names if not item.startswith("_")]
        _STAR_NAMES[(self.roots, path)] = public
        return list(public)




def _records_instance_attribute_only(expr: Any, nodes: Any) -> bool:
    """Whether astroid's inference for ``expr.attr = ...`` could only record an
    instance attribute, which pylint's ``no-member`` reads and mslint never:
    ``expr`` is ``self``, an attribute of ``self`` (``self.head.bias = ...``),
    or a name every binding of which in its scope is a call's result or a
    parameter (``args = parser.parse_args(); args.lr = ...``: its inference
    builds argparse's tree to find the Namespace class). Names bound to a
    module, a class or a function keep astroid's bookkeeping: a module's or a
    class's locals are what mslint's name resolution reads."""
    if isinstance(expr, nodes.Attribute):
        while isinstance(expr, nodes.Attribute):
            expr = expr.expr
        return isinstance(expr, nodes.Name) and expr.name == "self"
    if not isinstance(expr, nodes.Name):
        return False
    if expr.name == "self":
        return True
    bindings = expr.frame().locals.get(expr.name)
    if not bindings:
        return False
    for binding in bindings:
        parent = binding.parent
        if not isinstance(binding, nodes.AssignName):
            return False
        if isinstance(parent, nodes.Arguments):
            continue
        if not (isinstance(parent, nodes.Assign) and isinstance(parent.value, nodes.Call)):
            return False
    return True


class LeanTrees(_Patches):
    """While active, astroid builds only what mslint's rules read, about 40% less
    work per tree, used only when no pylint checker of its own is enabled:

    - no inference of ``self`` for every ``self.x = ...`` (done only to record
      instance attributes, which pylint's ``no-member`` reads and mslint never);
    - no "brain" transforms (inference tips and rewritten nodes for the standard
      library and popular packages: mslint reads names, bases and locals as
      written, never infers);
    - the cyclic garbage collector runs far less often: it otherwise walks every
      live tree node again and again (a third of the time), while trees are
      dropped as a whole and collected by Engine.after_file.

    The findings are the same as pylint's plugin run with mslint's rules
    (tests/test_cli.py compares them on every fixture)."""

    def __init__(self, active: bool) -> None:
        super().__init__()
        self.active = active
        self.original_gc: tuple[int, ...] | None = None

    def __enter__(self) -> LeanTrees:
        if not self.active:
            return self
        from astroid import nodes  # noqa: PLC0415
        from astroid.builder import AstroidBuilder  # noqa: PLC0415
        from astroid.manager import AstroidManager  # noqa: PLC0415

        original = AstroidBuilder.delayed_assattr

        def delayed_assattr(builder, node):  # noqa: ANN001, ANN202
            if _records_instance_attribute_only(node.expr, nodes):
                return None
            return original(builder, node)

        self._replace(AstroidBuilder, "delayed_assattr", delayed_assattr)
        self._replace(AstroidManager, "visit_transforms", lambda manager, node: node)
        self.original_gc = gc.get_threshold()
        gc.set_threshold(*GC_THRESHOLDS)
        return self

    def __exit__(self, *exc: object) -> None:
        super().__exit__(*exc)
        if self.original_gc is not None:
            gc.set_threshold(*self.original_gc)
            self.original_gc = None


class ParentWalks(_Patches):
    """Tree walks linear in the tree's size (see also _nodes_of_class).
    ``frame()``, ``scope()`` and ``root()`` of astroid's nodes remembered per
    node. astroid walks up the parents on every call, so a checker asking them
    of each call in one long expression (``a + b + ...``: a chain of BinOp as
    deep as the expression is long) took time quadratic in its length (4000
    terms: 23 s). Each node keeps the answer with the parent it was computed
    through, so a node copied under another parent computes it again; the
    answers are astroid's own (a node class with its own method is asked)."""

    HOPS = [0]  # steps taken (to a parent, to a child), for tests (tests/test_cli_hostile.py)

    def __enter__(self) -> ParentWalks:
        from astroid.exceptions import ParentMissingError  # noqa: PLC0415
        from astroid.nodes import NodeNG  # noqa: PLC0415

        hops = self.HOPS

        def remembered(method: str) -> Callable[[Any], Any]:
            key = f"_mslint_{method}"

            def walk(self: Any) -> Any:
                chain = []
                node = self
                while True:
                    parent = node.parent
                    cached = node.__dict__.get(key)
                    if cached is not None and cached[0] is parent:
                        result = cached[1]
                        break
                    if node is not self and getattr(type(node), method) is not walk:
                        result = getattr(node, method)()  # a class of its own (FunctionDef, Decorators, ...)
                        break
                    if parent is None:
                        if method == "root":
                            result = node
                            break
                        raise ParentMissingError(target=node)
                    chain.append(node)
                    hops[0] += 1
                    node = parent
                for item in chain:
                    item.__dict__[key] = (item.parent, result)
                return result

            return walk

        for method in ("frame", "scope", "root"):
            self._replace(NodeNG, method, remembered(method))
        global _SPANNED  # noqa: PLW0603 - astroid's classes, known once astroid is imported
        if not _SPANNED:
            from astroid import nodes  # noqa: PLC0415

            _SPANNED = (nodes.Module, nodes.ClassDef, nodes.FunctionDef, nodes.AsyncFunctionDef, nodes.For,
                        nodes.AsyncFor, nodes.While, nodes.If, nodes.With, nodes.AsyncWith, nodes.Try)
        self._replace(NodeNG, "nodes_of_class", _nodes_of_class)
        from mslint.analysis import astutil  # noqa: PLC0415

        self._replace(astutil, "MODULE_INDEX", _TypeIndex.of_module)
        return self


def _nodes_of_class(self: Any, klass: Any, skip_klass: Any = None) -> Iterator[Any]:
    """astroid's NodeNG.nodes_of_class (the same nodes, in the same order)
    without its nested generators, through which every node found passed once
    per level of depth: quadratic in a long expression's length. Asked of a
    module, or of a statement that holds others (a function, a class, a loop),
    it answers from the module's _TypeIndex: the rules ask each module for its
    calls, assignments, classes... a dozen times, each once a walk of the tree."""
    if skip_klass is None and isinstance(self, _SPANNED):
        found = _TypeIndex.lookup(self, klass)
        if found is not None:
            return iter(found)
    return _walk_of_class(self, klass, skip_klass)


def _walk_of_class(self: Any, klass: Any, skip_klass: Any = None) -> Iterator[Any]:
    if isinstance(self, klass):
        yield self
    stack = [iter(self.get_children())]
    while stack:
        for child in stack[-1]:
            if skip_klass is not None and isinstance(child, skip_klass):
                continue
            ParentWalks.HOPS[0] += 1
            if isinstance(child, klass):
                yield child
            stack.append(iter(child.get_children()))
            break
        else:
            stack.pop()


_SPANNED: tuple[type, ...] = ()  # the node classes whose subtrees _TypeIndex answers for (set on first use)


class _TypeIndex:
    """Every node of one module's tree, in astroid's walking order (pre-order,
    children as ``get_children`` gives them), listed by exact class; and, for
    the module and each statement of a class in _SPANNED, the range of positions
    its subtree covers (kept on the node, with the index it belongs to). A
    subtree's nodes of a class are a slice of that class's list. Built once per
    tree, on the first question; a node the index does not know (one astroid
    made while inferring, outside any module's tree) is walked as before."""

    __slots__ = ("positions", "members", "classes", "whole")
    KEY = "_mslint_types"
    SPAN = "_mslint_span"
    ASKED = "_mslint_asked"
    WORTH_IT = 3

    def __init__(self, root: Any) -> None:
        positions: dict[type, list[int]] = {}
        members: dict[type, list[Any]] = {}
        self.positions, self.members, self.classes = positions, members, {}
        self.whole: dict[Any, list[Any]] = {}  # class -> its nodes in the whole module (of_module)
        spanned, span = _SPANNED, self.SPAN
        position = -1
        # pre-order with an explicit stack (children pushed reversed); a spanned
        # node pushes a marker below its children, popped once they are all done
        stack: list[Any] = [root]
        pop, push, extend = stack.pop, stack.append, stack.extend
        while stack:
            node = pop()
            if type(node) is tuple:  # (node, first): its subtree ends here
                node[0].__dict__[span] = (self, node[1], position)
                continue
            position += 1
            kind = type(node)
            found = members.get(kind)
            if found is None:
                found = members[kind] = []
                positions[kind] = []
            found.append(node)
            positions[kind].append(position)
            if isinstance(node, spanned):
                push((node, position))
            children = list(node.get_children())
            if children:
                children.reverse()
                extend(children)
        ParentWalks.HOPS[0] += position

    @classmethod
    def of_module(cls, module: Any, klass: Any) -> list[Any] | None:
        """The nodes of class ``klass`` in the whole of ``module``'s tree, in
        walking order, kept (astutil.module_nodes: the caller does not change
        the list); the index is built on the first question. None for a tree
        that is no module's (astroid made it while inferring)."""
        if type(module).__name__ != "Module" or module.parent is not None:
            return None
        index = module.__dict__.get(cls.KEY)
        if index is None:
            index = module.__dict__[cls.KEY] = cls(module)
        found = index.whole.get(klass)
        if found is None:
            found = cls.lookup(module, klass)
            if found is None:
                return None
            index.whole[klass] = found
        return found

    @classmethod
    def lookup(cls, node: Any, klass: Any) -> list[Any] | None:
        """The nodes of class ``klass`` in ``node``'s subtree, itself first, in
        walking order; None when ``node`` is not in an indexed module's tree."""
        from bisect import bisect_left, bisect_right  # noqa: PLC0415

        span = node.__dict__.get(cls.SPAN)
        if span is None:
            root = node.root()
            if root is not node and root.__dict__.get(cls.KEY) is not None:
                return None  # indexed, and this node is not one the index spans
            if type(root).__name__ != "Module":
                return None
            index = root.__dict__.get(cls.KEY)
            if index is None:
                # an index costs two walks: worth it from the third question on
                # (a module only imported is asked once or twice; the checked one, dozens of times)
                asked = root.__dict__[cls.ASKED] = root.__dict__.get(cls.ASKED, 0) + 1
                if asked < cls.WORTH_IT:
                    return None
                index = root.__dict__[cls.KEY] = cls(root)
            span = node.__dict__.get(cls.SPAN)
            if span is None:
                return None
        index, first, last = span
        if node.root().__dict__.get(cls.KEY) is not index:
            return None  # the tree was indexed anew (a copy under another module)
        kinds = index.classes.get(klass)
        if kinds is None:
            kinds = index.classes[klass] = tuple(kind for kind in index.members if issubclass(kind, klass))
        found: list[tuple[int, Any]] = []
        for kind in kinds:
            positions = index.positions[kind]
            start, end = bisect_left(positions, first), bisect_right(positions, last)
            if start < end:
                if len(kinds) == 1:
                    return index.members[kind][start:end]
                found.extend(zip(positions[start:end], index.members[kind][start:end]))
        found.sort(key=lambda item: item[0])
        return [member for _, member in found]


class HashedTrees(_Patches):
    """While active, a tree astroid builds from a file records the hash of the
    exact bytes it was built from (``mslint_content_hash``): the file is read
    once, and the command's linter reuses such a tree for the file it checks
    only when it holds the bytes the command read (see _tree_of), never a tree
    of an older content."""

    def __enter__(self) -> HashedTrees:
        from astroid.builder import AstroidBuilder  # noqa: PLC0415

        from mslint.run.cache import digest  # noqa: PLC0415

        original = AstroidBuilder.file_build

        def file_build(builder, path, modname=None):  # noqa: ANN001, ANN202
            if modname is None:
                return original(builder, path, modname)
            try:
                with open(path, "rb") as stream:
                    data = stream.read()
                encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
                text = universal_newlines(data.decode(encoding))  # as astroid's open_source_file reads it
            except (OSError, SyntaxError, LookupError, UnicodeError):
                return original(builder, path, modname)  # astroid's own errors for it
            module, rebuilder = builder._data_build(text, modname, path)  # noqa: SLF001
            module = builder._post_build(module, rebuilder, encoding)  # noqa: SLF001
            module.mslint_content_hash = digest(data)
            return module

        self._replace(AstroidBuilder, "file_build", file_build)
        return self


class adjusted_astroid:  # noqa: N801 - used like a function
    """The astroid adjustments, for the lifetime of a ``with`` block."""

    def __init__(self, skipped_libraries: Iterable[str], roots: Iterable[str], lean: bool) -> None:
        self.skip = SkipLibraries(skipped_libraries)
        self.stars = LazyStarImports(roots)
        self.lean = LeanTrees(lean)
        self.walks = ParentWalks()
        self.hashed = HashedTrees()

    def __enter__(self) -> LazyStarImports:
        check_signatures()  # before anything is replaced
        self.skip.__enter__()
        self.stars.__enter__()
        self.lean.__enter__()
        self.walks.__enter__()
        self.hashed.__enter__()
        return self.stars

    def __exit__(self, *exc: object) -> None:
        self.hashed.__exit__(*exc)
        self.walks.__exit__(*exc)
        self.lean.__exit__(*exc)
        self.stars.__exit__(*exc)
        self.skip.__exit__(*exc)


# ---------------------------------------------------------------------------
# Caches
# ---------------------------------------------------------------------------


def _clear_checker_caches(same_files: bool = False) -> None:
    """Drop what mslint's resolver and pylint's checkers memoise per node; and,
    unless the files are the ``same_files`` as when it was read, what mslint
    read from their text alone (the project indexes of called names)."""
    from pylint.checkers.clear_lru_cache import clear_lru_caches  # noqa: PLC0415
    from pylint.message.message_definition_store import MessageDefinitionStore  # noqa: PLC0415

    from mslint.analysis import astutil, resolve, sites, values  # noqa: PLC0415
    from mslint.checkers import graph_compile  # noqa: PLC0415

    resolve.clear_caches()
    astutil.forget()  # every node of the modules walked whole
    graph_compile.forget()  # which classes replace construct (per node)
    values.forget_flow()  # what flows through each function's calls (per node)
    sites.forget(indexes=not same_files)
    if not same_files:
        _STAR_NAMES.clear()
    clear_lru_caches()
    # a functools.cache on a method: it holds every linter's message store (460
    # message definitions) for the life of the process, two per in-process run
    MessageDefinitionStore.get_message_definitions.cache_clear()


# The builtins tree astroid built at the last full clear, with what it held
# then (see _builtins_unchanged) and the transforms registered then.
_PRISTINE: dict[str, Any] = {}


def fresh_astroid(same_files: bool = False) -> None:
    """Drop every tree and inference result astroid, pylint and mslint hold.
    ``same_files``: no file changed since the trees were built (the engine's
    memory reset, within one run): the indexes read from the files' text stay
    (rebuilt after each reset, mindone's took a worker 1.3 s, eight times a run).

    astroid's ``clear_cache`` also builds its builtins tree again (from the live
    interpreter: a third of a second, half of a small in-process run such as the
    language server's). That tree is kept when nothing was added to it since it
    was built (a ``x.attr = ...`` whose ``x`` is a builtin class adds to it) and
    astroid's transforms are those it was built with: it is then what a new
    build would make."""
    import astroid  # noqa: PLC0415

    manager = astroid.MANAGER
    builtins_tree = manager.astroid_cache.get("builtins")
    if builtins_tree is None or _PRISTINE.get("tree") is not builtins_tree or not _builtins_unchanged(builtins_tree):
        manager.clear_cache()
        tree = manager.astroid_cache.get("builtins")
        _PRISTINE.update(tree=tree, size=_tree_size(tree), transforms=_transforms())
        _clear_checker_caches(same_files)
        return
    # astroid's clear_cache, but for the builtins tree and the brains it keeps
    manager.astroid_cache.clear()
    manager.astroid_cache["builtins"] = builtins_tree
    clear_astroid_memos()
    _clear_checker_caches(same_files)


def clear_astroid_memos() -> None:
    """Clear what astroid's ``clear_cache`` clears but its trees and brains:
    where modules are, inference results, lookups."""
    import astroid  # noqa: PLC0415
    from astroid import context  # noqa: PLC0415
    from astroid.inference_tip import clear_inference_tip_cache  # noqa: PLC0415
    from astroid.interpreter._import import spec, util  # noqa: PLC0415
    from astroid.interpreter.objectmodel import ObjectModel  # noqa: PLC0415
    from astroid.modutils import _cache_normalize_path_, _has_init, cached_os_path_isfile  # noqa: PLC0415
    from astroid.nodes._base_nodes import LookupMixIn  # noqa: PLC0415
    from astroid.nodes.scoped_nodes import ClassDef  # noqa: PLC0415

    astroid.MANAGER._mod_file_cache.clear()  # noqa: SLF001
    clear_inference_tip_cache()
    context._invalidate_cache()  # noqa: SLF001
    for lru_cache in (
        LookupMixIn.lookup,
        _cache_normalize_path_,
        _has_init,
        cached_os_path_isfile,
        util.is_namespace,
        ObjectModel.attributes,
        ClassDef._metaclass_lookup_attribute,  # noqa: SLF001
        spec._find_spec,  # noqa: SLF001
        spec._is_setuptools_namespace,  # noqa: SLF001
    ):
        lru_cache.cache_clear()
    for finder in spec._SPEC_FINDERS:  # noqa: SLF001
        finder.find_module.cache_clear()


def _transforms() -> dict[Any, list[Any]]:
    """astroid's registered transforms, per node class."""
    from astroid.manager import AstroidManager  # noqa: PLC0415

    return {kind: list(found) for kind, found in AstroidManager.brain["_transform"].transforms.items()}


def _tree_size(module: Any) -> int:
    """How many nodes the locals and instance attributes of ``module``, of the
    classes under it and of their functions hold: astroid only ever adds to them
    (delayed_assattr: to a module's or class's locals, to a class's or function's
    instance attributes). Walked by hand, for speed: about 3 ms for builtins."""
    from astroid.nodes import ClassDef  # noqa: PLC0415

    total = 0
    stack = [module]
    while stack:
        node = stack.pop()
        total += sum(map(len, node.locals.values())) + len(node.locals)
        attrs = getattr(node, "instance_attrs", None)
        if attrs:
            total += sum(map(len, attrs.values())) + len(attrs)
        for values in node.locals.values():
            for value in values:
                if value.parent is not node:
                    continue  # an alias or an import: counted where it is defined
                if isinstance(value, ClassDef):
                    stack.append(value)
                else:
                    attrs = getattr(value, "instance_attrs", None)
                    if attrs:
                        total += sum(map(len, attrs.values())) + len(attrs)
    return total


def _builtins_unchanged(tree: Any) -> bool:
    return _tree_size(tree) == _PRISTINE.get("size") and _transforms() == _PRISTINE.get("transforms")


def forget_run(modules_before: set[str]) -> None:
    """After an in-process run: drop what it added to astroid's caches (trees
    built with the adjustments, inference results), so that later users of
    astroid in this process (a test suite, an editor) see astroid as it was."""
    import astroid  # noqa: PLC0415
    from astroid import context  # noqa: PLC0415
    from astroid.inference_tip import clear_inference_tip_cache  # noqa: PLC0415

    cache = astroid.MANAGER.astroid_cache
    for name in set(cache) - modules_before:
        del cache[name]
    context._invalidate_cache()  # noqa: SLF001
    clear_inference_tip_cache()
    _clear_checker_caches()



# ---------------------------------------------------------------------------
# pylint
# ---------------------------------------------------------------------------


def linter_class() -> type[PyLinter]:
    """The command's PyLinter: pylint's own, with three overrides."""
    from pylint.lint import PyLinter  # noqa: PLC0415

    check_signatures()

    class _Linter(PyLinter):
        def get_ast(self, filepath, modname, data=None):  # noqa: ANN001, ANN202, ARG002
            """pylint's get_ast without the traceback it prints when astroid
            itself fails (Engine.check reports that file as astroid-error)."""
            import astroid  # noqa: PLC0415
            from pylint.interfaces import HIGH  # noqa: PLC0415

            try:
                source = self.analysed_source
                if source is not None and source[0] == filepath:
                    return _tree_of(source, modname, filepath)
                return astroid.MANAGER.ast_from_file(filepath, modname, source=True)
            except astroid.AstroidSyntaxError as error:
                self.add_message(
                    "syntax-error",
                    line=getattr(error.error, "lineno", None) or 0,
                    col_offset=getattr(error.error, "offset", None),
                    args=f"Parsing failed: '{error.error}'",
                    confidence=HIGH,
                )
            except astroid.AstroidBuildingError as error:
                self.add_message("parse-error", args=error)
            return None

        # Set by Engine.check: whether the source can hold a ``# pylint:`` pragma.
        may_have_pragmas = True
        # Set by Engine.check: (path, text, content hash) of the file being checked,
        # the bytes it read, which pylint is to analyse (not the file read again)
        analysed_source = None
        _needed_checkers = None

        def prepare_checkers(self):  # noqa: ANN202
            # pylint sorts all of its checkers again for every file (comparing
            # their message tables as text); what is enabled never changes here
            if self._needed_checkers is None:
                self._needed_checkers = super().prepare_checkers()
            return list(self._needed_checkers)

        _walker = None

        @contextlib.contextmanager
        def _astroid_module_checker(self):  # noqa: ANN202
            """pylint's, with its walker built once: pylint builds one for each
            check_single_file_item, reading every checker's dir() and asking whether
            each visit method's messages are enabled, per file (2% of the command's
            time). Its own run builds one for all its files, as here; the checkers
            are still opened and closed around each file."""
            from pylint import checkers  # noqa: PLC0415
            from pylint.utils.ast_walker import ASTWalker  # noqa: PLC0415

            needed = self.prepare_checkers()
            if self._walker is None:
                walker = ASTWalker(self)
                for checker in needed:
                    walker.add_checker(checker)
                self._walker = (
                    walker,
                    [c for c in needed if isinstance(c, checkers.BaseTokenChecker)],
                    [c for c in needed if isinstance(c, checkers.BaseRawFileChecker)],
                )
            walker, tokencheckers, rawcheckers = self._walker
            walker.nbstatements = 0
            for checker in needed:
                checker.open()
            yield functools.partial(self.check_astroid_module, walker=walker, tokencheckers=tokencheckers,
                                    rawcheckers=rawcheckers)
            self.stats.statement = walker.nbstatements
            for checker in reversed(needed):
                checker.close()

        def _check_astroid_module(self, node, walker, rawcheckers, tokencheckers):  # noqa: ANN001, ANN202
            # the checked module is asked for its nodes of a class dozens of times:
            # its index is built on the first question, not the third
            node.__dict__.setdefault(_TypeIndex.ASKED, _TypeIndex.WORTH_IT - 1)
            # pylint tokenizes every module, only to read its pragmas (no token
            # or raw checker of mslint's is enabled): a module whose source does
            # not contain "pylint:" has none, and one whose pragmas name none of
            # the run's messages needs none (Engine.check): its tokens are skipped.
            if self.may_have_pragmas or rawcheckers or tokencheckers:
                return super()._check_astroid_module(node, walker, rawcheckers, tokencheckers)
            walker.walk(node)
            return True

    return _Linter


def universal_newlines(text: str) -> str:
    """Text with its line endings read as Python's universal newlines mode does."""
    return text.replace("\r\n", "\n").replace("\r", "\n") if "\r" in text else text


def _tree_of(source: tuple[str, str, str], modname: str, filepath: str) -> Any:
    """astroid's tree of the checked file, built from the text Engine.check
    read: the cached tree when it was built from that same text (another file
    imported it first), else a new one (which replaces it in astroid's cache)."""
    import astroid  # noqa: PLC0415

    _path, text, content_hash = source
    cached = astroid.MANAGER.astroid_cache.get(modname)
    if cached is not None and getattr(cached, "mslint_content_hash", None) == content_hash and cached.file == os.path.abspath(filepath):
        return cached
    parse = astroid.builder._parse_string  # noqa: SLF001
    checked = universal_newlines(text)

    def kept_parse(data: str, type_comments: bool = True, modname: str | None = None) -> ast.Module:
        tree = parse(data, type_comments, modname)
        # only the checked text's own tree: the build's transforms may import
        # (and parse) other modules meanwhile, whose trees are not this file's
        if data is checked:
            _PARSED[:] = [(content_hash, tree)]
        return tree

    astroid.builder._parse_string = kept_parse  # noqa: SLF001
    try:
        module = astroid.builder.AstroidBuilder(astroid.MANAGER).string_build(checked, modname, filepath)
    finally:
        astroid.builder._parse_string = parse  # noqa: SLF001
    module.mslint_content_hash = content_hash
    return module


# The standard library's tree of the checked file, as _tree_of's build parsed it:
# (content hash, tree), at most one, taken by the engine's compile check.
_PARSED: list[tuple[str, ast.Module]] = []


def take_parsed(content_hash: str) -> ast.Module | None:
    """The ``ast`` tree the checked file's astroid tree was built from, when it
    was built from the bytes of ``content_hash`` (None: it came from astroid's
    cache, built when another file imported it); given once, then forgotten."""
    found, _PARSED[:] = _PARSED[:1], []
    return found[0][1] if found and found[0][0] == content_hash else None


def configure(linter: PyLinter, arguments: list[str], reporter: Any) -> None:
    """pylint's own option handling, as for its command line."""
    from pylint.config.config_initialization import _config_initialization  # noqa: PLC0415

    check_signatures()
    _config_initialization(linter, arguments, reporter=reporter)
