"""What is graph code and what is differentiated, per module.

Graph code: ``construct`` of every nn.Cell subclass (direct, aliased, or through
user base classes) that a graph-mode program builds (mslint.analysis.programs:
a Cell only PyNative programs build runs its construct as plain Python), functions
decorated with mindspore's ``jit`` (any spelling,
with or without arguments, legacy ``ms_function``), functions passed to
``ms.jit(fn)``, and the methods and module functions they call, transitively
within the module. Differentiated code: functions and Cells passed to
``ms.grad``, ``ms.value_and_grad``, ``ops.GradOperation()(...)``,
``nn.TrainOneStepCell``, ``nn.WithLossCell``, ``Model(net, loss_fn, optimizer)``
with an optimizer, and what they call.

The analysis is computed once per module and shared by every checker. Calls
from graph code into other modules of the user's project are recorded
(:attr:`ModuleAnalysis.foreign_calls`); :meth:`ModuleAnalysis.following` makes
the view of that code that mslint.checkers.follow has the checkers walk.
"""

from __future__ import annotations

import os
import re
from collections import deque
from dataclasses import replace

from astroid import nodes

from mslint.knowledge import apis
from mslint.analysis import astutil, mode, programs, resolve, values
from mslint.analysis import sites as call_sites_of

GRAPH = "graph"
DIFFERENTIATED = "differentiated"
# the body of a ``@constexpr`` function graph code calls (and what it calls): Python
# run while the graph compiles, not graph syntax; kept apart from ``kinds``
COMPILE_TIME = "compile-time"
PYNATIVE = "pynative"
UNKNOWN_MODE = "graph or unknown"
# why graph code is compiled (ModuleAnalysis.compiled_for)
TRAINING, EXPORT, INFERENCE = "training", "export", "inference"


_CLOSURE_NODES = (nodes.Call, nodes.FunctionDef, nodes.Lambda)


def _trains(call: nodes.Call, qname: str) -> bool:
    """``Model(net, loss_fn, optimizer)`` with an optimizer: Model.train differentiates
    ``net`` with respect to the weights (WithLossCell and TrainOneStepCell inside)."""
    if qname not in apis.TRAINING_MODEL_CLASSES:
        return False
    optimizer = astutil.argument(call, *apis.TRAINING_MODEL_OPTIMIZER)
    return optimizer is not None and optimizer is not astutil.UNKNOWN and not (
        isinstance(optimizer, nodes.Const) and optimizer.value is None)


def _wrappers(func: nodes.NodeNG) -> list[nodes.FunctionDef]:
    """The functions the module's decorators of ``func`` return in its place,
    defined in them: ``wrapper`` of ``@deco`` (``def deco(f): def wrapper(*a):
    ...; return wrapper``) or of ``@factory()`` (whose returned decorator returns
    it). Calling ``func`` runs them; the decorators themselves run where it is defined."""
    found = []
    for decorator in func.decorators.nodes if getattr(func, "decorators", None) else ():
        target = decorator.func if isinstance(decorator, nodes.Call) else decorator
        made = resolve.binding(target) if isinstance(target, nodes.Name) else None
        if not isinstance(made, nodes.FunctionDef) or made.root() is not func.root():
            continue
        if isinstance(decorator, nodes.Call):
            made = _returned_function(made)
        wrapper = _returned_function(made) if made is not None else None
        if wrapper is not None:
            found.append(wrapper)
    return found


def _returned_function(func: nodes.FunctionDef) -> nodes.FunctionDef | None:
    """The function defined in ``func`` that it returns by name, if one."""
    for returned in func.nodes_of_class(nodes.Return, skip_klass=(nodes.FunctionDef, nodes.Lambda)):
        if isinstance(returned.value, nodes.Name):
            bound = func.locals.get(returned.value.name, ())
            if len(bound) == 1 and isinstance(bound[0], nodes.FunctionDef) and bound[0].parent is func:
                return bound[0]
    return None


def _run_by_calls(func: nodes.NodeNG):
    """The calls and nested functions in ``func`` that run when it is called: not
    its decorators, parameter defaults and annotations, which Python evaluates
    once, where the function is defined (``@maybe_jit()`` on construct runs the
    factory at class definition, never in the compiled graph)."""
    definition_time = {id(getattr(func, field, None)) for field in ("decorators", "args", "returns")}
    yield from (func,) if isinstance(func, _CLOSURE_NODES) else ()
    for child in func.get_children():
        if id(child) not in definition_time:
            yield from child.nodes_of_class(_CLOSURE_NODES)


# Last names of the APIs whose calls make graph or differentiated code.
_ROOT_CALL_NAMES = frozenset(
    qname.rsplit(".", 1)[-1]
    for qname in (
        apis.JIT_DECORATORS | apis.GRAD_FUNCTIONS | apis.GRAD_WRAPPER_CELLS | apis.GRAD_OPERATION_FACTORIES
        | apis.TRAINING_MODEL_CLASSES
    )
)

# A root call is spelled with one of these names, or an import alias of one (the
# import statement then spells it): a module whose source has none has no root
# calls, and its calls need not be walked.
_ROOT_CALL_PATTERN = re.compile(
    rb"\b(?:" + b"|".join(re.escape(name.encode()) for name in sorted(_ROOT_CALL_NAMES | {"set_context"})) + rb")\b"
)


_STAR_IMPORT_PATTERN = re.compile(rb"\bimport\s*\*")


def _source(module: nodes.Module) -> bytes | None:
    """The module's source as read from disk, or None when it was built from a string."""
    path = module.file
    if not path or not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as stream:
            return stream.read()
    except OSError:
        return None


def _definitions(
    module: nodes.Module,
) -> tuple[list[nodes.ClassDef], list[nodes.FunctionDef], list[nodes.Import | nodes.ImportFrom]]:
    """Every class, function and import statement of the module, nested ones
    included, found through the scopes' locals (every def, class and import binds a
    name there), in source order: no walk over every expression."""
    classes: list[nodes.ClassDef] = []
    functions: list[nodes.FunctionDef] = []
    imports: list[nodes.Import | nodes.ImportFrom] = []
    seen: set[int] = set()
    stack: list[nodes.LocalsDictNodeNG] = [module]
    while stack:
        scope = stack.pop()
        for bound in scope.locals.values():
            for node in bound:
                if not isinstance(node, (nodes.ClassDef, nodes.FunctionDef, nodes.Import, nodes.ImportFrom)):
                    continue
                if id(node) in seen or node.root() is not module:
                    continue
                seen.add(id(node))
                if isinstance(node, (nodes.Import, nodes.ImportFrom)):
                    imports.append(node)
                    continue
                (classes if isinstance(node, nodes.ClassDef) else functions).append(node)
                stack.append(node)
    key = lambda node: (node.lineno or 0, node.col_offset or 0)  # noqa: E731
    return sorted(classes, key=key), sorted(functions, key=key), sorted(imports, key=key)


# How deep calls are followed into other modules (helper -> helper2 -> ...), and
# how many functions one followed call may make graph code: enough for real
# helpers, bounded on generated code.
FOLLOW_DEPTH = 3
FOLLOW_FUNCTIONS = 200


class ModuleAnalysis:  # pylint: disable=too-many-instance-attributes
    """Graph and differentiated functions of one module, with their tensor taint."""

    def __init__(self, module: nodes.Module) -> None:
        self._start(module)
        source = _source(module)
        # the module's classes, functions and import statements, in source order
        self.classes, self.functions, self.imports = _definitions(module)
        # A star import binds names only when its module is found (that depends on
        # what is installed): such a module's imports are walked instead.
        if source is None or _STAR_IMPORT_PATTERN.search(source):
            self.imports = list(astutil.module_nodes(module, (nodes.Import, nodes.ImportFrom)))
        self._find_roots(source)
        self._close_over_calls()

    @classmethod
    def following(  # noqa: PLR0913
        cls,
        home: ModuleAnalysis,
        callee: nodes.FunctionDef,
        kind: str,
        tensor_params: frozenset[str],
        compiled_everywhere: bool,
        bytecode: bool,
        typed_params: frozenset[str] = frozenset(),
    ) -> ModuleAnalysis:
        """The view of the code of other modules that a call from ``home``'s
        graph (or differentiated: ``kind``) code runs: ``callee``, whose
        ``tensor_params`` receive tensors (``typed_params``: certainly a Tensor,
        not a list of them), and what it calls in turn, through
        modules of the project (FOLLOW_DEPTH). ``home``'s mode decision applies
        (its code is what runs the callee); ``compiled_everywhere``: the call is
        in @jit code; ``bytecode``: only through ``capture_mode="bytecode"``."""
        view = cls.__new__(cls)
        view._start(home.module)
        view.home = home.module
        view.decision = home.decision
        view.classes, view.functions, view.imports = [], [], []
        view.seeds[callee] = set(tensor_params)
        view.typed_seeds[callee] = typed_params
        view.depths[callee] = 1
        view._add(callee, kind, entry=False)
        if compiled_everywhere:
            view._jit_root(callee, None)
        if bytecode:
            view.bytecode_roots.add(callee)
        view._close_over_calls()
        return view

    def followed_functions(self) -> list[nodes.NodeNG]:
        """The outermost functions of a view (:meth:`following`), outside its
        home module: what the checkers walk."""
        return [
            func for func in (*self.kinds, *self.compile_time)
            if self._outermost(func) is func and func.root() is not self.home
        ]

    def _outermost(self, func: nodes.NodeNG) -> nodes.NodeNG:
        """``func``, or the outermost function of the view around it."""
        outer = func
        parent = func.parent.frame() if func.parent is not None else None
        while parent is not None and not isinstance(parent, nodes.Module):
            if parent in self.kinds or parent in self.compile_time:
                outer = parent
            parent = parent.parent.frame() if parent.parent is not None else None
        return outer

    def _start(self, module: nodes.Module) -> None:
        self.module = module
        # a view (see following): the module whose graph code calls the code in it
        self.home: nodes.Module | None = None
        # callee -> tensor parameters of the call a view follows into it
        self.seeds: dict[nodes.NodeNG, set[str]] = {}
        # callee -> those of its parameters the call gives a Tensor (mslint.analysis.compiled)
        self.typed_seeds: dict[nodes.NodeNG, frozenset[str]] = {}
        # function -> modules crossed to reach it (views)
        self.depths: dict[nodes.NodeNG, int] = {}
        # (call, callee) -> (caller, skips_self): the calls graph/differentiated code
        # makes into other modules of the project (not followed here: see following)
        self.foreign_calls: dict[tuple[nodes.Call, nodes.FunctionDef], tuple[nodes.NodeNG, bool]] = {}
        self.followed = False  # mslint.checkers.follow walked them
        # function -> kind (GRAPH wins over DIFFERENTIATED)
        self.kinds: dict[nodes.NodeNG, str] = {}
        # functions run as Python while graph code compiles (COMPILE_TIME), an
        # ordered set: @constexpr functions graph code calls, and what they call
        self.compile_time: dict[nodes.NodeNG, None] = {}
        # entry points: their parameters are tensors by declaration
        self.entries: set[nodes.NodeNG] = set()
        # callee -> list of (call node, caller) edges found from graph/diff code
        self.call_sites: dict[nodes.FunctionDef, list[tuple[nodes.Call, nodes.NodeNG, bool]]] = {}
        self._values: dict[nodes.NodeNG, values.FunctionValues] | None = None
        self._cell_classes: dict[nodes.ClassDef, bool] = {}
        self._class_bodies: dict[nodes.ClassDef, values.ClassBody] = {}
        self._class_facts: dict[nodes.ClassDef, values.ClassFacts] = {}
        self._owners: dict[nodes.NodeNG, nodes.NodeNG] = {}
        self._enclosing: dict[nodes.NodeNG, tuple[nodes.NodeNG, str] | None] = {}
        # modes the module sets with set_context(mode=...): PYNATIVE, or
        # UNKNOWN_MODE for GRAPH_MODE and values mslint cannot read
        self.context_modes: set[str] = set()
        # (line, mode) of each set_context(mode=...) call, and whether every one is a
        # statement of the module's own top level (then they run in line order)
        self._context_sequence: list[tuple[int, str]] = []
        self._contexts_in_order = True
        # functions given to grad/value_and_grad, and those calls (item 6: which
        # inputs are differentiated); jit roots, and those captured as bytecode
        self.grad_calls: dict[nodes.NodeNG, list[nodes.Call]] = {}
        self.jit_roots: set[nodes.NodeNG] = set()
        self.bytecode_roots: set[nodes.NodeNG] = set()
        self._reached: dict[str, frozenset] = {}
        self._cell_values: dict[nodes.NodeNG, values.FunctionValues] = {}
        self._decisions: dict[str, mode.Decision] = {}  # top-level name -> decision_at

    # -- classification ------------------------------------------------------
    def is_cell_class(self, cls: nodes.ClassDef) -> bool:
        known = self._cell_classes.get(cls)
        if known is None:
            known = resolve.is_cell_class(cls)
            self._cell_classes[cls] = known
        return known

    def _add(self, func: nodes.NodeNG, kind: str, entry: bool) -> bool:
        if kind == COMPILE_TIME:
            if func in self.kinds or func in self.compile_time:
                return False
            self.compile_time[func] = None
            return True
        previous = self.kinds.get(func)
        if entry:
            self.entries.add(func)
        if previous == GRAPH or previous == kind:
            return False
        self.kinds[func] = kind
        self.compile_time.pop(func, None)  # graph code too: parsed as graph syntax
        return True

    def _find_roots(self, source: bytes | None) -> None:
        # Classes, functions and imports come from the scopes' locals (no walk over
        # every expression); calls from one walk, and only when the source mentions
        # a name that can make a root (most modules do not).
        classes, functions, imports = self.classes, self.functions, self.imports
        calls: list[nodes.Call] = []
        if source is None or _ROOT_CALL_PATTERN.search(source):
            calls = list(astutil.module_nodes(self.module, nodes.Call))
        for func in functions:
            if func.decorators and resolve.has_decorator(func, apis.JIT_DECORATORS):
                self._add(func, GRAPH, entry=True)
                self._jit_root(func, _decorator_call(func))
        # Only calls spelled with the last name of a jit/grad API (or a name an
        # import binds to one) can be roots: skip resolving the thousands of others.
        triggers = set(_ROOT_CALL_NAMES)
        for node in imports:
            for imported, alias in node.names:
                if alias and imported.rsplit(".", 1)[-1] in _ROOT_CALL_NAMES:
                    triggers.add(alias)
        for call in calls:
            func = call.func.func if isinstance(call.func, nodes.Call) else call.func
            last = func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)
            if last in triggers:
                self._root_from_call(call)
            elif last == "set_context":
                self._read_context_mode(call)
        self.decision = programs.module_decision(self.module.file)
        if self.pynative_only and not self.decision.set_by_user:
            # (its @jit code still runs on the devices the programs select)
            self.decision = replace(self._sets_pynative, ascend=self.decision.ascend)
        for cls in classes:
            if self.decision_at(cls).mode == mode.PYNATIVE or not self.is_cell_class(cls):
                # The programs that build it run PyNative: construct is ordinary
                # Python there; only @jit functions are compiled.
                continue
            for name in apis.CELL_METHODS_COMPILED:
                for method in cls.locals.get(name, ()):
                    if isinstance(method, nodes.FunctionDef):
                        self._add(method, GRAPH, entry=True)

    _sets_pynative = mode.Decision(mode.PYNATIVE, "this module sets PYNATIVE_MODE")

    def decision_at(self, node: nodes.NodeNG) -> mode.Decision:
        """How the programs run the code at ``node`` (mslint.analysis.programs): the
        decision for the top-level class or function holding it; the module's
        for its top level, and in a view of another module's code."""
        if self.home is not None:
            return self.decision
        top = node
        while top.parent is not None and not isinstance(top.parent, nodes.Module):
            top = top.parent
        if not isinstance(top, (nodes.ClassDef, nodes.FunctionDef)) or top.root() is not self.module:
            return self.decision
        known = self._decisions.get(top.name)
        if known is None:
            known = programs.decision_for(self.module.file, top.name)
            if self.pynative_only and not known.set_by_user:
                known = replace(self._sets_pynative, ascend=known.ascend)
            elif known.mode != PYNATIVE and not known.set_by_user:
                switch = self._switched_to_pynative_before(top)
                if switch is not None:
                    known = mode.Decision(PYNATIVE, f"this module sets PYNATIVE_MODE at line {switch}, before defining it",
                                          ascend=known.ascend)
            self._decisions[top.name] = known
        return known

    @property
    def pynative_only(self) -> bool:
        """The module sets ``mode=PYNATIVE_MODE`` and no other mode."""
        return self.context_modes == {PYNATIVE}

    def _read_context_mode(self, call: nodes.Call) -> None:
        if resolve.call_name(call) not in apis.SET_CONTEXT_CALLS:
            return
        mode = astutil.argument(call, None, "mode")
        if mode is astutil.UNKNOWN:
            self.context_modes.add(UNKNOWN_MODE)  # set_context(**config)
            self._contexts_in_order = False
            return
        if mode is None:
            return
        if isinstance(mode, nodes.Const):
            pynative = mode.value == apis.PYNATIVE_MODE_VALUE
        else:
            pynative = resolve.qualified_name(mode) in apis.PYNATIVE_MODE_NAMES
        self.context_modes.add(PYNATIVE if pynative else UNKNOWN_MODE)
        if not (isinstance(call.parent, nodes.Expr) and call.parent.parent is self.module):
            self._contexts_in_order = False
        self._context_sequence.append((call.lineno or 0, PYNATIVE if pynative else UNKNOWN_MODE))

    def _switched_to_pynative_before(self, top: nodes.NodeNG) -> int | None:
        """The line of the top-level set_context(mode=PYNATIVE_MODE) after which ``top``
        is defined, when the module switches modes only by top-level statements and
        none follows the definition (a notebook: GRAPH_MODE in one cell, PyNative in
        a later one that defines and runs its own training): code defined there can
        only run PyNative. None otherwise."""
        if not self._contexts_in_order or len(self._context_sequence) < 2:
            return None
        line = top.lineno or 0
        before = [item for item in self._context_sequence if item[0] < line]
        if not before or len(before) != len(self._context_sequence) or before[-1][1] != PYNATIVE:
            return None
        return before[-1][0]

    def _root_from_call(self, call: nodes.Call) -> None:
        func = call.func
        if isinstance(func, nodes.Call):
            # ops.GradOperation(...)(fn)
            if resolve.call_name(func) in apis.GRAD_OPERATION_FACTORIES and call.args:
                self._mark_callable(call.args[0], DIFFERENTIATED)
            return
        if not isinstance(func, (nodes.Name, nodes.Attribute)):
            return
        qname = resolve.call_name(call)
        if qname is None or not call.args:
            return
        if qname in apis.JIT_DECORATORS:
            self._mark_callable(call.args[0], GRAPH)
            for func in self.callable_targets(call.args[0]):
                self._jit_root(func, call)
        elif qname in apis.GRAD_FUNCTIONS or qname in apis.GRAD_WRAPPER_CELLS or _trains(call, qname):
            self._mark_callable(call.args[0], DIFFERENTIATED)
            for func in self.callable_targets(call.args[0]):
                self.grad_calls.setdefault(func, []).append(call)

    def _mark_callable(self, target: nodes.NodeNG, kind: str) -> None:
        for func in self.callable_targets(target):
            self._add(func, kind, entry=True)

    def callable_targets(self, target: nodes.NodeNG) -> list[nodes.FunctionDef]:
        """Functions that run when ``target`` (a function or Cell expression) is
        called: a module/local function, ``self.method``, or a Cell instance's
        construct (``net = MyNet(); ms.grad(net)``)."""
        if isinstance(target, nodes.Lambda):
            return [target]
        attr = astutil.self_attribute(target)
        if attr is not None:
            found = astutil.enclosing_method(target)
            method = resolve.find_method(found[1], attr) if found is not None else None
            return [method] if method is not None else []
        if isinstance(target, nodes.Call):
            cls = resolve.user_class_of_call(target)
            return self._cell_entry(cls)
        if not isinstance(target, nodes.Name):
            return []
        bound = resolve.binding(target)
        if isinstance(bound, nodes.FunctionDef):
            return [bound]
        if isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Assign):
            value = bound.parent.value
            if isinstance(value, nodes.Call):
                return self._cell_entry(resolve.user_class_of_call(value))
        return []

    def _cell_entry(self, cls: nodes.ClassDef | None) -> list[nodes.FunctionDef]:
        if cls is None or cls.root() is not self.module or not self.is_cell_class(cls):
            return []
        method = resolve.find_method(cls, "construct")
        return [method] if method is not None else []

    # -- transitive closure over calls within the module -------------------
    def _close_over_calls(self) -> None:
        queue = deque([*self.kinds, *self.compile_time])
        while queue:
            caller = queue.popleft()
            kind = self.kinds.get(caller, COMPILE_TIME)
            nested_functions = []
            for node in _run_by_calls(caller):
                if not isinstance(node, nodes.Call):
                    nested_functions.append(node)
                    continue
                for callee, skips_self in self._callees(node, caller):
                    callee_kind = kind_of_callee(callee, kind)
                    if callee_kind is None:
                        continue
                    if callee.root() is not caller.root() and not self._follows(node, caller, callee, skips_self):
                        continue
                    self.depths.setdefault(callee, self.depths.get(caller, 1))
                    self.call_sites.setdefault(callee, []).append((node, caller, skips_self))
                    if self._add(callee, callee_kind, entry=False):
                        queue.append(callee)
            # functions nested in graph code are graph code (lambdas, closures), and
            # the wrapper a decorator of it puts in its place runs when it is called
            for nested in [*nested_functions, *_wrappers(caller)]:
                if nested is not caller and self._add(nested, kind, entry=False):
                    self.depths.setdefault(nested, self.depths.get(caller, 1))
                    queue.append(nested)

    def _follows(self, call: nodes.Call, caller: nodes.NodeNG, callee: nodes.FunctionDef, skips_self: bool) -> bool:
        """Whether the closure goes on into ``callee``, of another module than
        ``caller``: in a view, to a bounded depth, never back into its home
        module (which reports its own code); a module's own analysis records
        the call for a view instead."""
        if self.home is None:
            self.foreign_calls.setdefault((call, callee), (caller, skips_self))
            return False
        if callee in self.kinds or callee in self.compile_time:
            return True
        if callee.root() is self.home:
            return False
        depth = self.depths.get(caller, 1) + 1
        if depth > FOLLOW_DEPTH or len(self.kinds) >= FOLLOW_FUNCTIONS:
            return False
        self.depths[callee] = depth
        return True

    def _callees(self, call: nodes.Call, caller: nodes.NodeNG) -> list[tuple[nodes.FunctionDef, bool]]:
        func = call.func
        if isinstance(func, nodes.Attribute) and func.attrname == apis.CELL_FORWARD_METHOD and not astutil.is_self(func.expr) \
                and (astutil.self_attribute(func.expr) is not None or isinstance(func.expr, nodes.Name)):
            # ``self.prompt.construct(h)`` (or ``net.construct(x)``) runs what
            # ``self.prompt(h)`` runs: the construct of the Cell it holds
            return [(callee, skips_self) for callee, skips_self in self._callees_of(func.expr, caller)
                    if callee.name == apis.CELL_FORWARD_METHOD and isinstance(callee.parent, nodes.ClassDef)
                    and self.is_cell_class(callee.parent)]
        return self._callees_of(func, caller)

    def _callees_of(self, func: nodes.NodeNG, caller: nodes.NodeNG) -> list[tuple[nodes.FunctionDef, bool]]:
        """What calling ``func`` (a call's callee expression) runs."""
        attr = astutil.self_attribute(func)
        if attr is not None:
            found = astutil.enclosing_method(caller)
            if found is None:
                return []
            method = resolve.find_method(found[1], attr)
            if method is None:
                # ``self.block(x)``: the construct of the Cell the attribute holds
                held = self.class_facts(found[1]).values(attr)
                return self._instance_construct(held[0]) if len(held) == 1 else []
            return [(method, astutil.is_bound_method(method))]
        if isinstance(func, nodes.Name):
            bound = resolve.binding(func)
            if isinstance(bound, nodes.FunctionDef):
                return [(bound, False)]
            if isinstance(bound, nodes.AssignName):
                # ``net = Net()`` (or ``Net().set_grad()``), then ``net(x)``: its construct
                statement = bound.parent
                if isinstance(statement, nodes.Assign) and statement.targets == [bound]:
                    return self._instance_construct(statement.value)
                return []
            if not isinstance(bound, (nodes.Import, nodes.ImportFrom)):
                return []
        if isinstance(func, (nodes.Name, nodes.Attribute)):
            # a function of another module of the project (helper, utils.helper)
            imported = resolve.project_function(func)
            if imported is not None:
                return [(imported, False)]
        return []

    def _instance_construct(self, value: nodes.NodeNG | None) -> list[tuple[nodes.FunctionDef, bool]]:
        """The construct that calling the Cell ``value`` builds runs: ``Net(...)``,
        through methods that return the Cell itself (``Net(3).set_grad()``)."""
        while (
            isinstance(value, nodes.Call) and isinstance(value.func, nodes.Attribute)
            and value.func.attrname in apis.CELL_SELF_RETURNING_METHODS
        ):
            value = value.func.expr
        if not isinstance(value, nodes.Call):
            return []
        # a script's ``from model import Net``: the model.py beside it, not a namesake
        # module of another project in the same tree
        cls = call_sites_of.beside_script(value) or resolve.user_class_of_call(value)
        if cls is None or not self.is_cell_class(cls):
            return []
        construct = resolve.find_method(cls, apis.CELL_FORWARD_METHOD)
        if construct is None:
            return []
        home = construct.root()
        if home is not self.module:
            top = cls
            while top.parent is not None and not isinstance(top.parent, nodes.Module):
                top = top.parent
            name = top.name if isinstance(top, (nodes.ClassDef, nodes.FunctionDef)) else programs.MODULE
            if programs.decision_for(home.file, name).mode != mode.PYNATIVE:
                return []  # graph code in its own module, which reports it itself
        return [(construct, True)]

    # -- how the program runs -------------------------------------------------
    def _jit_root(self, func: nodes.NodeNG, call: nodes.Call | None) -> None:
        self.jit_roots.add(func)
        if call is not None and _captures_bytecode(call):
            self.bytecode_roots.add(func)

    def _reach(self, roots: frozenset | set) -> frozenset:
        """The functions ``roots`` reach through calls within the module."""
        calls: dict[nodes.NodeNG, list[nodes.NodeNG]] = {}
        for callee, sites in self.call_sites.items():
            for _, caller, _ in sites:
                calls.setdefault(caller, []).append(callee)
        found = set(roots)
        queue = deque(found)
        while queue:
            for callee in calls.get(queue.popleft(), ()):
                if callee not in found:
                    found.add(callee)
                    queue.append(callee)
        return frozenset(found)

    def _reached_from(self, which: str) -> frozenset:
        known = self._reached.get(which)
        if known is None:
            if which == "jit":
                roots = self.jit_roots
            elif which == "bytecode":
                roots = self.bytecode_roots
            else:  # graph code that AST capture compiles: construct and plain @jit roots
                roots = {func for func in self.entries if self.kinds.get(func) == GRAPH} - self.bytecode_roots
            known = self._reached[which] = self._reach(roots) if roots else frozenset()
        return known

    def _graph_frames(self, node: nodes.NodeNG) -> list[nodes.NodeNG]:
        frames = []
        frame = node.frame()
        while frame is not None and not isinstance(frame, nodes.Module):
            frames.append(frame)
            frame = frame.parent.frame() if frame.parent is not None else None
        return frames

    def compiled_in_every_mode(self, node: nodes.NodeNG) -> bool:
        """Whether ``node`` is in @jit code (or code it calls): compiled whatever
        mode the program runs in."""
        if not self.jit_roots:
            return False
        reached = self._reached_from("jit")
        return any(frame in reached for frame in self._graph_frames(node))

    def compiled_for(self, node: nodes.NodeNG) -> str:
        """Why graph code at ``node`` is compiled (mslint.analysis.mode, Decision.trained):
        TRAINING when a program may differentiate it (and @jit code, which any
        program may); else EXPORT when a program exports it (mindspore.export
        compiles under STRICT); else INFERENCE (evaluation under the context's
        level: a host copy loses no gradient). @jit code of a project with
        programs in sight and no file that shows training (an inference engine
        jitting its forward) is not TRAINING: nothing in sight differentiates
        it. A library with no program in sight stays TRAINING: its users may
        train it."""
        decision = self.decision_at(node)
        if self.compiled_in_every_mode(node):
            if not programs.nothing_trains(self.module.file):
                return TRAINING
        elif decision.trained:
            return TRAINING
        return EXPORT if decision.exported_by else INFERENCE

    def bytecode_only(self, node: nodes.NodeNG) -> bool:
        """Whether ``node`` is graph code only through ``@jit(capture_mode="bytecode")``
        functions, where unsupported syntax falls back to Python."""
        if not self.bytecode_roots:
            return False
        frames = self._graph_frames(node)
        if not any(frame in self._reached_from("bytecode") for frame in frames):
            return False
        return not any(frame in self._reached_from("ast") for frame in frames)

    def mode_note(self, node: nodes.NodeNG) -> str:
        """What a message about graph code at ``node`` adds when the mode was
        assumed rather than read from the project: empty otherwise."""
        decision = self.decision_at(node)
        if not decision.assumed or not (self.in_graph(node) or self.at_compile_time(node)) \
                or self.compiled_in_every_mode(node):
            return ""
        return f" (assuming graph mode: {decision.basis}; set {mode.setting_name()})"

    def differentiated_by_weights_only(self, func: nodes.NodeNG) -> bool:
        """Whether every differentiation of ``func`` (its owner) takes gradients
        with respect to the weights only: ``grad(fn, None, weights)``,
        ``grad_position=None``, or a TrainOneStepCell-like wrapper."""
        owner = self._values_owner(func)
        calls = self.grad_calls.get(owner)
        if not calls:
            return False
        for call in calls:
            if resolve.call_name(call) in apis.GRAD_WRAPPER_CELLS | apis.TRAINING_MODEL_CLASSES:
                continue
            position = astutil.argument(call, 1, "grad_position")
            if not (isinstance(position, nodes.Const) and position.value is None):
                return False
        return True

    # -- queries -------------------------------------------------------------
    def enclosing(self, node: nodes.NodeNG) -> tuple[nodes.NodeNG, str] | None:
        """The innermost graph/differentiated function containing ``node`` and its kind."""
        start = node.frame()
        if start in self._enclosing:  # every checker asks, for every call: once per frame
            return self._enclosing[start]
        found = None
        frame = start
        while frame is not None and not isinstance(frame, (nodes.Module, nodes.ClassDef)):
            kind = self.kinds.get(frame)
            if kind is not None:
                found = (frame, kind)
                break
            parent = frame.parent
            frame = parent.frame() if parent is not None else None
        self._enclosing[start] = found
        return found

    def in_graph(self, node: nodes.NodeNG) -> bool:
        found = self.enclosing(node)
        return found is not None and found[1] == GRAPH

    def in_graph_or_differentiated(self, node: nodes.NodeNG) -> bool:
        return self.enclosing(node) is not None

    def at_compile_time(self, node: nodes.NodeNG) -> bool:
        """Whether ``node`` is in no graph or differentiated function, but in the
        body of a ``@constexpr`` function graph code calls (or in what that calls):
        Python MindSpore runs while the graph compiles (COMPILE_TIME)."""
        if not self.compile_time or self.enclosing(node) is not None:
            return False
        frame = node.frame()
        while frame is not None and not isinstance(frame, (nodes.Module, nodes.ClassDef)):
            if frame in self.compile_time:
                return True
            frame = frame.parent.frame() if frame.parent is not None else None
        return False

    def compile_time_function(self, node: nodes.NodeNG) -> nodes.NodeNG | None:
        """The outermost COMPILE_TIME function holding ``node`` (see at_compile_time)."""
        found = None
        frame = node.frame()
        while frame is not None and not isinstance(frame, (nodes.Module, nodes.ClassDef)):
            if frame in self.compile_time:
                found = frame
            frame = frame.parent.frame() if frame.parent is not None else None
        return found

    def values_at(self, node: nodes.NodeNG) -> values.FunctionValues | None:
        """What the values of the graph/differentiated function enclosing ``node`` hold."""
        found = self.enclosing(node)
        if found is None:
            return self._pynative_cell_values(node)
        return self.function_values().get(self._values_owner(found[0]))

    def pynative_cell_code(self, node: nodes.NodeNG) -> nodes.FunctionDef | None:
        """In a module its programs run PyNative: the Cell's construct that holds
        ``node`` (plain Python there, but its inputs are still tensors: a PyTorch
        idiom on them fails as it would in graph mode)."""
        if self.decision_at(node).mode != mode.PYNATIVE:
            return None
        found = astutil.enclosing_method(node)
        if found is None or found[0].name not in apis.CELL_METHODS_COMPILED or not self.is_cell_class(found[1]):
            return None
        return found[0]

    def _pynative_cell_values(self, node: nodes.NodeNG) -> values.FunctionValues | None:
        method = self.pynative_cell_code(node)
        return self._values_as_entry(method) if method is not None else None

    def values_as_entry(self, node: nodes.NodeNG) -> values.FunctionValues | None:
        """What the values at ``node`` hold: those of the graph/differentiated code
        holding it, else of its outermost function as if that were an entry (its
        parameters maybe tensors: a helper or a method outside graph code, such as
        a training step or ``__init__``); None at module level."""
        known = self.values_at(node)
        if known is not None:
            return known
        func = None
        frame = node.frame()
        while isinstance(frame, (nodes.FunctionDef, nodes.Lambda)):
            func = frame
            frame = frame.parent.frame() if frame.parent is not None else None
        return self._values_as_entry(func) if func is not None else None

    def _values_as_entry(self, func: nodes.FunctionDef | nodes.Lambda) -> values.FunctionValues:
        known = self._cell_values.get(func)
        if known is None:
            params = values.entry_tensor_params(func) if isinstance(func, nodes.FunctionDef) else {
                arg.name for arg in astutil.all_params(func)
            }
            known = self._cell_values[func] = self._new_values(func, params)
        return known

    def depends_on_tensor(self, node: nodes.NodeNG) -> bool:
        known = self.values_at(node)
        return known is not None and known.depends(node)

    def _values_owner(self, func: nodes.NodeNG) -> nodes.NodeNG:
        # nested functions and lambdas share the names of the outermost scope
        known = self._owners.get(func)
        if known is not None:
            return known
        owner = func
        parent = func.parent.frame() if func.parent is not None else None
        while parent is not None and parent in self.kinds:
            owner = parent
            parent = parent.parent.frame() if parent.parent is not None else None
        self._owners[func] = owner
        return owner

    # -- what self attributes hold -------------------------------------------
    def class_facts(self, cls: nodes.ClassDef) -> values.ClassFacts:
        """What the ``self`` attributes of ``cls`` (and its user bases) hold; once per class."""
        facts = self._class_facts.get(cls)
        if facts is None:
            facts = self._class_facts[cls] = values.ClassFacts(cls, self.class_body, _in_graph)
        return facts

    def class_body(self, cls: nodes.ClassDef) -> values.ClassBody:
        """The facts the body of ``cls`` itself states about ``self``; once per class."""
        body = self._class_bodies.get(cls)
        if body is None:
            body = self._class_bodies[cls] = values.ClassBody(cls)
        return body

    def _new_values(self, func: nodes.NodeNG, tensor_params: set[str]) -> values.FunctionValues:
        """The values of ``func``, with what the ``self`` attributes of its class hold."""
        cls = func.parent if isinstance(func, nodes.FunctionDef) else None
        if not isinstance(cls, nodes.ClassDef):
            return values.FunctionValues(func, tensor_params)
        facts = self.class_facts(cls)
        return values.FunctionValues(func, tensor_params, facts.tensor_attrs, facts.trainable, facts.op_attrs)

    def function_values(self) -> dict[nodes.NodeNG, values.FunctionValues]:
        """The values of each owner function, tensor parameters propagated from entries
        through call sites."""
        if self._values is not None:
            return self._values
        owners = {self._values_owner(func) for func in self.kinds}
        params: dict[nodes.NodeNG, set[str]] = {}
        for owner in owners:
            if owner in self.seeds:
                params[owner] = set(self.seeds[owner])
            elif owner in self.entries and isinstance(owner, nodes.FunctionDef):
                params[owner] = values.entry_tensor_params(owner)
            elif isinstance(owner, nodes.Lambda):
                params[owner] = {arg.name for arg in astutil.all_params(owner)}
            else:
                params[owner] = set()
        # call edges grouped by the owner of the calling code, built once: the loop
        # below then touches each edge once per round of its caller (linear, not
        # owners x callees, on modules with thousands of helpers)
        # A nested function's parameters are names of its owner's values (nested
        # functions share the names of the outermost scope): ``local(x)`` inside
        # construct makes ``local``'s parameter a tensor there.
        edges: dict[nodes.NodeNG, list[tuple[nodes.FunctionDef, nodes.NodeNG, nodes.Call, bool]]] = {}
        for callee, sites in self.call_sites.items():
            target = self._values_owner(callee)
            if target not in params:
                continue
            for call, caller, skips_self in sites:
                edges.setdefault(self._values_owner(caller), []).append((callee, target, call, skips_self))
        found: dict[nodes.NodeNG, values.FunctionValues] = {}
        queue = deque(owners)
        queued = set(owners)
        rounds = 0
        while queue and rounds < 10 * (len(owners) + 1):
            rounds += 1
            owner = queue.popleft()
            queued.discard(owner)
            known = self._new_values(owner, params[owner])
            found[owner] = known
            # push argument values into callees' parameters
            grown: list[nodes.NodeNG] = []
            for callee, target, call, skips_self in edges.get(owner, ()):
                for name in values.tensor_parameters_of_call(callee, call, skips_self, known):
                    if name not in params[target]:
                        params[target].add(name)
                        grown.append(target)
            for callee in grown:
                if callee not in queued:
                    queue.append(callee)
                    queued.add(callee)
        self._values = found
        return found


def _decorator_call(func: nodes.FunctionDef) -> nodes.Call | None:
    """The ``jit(...)`` call among the decorators of ``func``, if it has arguments."""
    for decorator in func.decorators.nodes if func.decorators else ():
        if isinstance(decorator, nodes.Call) and resolve.qualified_name(decorator.func) in apis.JIT_DECORATORS:
            return decorator
    return None


def _captures_bytecode(call: nodes.Call) -> bool:
    """``jit(capture_mode="bytecode")``: unsupported syntax falls back to Python
    (tests/oracle/test_graph_syntax.py)."""
    value = astutil.argument(call, None, "capture_mode")
    return isinstance(value, nodes.Const) and value.value == "bytecode"


def _in_graph(method: nodes.FunctionDef) -> bool:
    """Whether a method (of this module or another) is graph code in its own module."""
    return _own_analysis(method.root()).kinds.get(method) == GRAPH


def kind_of_callee(callee: nodes.FunctionDef, kind: str) -> str | None:
    """The kind of code ``callee`` is when code of ``kind`` calls it: the same, but
    a ``@constexpr`` function graph code calls runs as Python while the graph
    compiles (COMPILE_TIME, as is all it calls); one PyNative differentiated code
    calls is plain Python (None: nothing to follow)."""
    if kind == COMPILE_TIME:
        return COMPILE_TIME
    if isinstance(callee, nodes.FunctionDef) and callee.decorators \
            and resolve.has_decorator(callee, apis.CONSTEXPR_DECORATORS):
        return COMPILE_TIME if kind == GRAPH else None
    return kind


def compile_time_call_analysis(call: nodes.Call) -> ModuleAnalysis | None:
    """The module's analysis when ``call`` names its callee and sits in code run
    at compile time (ModuleAnalysis.at_compile_time); None otherwise."""
    if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
        return None
    found = analysis(call.root())
    return found if found.at_compile_time(call) else None


def graph_call_analysis(call: nodes.Call) -> ModuleAnalysis | None:
    """The module's analysis when ``call`` names its callee (``f(...)``,
    ``a.b(...)``) and sits in graph code; None otherwise. The common entry test of
    the checkers that judge calls in graph code."""
    if _LAST_CALL[0] is call:  # the checkers ask in turn about the same call
        return _LAST_CALL[1]
    result = None
    if isinstance(call.func, (nodes.Name, nodes.Attribute)):
        found = analysis(call.root())
        result = found if found.in_graph(call) else None
    _LAST_CALL[:] = [call, result]
    return result


_LAST_CALL: list = [None, None]


_CACHE: list[tuple[nodes.Module, ModuleAnalysis]] = []
# the view mslint.checkers.follow has the checkers walk (see viewing)
_VIEWING: list[ModuleAnalysis] = []


def analysis(module: nodes.Module) -> ModuleAnalysis:
    """The (cached) analysis of a module; checkers of one module share it. While
    the checkers walk a view (:func:`viewing`), the view answers for the code of
    every module but its home module."""
    if _VIEWING and module is not _VIEWING[-1].home:
        return _VIEWING[-1]
    return _own_analysis(module)


class viewing:  # noqa: N801 - used like a function
    """For a ``with`` block: :func:`analysis` answers with ``view`` for code
    outside its home module."""

    def __init__(self, view: ModuleAnalysis) -> None:
        self.view = view

    def __enter__(self) -> ModuleAnalysis:
        _VIEWING.append(self.view)
        _LAST_CALL[:] = [None, None]
        return self.view

    def __exit__(self, *exc: object) -> None:
        _VIEWING.pop()
        _LAST_CALL[:] = [None, None]


def _own_analysis(module: nodes.Module) -> ModuleAnalysis:
    for cached_module, result in _CACHE:
        if cached_module is module:
            return result
    _LAST_CALL[:] = [None, None]
    resolve.forget_names()
    result = ModuleAnalysis(module)
    _CACHE.insert(0, (module, result))
    del _CACHE[4:]  # pylint checks one module at a time: keep memory flat
    return result
