"""Where a function is called in the project: the construction sites of a class
(the calls of its ``__init__``), ``super().__init__(...)`` of its subclasses, the
calls of a module function, ``self.method(...)`` of a method.

mslint.analysis.values follows constructor arguments through these sites
(``Block(64, drop=0.1)`` gives ``drop`` of ``Block.__init__`` the value 0.1). Sites
are looked for in the function's own module and in the project's other modules
whose source names the function or class (a regex index of the names each file
calls, derives from or passes as an argument, built once per project folder);
each candidate call is resolved with astroid and kept only when it reaches this
very function. A class passed as an argument is followed into the parameter that
receives it (``ResNet(Bottleneck, ...)`` -> ``self._make_layer(block, ...)`` ->
``block(c, ...)``: a construction of Bottleneck). A call mslint cannot resolve
(``getattr``, a registry) is no site: a value proven at the sites in sight is
judged there, and a value no site in sight gives is unknown.

:func:`calls_of` is the one question; the program model can later narrow its
answer to the sites a program runs.
"""

from __future__ import annotations

import os
import re
from collections.abc import Iterable

import astroid
from astroid import nodes

from mslint.knowledge import apis, guide
from mslint.analysis import astutil, forked, resolve
from mslint.analysis.project import module_name, package_root, read_source, real_path

# A project folder with more Python files than this is searched in the module itself only.
_PROJECT_FILE_LIMIT = 4000
_SKIPPED_FOLDERS = frozenset({"node_modules", "site-packages", "__pycache__", "build", "dist", "venv", ".venv"})
# the names a file calls or derives from: ``Name(`` anywhere, and the bases of ``class X(A, b.B):``
_CALLED = re.compile(rb"\b([A-Za-z_]\w*)\s*\(")  # \b: one try per word, not one per letter
_CLASS_BASES = re.compile(rb"^[ \t]*class[ \t]+\w+[ \t]*\(([^)]*)\)", re.MULTILINE)
# a capitalised name passed as an argument (``ResNet(Bottleneck, [3, 4, 6, 3])``,
# ``block=Bottleneck``): a class handed to the code that builds it
_PASSED = re.compile(rb"[(,=]\s*([A-Z]\w*)\s*[,)]")
_WORD = re.compile(rb"[A-Za-z_]\w*")
# a capitalised name assigned to another name (``block_fn = Attn``, ``= A if c else B``):
# a class called through an alias
_ALIASED = re.compile(rb"=[ \t]*(?:[A-Za-z_]\w*[ \t]*\.[ \t]*)*([A-Z]\w*)[ \t\r]*(?:$|\bif\b)", re.MULTILINE)
_ALIASED_ELSE = re.compile(rb"\belse[ \t]+(?:[A-Za-z_]\w*[ \t]*\.[ \t]*)*([A-Z]\w*)[ \t\r]*$", re.MULTILINE)
# what ``functools.partial(head, final_drop=0.8)`` binds: a function or class named lower case too
_PARTIAL_OF = re.compile(rb"\bpartial\s*\(\s*(?:[A-Za-z_]\w*\s*\.\s*)*([A-Za-z_]\w*)")

Site = tuple[nodes.Call, bool]  # the call, and whether it skips the callee's ``self``


# func -> its sites: the value tracker asks again for the functions whose ways it
# finds at another depth, and several rules ask for the same ``__init__`` (a
# third of the questions were asked before). Emptied by forget(), with the
# other tables of nodes.
_SITES: dict[nodes.FunctionDef, list[Site]] = {}
_SITES_KEPT = 4096


def calls_of(func: nodes.FunctionDef) -> list[Site]:
    """The calls in the project that run ``func``: for ``__init__``, the
    constructions of its class and of subclasses that inherit it, and the
    ``super().__init__(...)`` (or ``Base.__init__(self, ...)``) of subclasses;
    for another method, ``self.<method>(...)`` in its class and subclasses of the
    module; for a module function, its calls. Callers must not change the list."""
    known = _SITES.get(func)
    if known is None:
        if len(_SITES) >= _SITES_KEPT:
            _SITES.clear()
        known = _SITES[func] = _calls_of(func)
    return known


def _calls_of(func: nodes.FunctionDef) -> list[Site]:
    parent = func.parent
    if isinstance(parent, nodes.ClassDef):
        if not astutil.is_bound_method(func):
            return []
        if func.name == "__init__":
            return _constructions(parent, func)
        if func.name == apis.CELL_FORWARD_METHOD:
            return _self_calls(parent, func) + _instance_calls(parent)
        return _self_calls(parent, func)
    if isinstance(parent, nodes.Module):
        return _function_calls(func)
    return []


def _key(node: nodes.NodeNG) -> tuple[str, str, int]:
    """The same definition seen through two module names (the linted file and the
    module another file imports) is the same definition."""
    root = node.root()
    path = real_path(root.file) if root.file else root.name
    return path, node.name, node.lineno or 0


def _modules(definition: nodes.NodeNG, names: set[str]) -> list[nodes.Module]:
    """The definition's module and the project's other modules whose source calls
    or derives from one of ``names``."""
    own = definition.root()
    found = [own]
    path = own.file
    if not path or not os.path.isfile(path):
        return found
    index = _index_for(path)
    mine = real_path(path)
    others = [other for other in index.mentioning(names) if other != mine]
    if len(others) > _CANDIDATE_LIMIT:
        return found  # a name too common to follow: the module's own sites only
    for other in others:
        try:
            module = resolve.module_at(other, module_name(other))
        except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
            continue
        found.append(module)
    return found


_CALLS: dict[nodes.Module, dict[str, list[nodes.Call]]] = {}
_ARGUMENTS: dict[nodes.Module, dict[str, list[tuple[nodes.Call, nodes.Name]]]] = {}
_CLASSES: dict[nodes.Module, list[nodes.ClassDef]] = {}


def _calls_named(module: nodes.Module, name: str) -> list[nodes.Call]:
    """The calls of a module whose callee's last name is ``name`` (one walk per module)."""
    known = _CALLS.get(module)
    if known is None:
        known = _read_calls(module)
    return known.get(name, [])


def _arguments_named(module: nodes.Module, name: str) -> list[tuple[nodes.Call, nodes.Name]]:
    """(the call, the argument) for each bare ``name`` a call of the module passes,
    by position or keyword (``ResNet(Bottleneck, ...)``, ``block=Bottleneck``)."""
    if module not in _ARGUMENTS:
        _read_calls(module)
    return _ARGUMENTS[module].get(name, [])


def _read_calls(module: nodes.Module) -> dict[str, list[nodes.Call]]:
    """One walk over the module's calls: by the callee's last name, and the bare
    names each passes."""
    if len(_CALLS) > 256:
        _CALLS.clear()
        _ARGUMENTS.clear()
        _CLASSES.clear()
    known: dict[str, list[nodes.Call]] = {}
    passed: dict[str, list[tuple[nodes.Call, nodes.Name]]] = {}
    for call in astutil.module_nodes(module, nodes.Call):
        func = call.func
        short = func.name if isinstance(func, nodes.Name) else func.attrname if isinstance(func, nodes.Attribute) else None
        if short is not None:
            known.setdefault(short, []).append(call)
        for argument in [*call.args, *(keyword.value for keyword in call.keywords or ())]:
            if isinstance(argument, nodes.Name):
                passed.setdefault(argument.name, []).append((call, argument))
    _CALLS[module], _ARGUMENTS[module] = known, passed
    return known


def _classes(module: nodes.Module) -> list[nodes.ClassDef]:
    known = _CLASSES.get(module)
    if known is None:
        known = _CLASSES[module] = list(astutil.module_nodes(module, nodes.ClassDef))
    return known


def _names_base(klass: nodes.ClassDef, name: str) -> bool:
    """Whether a class statement spells ``name`` among its bases (``class B(A)``, ``(pkg.A)``)."""
    for base in klass.bases:
        last = base.attrname if isinstance(base, nodes.Attribute) else getattr(base, "name", None)
        if last == name or (last is None and name in base.as_string()):
            return True
    return False


def _subclasses_in(cls: nodes.ClassDef, modules: list[nodes.Module]) -> list[nodes.ClassDef]:
    """The classes of ``modules`` that derive from ``cls`` (subclasses of subclasses
    name their own base), at most _SUBCLASS_LIMIT."""
    target = _key(cls)
    subclasses: list[nodes.ClassDef] = []
    pending = [cls.name]
    while pending and len(subclasses) < _SUBCLASS_LIMIT:
        name = pending.pop()
        for module in modules:
            for klass in _classes(module):
                if _names_base(klass, name) and _key(klass) != target and klass not in subclasses \
                        and any(_key(base) == target for base in resolve.class_hierarchy(klass)[0][1:]):
                    subclasses.append(klass)
                    pending.append(klass.name)
    return subclasses


def subclasses(cls: nodes.ClassDef) -> list[nodes.ClassDef] | None:
    """The project's classes that derive from ``cls``, directly or not, in its module
    and the modules that name it or one of them; None where the search is cut
    short (too many candidates or subclasses)."""
    names = {cls.name}
    found: list[nodes.ClassDef] = []
    for _ in range(4):
        modules = _modules_naming(cls, names, complete=False)
        if modules is None:
            return None
        found = _subclasses_in(cls, modules)
        if len(found) >= _SUBCLASS_LIMIT:
            return None
        more = {cls.name} | {klass.name for klass in found}
        if more == names:
            return found
        names = more
    return None


# calls whose class arguments build nothing: ``isinstance(x, Cls)``, ``super(Cls, self)``
_CLASS_TESTS = frozenset({"isinstance", "issubclass", "super"})


def may_be_built(cls: nodes.ClassDef) -> bool:
    """Whether code in sight may build ``cls`` itself: any use of its name, in its
    module or another that names it, but as a base of a class statement, an
    argument of ``isinstance``/``issubclass``/``super`` or an annotation (a call,
    an alias, an argument, a registry entry all may build it). True for a
    decorated class (a decorator may register it) and where the search is cut
    short."""
    if cls.decorators is not None:
        return True  # ``@register_model``: a registry may build it
    modules = _modules_naming(cls, {cls.name}, complete=False)
    if modules is None:
        return True
    target = _key(cls)
    for module in modules:
        for use in astutil.module_nodes(module, (nodes.Name, nodes.Attribute)):
            if (use.name if isinstance(use, nodes.Name) else use.attrname) != cls.name:
                continue
            parent = use.parent
            if isinstance(parent, nodes.ClassDef) and use in parent.bases:
                continue
            if isinstance(parent, nodes.Call) and use in parent.args and isinstance(parent.func, nodes.Name) \
                    and parent.func.name in _CLASS_TESTS:
                continue
            if isinstance(parent, nodes.Tuple) and isinstance(parent.parent, nodes.Call) \
                    and isinstance(parent.parent.func, nodes.Name) and parent.parent.func.name in _CLASS_TESTS:
                continue  # ``isinstance(x, (A, Cls))``
            if _in_annotation(use):
                continue
            named = resolve.user_class(use)
            if named is None or _key(named) == target:
                return True  # it, or a name mslint cannot resolve: maybe it
    return False


def _in_annotation(node: nodes.NodeNG) -> bool:
    """Whether ``node`` is part of an annotation (of an argument, a return, ``x: T = v``)."""
    child, parent = node, node.parent
    while parent is not None:
        if isinstance(parent, nodes.Arguments):
            return any(child is annotation for annotation in (
                *parent.annotations, *parent.kwonlyargs_annotations, *parent.posonlyargs_annotations,
                parent.varargannotation, parent.kwargannotation))
        if isinstance(parent, nodes.FunctionDef):
            return child is parent.returns
        if isinstance(parent, nodes.AnnAssign):
            return child is parent.annotation
        if parent.is_statement:
            return False
        child, parent = parent, parent.parent
    return False


def _constructions(cls: nodes.ClassDef, init: nodes.FunctionDef) -> list[Site]:
    target = _key(cls)
    init_key = _key(init)
    modules = _modules(cls, {cls.name})
    subclasses = _subclasses_in(cls, modules)
    if subclasses:  # their constructions and super() calls may be in yet other modules
        seen = {module.file for module in modules}
        modules += [m for m in _modules(cls, {klass.name for klass in subclasses}) if m.file not in seen]
    inheriting = {_key(klass) for klass in subclasses if _own_init_key(klass) == init_key}
    names = {cls.name} | {klass.name for klass in subclasses if _key(klass) in inheriting}
    sites: list[Site] = []
    for module in modules:
        for name in names:
            for call in _calls_named(module, name):
                built = resolve.user_class_of_call(call)
                if built is not None and (_key(built) == target or _key(built) in inheriting):
                    sites.append((call, True))
            for call, argument in _arguments_named(module, name):
                passed = resolve.user_class(argument)
                if passed is not None and (_key(passed) == target or _key(passed) in inheriting):
                    sites.extend(_built_through(call, argument, 0))
            for call, classes in _alias_calls(module, name):
                if any(_key(klass) == target or _key(klass) in inheriting for klass in classes) \
                        and all(call is not known for known, _ in sites):
                    sites.append((call, True))
        if not subclasses:
            continue
        for call in _calls_named(module, "__init__"):
            if isinstance(call.func, nodes.Attribute):
                site = _base_init_call(call, call.func, target, init_key)
                if site is not None:
                    sites.append(site)
    return sites


def _alias_calls(module: nodes.Module, name: str) -> list[tuple[nodes.Call, list[nodes.ClassDef]]]:
    """The calls of the module through a local or module-level name that holds a
    class named ``name`` (``block_fn = Attn`` then ``block_fn(ch)``), each with the
    classes that name may hold. Only where every binding of the alias in its scope
    assigns it a user class, by name or chosen by a conditional expression
    (``block_fn = Attn if kind == "attn" else Cross``; or one class per branch of an
    ``if``): each call then builds each of those classes in some run."""
    found: list[tuple[nodes.Call, list[nodes.ClassDef]]] = []
    seen: set[tuple[int, str]] = set()
    for assigned in _aliases(module).get(name, ()):
        scope, alias = assigned.scope(), assigned.name
        if (id(scope), alias) in seen or not isinstance(scope, (nodes.FunctionDef, nodes.Module)):
            continue
        seen.add((id(scope), alias))
        classes = _alias_classes(scope, alias)
        if not classes:
            continue
        for call in _calls_named(module, alias):
            func = call.func
            if not isinstance(func, nodes.Name) or func.name != alias:
                continue
            looked, _ = func.lookup(alias)
            if looked is scope:
                found.append((call, classes))
    return found


def _alias_classes(scope: nodes.LocalsDictNodeNG, alias: str) -> list[nodes.ClassDef]:
    """The user classes ``alias`` may hold in ``scope``; [] when a binding of it is
    anything but an assignment of user classes."""
    classes: list[nodes.ClassDef] = []
    for bound in scope.locals.get(alias, ()):
        statement = bound.parent
        if not (isinstance(bound, nodes.AssignName) and isinstance(statement, nodes.Assign)
                and statement.targets == [bound]):
            return []
        for part in _alias_values(statement.value):
            klass = resolve.user_class(part) if part is not None else None
            if klass is None:
                return []
            classes.append(klass)
    return classes


def _alias_values(value: nodes.NodeNG) -> list[nodes.NodeNG | None]:
    """The class expressions an alias's value names: itself, or both branches of
    ``A if c else B`` (None for a part that is neither)."""
    if isinstance(value, nodes.IfExp):
        return _alias_values(value.body) + _alias_values(value.orelse)
    return [value if isinstance(value, (nodes.Name, nodes.Attribute)) else None]


_ALIASES: dict[nodes.Module, dict[str, list[nodes.AssignName]]] = {}


def _aliases(module: nodes.Module) -> dict[str, list[nodes.AssignName]]:
    """{a class's last name: the names assigned it} for the module's
    ``alias = Cls`` / ``alias = A if c else B`` (one walk per module)."""
    known = _ALIASES.get(module)
    if known is None:
        if len(_ALIASES) > 256:
            _ALIASES.clear()
        known = _ALIASES[module] = {}
        for statement in astutil.module_nodes(module, nodes.Assign):
            if len(statement.targets) != 1 or not isinstance(statement.targets[0], nodes.AssignName):
                continue
            for part in _alias_values(statement.value):
                last = part.name if isinstance(part, nodes.Name) else part.attrname if isinstance(part, nodes.Attribute) else None
                if last is not None and last[:1].isupper():
                    known.setdefault(last, []).append(statement.targets[0])
    return known


# functions a class passed as an argument is followed through, at most
# (``ResNet(Bottleneck)`` -> ``self._make_layer(block)`` -> ``block(...)``: two)
_PASSED_DEPTH = 3


def _built_through(call: nodes.Call, argument: nodes.Name, depth: int) -> list[Site]:
    """The calls that build the class ``argument`` passes to ``call``: in the user
    function ``call`` runs, the calls of the parameter that receives it, and
    further where that function passes the parameter on. Followed only while
    the parameter is never rebound (then it holds what the caller passed)."""
    found = _callee(call)
    if found is None or depth >= _PASSED_DEPTH:
        return []
    callee, skips_self = found
    names = [names for names, value in astutil.bind_call(call, callee, skips_self) if value is argument]
    if len(names) != 1 or len(names[0]) != 1:
        return []  # through *args or **kwargs: which parameter holds it is unsure
    param = names[0][0]
    bound = callee.locals.get(param, ())
    if len(bound) != 1 or not isinstance(bound[0].parent, nodes.Arguments):
        return []
    sites: list[Site] = []
    for use in callee.nodes_of_class(nodes.Name):
        if use.name != param or resolve.binding(use) is not bound[0]:
            continue
        parent = use.parent
        if isinstance(parent, nodes.Call) and parent.func is use:
            sites.append((parent, True))
        elif isinstance(parent, nodes.Call) and use in parent.args:
            sites.extend(_built_through(parent, use, depth + 1))
        elif isinstance(parent, nodes.Keyword) and isinstance(parent.parent, nodes.Call):
            sites.extend(_built_through(parent.parent, use, depth + 1))
    return sites


def _callee(call: nodes.Call) -> tuple[nodes.FunctionDef, bool] | None:
    """(the user function a call runs, whether it skips ``self``): a class's
    ``__init__``, ``self.<method>``, a function of this module or imported from
    the project."""
    built = resolve.user_class_of_call(call)
    if built is not None:
        init = resolve.find_method(built, "__init__")
        return (init, True) if init is not None else None
    func = call.func
    method = astutil.self_attribute(func)
    if method is not None:
        found = astutil.enclosing_method(call)
        target = resolve.find_method(found[1], method) if found is not None else None
        return (target, astutil.is_bound_method(target)) if target is not None else None
    if isinstance(func, nodes.Name):
        bound = resolve.binding(func)
        if isinstance(bound, nodes.FunctionDef):
            return bound, astutil.is_bound_method(bound)
    target = resolve.project_function(func)
    return (target, False) if target is not None else None


def _own_init_key(cls: nodes.ClassDef) -> tuple[str, str, int] | None:
    """The ``__init__`` a class's instances run (its own, or the nearest base's)."""
    found = resolve.find_method(cls, "__init__")
    return _key(found) if found is not None else None


def _base_init_call(call: nodes.Call, func: nodes.Attribute, target: tuple, init_key: tuple) -> Site | None:
    """``super().__init__(...)`` / ``super(Sub, self).__init__(...)`` in a subclass's
    method whose next ``__init__`` is ``init``; or ``Base.__init__(self, ...)``."""
    found = astutil.enclosing_method(call)
    if found is None:
        return None
    _, subclass = found
    receiver = func.expr
    if isinstance(receiver, nodes.Call) and isinstance(receiver.func, nodes.Name) and receiver.func.name == "super":
        for base in resolve.class_hierarchy(subclass)[0][1:]:
            own = astutil.own_method(base, "__init__")
            if own is not None:
                return (call, True) if _key(own) == init_key else None
        return None
    named = resolve.user_class(receiver)
    if named is not None and _key(named) == target:
        return call, False
    return None


def _self_calls(cls: nodes.ClassDef, method: nodes.FunctionDef) -> list[Site]:
    """``self.<method>(...)`` in the classes of the module that run this method."""
    key = _key(method)
    sites: list[Site] = []
    for klass in astutil.module_nodes(cls.root(), nodes.ClassDef):
        found = resolve.find_method(klass, method.name)
        if found is None or _key(found) != key:
            continue
        for call in klass.nodes_of_class(nodes.Call):
            if astutil.self_attribute(call.func) == method.name and astutil.enclosing_class(call) is klass:
                sites.append((call, True))
    return sites


def _instance_calls(cls: nodes.ClassDef) -> list[Site]:
    """The calls of a Cell's instances, which run its construct (``self.norm(x)``
    runs ``Normalize.construct(self, x)``): only when every instance in sight is
    held as ``self.<attr> = Cls(...)`` in the ``__init__`` of a class, and every
    read of ``<x>.<attr>`` in sight is such a call ``self.<attr>(...)`` in that
    class (never passed along, stored elsewhere, or reached by a computed name);
    [] otherwise (also with subclasses in sight, or a construction passed
    through a function): the calls in sight are then not all the ways it runs."""
    if not resolve.is_cell_class(cls):
        return []
    modules = _modules_naming(cls, {cls.name})
    if modules is None or _subclasses_in(cls, modules):
        return []
    found: list[Site] = []
    constructions = _constructions(cls, cls)
    if not constructions:
        return []
    for call, _ in constructions:
        statement = call.parent
        if not (isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1):
            return []
        attr = astutil.self_attribute(statement.targets[0])
        held = astutil.enclosing_method(call)
        if attr is None or held is None or held[0].name != "__init__":
            return []
        calls = _attribute_calls(held[1], attr)
        if calls is None:
            return []
        found += [(use, True) for use in calls]
    return found


def _attribute_calls(holder: nodes.ClassDef, attr: str) -> list[nodes.Call] | None:
    """Every ``self.<attr>(...)`` in ``holder`` when those calls are the only reads of
    the instance's ``<attr>`` in sight (as attribute_never_read searches); None
    otherwise. A call ``<x>.<attr>(...)`` on another receiver counts as one more call
    (it may be an instance's: its arguments are read like the others'). A read of
    ``<x>.<attr>`` that calls nothing counts only where ``x`` is ``self`` of the holder
    or a local bound to a construction of its family (``model = Model(); run(model.head)``):
    ``config.head`` handed to a constructor is a configuration's field of the same
    name, not the instance's layer."""
    modules = _modules_naming(holder, {holder.name})
    if modules is None or _subclasses_in(holder, modules):
        return None
    user, external = resolve.class_hierarchy(holder)
    if not external <= _SILENT_BASES or len(user) != 1 or _hands_out_cells(holder, attr):
        return None
    seen = {module.file for module in modules}
    if holder.root().file not in seen:
        modules.append(holder.root())
    calls = []
    for module in modules:
        for node in astutil.module_nodes(module, nodes.Attribute):
            if node.attrname != attr:
                continue
            called = isinstance(node.parent, nodes.Call) and node.parent.func is node
            owner = astutil.enclosing_class(node) if astutil.is_self(node.expr) else None
            if owner is None:
                if called:
                    calls.append(node.parent)  # <x>.<attr>(...): may be an instance's call
                elif _holds_family(node.expr, holder):
                    return None  # an instance's layer handed on: it may run anywhere
                continue  # config.<attr>: another object's field of the same name
            if _key(owner) != _key(holder):
                continue  # another class's attribute of the same name
            if not called:
                return None  # passed along, stored elsewhere: it may run anywhere
            calls.append(node.parent)
    return calls


def _holds_family(receiver: nodes.NodeNG, holder: nodes.ClassDef) -> bool:
    """Whether ``receiver`` is a local name (or a ``self.<name>`` of the enclosing
    class) bound to a construction of ``holder`` or of a class derived from it
    (directly or through the project's factories)."""
    inner = astutil.self_attribute(receiver)
    if inner is not None:
        klass = astutil.enclosing_class(receiver)
        if klass is None:
            return False
        assigned = [node for node in klass.nodes_of_class(nodes.AssignAttr)
                    if node.attrname == inner and astutil.is_self(node.expr)]
    elif isinstance(receiver, nodes.Name):
        frame = receiver.frame()
        if not isinstance(frame, (nodes.FunctionDef, nodes.Module)):
            return False
        assigned = [node for node in frame.nodes_of_class(nodes.AssignName)
                    if node.name == receiver.name and node.scope() is frame]
    else:
        return False
    target = _key(holder)
    for name in assigned:
        statement = name.parent
        value = statement.value if isinstance(statement, nodes.Assign) else None
        classes = _classes_of_value(value, 0) if value is not None else None
        if classes is None:
            continue
        if any(_key(klass) == target for cls in classes for klass in resolve.class_hierarchy(cls)[0]):
            return True
    return False


def method_calls(method: nodes.FunctionDef) -> list[Site]:
    """The calls in sight that run ``method`` of a class: ``self.<method>(...)`` in
    its class (calls_of), and ``<x>.<method>(...)`` in the modules naming the class
    where ``x`` is a name (or a ``self`` attribute) bound to a construction of the
    class or of a class derived from it (``auc = AUCMeter()`` then ``auc.update(s, t)``).
    Calls through objects handed around (an argument, a container) are not in sight."""
    cls = method.parent
    if not isinstance(cls, nodes.ClassDef) or not astutil.is_bound_method(method):
        return []
    found = list(calls_of(method))
    for module in _modules(cls, {cls.name}):
        for call in _calls_named(module, method.name):
            func = call.func
            if isinstance(func, nodes.Attribute) and not astutil.is_self(func.expr) \
                    and _holds_family(func.expr, cls) and all(call is not known for known, _ in found):
                found.append((call, True))
    return found


def _function_calls(func: nodes.FunctionDef) -> list[Site]:
    key = _key(func)
    sites: list[Site] = []
    for module in _modules(func, {func.name}):
        for call in _calls_named(module, func.name):
            callee = call.func
            if isinstance(callee, nodes.Name) and callee.name == func.name:
                bound = resolve.binding(callee)
                if isinstance(bound, nodes.ImportFrom):
                    bound = resolve.project_function(callee)
                if isinstance(bound, nodes.FunctionDef) and _key(bound) == key:
                    sites.append((call, False))
            elif isinstance(callee, nodes.Attribute) and callee.attrname == func.name:
                bound = resolve.project_function(callee)
                if bound is not None and _key(bound) == key:
                    sites.append((call, False))
    return sites


PARTIAL = "functools.partial"


def partial_calls_of(func: nodes.FunctionDef) -> list[Site]:
    """The ``functools.partial(func, ...)`` calls in the project (for ``__init__``,
    ``functools.partial(Cls, ...)`` of its own class): the arguments they bind are
    what every call of the partial object passes (``head_1x = partial(head,
    final_drop=0.8)``). Apart from :func:`calls_of`: the callee is the partial's
    first argument, and the parameters it leaves out are given where the partial
    object is called, out of sight here."""
    parent = func.parent
    if isinstance(parent, nodes.ClassDef) and func.name == "__init__" and astutil.is_bound_method(func):
        definition, skips_self = parent, True
    elif isinstance(parent, nodes.Module):
        definition, skips_self = func, False
    else:
        return []
    target = _key(definition)
    found: list[Site] = []
    for module in _modules(definition, {definition.name}):
        for call, argument in _arguments_named(module, definition.name):
            if not call.args or call.args[0] is not argument:
                continue
            if not isinstance(call.func, (nodes.Name, nodes.Attribute)) or resolve.qualified_name(call.func) != PARTIAL:
                continue
            if skips_self:
                named = resolve.user_class(argument)
            else:
                named = resolve.binding(argument)
                if isinstance(named, nodes.ImportFrom):
                    named = resolve.project_function(argument)
            if named is not None and _key(named) == target:
                found.append((call, skips_self))
    return found


# ---------------------------------------------------------------------------
# Whether a stored sub-cell can ever run
# ---------------------------------------------------------------------------

# What hands a Cell's sub-cells out without naming them: a loop over them may call
# any (``for cell in self.cells(): x = cell(x)``), a name computed at run time may be any.
# (PyTorch's children()/modules() too: a project may define them on its Cells)
_CELL_EXPORTS = frozenset({
    "cells", "name_cells", "cells_and_names", "_cells", "__dict__", "insert_child_to_cell",
    "children", "named_children", "modules", "named_modules",
})
_DYNAMIC_READERS = frozenset({"getattr", "vars"})
# The external bases whose code reads no attribute a subclass sets (Cell itself, mixins;
# mindspore.train.Metric reads only clear/update/eval and its own private state:
# tests/oracle/test_graph.py).
_SILENT_BASES = apis.CELL_ROOT_CLASSES | apis.NON_CELL_MIXIN_BASES | {"builtins.object"} | guide.METRIC_BASES

_NEVER_READ: dict[tuple, bool] = {}


def attribute_never_read(cls: nodes.ClassDef, attr: str) -> bool:
    """Whether nothing in sight can read ``<instance of cls>.<attr>``, so a layer
    stored there never runs. The family of ``cls`` (its user bases, its subclasses in
    the project and theirs) must neither read ``<anything>.<attr>`` nor hand its
    sub-cells out (``self.cells()``, ``getattr(self, name)``, ``vars(self)``); the
    modules that can hold an instance (the family's own, and the project's modules
    that call or derive from a family class) must not read ``<x>.<attr>``, but on
    the ``self`` of a class outside the family. False whenever a base is neither a
    user class nor Cell itself (MindSpore's class may read it) or the search cannot
    be completed (too many modules name the family, too large a folder). A module
    that reaches an instance through a factory without naming its class is not in
    sight: a layer used only that way is taken for unused."""
    key = (*_key(cls), attr)
    known = _NEVER_READ.get(key)
    if known is None:
        if len(_NEVER_READ) > 1024:
            _NEVER_READ.clear()
        known = _NEVER_READ[key] = _never_read(cls, attr)
    return known


def _never_read(cls: nodes.ClassDef, attr: str) -> bool:
    modules = _modules_naming(cls, {cls.name})
    if modules is None:
        return False
    subclasses = _subclasses_in(cls, modules)
    if len(subclasses) >= _SUBCLASS_LIMIT:
        return False
    if subclasses:
        more = _modules_naming(cls, {klass.name for klass in subclasses})
        if more is None:
            return False
        seen = {module.file for module in modules}
        modules += [module for module in more if module.file not in seen]
    family: dict[tuple, nodes.ClassDef] = {}
    for klass in (cls, *subclasses):
        user, external = resolve.class_hierarchy(klass)
        if not external <= _SILENT_BASES:
            return False
        family.update((_key(member), member) for member in user)
    seen = {module.file for module in modules}
    modules += [member.root() for member in family.values() if member.root().file not in seen]
    if any(_hands_out_cells(member, attr) for member in family.values()):
        return False
    keys = set(family)
    return not any(_reads_attribute(module, attr, keys) for module in modules)


def runs_only_in_init(cls: nodes.ClassDef, method: nodes.FunctionDef) -> bool:
    """Whether ``method`` of ``cls`` runs only from ``cls.__init__``, as a
    ``self.<method>()`` written there: every ``<x>.<method>`` the project writes
    (in the modules calling something of that name, and those naming ``cls``) is
    on the ``self`` of a class outside the family of ``cls`` (its user bases, its
    subclasses in sight) or is that call; no class of the family reaches its
    attributes by a computed name (``getattr(self, name)``, ``vars(self)``); its
    bases are Cell itself (MindSpore's own code calls no such method). False
    whenever the search cannot be complete. Like :func:`attribute_never_read`, a
    module that reaches an instance through a factory without naming its class or
    calling the method by name is not in sight."""
    init = astutil.own_method(cls, "__init__")
    if init is None or method is init:
        return method is init
    modules = _modules_naming(cls, {cls.name})
    calling = _modules_naming(method, {method.name})
    if modules is None or calling is None:
        return False
    subclasses = _subclasses_in(cls, modules)
    if len(subclasses) >= _SUBCLASS_LIMIT:
        return False
    family: dict[tuple, nodes.ClassDef] = {}
    for klass in (cls, *subclasses):
        user, external = resolve.class_hierarchy(klass)
        if not external <= _SILENT_BASES:
            return False
        family.update((_key(member), member) for member in user)
    for member in family.values():
        for call in member.nodes_of_class(nodes.Call):
            func = call.func
            if isinstance(func, nodes.Name) and func.name in _DYNAMIC_READERS and call.args \
                    and astutil.is_self(call.args[0]):
                named = call.args[1] if func.name == "getattr" and len(call.args) > 1 else None
                if not (isinstance(named, nodes.Const) and isinstance(named.value, str) and named.value != method.name):
                    return False
    seen: set = set()
    for module in [*modules, *calling, *(member.root() for member in family.values())]:
        if module.file in seen:
            continue
        seen.add(module.file)
        for node in astutil.module_nodes(module, nodes.Attribute):
            if node.attrname != method.name:
                continue
            if not astutil.is_self(node.expr):
                return False
            owner = astutil.enclosing_class(node)
            if owner is None:
                return False
            if _key(owner) not in family:
                continue  # another class's own method of that name
            frame = node.frame()
            if not (frame is init and isinstance(node.parent, nodes.Call) and node.parent.func is node):
                return False
    return True


def function_runs_only_in_init(func: nodes.FunctionDef) -> bool:
    """Whether the module-level function ``func`` runs only while objects are
    constructed: every ``func`` or ``<module>.func`` the project writes (in the
    modules naming it) is called directly in the ``__init__`` of a class (a
    ``_init_weight(self.weight, ...)`` helper). False whenever the search cannot be
    complete, or the name is read any other way (passed on, stored, called elsewhere)."""
    if not isinstance(func.parent, nodes.Module):
        return False
    spelled = _spelled_like(func)
    if spelled is None:
        return False
    calls = 0
    for node in spelled:
        if not (isinstance(node.parent, nodes.Call) and node.parent.func is node):
            return False
        frame = node.frame()
        if not (isinstance(frame, nodes.FunctionDef) and frame.name == "__init__"
                and isinstance(frame.parent, nodes.ClassDef)):
            return False
        calls += 1
    return calls > 0


def _spelled_like(func: nodes.FunctionDef) -> list[nodes.Name | nodes.Attribute] | None:
    """Every ``func`` or ``<x>.func`` the project writes, in the modules naming it
    (each file once); None when that search cannot be complete."""
    modules = _modules_naming(func, {func.name})
    if modules is None:
        return None
    found: list[nodes.Name | nodes.Attribute] = []
    seen: set = set()
    for module in modules:
        if module.file in seen:
            continue
        seen.add(module.file)
        found.extend(node for node in astutil.module_nodes(module, (nodes.Name, nodes.Attribute))
                     if (node.name if isinstance(node, nodes.Name) else node.attrname) == func.name)
    return found


_TOP_LEVEL_DEPTH = 4


def function_runs_only_from_top_level(func: nodes.FunctionDef, depth: int = 0) -> bool:
    """Whether the undecorated module-level function ``func`` runs only as a program's
    own steps: every ``func`` or ``<module>.func`` the project writes (in the
    modules naming it) is called directly at module level (the main guard's
    ``main(args)``), or in a function of which that holds in turn. Such code runs
    eagerly, called by nothing a gradient is taken through: ``grad(fn)`` and a
    Cell's construct reach a function only by calling it from their own code, or
    by being given its name. False when no call is in sight, when the search
    cannot be complete, or when the name is read any other way (passed on, stored)."""
    if not isinstance(func.parent, nodes.Module) or func.decorators is not None or depth > _TOP_LEVEL_DEPTH:
        return False
    spelled = _spelled_like(func)
    if spelled is None:
        return False
    calls = 0
    for node in spelled:
        names = _names_function(node, func)
        if names is False:
            continue  # another object of that name (another script's own main())
        if names is None or not (isinstance(node.parent, nodes.Call) and node.parent.func is node):
            return False  # unsure what it names, or passed on, stored
        frame = node.frame()
        if frame is func:
            return False  # a recursive call: not followed
        if not isinstance(frame, nodes.Module) and not (
                isinstance(frame, nodes.FunctionDef) and function_runs_only_from_top_level(frame, depth + 1)):
            return False
        calls += 1
    return calls > 0


def _names_function(node: nodes.Name | nodes.Attribute, func: nodes.FunctionDef) -> bool | None:
    """Whether ``node`` (a name or attribute spelled like ``func``) names the
    module-level function ``func``: True, False (a local, another module's
    function, an attribute of an object that is no module), None when unsure."""
    root = node if isinstance(node, nodes.Name) else astutil.attribute_chain(node)[0]
    if root is None:
        return None
    bound = resolve.binding(root)
    if isinstance(node, nodes.Name) and not isinstance(bound, (nodes.Import, nodes.ImportFrom)):
        if bound is func:
            return True
        return False if bound is not None else None
    if not isinstance(bound, (nodes.Import, nodes.ImportFrom)):
        return False  # ``self.main()``, ``trainer.main()``: an attribute of an object, not of a module
    found = resolve.project_function(node)
    if found is None:
        return None
    return found is func


def _modules_naming(definition: nodes.NodeNG, names: set[str], complete: bool = True) -> list[nodes.Module] | None:
    """:func:`_modules`, None when the search cannot be complete (with ``complete``
    False: only where it is cut short, a name too common to follow)."""
    path = definition.root().file
    if path and os.path.isfile(path):
        index = _index_for(path)
        others = [other for other in index.mentioning(names) if other != real_path(path)]
        if (complete and not index.complete) or len(others) > _CANDIDATE_LIMIT:
            return None
    return _modules(definition, names)


def _hands_out_cells(cls: nodes.ClassDef, attr: str) -> bool:
    """Whether a class's own code reaches its attributes by a name computed at run time
    (``getattr(self, f"drop{i}")``, ``vars(self)``) or hands its sub-cells out."""
    for node in cls.nodes_of_class((nodes.Attribute, nodes.Call)):
        if isinstance(node, nodes.Attribute):
            if node.attrname in _CELL_EXPORTS:
                return True
            continue
        func = node.func
        name = func.name if isinstance(func, nodes.Name) else func.attrname if isinstance(func, nodes.Attribute) else None
        if name not in _DYNAMIC_READERS or not node.args or not astutil.is_self(node.args[0]):
            continue  # getattr(config, name): another object's attributes
        named = node.args[1] if name == "getattr" and len(node.args) > 1 else None
        if not (isinstance(named, nodes.Const) and isinstance(named.value, str) and named.value != attr):
            return True
    return False


def _reads_attribute(module: nodes.Module, attr: str, family: set[tuple]) -> bool:
    """Whether a module reads ``<x>.<attr>``, but on the ``self`` of a class outside
    the family (another class's layer of the same name)."""
    for node in astutil.module_nodes(module, nodes.Attribute):
        if node.attrname != attr:
            continue
        if astutil.is_self(node.expr):
            owner = astutil.enclosing_class(node)
            if owner is None or _key(owner) in family:
                return True
        elif not _other_object(node.expr, family):
            return True
    return False


def _other_object(receiver: nodes.NodeNG, family: set[tuple]) -> bool:
    """A local name of a function (not a parameter) that holds something proven not to
    be an instance of the family: ``trunk = make_backbone()`` returning another class's
    instance, whose ``trunk.conv1`` is not the family's ``self.conv1``. False when
    anything about it is unknown. Read from the assignments and the project
    functions' return statements, never by astroid's inference (which would enter
    mindspore's sources: tests/test_no_external_inference.py)."""
    if not isinstance(receiver, nodes.Name):
        return False
    frame = receiver.frame()
    if not isinstance(frame, nodes.FunctionDef) or receiver.name in frame.argnames():
        return False
    classes = _classes_bound(frame, receiver.name, 0)
    if not classes:
        return False
    for cls in classes:
        lineage, _ = resolve.class_hierarchy(cls)
        if any(_key(klass) in family for klass in lineage):
            return False
    return True


_RETURN_DEPTH = 2  # factories followed: ``resnet50()`` -> ``_resnet(...)`` -> ``ResNet(...)``


def _classes_bound(scope: nodes.FunctionDef, name: str, depth: int) -> list[nodes.ClassDef] | None:
    """The project classes every assignment of ``name`` in ``scope`` constructs
    (directly, or through project functions that return a construction); None
    when any is something else or unknown."""
    assigned = [node for node in scope.nodes_of_class(nodes.AssignName) if node.name == name and node.scope() is scope]
    if not assigned:
        return None
    found: list[nodes.ClassDef] = []
    for target in assigned:
        statement = target.parent
        if not isinstance(statement, nodes.Assign) or len(statement.targets) != 1 or statement.targets[0] is not target:
            return None
        classes = _classes_of_value(statement.value, depth)
        if not classes:
            return None
        found.extend(classes)
    return found


def _classes_of_value(value: nodes.NodeNG, depth: int) -> list[nodes.ClassDef] | None:
    if not isinstance(value, nodes.Call):
        return None
    cls = resolve.user_class_of_call(value)
    if cls is not None:
        return [cls]
    found = _callee(value) if depth < _RETURN_DEPTH else None
    if found is None:
        return None
    func = found[0]
    classes_found: list[nodes.ClassDef] = []
    returns = [node for node in func.nodes_of_class(nodes.Return) if node.scope() is func]
    if not returns:
        return None
    for statement in returns:
        if isinstance(statement.value, nodes.Name):
            classes = _classes_bound(func, statement.value.name, depth + 1)
        else:
            classes = _classes_of_value(statement.value, depth + 1) if statement.value is not None else None
        if not classes:
            return None
        classes_found.extend(classes)
    return classes_found


# ---------------------------------------------------------------------------
# How the instances of a Cell are held
# ---------------------------------------------------------------------------

# Methods that put a Cell into a CellList/SequentialCell (or a list one is built from).
_LIST_ADDERS = frozenset({"append", "insert", "extend"})


def always_a_subcell(cls: nodes.ClassDef) -> bool:
    """Whether every instance of ``cls`` in sight becomes a sub-cell whose parameters
    MindSpore renames to their path in the parent (measured on 2.10: a Cell with two
    Parameters named "weight" held as ``self.gate`` has ``gate.in_w`` and
    ``gate.rec_w``): every construction in sight is ``self.<name> = Cls(...)`` or
    ``setattr(self, name, Cls(...))`` in a method of a Cell that keeps
    ``auto_prefix=True``, or an element of a CellList/SequentialCell (``nn.CellList([Cls()
    for ...])``, ``self.layers.append(Cls())``, a local list given to one). False
    when no construction is in sight (a library's user may build it alone, as the
    root a checkpoint or an optimizer takes), when a subclass's ``super().__init__``
    builds it (followed no further), or when one construction is anything else
    (``net = Cls()``, ``WithLossCell(Cls(), loss)``: the Cell is a root there)."""
    init = resolve.find_method(cls, "__init__")
    found = calls_of(init) if init is not None else []
    constructions = [call for call, _ in found]
    if not constructions:
        return False
    return all(
        not (isinstance(call.func, nodes.Attribute) and call.func.attrname == "__init__") and _held_by_parent(call)
        for call in constructions
    )


def _held_by_parent(call: nodes.Call) -> bool:
    node = call
    while isinstance(node.parent, nodes.IfExp) and node is not node.parent.test:
        node = node.parent  # self.gate = Gate() if gated else None
    parent = node.parent
    if isinstance(parent, (nodes.Assign, nodes.AnnAssign)) and parent.value is node:
        targets = parent.targets if isinstance(parent, nodes.Assign) else [parent.target]
        return len(targets) == 1 and astutil.self_attribute(targets[0]) is not None and _in_prefixing_cell(call)
    if isinstance(parent, nodes.Call) and node in parent.args:
        func = parent.func
        if isinstance(func, nodes.Name) and func.name == "setattr":
            return len(parent.args) == 3 and parent.args[2] is node and astutil.is_self(parent.args[0]) \
                and _in_prefixing_cell(call)
        if isinstance(func, nodes.Attribute) and func.attrname in _LIST_ADDERS:
            return _cell_list(func.expr)
        return _is_container_call(parent)
    if isinstance(parent, (nodes.List, nodes.Tuple)) or (isinstance(parent, nodes.ListComp) and parent.elt is node):
        holder = parent.parent
        if isinstance(holder, nodes.Starred):
            holder = holder.parent
        if isinstance(holder, nodes.Call) and _is_container_call(holder):
            return True
        if isinstance(holder, nodes.Call) and isinstance(holder.func, nodes.Attribute) \
                and holder.func.attrname in _LIST_ADDERS:
            return _cell_list(holder.func.expr)
        if isinstance(holder, nodes.Assign) and len(holder.targets) == 1 and isinstance(holder.targets[0], nodes.AssignName):
            return _given_to_container(holder.targets[0])
    return False


def _is_container_call(call: nodes.Call) -> bool:
    return resolve.qualified_name(call.func) in apis.CELL_CONTAINERS


def _cell_list(receiver: nodes.NodeNG) -> bool:
    """``self.layers`` assigned a CellList/SequentialCell in its class, or a local
    list that the function gives to one (``layers.append(...)``, then
    ``nn.SequentialCell(layers)``)."""
    attr = astutil.self_attribute(receiver)
    if attr is not None:
        cls = astutil.enclosing_class(receiver)
        assigned = [
            assign.value for assign in cls.nodes_of_class(nodes.Assign)
            if len(assign.targets) == 1 and astutil.self_attribute(assign.targets[0]) == attr
        ] if cls is not None else []
        return bool(assigned) and all(isinstance(value, nodes.Call) and _is_container_call(value) for value in assigned)
    if isinstance(receiver, nodes.Name):
        bindings = receiver.scope().locals.get(receiver.name, [])
        return len(bindings) == 1 and isinstance(bindings[0], nodes.AssignName) and _given_to_container(bindings[0])
    return False


def _given_to_container(target: nodes.AssignName) -> bool:
    """A local list (``layers = [...]``) that its function gives to a
    CellList/SequentialCell (``nn.SequentialCell(layers)``, ``(*layers)``)."""
    function = target.scope()
    for call in function.nodes_of_class(nodes.Call):
        if not _is_container_call(call):
            continue
        for arg in call.args:
            arg = arg.value if isinstance(arg, nodes.Starred) else arg
            if isinstance(arg, nodes.Name) and arg.name == target.name:
                return True
    return False


def _in_prefixing_cell(node: nodes.NodeNG) -> bool:
    """Whether ``node`` lies in a method of a Cell class that keeps ``auto_prefix=True``:
    its bases are user classes and Cell itself, and none of them passes auto_prefix
    (or any positional argument to Cell's ``__init__``) or sets ``_auto_prefix``."""
    found = astutil.enclosing_method(node)
    if found is None:
        return False
    user, external = resolve.class_hierarchy(found[1])
    if not external & apis.CELL_ROOT_CLASSES or not external <= _SILENT_BASES:
        return False  # MindSpore's wrappers (WithLossCell, TrainOneStepCell) pass auto_prefix=False
    for klass in user:
        reaches_cell = any(
            resolve.qualified_name(base) in apis.CELL_ROOT_CLASSES for base in klass.bases
        )
        for child in klass.nodes_of_class((nodes.Keyword, nodes.AssignAttr, nodes.Call)):
            if isinstance(child, nodes.Keyword) and child.arg == "auto_prefix" \
                    and not (isinstance(child.value, nodes.Const) and child.value.value is True):
                return False
            if isinstance(child, nodes.AssignAttr) and child.attrname == "_auto_prefix":
                return False
            if isinstance(child, nodes.Call) and reaches_cell and isinstance(child.func, nodes.Attribute) \
                    and child.func.attrname == "__init__" and _cell_init_positional(child):
                return False
    return True


def _cell_init_positional(call: nodes.Call) -> bool:
    """``super().__init__(False)`` / ``nn.Cell.__init__(self, False)``: auto_prefix
    given by position."""
    receiver = call.func.expr
    if isinstance(receiver, nodes.Call) and isinstance(receiver.func, nodes.Name) and receiver.func.name == "super":
        return bool(call.args)
    return len(call.args) > 1


def beside_script(call: nodes.Call) -> nodes.ClassDef | None:
    """For ``C(...)`` after ``from model import C`` in a script: the class ``C`` of
    ``model.py`` beside the script, as Python finds it there (the script's folder
    comes first on sys.path), whatever module named ``model`` another project of the
    same tree holds. None when the import is not such a one."""
    func = call.func
    if not isinstance(func, nodes.Name):
        return None
    bound = resolve.binding(func)
    if not isinstance(bound, nodes.ImportFrom) or bound.level or "." in (bound.modname or "."):
        return None
    imported = next((name for name, alias in bound.names if (alias or name) == func.name), None)
    mine = call.root().file
    if imported is None or not mine:
        return None
    beside = os.path.join(os.path.dirname(mine), f"{bound.modname}.py")
    if not os.path.isfile(beside) or read_source(beside) is None:
        return None
    try:
        module = resolve.module_at(beside, module_name(beside))
    except (astroid.AstroidError, RecursionError, ValueError, OSError, SyntaxError):
        return None
    found = [node for node in module.locals.get(imported, ()) if isinstance(node, nodes.ClassDef)]
    return found[-1] if found else None


# ---------------------------------------------------------------------------
# forward and construct
# ---------------------------------------------------------------------------
def construct_ignores_forward(owner: nodes.ClassDef, user: list[nodes.ClassDef]) -> bool:
    """Whether the construct ``owner`` defines is a method that never reaches
    ``forward``: neither it nor any method of the classes in ``user`` reads
    ``self.forward`` (a construct delegating to forward runs the subclass's), and
    ``owner`` defines no ``__call__``. False when construct is not a plain method
    (``construct = forward``, an assignment mslint does not follow)."""
    if "__call__" in owner.locals:
        return False
    construct = owner.locals.get(apis.CELL_FORWARD_METHOD, [])
    if len(construct) != 1 or not isinstance(construct[0], nodes.FunctionDef):
        return False
    for klass in user:
        for method in klass.mymethods():
            for attribute in method.nodes_of_class(nodes.Attribute):
                if attribute.attrname == apis.TORCH_FORWARD_METHOD and astutil.is_self(attribute.expr):
                    return False
            for call in method.nodes_of_class(nodes.Call):
                if isinstance(call.func, nodes.Name) and call.func.name == "getattr" and _may_name_forward(call):
                    return False  # getattr(self, name): it may look forward up
    return True


# the names through which a getattr may reach the subclass's forward
_FORWARD_NAMES = (apis.TORCH_FORWARD_METHOD, apis.CELL_FORWARD_METHOD)


def _may_name_forward(call: nodes.Call) -> bool:
    """Whether ``getattr(obj, name, ...)`` may look up forward (or construct): a
    name mslint cannot read may be any; a string written there, or an f-string
    whose written start and end no such name has (``f"indices_{s}"``, a buffer),
    cannot."""
    if len(call.args) < 2 or call.keywords:
        return True
    name = call.args[1]
    if isinstance(name, nodes.Const):
        return not isinstance(name.value, str) or name.value in _FORWARD_NAMES
    if isinstance(name, nodes.JoinedStr) and name.values:
        first, last = name.values[0], name.values[-1]
        prefix = first.value if isinstance(first, nodes.Const) and isinstance(first.value, str) else ""
        suffix = last.value if isinstance(last, nodes.Const) and isinstance(last.value, str) else ""
        return any(target.startswith(prefix) and target.endswith(suffix) for target in _FORWARD_NAMES)
    return True


def construct_owner(user: list[nodes.ClassDef]) -> nodes.ClassDef | None:
    """The first of a class's project hierarchy (``user``, the class first) that
    defines ``construct`` or ``__call__``: the one whose method a call of an instance runs."""
    return next((klass for klass in user if apis.CELL_FORWARD_METHOD in klass.locals or "__call__" in klass.locals), None)


def forward_never_runs(func: nodes.NodeNG) -> bool:
    """``func`` (a frame) is the ``forward`` of a MindSpore Cell subclass that has no
    ``construct`` of its own and inherits one from a project base that never reaches
    ``forward`` (construct_ignores_forward), and no file of the project calls
    ``.forward(...)`` on anything but ``super()``: MindSpore calls construct, so
    nothing runs this method (ms-forward-not-construct's case, in a module it judges
    or not)."""
    cls = func.parent
    if not isinstance(func, nodes.FunctionDef) or func.name != apis.TORCH_FORWARD_METHOD or not isinstance(cls, nodes.ClassDef) \
            or apis.CELL_FORWARD_METHOD in cls.locals or "__call__" in cls.locals:
        return False
    user, external = resolve.class_hierarchy(cls)
    if not external or not external <= apis.CELL_ROOT_CLASSES | apis.NON_CELL_MIXIN_BASES:
        return False
    owner = construct_owner(user)
    if owner is None or owner is cls or not construct_ignores_forward(owner, user):
        return False
    path = cls.root().file
    # (only where the class is named, or its module: a ``.forward(x)`` elsewhere holds
    # another class's object, as ``self.vquantizer.forward(x)`` in a large project)
    return bool(path) and not calls_outside_super(path, _FORWARD_CALL, {cls.name})


def calls_outside_super(path: str, pattern: re.Pattern, mentioning: set[str]) -> bool:
    """Whether the file at ``path`` or a file of its project whose text mentions one
    of ``mentioning`` (calls it, derives from it, passes it) has a match of
    ``pattern`` (a call ``.name(...)``) on anything but ``super()``:
    ``net.forward(x)``, ``self.model.train(False)``; True when the project cannot
    be read whole (a file unreadable, too many files)."""
    files = files_mentioning(path, mentioning)
    if files is None:
        return True
    for other in dict.fromkeys([real_path(path), *files]):  # (its own file is one of the files mentioning it)
        source = read_source(other)
        if source is None:
            return True
        for match in pattern.finditer(source):
            if _SUPER_BEFORE.search(source, max(0, match.start() - 80), match.start()) is None:
                return True
    return False


_FORWARD_CALL = re.compile(rb"\.\s*forward\s*\(")
_SUPER_BEFORE = re.compile(rb"super\s*\([^()]*\)\s*$")


# ---------------------------------------------------------------------------
# The project index
# ---------------------------------------------------------------------------


class _Index:
    """The names each Python file of a project folder calls or derives from,
    read once (a regex over the bytes, no parse)."""

    def __init__(self, root: str) -> None:
        self.root = root
        self.is_read = False
        # name -> the positions (in file order) of the files mentioning it: built on
        # the first question (each question scanned every file of the project:
        # 1,500 questions on mindone's 1,729 files, 1.6 s)
        self._files: list[str] = []
        self._by_name: dict[str, list[int]] = {}
        # False when the folder held more files than a project: nothing else was read
        self.complete = True

    def mentioning(self, names: set[str]) -> list[str]:
        """The files that mention one of ``names``, in the order they were read."""
        if not self.is_read:
            self.read()
        positions: set[int] = set()
        for name in names:
            positions.update(self._by_name.get(name, ()))
        return [self._files[position] for position in sorted(positions)]

    def read(self, jobs: int = 1) -> None:
        """Read every file of the folder now (``jobs`` forked readers where there are
        many), or take what index_words read of them (offer_indexes)."""
        offered = _OFFERED.pop(self.root, None)
        self.complete, pairs = offered if offered is not None else _folder_words(self.root, jobs)
        self._files = []
        seen: set[str] = set()
        by_name = self._by_name
        for path, words in pairs:
            real = real_path(path)
            if words is None or real in seen:
                continue
            seen.add(real)
            position = len(self._files)
            self._files.append(real)
            for name in words:
                found = by_name.get(name)
                if found is None:
                    by_name[name] = [position]
                else:
                    found.append(position)
        # (only the files of each name are kept, not each file's names: a process about
        # to fork workers holds it, and each worker's resident size counts it again)
        self.is_read = True


def _folder_words(root: str, jobs: int = 1) -> tuple[bool, list[tuple[str, frozenset[str] | None]]]:
    """Whether the folder holds no more than a project would (_project_files), and
    the words of each of its Python files (``jobs`` forked readers where there
    are many)."""
    files = _project_files(root)
    return files is not None, list(zip(files or [], forked.read_all(_mentioned_words, files or [], jobs)))


def _project_folders(paths: Iterable[str]) -> list[str]:
    """The project folders of ``paths`` (project_folder), in order."""
    return sorted({project_folder(path) for path in paths})


def _mentioned_words(path: str) -> frozenset[str] | None:
    """The names the file at ``path`` calls, passes, aliases, binds with
    ``partial`` or derives from (the words of _Index); None when it cannot be read."""
    data = read_source(path)
    if data is None:
        return None
    words = set(_CALLED.findall(data))
    words.update(_PASSED.findall(data))
    if b"partial" in data:
        words.update(_PARTIAL_OF.findall(data))
    words.update(_ALIASED.findall(data))
    if b"else" in data:
        words.update(_ALIASED_ELSE.findall(data))
    if b"class" in data:
        for bases in _CLASS_BASES.findall(data):
            words.update(_WORD.findall(bases))
    return frozenset(word.decode("ascii", "replace") for word in words)


def read_indexes(paths: Iterable[str], jobs: int) -> None:
    """Read the project indexes of the folders of ``paths`` now, with ``jobs``
    forked readers: a process about to fork workers that each would read them
    again (the command's workers end when their share of memory is spent, and
    each fresh one is a fork of the process that shares the files out: on
    mindone, eight workers read its 1,729 files, 3 s each)."""
    for root in _project_folders(paths):
        index = _index_at(root, limit=None)  # (no limit: the folders of the files a run checks)
        if not index.is_read:
            index.read(jobs)


def index_words(paths: Iterable[str]) -> dict[str, tuple[bool, list[tuple[str, frozenset[str] | None]]]]:
    """What :func:`read_indexes` reads for the folders of ``paths``, read here (by
    a background process, mslint.analysis.forked.Background): for each project
    folder, whether it is complete and the words of each of its files; given to
    :func:`offer_indexes` in the process that asks the indexes."""
    return {root: _folder_words(root) for root in _project_folders(paths)}


# project folder -> what index_words read for it, taken by the folder's index when it is read
_OFFERED: dict[str, tuple[bool, list[tuple[str, frozenset[str] | None]]]] = {}


def offer_indexes(words: dict[str, tuple[bool, list[tuple[str, frozenset[str] | None]]]]) -> None:
    """Words :func:`index_words` read (in another process) for the indexes to take
    instead of reading the files again."""
    _OFFERED.update(words)


_INDEXES: dict[str, _Index] = {}
_FOLDER_LIMIT = 5000  # folders walked for one project, at most
_CANDIDATE_LIMIT = 40  # other modules parsed for the sites of one definition, at most
_SUBCLASS_LIMIT = 64  # subclasses followed for one class, at most


def python_files(root: str) -> list[str]:
    """The regular ``.py`` files under ``root`` (not in hidden or build folders);
    [] when the folder holds more than a project would (over _PROJECT_FILE_LIMIT
    files or _FOLDER_LIMIT folders: a home or temporary folder, not a project)."""
    return _project_files(root) or []


def _project_files(root: str) -> list[str] | None:
    """:func:`python_files`, None when the folder holds more than a project would."""
    files: list[str] = []
    folders = 0
    for current, dirnames, filenames in os.walk(root):
        folders += 1
        dirnames[:] = sorted(d for d in dirnames if d not in _SKIPPED_FOLDERS and not d.startswith("."))
        files.extend(os.path.join(current, name) for name in filenames if name.endswith(".py"))
        if len(files) > _PROJECT_FILE_LIMIT or folders > _FOLDER_LIMIT:
            return None
    return files


# package root -> project_folder's answer for the files below it (read from the
# folders' files like the indexes, and dropped with them)
_FOLDERS: dict[str, str] = {}


def project_folder(path: str) -> str:
    """The folder searched for the sites of a definition in ``path``: the folder
    above its top package, or the one above that when a script there imports it
    (``train.py`` beside a ``models`` folder)."""
    root = package_root(path)
    known = _FOLDERS.get(root)
    if known is None:
        if len(_FOLDERS) > 256:
            _FOLDERS.clear()
        known = _FOLDERS[root] = _project_folder(root)
    return known


def _project_folder(root: str) -> str:
    parent = os.path.dirname(root)
    if parent == root:
        return root
    # scripts beside the folder that import it (``from models import ...`` in train.py)
    imports = re.compile(rb"^[ \t]*(?:from|import)[ \t]+" + re.escape(os.path.basename(root).encode()) + rb"\b", re.MULTILINE)
    try:
        scripts = sorted(name for name in os.listdir(parent) if name.endswith(".py"))[:50]
    except OSError:
        return root
    for name in scripts:
        data = read_source(os.path.join(parent, name))
        if data is not None and imports.search(data):
            return parent
    return root


def files_mentioning(path: str, names: set[str]) -> list[str] | None:
    """The files of the project of ``path`` (:func:`project_folder`) whose text
    calls, passes or derives from one of ``names`` (a regex over each file, no
    parse); None when the folder holds more files than a project would."""
    index = _index_for(path)
    found = index.mentioning(names)
    return found if index.complete else None


def _index_for(path: str) -> _Index:
    return _index_at(project_folder(path))


def _index_at(root: str, limit: int | None = 64) -> _Index:
    """The index of the folder ``root``; past ``limit`` folders, the others are dropped first."""
    index = _INDEXES.get(root)
    if index is None:
        if limit is not None and len(_INDEXES) > limit:
            _INDEXES.clear()
        index = _INDEXES[root] = _Index(root)
    return index


def forget(indexes: bool = True) -> None:
    """Drop the per-module tables (they hold nodes of trees being dropped) and,
    with ``indexes``, the project indexes (files changed: a new run)."""
    if indexes:
        _INDEXES.clear()
        _FOLDERS.clear()
        _OFFERED.clear()
    _SITES.clear()
    _NEVER_READ.clear()
    _CALLS.clear()
    _ARGUMENTS.clear()
    _CLASSES.clear()
    _ALIASES.clear()
