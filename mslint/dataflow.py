"""Which values depend on runtime tensors, inside graph and differentiated code.

A value is *tensor-dependent* when it is computed from a runtime tensor: a
construct/@jit parameter (unless it has a constant default or a Python-scalar
annotation), a Parameter or Tensor attribute of the Cell, or anything computed
from those. Shapes, dtypes, ``len(...)`` and numpy arrays built from shapes are
compile-time constants, not tensor data: numpy on them is folded by the compiler.
"""

from __future__ import annotations

from astroid import nodes

from mslint import apis
from mslint.resolve import qualified_name

_SCALAR_CONSTANTS = (nodes.Const,)


def parameter_is_constant(func: nodes.FunctionDef, index: int, all_args: list[nodes.AssignName]) -> bool:
    """Whether a parameter is a compile-time constant by its declaration:
    a constant default value or an ``int``/``float``/``bool``/``str`` annotation."""
    args = func.args
    param = all_args[index]
    annotation = _annotation_of(args, param)
    if annotation is not None and _constant_annotation(annotation):
        return True
    default = _default_of(args, param)
    if default is not None and isinstance(default, _SCALAR_CONSTANTS):
        return True
    if isinstance(default, (nodes.Tuple, nodes.List)) and all(isinstance(e, nodes.Const) for e in default.elts):
        return True
    return False


def _constant_annotation(annotation: nodes.NodeNG) -> bool:
    """``int``, ``float``..., or ``List[int]``, ``Tuple[int, ...]``, ``Optional[int]``."""
    if isinstance(annotation, nodes.Name):
        return annotation.name in apis.CONSTANT_ANNOTATIONS
    if isinstance(annotation, nodes.Const):  # the ``...`` of Tuple[int, ...], or None
        return annotation.value is Ellipsis or annotation.value is None
    if isinstance(annotation, nodes.Subscript):
        container = annotation.value
        name = container.attrname if isinstance(container, nodes.Attribute) else getattr(container, "name", None)
        if name not in apis.CONSTANT_ANNOTATION_CONTAINERS:
            return False
        inner = annotation.slice
        elements = inner.elts if isinstance(inner, nodes.Tuple) else [inner]
        return all(_constant_annotation(element) for element in elements)
    return False


def _annotation_of(args: nodes.Arguments, param: nodes.AssignName) -> nodes.NodeNG | None:
    for group, annotations in (
        (args.posonlyargs, args.posonlyargs_annotations),
        (args.args, args.annotations),
        (args.kwonlyargs, args.kwonlyargs_annotations),
    ):
        for arg, annotation in zip(group or (), annotations or ()):
            if arg is param:
                return annotation
    return None


def _default_of(args: nodes.Arguments, param: nodes.AssignName) -> nodes.NodeNG | None:
    positional = list(args.posonlyargs or ()) + list(args.args or ())
    defaults = list(args.defaults or ())
    if param in positional and defaults:
        offset = len(positional) - len(defaults)
        index = positional.index(param)
        if index >= offset:
            return defaults[index - offset]
    kwonly = list(args.kwonlyargs or ())
    if param in kwonly:
        default = (args.kw_defaults or [None] * len(kwonly))[kwonly.index(param)]
        return default
    return None


def positional_params(func: nodes.FunctionDef) -> list[nodes.AssignName]:
    args = func.args
    return list(args.posonlyargs or ()) + list(args.args or ())


def all_params(func: nodes.FunctionDef) -> list[nodes.AssignName]:
    args = func.args
    return positional_params(func) + list(args.kwonlyargs or ())


def is_bound_method(func: nodes.FunctionDef) -> bool:
    """A method whose first parameter is self/cls (not a staticmethod).

    Read from the decorators' spelling: astroid's ``FunctionDef.type`` infers every
    decorator (``@ms.jit`` would load mindspore's sources) and is slow."""
    if not isinstance(func.parent, nodes.ClassDef):
        return False
    for decorator in func.decorators.nodes if func.decorators else ():
        if isinstance(decorator, nodes.Name) and decorator.name == "staticmethod":
            return False
        if isinstance(decorator, nodes.Attribute) and decorator.attrname == "staticmethod":
            return False
    return True


def entry_tensor_params(func: nodes.FunctionDef) -> set[str]:
    """Tensor parameters of a graph entry point (construct, @jit, a function given
    to ms.grad): every parameter that is not a declared constant."""
    params = all_params(func)
    skip_first = is_bound_method(func) and bool(positional_params(func))
    tainted: set[str] = set()
    for index, param in enumerate(params):
        if skip_first and index == 0:
            continue
        if not parameter_is_constant(func, index, params):
            tainted.add(param.name)
    if func.args.vararg:
        tainted.add(func.args.vararg)
    if func.args.kwarg:
        tainted.add(func.args.kwarg)
    return tainted


class TensorTaint:
    """Tensor-dependent local names of one function (and the functions nested in
    it, which share its names for simplicity)."""

    def __init__(
        self,
        func: nodes.FunctionDef | nodes.Lambda,
        tainted_params: set[str],
        tensor_self_attrs: frozenset[str],
    ) -> None:
        self.func = func
        self.names: set[str] = set(tainted_params)
        self.tensor_self_attrs = tensor_self_attrs
        self._propagate()

    # -- propagation over assignments, to a fixpoint ------------------------
    def _propagate(self) -> None:
        bindings = list(_bindings(self.func))
        for _ in range(8):
            before = len(self.names)
            for targets, value in bindings:
                if value is None or self.depends(value):
                    for target in targets:
                        self.names.add(target)
            if len(self.names) == before:
                break

    # -- expressions ---------------------------------------------------------
    def depends(self, node: nodes.NodeNG | None) -> bool:
        """Whether the value of ``node`` depends on a runtime tensor."""
        return self._depends(node, frozenset())

    def _depends(self, node: nodes.NodeNG | None, visiting: frozenset) -> bool:  # noqa: C901 - one case per node type
        if node is None:
            return False
        stack = [node]
        while stack:
            current = stack.pop()
            if isinstance(current, nodes.Name):
                if current.name in self.names and self._name_depends(current, visiting):
                    return True
            elif isinstance(current, nodes.Attribute):
                if current.attrname in apis.STATIC_TENSOR_ATTRIBUTES:
                    continue
                if current.attrname in apis.STATIC_TENSOR_METHODS and isinstance(current.parent, nodes.Call) \
                        and current.parent.func is current:
                    continue  # x.numel(), x.dim(): static, like x.shape
                if isinstance(current.expr, nodes.Name) and current.expr.name == "self":
                    if current.attrname in self.tensor_self_attrs:
                        return True
                    continue
                stack.append(current.expr)
            elif isinstance(current, nodes.Call):
                if _constant_result(current):
                    continue
                stack.extend(current.args)
                stack.extend(kw.value for kw in current.keywords or ())
                if isinstance(current.func, nodes.Attribute):
                    # x.sum(), self.dense(x): the receiver's data flows in
                    stack.append(current.func)
            elif isinstance(current, (nodes.Const, nodes.Lambda, nodes.JoinedStr)):
                continue
            elif isinstance(current, nodes.IfExp):
                # the test only picks a branch: ``a.shape if t is not None else b.shape``
                stack.append(current.body)
                stack.append(current.orelse)
            elif isinstance(current, nodes.Compare) and all(op in ("is", "is not") for op, _ in current.ops):
                continue  # ``t is None``: identity, a Python bool
            elif isinstance(current, (nodes.FunctionDef, nodes.ClassDef)):
                continue
            else:
                stack.extend(current.get_children())
        return False


    def _name_depends(self, name: nodes.Name, visiting: frozenset) -> bool:
        """A name of the taint set, looked at closer when it is a comprehension
        variable: Python 3 scopes those to the comprehension, so ``d`` in
        ``tuple(int(d) for d in x.shape)`` is static even when another ``d`` of
        the function holds a tensor."""
        comprehension = name.scope()
        if not isinstance(comprehension, _COMPREHENSIONS) or name.name not in comprehension.locals:
            return True
        generators = comprehension.generators
        if _is_inside(name, generators[0].iter, comprehension):
            return True  # the first iterable is evaluated in the enclosing scope
        for generator in generators:
            if name.name in _target_names(generator.target):
                if generator in visiting:
                    return True  # unsure: keep the function-wide answer
                return self._depends(generator.iter, visiting | {generator})
        return True


_COMPREHENSIONS = (nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp)


def _is_inside(node: nodes.NodeNG, ancestor: nodes.NodeNG, stop: nodes.NodeNG) -> bool:
    current = node
    while current is not None and current is not stop:
        if current is ancestor:
            return True
        current = current.parent
    return False


def _constant_result(call: nodes.Call) -> bool:
    func = call.func
    if isinstance(func, nodes.Call):  # ops.Shape()(x)
        inner = qualified_name(func.func)
        return inner in apis.CONSTANT_RESULT_CALLS
    qname = qualified_name(func)
    if qname is None:
        return False
    if qname in apis.CONSTANT_RESULT_CALLS:
        return True
    return qname in apis.HOST_CONSTANT_CALLS and qname not in apis.HOST_TYPE_CONVERSIONS


def _target_names(target: nodes.NodeNG) -> list[str]:
    if isinstance(target, nodes.AssignName):
        return [target.name]
    if isinstance(target, (nodes.Tuple, nodes.List)):
        names: list[str] = []
        for element in target.elts:
            names.extend(_target_names(element))
        return names
    if isinstance(target, nodes.Starred):
        return _target_names(target.value)
    return []


def _bindings(func: nodes.NodeNG):
    """(target names, value) for every binding in the function; value None means
    'tensor-dependent if anything is' and is used for nothing here."""
    for node in func.nodes_of_class(
        (nodes.Assign, nodes.AugAssign, nodes.AnnAssign, nodes.For, nodes.Comprehension,
         nodes.NamedExpr, nodes.With)
    ):
        if isinstance(node, nodes.Assign):
            names: list[str] = []
            for target in node.targets:
                names.extend(_target_names(target))
            yield names, node.value
        elif isinstance(node, nodes.AugAssign):
            names = _target_names(node.target)
            # x += t makes x tensor-dependent; x's old value is already counted
            yield names, node.value
        elif isinstance(node, nodes.AnnAssign):
            if node.value is not None:
                yield _target_names(node.target), node.value
        elif isinstance(node, (nodes.For, nodes.Comprehension)):
            yield _target_names(node.target), node.iter
        elif isinstance(node, nodes.NamedExpr):
            yield _target_names(node.target), node.value
        elif isinstance(node, nodes.With):
            for expr, target in node.items:
                if target is not None:
                    yield _target_names(target), expr


def tensor_self_attributes(cls: nodes.ClassDef, user_classes: list[nodes.ClassDef]) -> frozenset[str]:
    """``self.x`` attributes that hold runtime tensors: assigned a Parameter, a
    Tensor, an initializer or an op result in ``__init__`` of the class or of its
    user base classes."""
    attrs: set[str] = set()
    for klass in user_classes:
        for init in klass.locals.get("__init__", ()):
            if not isinstance(init, nodes.FunctionDef):
                continue
            for assign in init.nodes_of_class(nodes.Assign):
                if not _is_tensor_producing(assign.value):
                    continue
                for target in assign.targets:
                    for attr in _self_attr_targets(target):
                        attrs.add(attr)
    return frozenset(attrs)


def _self_attr_targets(target: nodes.NodeNG) -> list[str]:
    if isinstance(target, nodes.AssignAttr) and isinstance(target.expr, nodes.Name) and target.expr.name == "self":
        return [target.attrname]
    if isinstance(target, (nodes.Tuple, nodes.List)):
        found: list[str] = []
        for element in target.elts:
            found.extend(_self_attr_targets(element))
        return found
    return []


def _is_tensor_producing(value: nodes.NodeNG) -> bool:
    if not isinstance(value, nodes.Call):
        return False
    func = value.func
    qname = qualified_name(func)
    if qname is not None:
        if qname in apis.TENSOR_CONSTRUCTORS:
            return True
        for package in apis.TENSOR_PACKAGES:
            if qname.startswith(package + ".") and qname.rsplit(".", 1)[-1][:1].islower():
                return True
    # Other calls (self.make_anchors(...), np.ones(...)) may build host data:
    # unsure, so not a tensor.
    return False
