"""What values hold, in graph and differentiated code: one expression walker and
one table of what each ``self`` attribute of a class holds.

The walker (:class:`FunctionValues`, one per graph function and the functions
nested in it) answers three questions about an expression, with one case per
node kind:

- *may depend on a tensor* (:meth:`FunctionValues.depends`): computed from a
  runtime tensor (a construct/@jit parameter that is not a declared constant, a
  tensor attribute of the Cell, anything computed from those). Shapes, dtypes,
  ``len(...)``, identity and membership tests and numpy arrays built from shapes
  are compile-time constants, not tensor data.
- *is certainly a tensor* (:meth:`FunctionValues.is_tensor`), with the trainable
  Parameter attributes flowing into it (:meth:`FunctionValues.trainable_sources`):
  silent when unsure (a bare construct parameter may be a Python int; a user
  helper may return anything); a tuple or list is not a tensor.
- *carries a gradient* (:meth:`FunctionValues.carries_gradient`): computed by
  tensor operations from a tensor parameter or a trainable Parameter; containers
  carry what they hold; ``float(t)``, ``t.detach()``, ``ops.stop_gradient`` and
  comparisons carry none (FACTS.md: ``float(t)`` in construct is detached), nor
  do integer-valued ops (``argmax``, ``UniformInt``: apis.INTEGER_RESULT_CALLS).
- *may carry a gradient* (:meth:`FunctionValues.may_carry_gradient`): the same,
  but a user helper or a callable held in a name (``net(x)``) counts through its
  arguments: for rules that warn about a gradient that may flow.

Where branches meet (an ``if``-expression, a name bound twice) "is a tensor" needs
every branch, the other two questions any branch.

The class table (:class:`ClassFacts`, cached per class on the module analysis)
says, for a class and its user base classes, what each ``self.x`` is assigned
(in ``__init__``, other methods and the class body), which attributes hold
tensors, which hold trainable Parameters (``requires_grad`` read as a keyword,
as the third positional argument of ``Parameter(default_input, name,
requires_grad)``, and from a later ``self.x.requires_grad = False``), and
whether constructing the class creates trainable parameters.
"""

from __future__ import annotations

import bisect
from collections.abc import Callable, Mapping
from typing import Any, NamedTuple

from astroid import nodes
from astroid.const import Context

from mslint.knowledge import apis, guide
from mslint.analysis import arguments, astutil, python_ints, resolve, sites

# ---------------------------------------------------------------------------
# API facts
# ---------------------------------------------------------------------------


def is_op_function(qname: str) -> bool:
    """``ops.cast``, ``mint.sum``, ``mindspore.numpy.exp``: a function of a MindSpore op
    namespace itself (not of a sub-package such as ``mint.distributed``)."""
    for package in apis.TENSOR_PACKAGES:
        if qname.startswith(package + "."):
            rest = qname[len(package) + 1:]
            return "." not in rest and rest[:1].islower()
    return False


def is_op_class(qname: str) -> bool:
    """``ops.ReduceSum``: a primitive class of a MindSpore op namespace."""
    for package in apis.TENSOR_PACKAGES:
        if qname.startswith(package + "."):
            rest = qname[len(package) + 1:]
            return "." not in rest and rest[:1].isupper()
    return False


# the op classes among them, by last name (``Shape``): what ``self.<attr> = ops.Shape()`` holds
_CONSTANT_OP_CLASSES = frozenset(
    qname.rsplit(".", 1)[-1] for qname in apis.CONSTANT_RESULT_CALLS if qname.rsplit(".", 1)[-1][:1].isupper()
)


def constant_result(call: nodes.Call) -> bool:
    """A call whose result is a compile-time constant whatever its arguments: shapes,
    types, predicates (``len``, ``ops.shape``, ``ops.Shape()(x)``), numpy arrays
    built from shapes (``np.zeros``; not the conversions ``np.float32(t)``)."""
    func = call.func
    if isinstance(func, nodes.Call):  # ops.Shape()(x)
        return resolve.qualified_name(func.func) in apis.CONSTANT_RESULT_CALLS
    qname = resolve.qualified_name(func)
    if qname is None:
        return False
    if qname in apis.CONSTANT_RESULT_CALLS:
        return True
    return qname in apis.HOST_CONSTANT_CALLS and qname not in apis.HOST_TYPE_CONVERSIONS


def produces_tensor(value: nodes.NodeNG | None) -> bool:
    """``Parameter(...)``, ``Tensor(...)``, ``initializer(...)``, ``ops.ones(...)``: a
    call that certainly makes a tensor. Other calls (``self.make_anchors(...)``,
    ``np.ones(...)``) may build host data: unsure, so not a tensor."""
    if not isinstance(value, nodes.Call):
        return False
    qname = resolve.qualified_name(value.func)
    return qname is not None and (
        qname in apis.TENSOR_CONSTRUCTORS or is_op_function(qname) and qname not in apis.CONSTANT_RESULT_CALLS
    )


def requires_grad(call: nodes.Call) -> bool | None:
    """Whether ``Parameter(default_input, name=None, requires_grad=True, ...)`` is
    trainable as written: True, False, or None when it cannot be read (a variable,
    ``**kwargs``)."""
    flag = astutil.argument(call, 2, "requires_grad")
    if flag is None:
        return True
    if flag is astutil.UNKNOWN:
        return None
    return astutil.literal_bool(flag)


def builds_parameters(call: nodes.Call, qname: str) -> bool:
    """Whether this call builds a MindSpore Cell known to hold trainable parameters."""
    if qname not in apis.PARAMETERIZED_CELLS:
        return False
    for keyword in call.keywords or ():
        if keyword.arg in apis.PARAMETER_AFFINE_KEYWORDS and astutil.literal_bool(keyword.value) is not True:
            return False  # affine=False (or unknown): maybe no trainable weights
    return True


# ---------------------------------------------------------------------------
# Constant values
# ---------------------------------------------------------------------------

_CONSTANT_DEPTH = 8


def constant(node: nodes.NodeNG | None, defaults: bool = False) -> object:
    """The value of an expression known before anything runs, or UNKNOWN: literals
    and arithmetic on them (:func:`astutil.literal`), names a module binds once to
    such a value (``BN_MOMENTUM = 0.1``, here or imported from a project module),
    and with ``defaults`` a parameter's default (``patch_size // 2`` in
    ``def __init__(self, patch_size=7)``: the value when the caller keeps it)."""
    depth = [0]

    def lookup(name: nodes.NodeNG) -> object:
        if not isinstance(name, nodes.Name) or depth[0] > _CONSTANT_DEPTH:
            return astutil.UNKNOWN
        value = resolve.constant_binding(name)
        if value is None and defaults:
            found = parameter_default(name)
            value = found[1] if found is not None else None
        if value is None:
            return astutil.UNKNOWN
        depth[0] += 1
        try:
            return astutil.literal(value, lookup)
        finally:
            depth[0] -= 1

    return astutil.literal(node, lookup)


def parameter_default(name: nodes.NodeNG) -> tuple[nodes.FunctionDef, nodes.NodeNG] | None:
    """(the function, the default) when ``name`` reads a parameter of its function
    that has a default and is never rebound there (``momentum`` in ``def bn(c,
    momentum=0.1): return nn.BatchNorm2d(c, momentum=momentum)``)."""
    found = _parameter_read(name)
    if found is None:
        return None
    func, param = found
    default = astutil.default_of(func.args, param)
    return (func, default) if default is not None else None


def _parameter_read(name: nodes.NodeNG) -> tuple[nodes.FunctionDef, nodes.AssignName] | None:
    """(its function, the parameter) when ``name`` reads a parameter of its
    function that is never rebound there."""
    if not isinstance(name, nodes.Name):
        return None
    func = name.frame()
    if not isinstance(func, nodes.FunctionDef):
        return None
    bound = func.locals.get(name.name, ())
    if len(bound) != 1 or not isinstance(bound[0].parent, nodes.Arguments):
        return None
    return func, bound[0]


def values_at_calls(name: nodes.NodeNG) -> list[object] | None:
    """The values a parameter of a module-level helper receives at each of its
    calls in the module (``use_batch_statistics`` in ``def bn(c,
    use_batch_statistics=True)`` called as ``bn(64, use_batch_statistics=False)``):
    the argument's constant value, the default where a call leaves it out, UNKNOWN
    where mslint cannot read it. None when ``name`` is not such a parameter, the
    helper has no call in the module, or its name is used other than by calling it
    (passed around, exported through ``__all__``: callers mslint cannot see)."""
    found = _parameter_read(name)
    if found is None or not isinstance(found[0].parent, nodes.Module):
        return None
    func, param = found
    module = func.root()
    found: list[object] = []
    for use in astutil.module_nodes(module, nodes.Name):
        if use.name != func.name:
            continue
        call = use.parent
        if not (isinstance(call, nodes.Call) and call.func is use) or resolve.binding(use) is not func:
            return None
        passed = [value for names, value in astutil.bind_call(call, func, False) if param.name in names]
        # one argument, by position or keyword (a *sequence: which parameter it fills is unsure)
        if len(passed) > 1 or any(value.parent is not call and not isinstance(value.parent, nodes.Keyword) for value in passed):
            return None
        if not passed:
            default = astutil.default_of(func.args, param)
            found.append(constant(default) if default is not None else astutil.UNKNOWN)
        else:
            found.append(_local_constant(passed[0]))
    return found or None


def _local_constant(node: nodes.NodeNG) -> object:
    """:func:`constant` with parameter defaults, and a name its function binds
    once to a constant (``bn_training = False`` then ``use_batch_statistics=bn_training``)."""
    value = constant(node, defaults=True)
    if value is not astutil.UNKNOWN or not isinstance(node, nodes.Name):
        return value
    frame = node.frame()
    bound = frame.locals.get(node.name, ()) if isinstance(frame, nodes.FunctionDef) else ()
    if len(bound) == 1 and isinstance(bound[0].parent, nodes.Assign) and bound[0].parent.targets == [bound[0]]:
        return constant(bound[0].parent.value)
    return _reaching_constant(node, frame, bound) if bound else astutil.UNKNOWN


def _reaching_constant(node: nodes.Name, frame: nodes.FunctionDef, bound: list) -> object:
    """The constant a name bound several times holds where ``node`` reads it:
    its reaching binding (:func:`_reaching_binding`) when that is a plain
    assignment of a constant and no binding sits in a loop around the read
    (``mod_id = 0`` ... ``mod_id = 4``, then ``if mod_id == 4:``); UNKNOWN
    otherwise (a later pass of a loop may bring another value)."""
    around = node.parent
    while around is not None and around is not frame:
        if isinstance(around, (nodes.For, nodes.While)) and any(
                binding is not around and around.parent_of(binding) for binding in bound):
            return astutil.UNKNOWN
        around = around.parent
    reaching = _reaching_binding(node)
    assign = reaching.parent if reaching is not None else None
    if not (isinstance(assign, nodes.Assign) and assign.targets == [reaching]):
        return astutil.UNKNOWN
    return constant(assign.value)


def local_constants(node: nodes.NodeNG) -> list[object] | None:
    """Every value a name its function binds only by plain assignments of constants
    can hold (``ratio = 0.5`` then ``if test: ratio = 1.0``: [0.5, 1.0]); None when
    a binding is anything else (a parameter, a loop target, a computed value)."""
    if not isinstance(node, nodes.Name):
        return None
    frame = node.frame()
    if not isinstance(frame, nodes.FunctionDef):
        return None
    bound = frame.locals.get(node.name, ())
    found: list[object] = []
    for binding in bound:
        if not (isinstance(binding.parent, nodes.Assign) and binding.parent.targets == [binding]):
            return None
        value = constant(binding.parent.value)
        if value is astutil.UNKNOWN:
            return None
        found.append(value)
    return found or None


# ---------------------------------------------------------------------------
# Parameters of graph entry points
# ---------------------------------------------------------------------------


def parameter_is_constant(func: nodes.FunctionDef, param: nodes.AssignName) -> bool:
    """Whether a parameter is a compile-time constant by its declaration: a scalar
    constant default (a number, bool, string, or a tuple of them) or an
    ``int``/``float``/``bool``/``str`` annotation. A ``None`` default
    (``attention_mask=None``) or ``Optional[Tensor]`` means "maybe a tensor"."""
    annotation = astutil.annotation_of(func.args, param)
    if annotation is not None and _constant_annotation(annotation):
        return True
    default = astutil.default_of(func.args, param)
    if isinstance(default, nodes.Const):
        return default.value is not None
    return isinstance(default, (nodes.Tuple, nodes.List)) and all(isinstance(e, nodes.Const) for e in default.elts)


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


def entry_tensor_params(func: nodes.FunctionDef) -> set[str]:
    """Tensor parameters of a graph entry point (construct, @jit, a function given
    to ms.grad): every parameter that is not a declared constant."""
    params = astutil.all_params(func)
    skip_first = astutil.is_bound_method(func) and bool(astutil.positional_params(func))
    tainted = {
        param.name
        for index, param in enumerate(params)
        if not (skip_first and index == 0) and not parameter_is_constant(func, param)
    }
    for extra in (func.args.vararg, func.args.kwarg):
        if extra:
            tainted.add(extra)
    return tainted


# ---------------------------------------------------------------------------
# The expression walker
# ---------------------------------------------------------------------------

MAY_DEPEND = "may depend on a tensor"
IS_TENSOR = "is a tensor"
CARRIES_GRADIENT = "carries a gradient"
MAY_CARRY_GRADIENT = "may carry a gradient"
# the same as CARRIES_GRADIENT, seeing through host copies and host-library calls
# (``np.max(x.asnumpy())``): the gradient a host computation would have carried had
# it been written with ops
HOST_DERIVED = "derived from a value carrying a gradient"
_GRADIENT_QUESTIONS = (CARRIES_GRADIENT, MAY_CARRY_GRADIENT, HOST_DERIVED)

# A walk answers None (no, or unsure) or the trainable Parameter attributes that
# flow into the value (empty: yes, from no trainable Parameter).
_YES: frozenset[str] = frozenset()
_PENDING = object()  # an assigned value being walked: met again, it is a cycle (unsure)
# How a host value is used (FunctionValues.uses)
DATA = "tensor data"
STRUCTURE = "a shape, size or index"
UNFOLLOWED = "a use mslint cannot follow"
_NO_USE: frozenset[str] = frozenset()
_DATA_USE, _STRUCTURE_USE, _UNFOLLOWED_USE = frozenset({DATA}), frozenset({STRUCTURE}), frozenset({UNFOLLOWED})
_RETURNED = "returned"  # by a user function followed from its call
# what one use does with the value it gets
_PASSES, _DROPS, _ENDS, _DATA, _STRUCTURE, _UNFOLLOWED = "passes", "keeps an index", "ends", DATA, STRUCTURE, UNFOLLOWED

_COMPREHENSIONS = (nodes.ListComp, nodes.SetComp, nodes.DictComp, nodes.GeneratorExp)
_CONTAINERS = (nodes.Tuple, nodes.List, nodes.Set, nodes.Dict, nodes.Starred)
_NEVER = (nodes.Const, nodes.JoinedStr, nodes.Lambda, nodes.FunctionDef, nodes.ClassDef)
_ABSENT = object()  # FunctionValues._name_answers: not asked yet
_CHAIN_DEPTH = 64  # names followed into names, deeper than this: found first on their own (FunctionValues._warm)
_WARM_ATTEMPTS = 10_000


class _TooDeep(Exception):  # noqa: N818 - a signal, not an error
    """FunctionValues.uses met a name too deep in a chain of names."""

    def __init__(self, key: tuple) -> None:
        super().__init__()
        self.key = key
_PYTHON_BOOL_OPERATORS = frozenset({"is", "is not", "in", "not in"})


class FunctionValues:
    """What the expressions of one graph or differentiated function hold (and of the
    functions nested in it, which share its names for simplicity)."""

    def __init__(
        self,
        func: nodes.FunctionDef | nodes.Lambda,
        tensor_params: set[str],
        tensor_attrs: frozenset[str] = frozenset(),
        trainable: frozenset[str] = frozenset(),
        op_attrs: Mapping[str, str] | None = None,
    ) -> None:
        self.func = func
        # ``self.cast = ops.Cast()``: attribute -> the op class's last name
        self.op_attrs: Mapping[str, str] = op_attrs or {}
        # names that may hold tensor data anywhere in the function
        self.names: set[str] = set(tensor_params)
        self.tensor_attrs = tensor_attrs | trainable
        self.trainable = trainable
        # (assigned value, question) -> answer: a name bound many times, read through
        # chains of such names, is walked once, not once per path
        self._assigned: dict[tuple[nodes.NodeNG, str], object] = {}
        # uses(): what _name_uses found per key, kept across calls (issue 22, item 17:
        # ``x = np.exp(x)`` n times walked the chain again for each of its n calls,
        # and scanned the whole function at each step, about n^2.5 in all); see
        # _name_uses for when a result may be kept
        self._name_uses_memo: dict[tuple, frozenset[str]] = {}
        self._in_progress: dict[tuple, int] = {}  # key -> its depth, while it is computed
        # per key being computed: the shallowest depth its computation reached back
        # to (a cycle; -1: a key answered "nothing" without a kept result), Tarjan's
        # low link: below its own depth, its result is incomplete and not kept
        self._lows: list[int] = []
        self._followed = 0  # user functions followed in the current uses() call
        self._frame_names: dict[nodes.NodeNG, tuple[dict, dict]] = {}
        self._block_fields: dict[nodes.NodeNG, dict[int, str]] = {}  # parent -> id(statement) -> its field
        self._name_answers: dict[tuple, frozenset[str] | None] = {}  # (frame, name, question) -> _name's answer
        # (expression, question) -> its answer, once _propagate has settled the
        # names: uses() asks about the other operand at every level of a chain
        # ``a + b + ...``, n levels for each of n terms (4000 terms: minutes);
        # kept, each operand and each level of the chain is walked once
        self._answers: dict[tuple, frozenset[str] | None] = {}
        self._range_inputs = python_ints.RangeInputs()
        self._settled = False
        self._saw_pending = False
        self._propagate()
        self._settled = True

    # -- the questions -------------------------------------------------------
    def depends(self, expr: nodes.NodeNG | None) -> bool:
        """Whether the value of ``expr`` may depend on a runtime tensor."""
        return self._ask(expr, MAY_DEPEND) is not None

    def is_tensor(self, expr: nodes.NodeNG | None) -> bool:
        """Whether ``expr`` is certainly a runtime tensor."""
        return self._ask(expr, IS_TENSOR) is not None

    def trainable_sources(self, expr: nodes.NodeNG | None) -> frozenset[str] | None:
        """None unless ``expr`` is certainly a tensor; else the trainable Parameter
        attributes whose data flows into it (``self.<attr>``)."""
        return self._ask(expr, IS_TENSOR)

    def carries_gradient(self, expr: nodes.NodeNG | None) -> bool:
        """Whether ``expr`` holds a value computed by tensor operations from a tensor
        parameter or a trainable Parameter (silent for user helpers and dtype-only uses
        such as ``t.type_as(x)``)."""
        return self._ask(expr, CARRIES_GRADIENT) is not None

    def may_carry_gradient(self, expr: nodes.NodeNG | None) -> bool:
        """Whether ``expr`` may hold a value computed from a tensor parameter or a
        trainable Parameter: as :meth:`carries_gradient`, but a call of a user
        helper or of a callable mslint cannot resolve (``net(x)``) counts through
        its arguments. Constant tensor attributes, integer-valued ops (``argmax``,
        ``UniformInt``), host copies and comparisons carry none."""
        return self._ask(expr, MAY_CARRY_GRADIENT) is not None

    def host_derived_gradient(self, expr: nodes.NodeNG | None) -> bool:
        """Whether ``expr`` (host data: ``x.asnumpy()``, ``np.max(...)`` of it) is
        computed from a value that carries a gradient, by copies and host-library
        calls that would carry it as tensor operations (not ``np.argmax``,
        ``np.digitize``: indices have no gradient to lose)."""
        return self._ask(expr, HOST_DERIVED) is not None

    def _ask(self, expr: nodes.NodeNG | None, question: str) -> frozenset[str] | None:
        if expr is None:
            return None
        try:
            return self._kept(expr, question, frozenset(), lambda: self._walk(expr, question, frozenset()))
        except RecursionError:  # a pathologically deep expression: unsure
            return None

    # -- propagation of MAY_DEPEND over assignments, to a fixpoint -----------
    def _propagate(self) -> None:
        bindings = list(_bindings(self.func))
        for _ in range(8):
            before = len(self.names)
            for targets, value in bindings:
                if self.depends(value):
                    self.names.update(targets)
            if len(self.names) == before:
                break

    # -- one case per node kind ------------------------------------------------
    def _walk(self, node: nodes.NodeNG, q: str, visiting: frozenset) -> frozenset[str] | None:  # noqa: C901
        if isinstance(node, nodes.Name):
            return self._name(node, q, visiting)
        if isinstance(node, nodes.Attribute):
            return self._attribute(node, q, visiting)
        if isinstance(node, nodes.Call):
            return self._call(node, q, visiting)
        if isinstance(node, _NEVER):
            return None
        if isinstance(node, nodes.Subscript):
            if q is MAY_DEPEND:  # ``table[t]``: the index picks the data too
                return self._any((node.value, node.slice), q, visiting)
            if q in _GRADIENT_QUESTIONS and isinstance(node.slice, nodes.Const) and integer_named(node.slice.value):
                return None  # ``kwargs["batch_valid_length"]``: integer data, no gradient
            return self._walk(node.value, q, visiting)
        if isinstance(node, nodes.BinOp):
            if not self._settled or visiting:
                return self._any((node.left, node.right), q, visiting)
            # as _kept, inline: a chain thousands deep recurses through here
            key = (node, q)
            if key in self._answers:
                return self._answers[key]
            outer, self._saw_pending = self._saw_pending, False
            answer = self._any((node.left, node.right), q, visiting)
            if not self._saw_pending:
                self._answers[key] = answer
            self._saw_pending = outer or self._saw_pending
            return answer
        if isinstance(node, nodes.UnaryOp):
            return self._walk(node.operand, q, visiting)
        if isinstance(node, nodes.Compare):
            if q in _GRADIENT_QUESTIONS or any(op in _PYTHON_BOOL_OPERATORS for op, _ in node.ops):
                return None  # ``t is None``, ``"mask" in kwargs``: Python bools; a comparison has no gradient
            return self._any([node.left] + [operand for _, operand in node.ops], q, visiting)
        if isinstance(node, nodes.IfExp):
            # the test only picks a branch: ``a.shape if t is not None else b.shape``
            branches = (node.body, node.orelse)
            if q is IS_TENSOR:
                return self._all(branches, q, visiting)
            return self._any(branches, q, visiting)
        if q is IS_TENSOR:
            return None  # a container, a bool operation...: not a tensor itself
        if q in _GRADIENT_QUESTIONS:
            if isinstance(node, _CONTAINERS):  # a tuple or dict carries what it holds
                return self._any(node.get_children(), q, visiting)
            if isinstance(node, _COMPREHENSIONS):
                produced = (node.key, node.value) if isinstance(node, nodes.DictComp) else (node.elt,)
                return self._any(produced, q, visiting)
            return None
        return self._any(node.get_children(), q, visiting)

    def _kept(self, node: nodes.NodeNG, q: str, visiting: frozenset, compute: Callable[[], Any]) -> frozenset[str] | None:
        """``compute()``, the answer about ``node``, kept as _name keeps its answers:
        only one made without meeting a cycle, outside a comprehension's walk, and
        once the names are settled (MAY_DEPEND's answers change while _propagate
        adds names)."""
        if not self._settled or visiting:
            return compute()
        key = (node, q)
        if key in self._answers:
            return self._answers[key]
        outer, self._saw_pending = self._saw_pending, False
        answer = compute()
        if not self._saw_pending:
            self._answers[key] = answer
        self._saw_pending = outer or self._saw_pending
        return answer

    def _any(self, children, q: str, visiting: frozenset) -> frozenset[str] | None:
        found = None
        for child in children:
            result = self._walk(child, q, visiting)
            if result is not None:
                if q is not IS_TENSOR:
                    return result  # the sources matter only for IS_TENSOR
                found = result if found is None else found | result
        return found

    def _all(self, children, q: str, visiting: frozenset) -> frozenset[str] | None:
        found: frozenset[str] = _YES
        for child in children:
            result = self._walk(child, q, visiting)
            if result is None:
                return None
            found |= result
        return found

    def _name(self, node: nodes.Name, q: str, visiting: frozenset) -> frozenset[str] | None:
        if q is MAY_DEPEND and node.name not in self.names:
            return None
        generator = _comprehension_generator(node)
        if generator is not None:
            # Python 3 scopes a comprehension's variable to it: ``d`` in
            # ``tuple(int(d) for d in x.shape)`` holds elements of x.shape, whatever
            # another ``d`` of the function holds
            if generator in visiting:
                return _YES if q is MAY_DEPEND else None  # unsure: keep the function-wide answer
            return self._walk(generator.iter, q, visiting | {generator})
        if self._range_inputs.proven_int(node):
            return None  # an input a compiled range() takes: a Python int, not a tensor
        if q is MAY_DEPEND:
            return _YES
        frame = node.frame()
        # the answer is the same for every read of the name in the frame (all its
        # bindings, flow-insensitively): kept once no binding was still being
        # walked (a cycle), so that n reads of a name bound n times cost n, not n^2
        # (issue 22, item 17)
        key = (frame, node.name, q)
        known = self._name_answers.get(key, _ABSENT)
        if known is _PENDING:  # read again while its bindings are walked: a cycle, unsure here
            self._saw_pending = True
            return None
        if known is not _ABSENT:
            return known  # type: ignore[return-value]
        self._name_answers[key] = _PENDING
        outer, self._saw_pending = self._saw_pending, False
        try:
            answer = self._name_answer(node, frame, q, visiting)
        finally:
            del self._name_answers[key]
        if not self._saw_pending:
            self._name_answers[key] = answer
        self._saw_pending = outer or self._saw_pending
        return answer

    def _name_answer(self, node: nodes.Name, frame: nodes.NodeNG, q: str, visiting: frozenset) -> frozenset[str] | None:
        bindings = frame.locals.get(node.name, ()) if isinstance(frame, (nodes.FunctionDef, nodes.Lambda)) else ()
        results = []
        for binding in bindings:
            parent = binding.parent if isinstance(binding, nodes.AssignName) else binding  # *args: the Arguments
            if isinstance(parent, nodes.Arguments):
                # a parameter: a tensor input carries its gradient, but a bare
                # parameter may also be a Python int: not certainly a tensor
                # (not one named as integer data: ``input_ids``, ``lengths``)
                tensor_input = q in _GRADIENT_QUESTIONS and node.name in self.names and not integer_named(node.name)
                results.append(_YES if tensor_input else None)
            elif isinstance(parent, nodes.Assign) and parent.targets == [binding]:
                results.append(self._assigned_value(parent.value, q, visiting))
            else:
                results.append(None)  # a loop variable, an unpacking: unsure
        if not results:
            return None
        if q is IS_TENSOR:
            if any(result is None for result in results):
                return None
            return frozenset().union(*results)
        return next((result for result in results if result is not None), None)

    def _assigned_value(self, value: nodes.NodeNG, q: str, visiting: frozenset) -> frozenset[str] | None:
        key = (value, q)
        known = self._assigned.get(key)
        if known is _PENDING:
            self._saw_pending = True  # an answer made with this one unknown is not kept (_name)
            return None
        if key in self._assigned:
            return known  # type: ignore[return-value]
        self._assigned[key] = _PENDING
        result = self._assigned[key] = self._walk(value, q, visiting)
        return result

    def _attribute(self, node: nodes.Attribute, q: str, visiting: frozenset) -> frozenset[str] | None:
        if node.attrname in apis.STATIC_TENSOR_ATTRIBUTES:
            return None  # x.shape, x.dtype: compile-time constants
        attr = astutil.self_attribute(node)
        if attr is not None:
            if attr in self.trainable:
                return frozenset({attr})
            if q not in _GRADIENT_QUESTIONS and attr in self.tensor_attrs:
                return _YES
            return None
        return self._walk(node.expr, q, visiting)

    def _call(self, node: nodes.Call, q: str, visiting: frozenset) -> frozenset[str] | None:  # noqa: C901
        if constant_result(node) or self._constant_op_attribute(node):
            return None
        func = node.func
        arguments = astutil.call_arguments(node)
        if q is MAY_DEPEND:
            # any call's result may depend on its inputs, and a method's on its receiver
            if isinstance(func, nodes.Attribute) and func.attrname not in apis.STATIC_TENSOR_METHODS:
                arguments.append(func)  # not x.numel(), x.dim(): static, like x.shape
            return self._any(arguments, q, visiting)
        if q in _GRADIENT_QUESTIONS and self._no_gradient_op(node):
            return None  # an index, a boolean, an integer cast: nothing to differentiate
        # the others: only tensor operations MindSpore defines (and for
        # MAY_CARRY_GRADIENT, user callables, through their arguments)
        if isinstance(func, nodes.Name) and resolve.qualified_name(func) is None:
            held = resolve.assigned_value(func, sole=True)  # argmax = ops.Argmax(); argmax(x)
            if isinstance(held, nodes.Call) and is_op_class(resolve.qualified_name(held.func) or ""):
                func = held
        if isinstance(func, nodes.Call):  # ops.ReduceSum()(x)
            inner = resolve.qualified_name(func.func)
            if inner is None or not is_op_class(inner):
                return None
            if q is not IS_TENSOR and inner in apis.INTEGER_RESULT_CALLS:
                return None  # ops.Argmax()(x): integer indices
            return self._tensor_operation(arguments, q, visiting)
        qname = resolve.qualified_name(func)
        if qname is not None:
            if qname in apis.GRADIENT_STOPPING_CALLS:
                return _YES if q is IS_TENSOR else None
            if q is HOST_DERIVED and _passes_host_data(qname):
                return self._any(arguments, q, visiting)  # Tensor(a), np.exp(a), float(a)
            if qname == "mindspore.Tensor":  # new tensor data: no gradient path
                return self._tensor_operation(arguments, q, visiting) if q is IS_TENSOR else None
            if is_op_function(qname):
                if q is not IS_TENSOR and qname in apis.INTEGER_RESULT_CALLS:
                    return None
                return self._tensor_operation(arguments, q, visiting)
            if q is MAY_CARRY_GRADIENT and "." in qname and not resolve.is_external(qname):
                return self._any(arguments, q, visiting)  # a user helper
            return None  # int(t), float(t), user helpers: a Python value, or unsure
        if not isinstance(func, nodes.Attribute):
            # ``net(x)``: a callable held in a name (a Cell passed in)
            return self._any(arguments, q, visiting) if q is MAY_CARRY_GRADIENT else None
        method = func.attrname
        if q is HOST_DERIVED and method in apis.HOST_COPY_METHODS:
            return self._walk(func.expr, q, visiting)
        if method in apis.STATIC_TENSOR_METHODS or method in apis.HOST_COPY_METHODS:
            return None  # x.numel(), x.item(), x.asnumpy(): Python or host values
        if q is not IS_TENSOR and method in apis.INTEGER_RESULT_METHODS:
            return None  # x.argmax(): integer indices
        receiver = self._walk(func.expr, q, visiting)
        if method in apis.GRADIENT_STOPPING_METHODS:
            return _YES if q is IS_TENSOR and receiver is not None else None
        if q is IS_TENSOR:
            if receiver is not None:
                return receiver
            # ``x.sum()`` on a construct parameter: Python numbers have no such method
            if method in apis.TENSOR_VALUE_METHODS and isinstance(func.expr, nodes.Name) and self.depends(func.expr):
                return _YES
            return None
        if receiver is not None:
            return receiver
        if method in apis.RECEIVER_ONLY_METHODS:
            return None  # t.type_as(x): x lends its dtype, not its data
        return self._any(arguments, q, visiting)

    # -- where a value goes ----------------------------------------------------
    def uses(self, expr: nodes.NodeNG, carrying: bool) -> frozenset[str]:
        """How the value of ``expr`` (host data: a copy, a numpy result) is used on:
        STRUCTURE when it becomes a shape, a size, a count or an index of a tensor
        operation, or an attribute of an op or layer built in graph code
        (``ops.BroadcastTo((b, n))``, ``x.reshape(n, -1)``, ``h[:, i]``); DATA when it
        flows into tensor computation as data while it still holds values that
        carry a gradient (``carrying``: not after ``np.digitize``, ``ops.argmax``,
        an integer cast). Comparisons and branch tests, ``print``, logging, a
        metrics dict and discarded values are no use. UNFOLLOWED where mslint cannot
        follow it (a user function, a list it is added to, a loop, a return value),
        with DATA while carrying."""
        for _ in range(_WARM_ATTEMPTS):
            self._followed, self._lows = 0, []
            try:
                return self._uses(expr, carrying, set())
            except _TooDeep as deep:  # a long chain: its far end first, then again
                if not self._warm(deep.key):
                    break
        return _use_of(_UNFOLLOWED, carrying)  # a chain too long to follow: as mslint does where it cannot

    def _warm(self, first: tuple) -> bool:
        """Find the uses of a name read too deep in a chain (``x = np.exp(x)`` a
        thousand times) as a question of its own, deepest first, so that each is
        kept and the next attempt of the question that met it goes further: the
        chain is followed once in all, without recursing along its whole length.
        False when that makes no progress (a key met twice)."""
        todo, tried = [first], {first}
        while todo:
            name, statement, carrying, wrapped = todo[-1]
            self._followed, self._lows = 0, []
            try:
                self._name_uses(name, statement, carrying, set(), wrapped)
            except _TooDeep as deeper:
                if deeper.key in tried:
                    return False
                tried.add(deeper.key)
                todo.append(deeper.key)
                continue
            todo.pop()
        return True

    def _uses(self, node: nodes.NodeNG, carrying: bool, seen: set, wrapped: bool = False) -> frozenset[str]:  # noqa: C901, PLR0911, PLR0912
        # ``wrapped``: made a tensor again by ``Tensor(a)``; MindSpore ops and Cells
        # take such a tensor as data (measured: an Embedding's gradient is right).
        # ``inside``: uses found in the user functions the value went through.
        child, parent = node, node.parent
        inside: frozenset[str] = _NO_USE
        while parent is not None:
            if isinstance(parent, (nodes.If, nodes.While, nodes.Assert, nodes.IfExp)) and child is parent.test:
                return inside  # picks a branch
            if isinstance(parent, (nodes.Compare, nodes.JoinedStr, nodes.FormattedValue, nodes.Expr)):
                return inside  # a Python bool, a string, a discarded value
            if isinstance(parent, nodes.UnaryOp) and parent.op == "not":
                return inside
            if isinstance(parent, (nodes.Assign, nodes.AugAssign, nodes.AnnAssign)):
                if child is not parent.value:
                    return inside  # ``buffer[i] = ...``: the container written to, not read
                targets = parent.targets if isinstance(parent, nodes.Assign) else [parent.target]
                return inside.union(*(self._target_uses(target, parent, carrying, seen, wrapped) for target in targets))
            if isinstance(parent, nodes.Subscript) and child is parent.slice:
                if self.is_tensor(parent.value) or self.carries_gradient(parent.value):
                    return inside | _STRUCTURE_USE  # indexes a tensor
                use, result = _PASSES, parent  # picks from host data: ``boxes[keep]``
            elif isinstance(parent, nodes.Attribute):  # value.method(...) or value.attr
                use, result = self._method_use(parent)
            elif isinstance(parent, (nodes.Call, nodes.Keyword)):  # f(value), f(k=value)
                call = parent if isinstance(parent, nodes.Call) else parent.parent
                argument = parent if isinstance(parent, nodes.Keyword) else child
                use, result = self._argument_use(call, argument), call
                if use is _UNFOLLOWED:
                    followed = self._callee_uses(call, argument, carrying, seen, wrapped)
                    if followed is not None:  # a user function of this module: its own uses
                        inside |= followed - {_RETURNED}
                        use = _PASSES if _RETURNED in followed else _ENDS
            elif isinstance(parent, nodes.BinOp):
                other = parent.right if child is parent.left else parent.left
                # ``t * Tensor(a)``: arithmetic with a tensor is a tensor operation; with host data, host arithmetic
                tensor = (self.is_tensor(other) or self.carries_gradient(other)) and not host_data(other)
                use, result = (_DATA if tensor else _PASSES), parent
            elif isinstance(parent, nodes.Dict) and _logged_entry(parent, child):
                return inside  # ``{"loss": loss.asnumpy()}``: a dict of named numbers, for a log
            elif isinstance(parent, (nodes.Tuple, nodes.List, nodes.Dict, nodes.IfExp, nodes.UnaryOp,
                                     nodes.BoolOp, nodes.Starred, nodes.Subscript, nodes.Slice)):
                use, result = _PASSES, parent  # the value goes on in the enclosing expression
            elif isinstance(parent, nodes.Return) and parent.frame() in seen:
                return inside | {_RETURNED}  # returned from a function followed from its call
            else:
                use, result = _UNFOLLOWED, parent  # a return, a comprehension, a loop
            if use is _DROPS:
                carrying, use = False, _PASSES  # ``np.digitize(a, b)``, ``a.argmax()``: an index from here on
            if use is _PASSES:
                wrapped = wrapped or _tensor_constructor(result)
                child, parent = result, result.parent
                continue
            return inside | _use_of(_DATA if use is _UNFOLLOWED and wrapped else use, carrying)
        return inside | _use_of(_DATA if wrapped else _UNFOLLOWED, carrying)

    def _callee_uses(
        self, call: nodes.Call, argument: nodes.NodeNG, carrying: bool, seen: set, wrapped: bool
    ) -> frozenset[str] | None:
        """How a user function of this module (``self.method(...)``, ``helper(...)``)
        uses the value it gets as ``argument``, with _RETURNED when its return value
        holds it; None when the callee is unknown or followed already."""
        found = _module_callee(call)
        if found is None or found[0] in seen or sum(isinstance(key, nodes.FunctionDef) for key in seen) >= 3:
            return None
        callee, skips_self = found
        value = argument.value if isinstance(argument, nodes.Keyword) else argument
        params = [name for names, bound in astutil.bind_call(call, callee, skips_self) if bound is value for name in names]
        if not params:
            return None
        seen.add(callee)
        self._followed += 1  # from here on in this uses() call, results depend on what was followed
        return frozenset().union(
            *(self._name_uses(param, callee.args, carrying, seen, wrapped) for param in params)
        )

    def _target_uses(
        self, target: nodes.NodeNG, statement: nodes.NodeNG, carrying: bool, seen: set, wrapped: bool
    ) -> frozenset[str]:
        """How a value assigned to ``target`` is used, through the later reads of the name."""
        if isinstance(target, nodes.Subscript):
            # ``buffer[i] = a``: the value goes where the container goes (a dict of
            # logged numbers nowhere; a numpy buffer into Tensor(buffer) on)
            container = target
            while isinstance(container, nodes.Subscript):
                container = container.value
            if not isinstance(container, nodes.Name):
                return _NO_USE
            return self._name_uses(container.name, statement, carrying, seen, wrapped)
        if isinstance(target, (nodes.Tuple, nodes.List)):
            return frozenset().union(
                *(self._target_uses(elt, statement, carrying, seen, wrapped) for elt in target.elts)
            )
        if isinstance(target, nodes.Starred):
            return self._target_uses(target.value, statement, carrying, seen, wrapped)
        if not isinstance(target, nodes.AssignName):
            return _use_of(_DATA if wrapped else _UNFOLLOWED, carrying)  # ``self.x = ...``
        return self._name_uses(target.name, statement, carrying, seen, wrapped)

    def _name_uses(self, name: str, statement: nodes.NodeNG, carrying: bool, seen: set, wrapped: bool) -> frozenset[str]:
        """How the reads of ``name`` after ``statement`` use the value it holds.

        Linear in chains (``x = np.exp(x)`` n times: each read leads to the next
        binding): a key's result is kept (``_name_uses_memo``) and reused by later
        uses() calls, when it cannot depend on the call it was found in: found
        while no user function was followed yet in that call (a followed function
        makes a ``return`` pass the value on, and bounds how deep calls are
        followed), and not cut short by a cycle back to a key still being
        computed. A key already computed in the same call answers with its kept
        result, where it answered "nothing" before: the call's answer is the
        union of every key's uses either way, so it is the same."""
        frame = statement.frame()
        line = statement.lineno if statement.lineno is not None else frame.lineno  # a callee's parameters: its def
        key = (frame, name, line, carrying, wrapped)
        fresh = self._followed == 0
        if fresh and key in self._name_uses_memo:
            seen.add(key)
            return self._name_uses_memo[key]
        if key in seen:
            if self._lows:  # a cycle back to a key being computed, or one computed and not kept
                self._lows[-1] = min(self._lows[-1], self._in_progress.get(key, -1))
            return _NO_USE  # followed already: its other reads answer
        if fresh and len(self._lows) >= _CHAIN_DEPTH:
            raise _TooDeep((name, statement, carrying, wrapped))  # uses() finds this one first (_warm)
        seen.add(key)
        depth = len(self._lows)
        self._in_progress[key] = depth
        self._lows.append(depth)
        try:
            found = self._reads_uses(frame, name, line, statement, carrying, seen, wrapped)
        finally:
            del self._in_progress[key]
            low = self._lows.pop()
        if self._lows:
            self._lows[-1] = min(self._lows[-1], low)
        if fresh and low >= depth:
            self._name_uses_memo[key] = found
        return found

    def _reads_uses(
        self, frame: nodes.NodeNG, name: str, line: int, statement: nodes.NodeNG, carrying: bool, seen: set, wrapped: bool
    ) -> frozenset[str]:
        bindings, reads = self._names_of(frame)
        # the reads until the name is bound anew in the same block (``output =
        # Tensor(output)`` reads it last; a binding in a branch may not happen)
        block = self._block_key(statement)
        rebound = None
        bound, lines = bindings.get(name, ((), ()))
        for binding in bound[bisect.bisect_right(lines, line):]:
            if isinstance(binding.parent, nodes.Assign) and block is not None and self._block_key(binding.parent) == block:
                rebound = binding.lineno
                break
        found: frozenset[str] = _NO_USE
        candidates, read_lines = reads.get(name, ((), ()))
        end = len(candidates) if rebound is None else bisect.bisect_right(read_lines, rebound)
        # in the order of the tree, as nodes_of_class gives them (the order cycles are cut in)
        for _, read in sorted(candidates[bisect.bisect_left(read_lines, line):end], key=lambda pair: pair[0]):
            found |= self._uses(read, carrying, seen, wrapped)
        return found

    def _names_of(self, frame: nodes.NodeNG) -> tuple[dict, dict]:
        """The frame's bindings (AssignName) and reads (tree index, Name) of each
        name, sorted by line: built once per frame, not scanned per question."""
        index = self._frame_names.get(frame)
        if index is None:
            bindings: dict[str, list] = {}
            reads: dict[str, list] = {}
            for binding in frame.nodes_of_class(nodes.AssignName):
                if binding.lineno is not None:
                    bindings.setdefault(binding.name, []).append(binding)
            for order, read in enumerate(frame.nodes_of_class(nodes.Name)):
                if read.lineno is not None:
                    reads.setdefault(read.name, []).append((order, read))
            # each name: its nodes sorted by line, and their lines (for bisect)
            for name, found in bindings.items():
                found.sort(key=lambda binding: binding.lineno)
                bindings[name] = (found, [binding.lineno for binding in found])
            for name, found in reads.items():
                found.sort(key=lambda pair: pair[1].lineno)
                reads[name] = (found, [read.lineno for _, read in found])
            index = self._frame_names[frame] = (bindings, reads)
        return index

    def _block_key(self, statement: nodes.NodeNG) -> tuple[int, str] | None:
        """Which block holds ``statement`` (its parent and the field: ``body``,
        ``orelse``...), as _block_of finds it; None when none does."""
        parent = statement.parent
        fields = self._block_fields.get(parent)
        if fields is None:
            fields = self._block_fields[parent] = {}
            for field in ("body", "orelse", "handlers", "finalbody"):
                block = getattr(parent, field, None)
                if isinstance(block, list):
                    for node in block:
                        fields.setdefault(id(node), field)
        field = fields.get(id(statement))
        return None if field is None else (id(parent), field)

    def _method_use(self, attribute: nodes.Attribute) -> tuple[str, nodes.NodeNG]:
        """What ``value.<method>(...)`` or ``value.<attr>`` does with the value, and
        the node holding the result: passes it on (``.tolist()``, ``.max()``), keeps
        only an index or integer of it (``.argmax()``, ``.astype(np.int64)``), or
        ends it (``.shape``)."""
        call = attribute.parent
        if not (isinstance(call, nodes.Call) and call.func is attribute):
            ends = attribute.attrname in apis.STATIC_TENSOR_ATTRIBUTES
            return (_ENDS if ends else _PASSES), attribute
        name = attribute.attrname
        if name in apis.STATIC_TENSOR_METHODS:
            return _ENDS, call
        cast = apis.CAST_OPS.get(name)
        if name in apis.NO_GRADIENT_OPS or (
            cast is not None and dtype_name(astutil.argument(call, *cast)) in apis.INTEGER_DTYPES
        ):
            return _DROPS, call
        return _PASSES, call

    def _argument_use(self, call: nodes.Call, child: nodes.NodeNG) -> str:  # noqa: C901, PLR0911 - one case per callee
        """What a call does with the value it gets as ``child`` (an argument or a
        keyword): passes it on in its result (``Tensor(a)``, ``np.max(a)``), keeps an
        index of it (``np.digitize(a, b)``, ``int(a)``), takes it as a shape, size or
        attribute (STRUCTURE), consumes it as tensor data (an op; unsure: a user
        function: UNFOLLOWED), or ends it (``print``, ``logger.info``, ``len``)."""
        if isinstance(child, nodes.Keyword):
            position: int | str | None = child.arg
        elif child in call.args:
            position = call.args.index(child)
        else:
            return _UNFOLLOWED  # ``*args``
        func = call.func
        op = self._op_name(call)
        method = isinstance(func, nodes.Attribute) and astutil.self_attribute(func) is None and resolve.qualified_name(func) is None
        if op is not None and not method:
            # an op function (``zeros(shape)``, ``ops.zeros(shape)``), an op class called on
            # data (``ops.Reshape()(x, shape)``, ``self.reshape(x, shape)``); not a tensor method
            if position in apis.SHAPE_ARGUMENTS.get(op, ()):
                return _STRUCTURE
            return _DROPS if op in apis.NO_GRADIENT_OPS else _DATA
        qname = resolve.qualified_name(func) if isinstance(func, (nodes.Name, nodes.Attribute)) else None
        if qname is not None:
            last = qname.rsplit(".", 1)[-1]
            if is_op_class(qname) or (qname.startswith("mindspore.nn.") and last[:1].isupper()):
                return _STRUCTURE  # ``ops.BroadcastTo(shape)``, ``nn.Dense(n, m)``: an op built from it
            if qname in apis.STRUCTURE_BUILTINS:
                return _STRUCTURE  # ``range(n)``: a loop count
            if qname in apis.VALUE_ENDING_BUILTINS or qname in apis.CONSTANT_RESULT_CALLS:
                return _ENDS
            if qname in apis.HOST_NO_GRADIENT_FUNCTIONS or qname in apis.TRUNCATING_BUILTINS:
                return _DROPS
            if qname in apis.NUMBER_BUILTINS or qname == "mindspore.Tensor" \
                    or resolve.root_package(qname) in apis.HOST_ARRAY_PACKAGES:
                return _PASSES  # ``Tensor(a)``, ``float(a)``, ``np.max(a)``: a value computed from it
        if isinstance(func, nodes.Attribute):
            if func.attrname in apis.SHAPE_METHODS:
                return _STRUCTURE  # ``x.reshape(n, -1)``
            if func.attrname in apis.RECORDING_METHODS:
                return _ENDS  # ``logger.info(...)``, ``tb_dict.update(...)``
        return _UNFOLLOWED  # a user function, ``sizes.extend(...)``

    def without_gradient(self, expr: nodes.NodeNG | None, depth: int = 0) -> bool:
        """Whether ``expr`` certainly carries no gradient: a constant, a comparison, an
        op whose result has none (``argmax``, an integer cast, ``stop_gradient``),
        and reductions, casts and arithmetic of such values (``(logits.argmax(1) ==
        y).astype(ms.float32).mean()``), through names assigned once."""
        if expr is None or depth > _CONSTANT_DEPTH:
            return False
        if isinstance(expr, (nodes.Const, nodes.Compare)):
            return True
        if isinstance(expr, (nodes.Name, nodes.Attribute)) and resolve.qualified_name(expr) is not None:
            return True  # ms.float32, a module constant
        if isinstance(expr, nodes.Name):
            frame = expr.frame()
            bindings = frame.locals.get(expr.name, ()) if isinstance(frame, (nodes.FunctionDef, nodes.Lambda)) else ()
            values = [
                binding.parent.value for binding in bindings
                if isinstance(binding, nodes.AssignName) and isinstance(binding.parent, nodes.Assign)
                and binding.parent.targets == [binding]
            ]
            return bool(bindings) and len(values) == len(bindings) and all(
                self.without_gradient(value, depth + 1) for value in values
            )
        if isinstance(expr, nodes.BinOp):
            return self.without_gradient(expr.left, depth + 1) and self.without_gradient(expr.right, depth + 1)
        if isinstance(expr, nodes.UnaryOp):
            return self.without_gradient(expr.operand, depth + 1)
        if not isinstance(expr, nodes.Call):
            return False
        if self._no_gradient_op(expr):
            return True
        func = expr.func
        qname = resolve.qualified_name(func) if isinstance(func, (nodes.Name, nodes.Attribute)) else None
        if qname in apis.NO_GRADIENT_CALLS:
            return True
        arguments = astutil.call_arguments(expr)
        if qname is None and isinstance(func, nodes.Attribute):
            arguments.append(func.expr)  # a method of the value: .mean(), .astype(...)
        elif qname is None or not is_op_function(qname):
            return False
        return all(self.without_gradient(argument, depth + 1) for argument in arguments)

    def _no_gradient_op(self, call: nodes.Call) -> bool:
        """A MindSpore op (or tensor method) whose result carries no gradient: an
        index, a boolean, a step function's result (``ops.argmax``, ``x.eq(y)``,
        ``ops.Floor()(x)``), or a cast to an integer dtype (``ops.Cast()(x,
        ms.int32)``, ``mask.astype("int64")``, ``self.cast(x, mstype.int32)``)."""
        name = self._op_name(call)
        if name is None:
            return False
        if name in apis.NO_GRADIENT_OPS:
            return True
        if isinstance(call.func, nodes.Attribute) and name in apis.INTEGER_CAST_METHODS and not call.args:
            return True
        cast = apis.CAST_OPS.get(name)
        return cast is not None and dtype_name(astutil.argument(call, *cast)) in apis.INTEGER_DTYPES

    def _constant_op_attribute(self, call: nodes.Call) -> bool:
        """``self.shape(x)`` after ``self.shape = ops.Shape()`` in the class: an op
        class whose result is a compile-time constant (constant_result), held."""
        attr = astutil.self_attribute(call.func) if isinstance(call.func, nodes.Attribute) else None
        return attr is not None and self.op_attrs.get(attr) in _CONSTANT_OP_CLASSES

    def _op_name(self, call: nodes.Call) -> str | None:
        """The last name of the MindSpore op a call runs: an op function (``cast``), an
        op class called on data (``Cast`` in ``ops.Cast()(x, t)`` or ``self.cast(x, t)``
        after ``self.cast = ops.Cast()``), or a tensor method (``astype``)."""
        func = call.func
        if isinstance(func, nodes.Call):
            inner = resolve.qualified_name(func.func)
            return inner.rsplit(".", 1)[-1] if inner is not None and is_op_class(inner) else None
        attr = astutil.self_attribute(func) if isinstance(func, nodes.Attribute) else None
        if attr is not None:
            return self.op_attrs.get(attr)
        qname = resolve.qualified_name(func)
        if qname is not None:
            return qname.rsplit(".", 1)[-1] if is_op_function(qname) else None
        return func.attrname if isinstance(func, nodes.Attribute) else None

    def _tensor_operation(self, arguments, q: str, visiting: frozenset) -> frozenset[str] | None:
        """A MindSpore op's result: a tensor (whose sources are its inputs'), carrying a
        gradient when an input does."""
        if q is IS_TENSOR:
            found = _YES
            for argument in arguments:
                found |= self._walk(argument, q, visiting) or _YES
            return found
        return self._any(arguments, q, visiting)


def integer_named(name: object) -> bool:
    """Whether an input's name says it holds integer data: its last word is one of
    apis.INTEGER_INPUT_WORDS (``input_ids``, ``batch_valid_length``, ``labels``)."""
    return isinstance(name, str) and name.lower().rsplit("_", 1)[-1] in apis.INTEGER_INPUT_WORDS


def _module_callee(call: nodes.Call) -> tuple[nodes.FunctionDef, bool] | None:
    """(the function, whether the call skips its ``self``) for ``self.method(...)``
    of the enclosing class or ``helper(...)`` defined in this module."""
    func = call.func
    attr = astutil.self_attribute(func) if isinstance(func, nodes.Attribute) else None
    if attr is not None:
        cls = astutil.enclosing_class(call)
        found = cls.locals.get(attr, ()) if cls is not None else ()
        skips_self = True
    elif isinstance(func, nodes.Name):
        found = call.root().locals.get(func.name, ())
        skips_self = False
    else:
        return None
    functions = [node for node in found if isinstance(node, nodes.FunctionDef)]
    return (functions[0], skips_self) if len(functions) == 1 and len(found) == 1 else None


def _block_of(statement: nodes.NodeNG) -> list[nodes.NodeNG]:
    """The statements of the block holding ``statement`` (a body, an ``else``)."""
    for field in ("body", "orelse", "handlers", "finalbody"):
        block = getattr(statement.parent, field, None)
        if isinstance(block, list) and any(node is statement for node in block):
            return block
    return []


def _logged_entry(display: nodes.Dict, child: nodes.NodeNG) -> bool:
    """``child`` is a value of a dict display whose keys are all string literals
    (``{"Reconstruction Loss": loss.asnumpy()}``): a record of named numbers, the
    form a training step hands to its log. No MindSpore operation takes such a
    dict as tensor data, so a host value kept there computes nothing."""
    keys_strings = all(isinstance(key, nodes.Const) and isinstance(key.value, str) for key, _ in display.items)
    return keys_strings and any(value is child for _, value in display.items)


def _tensor_constructor(node: nodes.NodeNG) -> bool:
    return isinstance(node, nodes.Call) and resolve.qualified_name(node.func) == "mindspore.Tensor"


def _use_of(use: str, carrying: bool) -> frozenset[str]:
    """The kinds of use one final use makes: data counts only while the value carries
    a gradient; an unsure use may be data too."""
    if use is _DATA:
        return _DATA_USE if carrying else _NO_USE
    if use is _UNFOLLOWED:
        return _UNFOLLOWED_USE | (_DATA_USE if carrying else _NO_USE)
    return _STRUCTURE_USE if use is _STRUCTURE else _NO_USE


def host_data(expr: nodes.NodeNG | None, depth: int = 0) -> bool:
    """Whether ``expr`` is certainly host data, not a tensor: a host copy
    (``x.asnumpy()``), a host-library result (``np.max(a)``), a method or an element
    of one (``x.asnumpy().max()``, ``x.asnumpy()[0]``), or a name bound only to such."""
    if depth > _CONSTANT_DEPTH:
        return False
    if isinstance(expr, nodes.Subscript):
        return host_data(expr.value, depth + 1)
    if isinstance(expr, nodes.UnaryOp):
        return host_data(expr.operand, depth + 1)
    if isinstance(expr, nodes.BinOp):
        # ``np.exp(a) / np.sum(np.exp(a))``, ``(x1 - x0) / 2`` of host arrays: numpy gives numpy
        # (a tensor operand would make it the tensor's: both sides must be host or numbers)
        sides = (expr.left, expr.right)
        return any(not _number_literal(side) for side in sides) and all(
            _number_literal(side) or host_data(side, depth + 1) for side in sides)
    if isinstance(expr, nodes.Name):
        frame = expr.frame()
        bound = frame.locals.get(expr.name, ()) if isinstance(frame, nodes.FunctionDef) else ()
        statements = [binding.parent for binding in bound if isinstance(binding, nodes.AssignName)]
        if not statements or len(statements) != len(bound):
            return False
        if all(_host_assignment(statement, depth) for statement in statements):
            return True
        # rebound: ``boxes = boxes.asnumpy()`` then ``nms(boxes)`` reads the copy
        reaching = _reaching_assignment(expr, statements)
        return reaching is not None and _host_assignment(reaching, depth)
    if not isinstance(expr, nodes.Call):
        return False
    func = expr.func
    qname = resolve.qualified_name(func) if isinstance(func, (nodes.Name, nodes.Attribute)) else None
    if qname is not None and resolve.root_package(qname) in apis.HOST_ARRAY_PACKAGES:
        return not constant_result(expr)
    if isinstance(func, nodes.Name):
        return _module_function_returns_host_data(func, depth)
    if qname is not None:
        return False
    if isinstance(func, nodes.Attribute):
        return func.attrname in apis.HOST_COPY_METHODS or host_data(func.expr, depth + 1)
    return False


def _module_function_returns_host_data(name: nodes.Name, depth: int) -> bool:
    """``to_corners(boxes)`` where ``to_corners`` is a function of the same module
    (not a method) whose every return gives host data (``np.stack(...)``): what it
    returns is numpy whatever it was given, so a host-library call on that result,
    or in a helper it is passed to, works on numpy (the tensor's copy, made before,
    is where a rule reports)."""
    func = resolve.binding(name)
    if not isinstance(func, nodes.FunctionDef) or func.is_method() or func.root() is not name.root():
        return False
    returned = [ret.value for ret in func.nodes_of_class(nodes.Return, skip_klass=_NESTED_SCOPES)]
    return bool(returned) and all(value is not None and host_data(value, depth + 1) for value in returned)


_NESTED_SCOPES = (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)


def _number_literal(expr: nodes.NodeNG) -> bool:
    """``2``, ``0.5``, ``-1``: a number written in the code."""
    if isinstance(expr, nodes.UnaryOp) and expr.op in ("-", "+"):
        expr = expr.operand
    return isinstance(expr, nodes.Const) and isinstance(expr.value, (int, float)) and not isinstance(expr.value, bool)


def dtype_name(dtype: nodes.NodeNG | None) -> str | None:
    """``int32`` for ``ms.int32``, ``mstype.int32``, ``"int32"`` or ``int32``."""
    if isinstance(dtype, nodes.Attribute):
        return dtype.attrname
    if isinstance(dtype, nodes.Name):
        return dtype.name
    if isinstance(dtype, nodes.Const) and isinstance(dtype.value, str):
        return dtype.value
    return None


def _passes_host_data(qname: str) -> bool:
    """A call whose result holds its arguments' values, seen from the host:
    ``Tensor(a)``, ``float(a)``, a host-library function that is not an index or
    a step function (``np.max(a)``, not ``np.argmax(a)`` or ``np.digitize(a, b)``)."""
    if qname == "mindspore.Tensor" or (qname in apis.NUMBER_BUILTINS and qname not in apis.TRUNCATING_BUILTINS):
        return True
    return resolve.root_package(qname) in apis.HOST_ARRAY_PACKAGES and qname not in apis.HOST_NO_GRADIENT_FUNCTIONS


def _comprehension_generator(name: nodes.Name) -> nodes.Comprehension | None:
    """The ``for`` clause binding ``name`` when it is a comprehension's own variable
    (not read in the first iterable, which is evaluated in the enclosing scope)."""
    comprehension = name.scope()
    if not isinstance(comprehension, _COMPREHENSIONS) or name.name not in comprehension.locals:
        return None
    generators = comprehension.generators
    current = name
    while current is not None and current is not comprehension:
        if current is generators[0].iter:
            return None
        current = current.parent
    for generator in generators:
        if name.name in astutil.target_names(generator.target):
            return generator
    return None


def comprehension_source(name: nodes.Name) -> nodes.NodeNG | None:
    """For a comprehension's own variable, what its values are elements of: the
    iterable (``for c in chunks``, ``for (src, _) in pairs``: an element or a part of
    one), the sequence ``enumerate(xs)`` or ``zip(xs, ys)`` walks for that place of
    the target, a ``0`` literal standing for ``enumerate``'s counter; None when unsure
    or when ``name`` is not such a variable."""
    generator = _comprehension_generator(name)
    if generator is None:
        return None
    target, iterable = generator.target, generator.iter
    if isinstance(target, nodes.AssignName):
        return iterable
    if not isinstance(target, nodes.Tuple):
        return None
    places = [index for index, elt in enumerate(target.elts) if name.name in astutil.target_names(elt)]
    if len(places) != 1:
        return None
    place = places[0]
    walker = resolve.qualified_name(iterable.func) if isinstance(iterable, nodes.Call) \
        and isinstance(iterable.func, nodes.Name) else None
    if walker in ("enumerate", "builtins.enumerate") and len(iterable.args) == 1 and len(target.elts) == 2:
        if place == 0:
            return _COUNTER if isinstance(target.elts[0], nodes.AssignName) else None
        return iterable.args[0]  # an element, or a part of one (``for i, (src, _) in enumerate(pairs)``)
    if walker in ("zip", "builtins.zip") and not iterable.keywords and len(iterable.args) == len(target.elts):
        return iterable.args[place]
    if walker is None or resolve.root_package(walker) in apis.HOST_ARRAY_PACKAGES:
        return iterable  # ``for (src, _) in pairs``: a part of an element
    return None


_COUNTER = nodes.Const(0)  # enumerate's counter: a Python int


def _bindings(func: nodes.NodeNG):
    """(target names, value) for every binding in the function."""
    for node in func.nodes_of_class(
        (nodes.Assign, nodes.AugAssign, nodes.AnnAssign, nodes.For, nodes.Comprehension, nodes.NamedExpr, nodes.With)
    ):
        if isinstance(node, nodes.Assign):
            names: list[str] = []
            for target in node.targets:
                names.extend(astutil.target_names(target))
            yield names, node.value
        elif isinstance(node, (nodes.AugAssign, nodes.NamedExpr)):
            # x += t makes x tensor-dependent; x's old value is already counted
            yield astutil.target_names(node.target), node.value
        elif isinstance(node, nodes.AnnAssign):
            if node.value is not None:
                yield astutil.target_names(node.target), node.value
        elif isinstance(node, (nodes.For, nodes.Comprehension)):
            yield astutil.target_names(node.target), node.iter
        else:
            for expr, target in node.items:
                if target is not None:
                    yield astutil.target_names(target), expr


def _host_assignment(statement: nodes.NodeNG, depth: int) -> bool:
    return isinstance(statement, nodes.Assign) and len(statement.targets) == 1 and host_data(statement.value, depth + 1)


def _reaching_assignment(use: nodes.Name, statements: list[nodes.NodeNG]) -> nodes.NodeNG | None:
    """The assignment that surely gives ``use`` its value: the last one above it in
    a block that holds the use, with no other assignment of the name in a loop
    around the use (a later iteration could read that one); None when unsure."""
    above = [statement for statement in statements if statement.lineno < use.lineno]
    if not above:
        return None
    last = max(above, key=lambda statement: statement.lineno)
    ancestors = set()
    node = use.parent
    while node is not None and not isinstance(node, nodes.FunctionDef):
        ancestors.add(node)
        node = node.parent
    if last.parent not in ancestors and last.parent is not use.frame():
        return None
    loops = [node for node in ancestors if isinstance(node, (nodes.For, nodes.While))]
    for statement in statements:
        if statement is not last and any(loop.parent_of(statement) for loop in loops):
            return None
    return last


def tensor_parameters_of_call(
    callee: nodes.FunctionDef | nodes.Lambda, call: nodes.Call, skips_self: bool, caller: FunctionValues
) -> set[str]:
    """The callee's parameters that receive a value that may depend on a tensor
    (not host data: ``helper(boxes.asnumpy())`` gives the helper a numpy array, and
    the copy itself is where a rule reports)."""
    names: set[str] = set()
    for params, value in astutil.bind_call(call, callee, skips_self):
        if caller.depends(value) and not host_data(value):
            names.update(params)
    return names


# ---------------------------------------------------------------------------
# What each self attribute holds
# ---------------------------------------------------------------------------

# What ``self.<attr>`` holds, from its assignments outside graph code.
PARAMETER, LIST, DICT, VALUE, UNSURE, ABSENT = "parameter", "list", "dict", "value", "unsure", "absent"


class Assignment(NamedTuple):
    """``self.<attr> = value`` (or a class attribute ``attr = value``)."""

    attr: str
    value: nodes.NodeNG | None  # None where unpacking hides it
    statement: nodes.NodeNG  # the Assign or AnnAssign
    method: nodes.FunctionDef | None  # None: the class body
    nested: bool  # inside a function nested in the method


class ClassBody:
    """The facts one class's own body states about ``self`` (one walk of its methods)."""

    def __init__(self, cls: nodes.ClassDef) -> None:
        self.cls = cls
        self.assignments: list[Assignment] = []
        self.dynamic_methods: list[nodes.FunctionDef] = []  # methods calling setattr & co
        self.init_calls: list[tuple[nodes.Call, nodes.FunctionDef]] = []  # every call in __init__
        # ``<path>.requires_grad = False``: self paths (``self.w``), and method-local names
        self.frozen_self: set[str] = set()
        self.frozen_local: set[tuple[nodes.FunctionDef, str]] = set()
        # ``self.<method>(...)`` calls in the class's methods, by method name
        self.self_calls: dict[str, list[nodes.Call]] = {}
        for name, bound in cls.locals.items():  # class attributes: ``count = 0``
            for assign_name in bound:
                if isinstance(assign_name, nodes.AssignName) and isinstance(assign_name.parent, nodes.Assign):
                    statement = assign_name.parent
                    self.assignments.append(Assignment(name, statement.value, statement, None, False))
        for bound in cls.locals.values():
            for method in bound:
                # every def of the class body (mymethods() keeps only the first of a
                # name, missing property setters)
                if isinstance(method, nodes.FunctionDef):
                    self._read_method(method)

    def _read_method(self, method: nodes.FunctionDef) -> None:
        is_init = method.name == "__init__"
        dynamic = False
        for node in method.nodes_of_class((nodes.Assign, nodes.AnnAssign, nodes.Call)):
            if isinstance(node, nodes.Call):
                callee = node.func
                name = callee.attrname if isinstance(callee, nodes.Attribute) else getattr(callee, "name", None)
                dynamic = dynamic or name in apis.DYNAMIC_ATTRIBUTE_CALLS
                if isinstance(callee, nodes.Attribute) and isinstance(callee.expr, nodes.Name) \
                        and callee.expr.name == "self":
                    self.self_calls.setdefault(callee.attrname, []).append(node)
                if is_init:
                    self.init_calls.append((node, method))
                continue
            if node.value is None:
                continue  # ``self.x: int`` alone assigns nothing
            targets = node.targets if isinstance(node, nodes.Assign) else [node.target]
            nested = node.frame() is not method
            for target, value in astutil.assignment_pairs(targets, node.value):
                attr = astutil.self_attribute(target)
                if attr is not None:
                    self.assignments.append(Assignment(attr, value, node, method, nested))
                elif isinstance(target, nodes.AssignAttr) and target.attrname == "requires_grad" \
                        and astutil.literal_bool(value) is False:
                    holder = astutil.attribute_path(target.expr)
                    if holder is not None and holder.startswith("self."):
                        self.frozen_self.add(holder)
                    elif holder is not None and "." not in holder:
                        self.frozen_local.add((method, holder))
        if dynamic:
            self.dynamic_methods.append(method)

    def init_assignments(self) -> list[Assignment]:
        """``self.<attr> = value`` in the class's own ``__init__`` (not in functions nested there)."""
        return [
            assignment
            for assignment in self.assignments
            if assignment.method is not None and assignment.method.name == "__init__" and not assignment.nested
        ]

    def frozen(self, call: nodes.Call, method: nodes.FunctionDef | None, frozen_self: set[str]) -> bool:
        """Whether the Parameter ``call`` makes is frozen later by
        ``<holder>.requires_grad = False``."""
        statement = call.parent
        if not (isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1):
            return False
        target = statement.targets[0]
        if isinstance(target, nodes.AssignName):
            return (method, target.name) in self.frozen_local
        attr = astutil.self_attribute(target)
        return attr is not None and f"self.{attr}" in frozen_self


class ClassFacts:
    """What the ``self`` attributes of a class (with its user base classes) hold."""

    def __init__(
        self,
        cls: nodes.ClassDef,
        body_of: Callable[[nodes.ClassDef], ClassBody],
        in_graph: Callable[[nodes.FunctionDef], bool],
    ) -> None:
        self.cls = cls
        user, self.external = resolve.class_hierarchy(cls)
        self.bodies = [body_of(klass) for klass in user]  # cls first, then its user bases
        self._in_graph = in_graph
        self._kinds: tuple[dict[str, str], bool] | None = None
        self.frozen_self: set[str] = set()
        for body in self.bodies:
            self.frozen_self |= body.frozen_self
        tensors: set[str] = set()
        trainable: set[str] = set()
        ops_made: dict[str, set[str]] = {}
        for body in self.bodies:
            for assignment in body.assignments:
                if assignment.method is None:
                    continue
                value = assignment.value
                whole = assignment.statement.value  # ``self.a, self.b = ops.split(x)``
                made = resolve.qualified_name(value.func) if isinstance(value, nodes.Call) else None
                ops_made.setdefault(assignment.attr, set()).add(made if made and is_op_class(made) else "")
                if assignment.method.name == "__init__" and produces_tensor(value if value is not None else whole):
                    tensors.add(assignment.attr)
                if self.is_parameter(value):
                    tensors.add(assignment.attr)
                    if requires_grad(value) is True and f"self.{assignment.attr}" not in self.frozen_self:
                        trainable.add(assignment.attr)
        # attributes holding a runtime tensor: a tensor built in __init__, a Parameter
        self.tensor_attrs = frozenset(tensors)
        # attributes holding a trainable Parameter
        self.trainable = frozenset(trainable)
        # attributes holding one op class's instance (``self.cast = ops.Cast()``): its last name
        self.op_attrs = {
            attr: made.pop().rsplit(".", 1)[-1] for attr, made in ops_made.items() if len(made) == 1 and "" not in made
        }

    def self_calls(self, method: str) -> list[nodes.Call]:
        """The ``self.<method>(...)`` calls in the class and its user bases."""
        return [call for body in self.bodies for call in body.self_calls.get(method, ())]

    @staticmethod
    def is_parameter(value: nodes.NodeNG | None) -> bool:
        return isinstance(value, nodes.Call) and resolve.qualified_name(value.func) in apis.PARAMETER_CLASSES

    def values(self, attr: str) -> list[nodes.NodeNG | None]:
        """Values assigned to ``self.<attr>`` in the methods of the class and its user
        bases (None where unpacking hides one)."""
        return [
            assignment.value
            for body in self.bodies
            for assignment in body.assignments
            if assignment.attr == attr and assignment.method is not None and not assignment.nested
        ]

    def constant(self, attr: str) -> object:
        """The literal (None, a bool, a number, a string) ``self.<attr>`` always holds:
        assigned once, in ``__init__``, and nowhere else in the class, its user bases or
        the module's other classes (a subclass may set it otherwise); UNKNOWN when not."""
        found = [assignment for body in self.bodies for assignment in body.assignments if assignment.attr == attr]
        if len(found) != 1 or any(body.dynamic_methods for body in self.bodies):
            return astutil.UNKNOWN
        (assignment,) = found
        if assignment.nested or assignment.method is None or assignment.method.name != "__init__":
            return astutil.UNKNOWN
        if not isinstance(assignment.value, nodes.Const):
            return astutil.UNKNOWN
        mine = {body.cls for body in self.bodies}
        for other in astutil.module_nodes(self.cls.root(), nodes.AssignAttr):
            if other.attrname == attr and astutil.enclosing_class(other) not in mine:
                return astutil.UNKNOWN
        return assignment.value.value

    def kind(self, attr: str) -> str:
        """What ``self.<attr>`` holds from its assignments outside graph code:
        PARAMETER, LIST, DICT, VALUE, UNSURE, or ABSENT when nothing assigns it."""
        kinds, dynamic = self._attribute_kinds()
        kind = kinds.get(attr)
        if kind is not None:
            return kind
        if dynamic:
            return UNSURE  # setattr / insert_param_to_cell may create it
        if self.external - apis.CELL_ROOT_CLASSES - {"object"}:
            return UNSURE  # a MindSpore layer base (nn.Dense owns weight, bias) or an unknown base
        return ABSENT

    def _attribute_kinds(self) -> tuple[dict[str, str], bool]:
        if self._kinds is not None:
            return self._kinds
        seen: dict[str, set[str]] = {}
        dynamic = False
        for body in self.bodies:
            dynamic = dynamic or any(not self._in_graph(method) for method in body.dynamic_methods)
            for assignment in body.assignments:
                if assignment.method is not None and self._in_graph(assignment.method):
                    continue
                seen.setdefault(assignment.attr, set()).add(value_kind(assignment.value))
        kinds: dict[str, str] = {}
        for attr, found in seen.items():
            if PARAMETER in found or UNSURE in found:
                kinds[attr] = UNSURE if UNSURE in found else PARAMETER
            elif len(found) == 1:
                kinds[attr] = found.pop()
            else:
                kinds[attr] = VALUE if LIST not in found and DICT not in found else UNSURE
        self._kinds = (kinds, dynamic)
        return self._kinds

    def creates_trainable_parameters(self, facts_of: Callable[[nodes.ClassDef], ClassFacts]) -> bool:
        """Whether constructing the class certainly creates trainable parameters: it
        derives from a parameterised MindSpore layer, or its ``__init__`` (or a user
        base's) creates a Parameter that stays trainable, a parameterised layer, or a
        user Cell that does. Unsure: False."""
        return self._creates_parameters(facts_of, set())

    def _creates_parameters(self, facts_of, seen: set[nodes.ClassDef]) -> bool:
        if self.cls in seen or len(seen) > 50:
            return False
        seen.add(self.cls)
        if self.external & apis.PARAMETERIZED_CELLS:
            return True
        for body in self.bodies:
            for call, method in body.init_calls:
                qname = resolve.qualified_name(call.func)
                if qname in apis.PARAMETER_CLASSES:
                    if requires_grad(call) is True and not body.frozen(call, method, self.frozen_self):
                        return True
                elif qname is not None and builds_parameters(call, qname):
                    return True
                elif qname is None or not resolve.is_external(qname):
                    inner = resolve.user_class_of_call(call)
                    if inner is not None and inner is not self.cls and facts_of(inner)._creates_parameters(facts_of, seen):
                        return True
        return False


def value_kind(value: nodes.NodeNG | None) -> str:  # noqa: C901 - one case per value form
    """What assigning ``value`` to an attribute makes it: a Parameter, a list, a dict,
    another known value, or unsure."""
    if value is None:
        return UNSURE
    if isinstance(value, (nodes.List, nodes.ListComp)):
        return LIST
    if isinstance(value, (nodes.Dict, nodes.DictComp)):
        return DICT
    if isinstance(value, (nodes.Const, nodes.Tuple, nodes.JoinedStr, nodes.Set)):
        return VALUE
    if isinstance(value, (nodes.BinOp, nodes.UnaryOp, nodes.Compare, nodes.BoolOp)):
        kinds = {value_kind(child) for child in value.get_children() if not isinstance(child, nodes.Const)}
        return VALUE if kinds <= {VALUE} else UNSURE
    if isinstance(value, nodes.Call):
        qname = resolve.qualified_name(value.func) if isinstance(value.func, (nodes.Name, nodes.Attribute)) else None
        if qname is None:
            return UNSURE
        if qname in apis.PARAMETER_CLASSES:
            return PARAMETER
        if qname in apis.LIST_FACTORIES:
            return LIST
        if qname in apis.DICT_FACTORIES:
            return DICT
        if qname == "mindspore.Tensor" or qname in apis.PYTHON_SCALAR_BUILTINS or is_op_function(qname):
            return VALUE  # ops.ones(...): a tensor, not a Parameter
        return UNSURE
    return UNSURE


# ---------------------------------------------------------------------------
# Branches that are never compiled
# ---------------------------------------------------------------------------


def truth(test: nodes.NodeNG, facts: ClassFacts | None) -> bool | None:  # noqa: C901 - one case per form
    """Whether a condition is constant True or False in graph code (a literal, a
    ``self`` attribute that always holds one, ``not``, ``is None``, ``==``, and/or of
    those); None when it is not constant."""
    if isinstance(test, nodes.Const):
        return bool(test.value)
    if isinstance(test, nodes.Attribute) and facts is not None:
        attr = astutil.self_attribute(test)
        value = facts.constant(attr) if attr is not None else astutil.UNKNOWN
        return None if value is astutil.UNKNOWN else bool(value)
    if isinstance(test, nodes.UnaryOp) and test.op == "not":
        inner = truth(test.operand, facts)
        return None if inner is None else not inner
    if isinstance(test, nodes.BoolOp):
        results = [truth(value, facts) for value in test.values]
        if test.op == "and":
            return False if False in results else (True if all(r is True for r in results) else None)
        return True if True in results else (False if all(r is False for r in results) else None)
    if isinstance(test, nodes.Compare) and len(test.ops) == 1:
        operator, right = test.ops[0]
        left_value, right_value = _constant_of(test.left, facts), _constant_of(right, facts)
        if left_value is astutil.UNKNOWN or right_value is astutil.UNKNOWN:
            return None
        comparisons = {
            "is": lambda a, b: a is b, "is not": lambda a, b: a is not b,
            "==": lambda a, b: a == b, "!=": lambda a, b: a != b,
        }
        compare = comparisons.get(operator)
        return None if compare is None else bool(compare(left_value, right_value))
    return None


def _constant_of(node: nodes.NodeNG, facts: ClassFacts | None) -> object:
    if isinstance(node, nodes.Const):
        return node.value
    attr = astutil.self_attribute(node) if isinstance(node, nodes.Attribute) else None
    if attr is not None and facts is not None:
        return facts.constant(attr)
    return astutil.UNKNOWN


def never_compiled(node: nodes.NodeNG, facts_of: Callable[[nodes.ClassDef], ClassFacts]) -> bool:
    """Whether ``node`` sits where graph mode never compiles it: a branch of an
    ``if`` (or ``x if c else y``) on a constant condition that is not taken, or an
    operand after a constant False in ``and`` (True in ``or``). MindSpore folds the
    condition and compiles only the branch taken. ``facts_of`` gives the class
    table of the enclosing class (``if self.flag:``)."""
    cls = astutil.enclosing_class(node)
    facts = facts_of(cls) if cls is not None else None
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, (nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)):
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            taken = truth(parent.test, facts)
            in_body = child is parent.body if isinstance(parent, nodes.IfExp) else child in parent.body
            if taken is not None and taken != in_body:
                return True
        elif isinstance(parent, nodes.BoolOp) and child in parent.values:
            stop = parent.op == "or"
            for value in parent.values[: parent.values.index(child)]:
                if truth(value, facts) is stop:
                    return True
        child, parent = parent, parent.parent
    return False


# ---------------------------------------------------------------------------
# Code that runs only for inference
# ---------------------------------------------------------------------------


def training_test(test: nodes.NodeNG) -> bool | None:
    """True for a test that holds while the Cell trains (``self.training``), False for
    one that holds while it does not (``not self.training``), None for others."""
    if isinstance(test, nodes.UnaryOp) and test.op == "not":
        inner = training_test(test.operand)
        return None if inner is None else not inner
    return True if astutil.self_attribute(test) in apis.TRAINING_FLAGS else None


def inference_only(node: nodes.NodeNG, facts_of: Callable[[nodes.ClassDef], ClassFacts]) -> bool:
    """Whether ``node`` runs only while its Cell is not training, so nothing there is
    differentiated: in the branch of ``if self.training:`` not taken while training
    (``if not self.training:``, the ``else``), after ``if self.training: ... return``,
    or in a method whose every ``self.<method>(...)`` call is such code (evaluation
    post-processing: NMS, boxes to numpy)."""
    return _inference_only(node, facts_of, set(), 0)


# Methods followed up through their callers: a deeper chain of self.<method>(...)
# calls is judged as training code (unsure: the rules speak).
_INFERENCE_CALLER_DEPTH = 16


def _inference_only(node: nodes.NodeNG, facts_of, seen: set, depth: int) -> bool:
    child, parent = node, node.parent
    while parent is not None and not isinstance(parent, (nodes.Lambda, nodes.ClassDef)):
        if child.is_statement and _after_training_return(child, parent):
            return True
        if isinstance(parent, nodes.FunctionDef):
            break
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            training = training_test(parent.test)
            in_body = child is parent.body if isinstance(parent, nodes.IfExp) else child in parent.body
            if training is not None and training != in_body:
                return True
        child, parent = parent, parent.parent
    if not isinstance(parent, nodes.FunctionDef) or not isinstance(parent.parent, nodes.ClassDef) or parent in seen:
        return False
    if depth >= _INFERENCE_CALLER_DEPTH:
        return False
    seen.add(parent)
    callers = facts_of(parent.parent).self_calls(parent.name)
    return bool(callers) and all(_inference_only(call, facts_of, seen, depth + 1) for call in callers)


def _after_training_return(statement: nodes.NodeNG, parent: nodes.NodeNG) -> bool:
    """Whether ``statement`` follows, in the same block, ``if self.training:`` whose
    body ends in ``return`` or ``raise``: it runs only when not training."""
    for field in ("body", "orelse", "finalbody"):
        block = getattr(parent, field, None)
        if isinstance(block, list) and statement in block:
            break
    else:
        return False
    for earlier in block[: block.index(statement)]:
        if (
            isinstance(earlier, nodes.If)
            and training_test(earlier.test) is True
            and not earlier.orelse
            and isinstance(earlier.body[-1], (nodes.Return, nodes.Raise))
        ):
            return True
    return False


# ---------------------------------------------------------------------------
# Values that flow with construction
# ---------------------------------------------------------------------------
# A value written at a construction site reaches the layer built in ``__init__``:
# ``Block(64, drop=0.1)`` gives ``drop`` in ``def __init__(self, c, drop=0.)`` the
# value 0.1, which ``self.drop = nn.Dropout(drop)`` then gets. The sites of a
# function are found in the project (mslint.analysis.sites); one site may itself read
# a parameter of its caller, followed up to _FLOW_DEPTH callers.

_FLOW_DEPTH = 5
# ways one function is reached, at most (the product of the sites along a chain)
_FLOW_WAYS = 64


class Received(NamedTuple):
    """One value an expression takes, and where it is written."""

    value: object  # a constant, or UNKNOWN
    site: nodes.Call | None  # the call that passes it (None: written where it is read, or a default)
    written: nodes.NodeNG | None  # the expression that holds it as written (an argument, a default)
    # None: what the program passes; else a guess read from a caller's default:
    # _UNREACHED (no call of that caller in sight: how mslint judges code nothing
    # builds) or _UNFOLLOWED (its callers were not followed: past _FLOW_DEPTH, a cycle)
    guess: str | None = None


# {parameter name: what it receives} for one way a function is called; under
# _EXTRA_POSITIONAL, the Received of the arguments its ``*args`` collects (a tuple),
# under _EXTRA_KEYWORDS those of its ``**kwargs`` (a dict), when all are known; under
# _REACHED, whether the way starts in code that runs (a module's or a script's own
# code), not in a function no call in sight reaches (whose parameters then read
# their defaults: how mslint judges code nothing builds)
_Way = dict
_EXTRA_POSITIONAL, _EXTRA_KEYWORDS, _REACHED = "*", "**", "->"  # no parameter's name
# an entry of _EXTRA_KEYWORDS saying that more keywords than those known may be
# there (a ``functools.partial`` binds some; its calls, out of sight, add others)
_OPEN_KEYWORDS = "**?"
# an entry of _EXTRA_KEYWORDS saying that the keywords are those of a function no
# call in sight reaches (none: ``def densenet161(**kwargs): return DenseNet(...,
# **kwargs)`` judged by its defaults), its Received carrying that guess
_UNSEEN_KEYWORDS = "**0"
# the guesses a value may rest on (Received.guess), and the ``defaults`` of
# _evaluate that make them: a parameter reads its default because no call of its
# function is in sight (True: _UNREACHED), or because its callers were not followed
_UNREACHED, _UNFOLLOWED = "unreached", "unfollowed"
_EVERY_GUESS = frozenset({_UNREACHED, _UNFOLLOWED})


def received(expr: nodes.NodeNG) -> list[Received] | None:
    """The values ``expr`` takes, one per way its code is reached in the project:
    a constant (a literal, a module constant, a name bound once to one, a key of a
    module-level config mapping) is one value; a parameter of ``__init__`` takes
    what each construction of the class passes (``super().__init__(...)`` of a
    subclass counts, followed to that subclass's constructions), the default
    where a site leaves it out; a parameter of a module function or a method,
    what each of its calls passes; ``self.x`` assigned once in ``__init__``, what
    that assignment's value takes. A way whose ``if`` guards around ``expr``
    are false there (``if drop > 0.:`` where the site passes 0) builds nothing
    and is left out: ``[]`` when no way reaches ``expr``. None when nothing is
    known (no call in sight)."""
    found = received_together([expr])
    return None if found is None else [values[0] for values in found]


def received_at(expr: nodes.NodeNG, call: nodes.Call) -> list[Received] | None:
    """:func:`received` for the one way ``call`` runs the function holding ``expr``
    (a construction of the class whose ``__init__`` it is, a call of the function):
    ``[]`` when a guard around ``expr`` is false in that way; None when ``expr`` is
    not in a function."""
    func = expr.frame()
    if not isinstance(func, nodes.FunctionDef):
        return None
    skips_self = isinstance(func.parent, nodes.ClassDef) and astutil.is_bound_method(func)
    way = _way_of_call(call, func, skips_self, None, call.frame(), 0, False)
    if _guards_hold(expr, func, way) is False:
        return []
    return [_evaluate(expr, way, func, 0)]


def received_together(exprs: list[nodes.NodeNG]) -> list[tuple[Received, ...]] | None:
    """:func:`received` for several expressions of one function (the arguments of
    one call), read in the same ways: one tuple per way, in the order of ``exprs``."""
    anchor = exprs[0]
    func = anchor.frame()
    direct = tuple(_evaluate(expr, None, func, 0) for expr in exprs)
    known = all(value.value is not astutil.UNKNOWN for value in direct)
    if known and not (isinstance(func, nodes.FunctionDef) and _guarded(anchor, func)):
        return [direct]
    if not isinstance(func, nodes.FunctionDef):
        return None
    ways = _ways(func, 0)
    if ways is None:
        return [direct] if known else None
    if known:  # a constant under a guard: built in the ways whose guard holds
        return [direct] if any(_guards_hold(anchor, func, way) is not False for way in ways) else []
    return [
        tuple(_evaluate(expr, way, func, 0) for expr in exprs)
        for way in ways
        if _guards_hold(anchor, func, way) is not False
    ]


def classes_named(expr: nodes.NodeNG, depth: int = 0) -> list[str | None] | None:
    """The qualified names of what ``expr`` names, one per way its code is reached:
    a name written there (``nn.BatchNorm2d``), or, for a parameter of its function
    (``norm_layer`` in ``def block(c, norm_layer=nn.BatchNorm2d)``), what each
    call in sight passes, the default where a call leaves it out (or where no call
    is in sight), followed through the callers' own parameters;
    ``functools.partial(cls, ...)`` names ``cls``. A None entry is a way whose
    value mslint cannot name; None when nothing is known."""
    qname = resolve.qualified_name(expr) if isinstance(expr, (nodes.Name, nodes.Attribute)) else None
    if qname is not None:
        return [qname]
    if isinstance(expr, nodes.Call) and expr.args and isinstance(expr.func, (nodes.Name, nodes.Attribute)) \
            and resolve.qualified_name(expr.func) == sites.PARTIAL:
        return classes_named(expr.args[0], depth + 1)
    replaced = _defaulted_in_place(expr)
    if replaced is not None and depth <= _FLOW_DEPTH:
        return _classes_of_defaulted(expr, replaced, depth)
    if depth > _FLOW_DEPTH or _parameter_read(expr) is None:
        return None
    flows = received(expr)
    if flows is None:  # no call in sight: how mslint judges code nothing builds
        found = parameter_default(expr)
        return classes_named(found[1], depth + 1) if found is not None else None
    named: list[str | None] = []
    for flow in flows:
        inner = classes_named(flow.written, depth + 1) if flow.written not in (None, expr) else None
        named.extend(inner if inner else [None])
    return named


def _defaulted_in_place(name: nodes.NodeNG) -> nodes.NodeNG | None:
    """``X`` when ``name`` reads a parameter that its function rebinds only in
    ``if <param> is None: <param> = X`` (a statement of the function's body, without
    ``else``, before the read): a None default filled in where it is used
    (``act_layer=None`` then ``act_layer = nn.ReLU6``)."""
    if not isinstance(name, nodes.Name):
        return None
    func = name.frame()
    if not isinstance(func, nodes.FunctionDef):
        return None
    bound = func.locals.get(name.name, ())
    if len(bound) != 2 or not isinstance(bound[0].parent, nodes.Arguments):
        return None
    target = bound[1]
    assign = target.parent
    guard = assign.parent if isinstance(assign, nodes.Assign) else None
    if not (isinstance(guard, nodes.If) and guard.parent is func and not guard.orelse
            and assign.targets == [target] and guard.lineno < (name.lineno or 0)):
        return None
    test = guard.test
    if not (isinstance(test, nodes.Compare) and isinstance(test.left, nodes.Name) and test.left.name == name.name
            and len(test.ops) == 1 and test.ops[0][0] == "is"
            and isinstance(test.ops[0][1], nodes.Const) and test.ops[0][1].value is None):
        return None
    return assign.value


def _classes_of_defaulted(name: nodes.Name, replacement: nodes.NodeNG, depth: int) -> list[str | None] | None:
    """classes_named of a parameter filled in by ``if p is None: p = X``: what each
    call in sight passes, ``X`` where that is None (or the default None)."""
    func = name.frame()
    param = func.locals[name.name][0]
    ways = _ways(func, 0)
    if ways is None:  # no call in sight: the default, how mslint judges code nothing builds
        default = astutil.default_of(func.args, param)
        written = [default]
    else:
        written = [way[name.name].written if way.get(name.name) is not None else _NOT_PASSED for way in ways]
    named: list[str | None] = []
    for expr in written:
        if expr is _NOT_PASSED:
            named.append(None)
            continue
        if expr is None or isinstance(expr, nodes.Const) and expr.value is None:
            expr = replacement
        inner = classes_named(expr, depth + 1)
        named.extend(inner if inner else [None])
    return named


_NOT_PASSED = object()  # a way that gives the parameter nothing mslint can read


def never_runs(node: nodes.NodeNG) -> bool:
    """Whether ``node`` sits under a guard of its function (``if``, ``a if c else
    b``) that every way the function is called in sight makes false: ``if not
    requires_grad:`` in an ``__init__`` every construction passes True to,
    ``nn.Sequential(...) if not glu else GEGLU(...)`` where every site passes
    ``glu=True``. That code never runs, so nothing in it builds a layer or fails.

    A way that starts in code that runs counts by what it passes; a way from a
    caller no call in sight reaches counts by that caller's defaults (as mslint
    judges code nothing builds), but when no way starts in code that runs, such
    defaults prove nothing and only what the sites write counts. False when no
    call of the function is in sight (a library's code: it may be called either
    way), when one way takes the branch, or when a way's guard cannot be read or
    rests on a caller past those followed."""
    func = node.frame()
    if not isinstance(func, nodes.FunctionDef) or not _guarded(node, func):
        return False
    ways = _ways(func, 0)
    dropped = _DROPPED_ON.get(func, frozenset())
    if not ways or _UNFOLLOWED in dropped:
        return False  # no call in sight, or ways left out on a guess
    reached = any(way.get(_REACHED) for way in ways)
    if not reached and _UNREACHED in dropped:
        return False
    return all(_guards_hold(node, func, way, _unproven(way, reached)) is False for way in ways)


def never_runs_as_built(node: nodes.NodeNG, defaults: bool = True) -> bool:
    """Whether ``node``, in a method other than ``__init__``, sits under a guard
    (``if``, ``a if c else b``) on ``self`` attributes that ``__init__`` assigns
    once from what it is given (``self.method = method``), which every
    construction of the class in sight makes false, or, where no construction is
    in sight, the ``__init__`` defaults do: ``if self.method == "special":`` in a
    class built with ``method=""`` only (or nowhere, with that default). The
    test may read only such attributes and constants. False when a construction
    takes the branch, one cannot be read, or its value rests on a guess.
    Without ``defaults``, a class no construction in sight builds (a library's:
    it may be built either way) does not count by its defaults: False."""
    found = astutil.enclosing_method(node)
    if found is None or found[0].name == "__init__":
        return False  # __init__'s own guards: never_runs
    method = found[0]
    child, parent = node, node.parent
    while parent is not None and parent is not method:
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            in_body = child is parent.body if isinstance(parent, nodes.IfExp) else child in parent.body
            if _off_as_built(parent.test, in_body, defaults):
                return True
        child, parent = parent, parent.parent
    return False


def no_child_matches(node: nodes.NodeNG) -> bool:
    """Whether ``node`` sits under ``if isinstance(m, X):`` (a conjunct of its
    test) in ``for m in self.cells():`` of a Cell's method, and no direct child
    the Cell can hold when that loop runs is an X: ``cells()`` yields the direct
    children only, so a loop meant for PyTorch's ``modules()`` over wrapper
    Cells never takes the branch. The loop runs in ``__init__``, or in a method
    only ``__init__`` calls (mslint.analysis.sites.runs_only_in_init); the
    children are the ``self.<name> = value`` of ``__init__`` and of the methods
    it calls on ``self``, each a construction of a project class whose bases
    are Cell itself (and no X among them), of a MindSpore container or
    primitive (apis.NEVER_A_LAYER_SUBCLASS), or a value that is no Cell (a
    number, a string, arithmetic; a parameter every way in sight gives such a
    constant), or a call of a project function every ``return`` of which gives
    such a value (``make_layers(cfg)`` ending in ``return nn.SequentialCell(*layers)``). False when anything is unknown: a child of another kind,
    ``setattr``/``insert_child_to_cell`` in ``__init__``, an X mslint cannot name."""
    found = _child_loop_guard(node)
    if found is None:
        return False
    loop, classes = found
    method = loop.frame()
    cls = method.parent if isinstance(method, nodes.FunctionDef) else None
    if not isinstance(cls, nodes.ClassDef) or not method.args.args or method.args.args[0].name != "self":
        return False
    user, external = resolve.class_hierarchy(cls)
    init = astutil.own_method(cls, "__init__")
    if len(user) != 1 or not external <= apis.CELL_ROOT_CLASSES or init is None:
        return False
    if not sites.runs_only_in_init(cls, method):
        return False
    children = _children_assigned(cls, init)
    if children is None:
        return False
    return all(_never_an_instance(value, classes) for value in children)


def _child_loop_guard(node: nodes.NodeNG) -> tuple[nodes.For, tuple[tuple[nodes.ClassDef | None, str | None], ...]] | None:
    """(the ``for m in self.cells():`` loop, the classes X named) for ``node`` in
    the body of ``if isinstance(m, X)`` (or ``isinstance(m, X) and ...``) within it."""
    child, parent = node, node.parent
    guard = None
    while parent is not None and not isinstance(parent, (nodes.FunctionDef, nodes.ClassDef, nodes.Module)):
        if isinstance(parent, nodes.If) and child in parent.body:
            tested = _isinstance_tested(parent.test)
            if tested is not None:
                guard = tested
        if isinstance(parent, nodes.For) and guard is not None and child in parent.body:
            name, classes = guard
            target, iterable = parent.target, parent.iter
            if not (isinstance(target, nodes.AssignName) and target.name == name):
                return None
            if not (isinstance(iterable, nodes.Call) and not iterable.args and not iterable.keywords
                    and isinstance(iterable.func, nodes.Attribute) and iterable.func.attrname == "cells"
                    and astutil.is_self(iterable.func.expr)):
                return None
            frame = parent.frame()
            if len(frame.locals.get(name, ())) != 1:
                return None  # the loop variable rebound elsewhere
            return parent, classes
        child, parent = parent, parent.parent
    return None


def _isinstance_tested(test: nodes.NodeNG) -> tuple[str, tuple] | None:
    """(m, the classes) for ``isinstance(m, X)``, ``isinstance(m, (X, Y))``, or
    such a test as a conjunct of ``and``."""
    if isinstance(test, nodes.BoolOp) and test.op == "and":
        for value in test.values:
            found = _isinstance_tested(value)
            if found is not None:
                return found
        return None
    if not (isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "isinstance"
            and len(test.args) == 2 and not test.keywords and isinstance(test.args[0], nodes.Name)):
        return None
    named = test.args[1]
    parts = named.elts if isinstance(named, nodes.Tuple) else [named]
    classes = []
    for part in parts:
        if not isinstance(part, (nodes.Name, nodes.Attribute)):
            return None
        cls, qname = resolve.class_named(part)
        if cls is None and qname is None:
            return None
        classes.append((cls, resolve.canonical(qname) if qname else None))
    return test.args[0].name, tuple(classes)


_CHILD_DEPTH = 3  # methods __init__ calls on self, followed


def _children_assigned(cls: nodes.ClassDef, init: nodes.FunctionDef) -> list[nodes.NodeNG] | None:
    """The values ``__init__`` (and the methods it calls on ``self``) assigns to
    ``self`` attributes; None when it may add children another way."""
    values_found: list[nodes.NodeNG] = []
    pending, seen = [(init, 0)], set()
    while pending:
        func, depth = pending.pop()
        if func in seen:
            continue
        seen.add(func)
        for part in func.nodes_of_class((nodes.Call, nodes.AssignAttr, nodes.Attribute, nodes.Name)):
            if isinstance(part, nodes.Name) and part.name in ("setattr", "vars"):
                return None
            if isinstance(part, nodes.Attribute) and part.attrname in _CHILD_ADDERS:
                return None
            if isinstance(part, nodes.Call) and isinstance(part.func, nodes.Attribute) and astutil.is_self(part.func.expr):
                called = astutil.own_method(cls, part.func.attrname)
                if called is not None and depth < _CHILD_DEPTH:
                    pending.append((called, depth + 1))
            if isinstance(part, nodes.AssignAttr) and astutil.is_self(part.expr):
                statement = part.parent
                if isinstance(statement, nodes.Assign) and statement.targets == [part]:
                    values_found.append(statement.value)
                elif isinstance(statement, nodes.Tuple) and isinstance(statement.parent, nodes.Assign) \
                        and statement.parent.targets == [statement] and isinstance(statement.parent.value, nodes.Tuple) \
                        and len(statement.parent.value.elts) == len(statement.elts):
                    values_found.append(statement.parent.value.elts[statement.elts.index(part)])
                else:
                    return None  # augmented, annotated, unpacked from a call
    return values_found


_CHILD_ADDERS = frozenset({"insert_child_to_cell", "_cells", "__dict__", "__setattr__"})


def _never_an_instance(value: nodes.NodeNG, classes: tuple, depth: int = 0) -> bool:
    """Whether ``value``, assigned to a ``self`` attribute, is never an instance
    of any of ``classes`` ((ClassDef, None) or (None, qname) pairs)."""
    if depth > _FLOW_DEPTH:
        return False
    if isinstance(value, (nodes.Const, nodes.BinOp, nodes.UnaryOp, nodes.Compare, nodes.JoinedStr)):
        return True
    if isinstance(value, nodes.BoolOp):
        return all(_never_an_instance(part, classes, depth + 1) for part in value.values)
    if isinstance(value, nodes.IfExp):
        return _never_an_instance(value.body, classes, depth + 1) and _never_an_instance(value.orelse, classes, depth + 1)
    if isinstance(value, (nodes.List, nodes.Tuple)):
        return all(isinstance(part, nodes.Const) for part in value.elts)
    if isinstance(value, nodes.Call):
        helper = resolve.project_callee(value.func)
        if helper is not None:
            return _helper_never_returns(helper, classes, depth + 1)
        return all(_class_never(found, classes) for found in _callee_classes(value.func, depth))
    if isinstance(value, nodes.Subscript):
        return _holds_constants(value.value, depth + 1)  # ``embed_dims[0]`` of a list of numbers
    if isinstance(value, nodes.Name):
        flows = received(value)
        if flows is None:
            found = parameter_default(value)
            return found is not None and _never_an_instance(found[1], classes, depth + 1)
        return bool(flows) and all(
            (flow.value is not astutil.UNKNOWN and _plain_constant(flow.value))
            or (flow.written is not None and flow.written is not value and _never_an_instance(flow.written, classes, depth + 1))
            for flow in flows)
    return False


def _helper_never_returns(helper: nodes.FunctionDef, classes: tuple, depth: int) -> bool:
    """Whether every value the project function ``helper`` returns is never an
    instance of any of ``classes``: ``return nn.SequentialCell(*layers)`` of a
    ``make_layers(cfg)``. A plain function only (no decorator, no generator, no
    coroutine), with at least one ``return`` of its own; a bare ``return`` or the
    end of its body gives None, no Cell."""
    if depth > _FLOW_DEPTH or helper.decorators is not None or isinstance(helper, nodes.AsyncFunctionDef) \
            or helper.is_generator() or isinstance(helper.parent, nodes.ClassDef):
        return False
    returns = [ret for ret in helper.nodes_of_class(nodes.Return) if ret.scope() is helper]
    return bool(returns) and all(
        ret.value is None or _never_an_instance(ret.value, classes, depth + 1) for ret in returns)


def _holds_constants(container: nodes.NodeNG, depth: int) -> bool:
    """Whether ``container`` is, in every way in sight, a list or tuple of plain
    constants (a literal, or a parameter every way gives one: its default where
    no call is in sight)."""
    if depth > _FLOW_DEPTH:
        return False
    if isinstance(container, (nodes.List, nodes.Tuple)):
        return all(isinstance(part, nodes.Const) for part in container.elts)
    if not isinstance(container, nodes.Name):
        return False
    flows = received(container)
    if flows is None:
        found = parameter_default(container)
        return found is not None and _holds_constants(found[1], depth + 1)
    return bool(flows) and all(
        (flow.value is not astutil.UNKNOWN and isinstance(flow.value, (list, tuple)) and _plain_constant(flow.value))
        or (flow.written is not None and flow.written is not container and _holds_constants(flow.written, depth + 1))
        for flow in flows)


def _plain_constant(value: object) -> bool:
    if isinstance(value, (list, tuple)):
        return all(_plain_constant(part) for part in value)
    return value is None or isinstance(value, (bool, int, float, str))


def _callee_classes(func: nodes.NodeNG, depth: int) -> list[tuple[nodes.ClassDef | None, str | None]]:
    """The classes a callee can be, one or more per way (a parameter: what each
    way passes, else its default); (None, None) where one is unknown."""
    if depth > _FLOW_DEPTH or not isinstance(func, (nodes.Name, nodes.Attribute)):
        return [(None, None)]
    if _parameter_read(func) is not None:
        flows = received(func)
        if flows is None:
            found = parameter_default(func)
            return _callee_classes(found[1], depth + 1) if found is not None else [(None, None)]
        if not flows:
            return [(None, None)]
        return [found for flow in flows for found in (
            _callee_classes(flow.written, depth + 1) if flow.written is not None and flow.written is not func
            else [(None, None)])]
    cls, qname = resolve.class_named(func)
    return [(cls, resolve.canonical(qname) if qname else None)]


def _class_never(found: tuple[nodes.ClassDef | None, str | None], classes: tuple) -> bool:
    """Whether an instance of ``found`` is never an instance of one of ``classes``."""
    cls, qname = found
    if cls is not None:
        user, external = resolve.class_hierarchy(cls)
        if not external <= apis.CELL_ROOT_CLASSES | {"builtins.object"}:
            return False  # a MindSpore layer below it may be one of them
        keys = {id(member) for member in user}
        return not any(
            (named is not None and id(named) in keys) or (named_q is not None and named_q in external)
            for named, named_q in classes)
    if qname is None:
        return False
    if any(named_q == qname for _, named_q in classes):
        return False
    if any(named is not None for named, _ in classes):
        return True  # a MindSpore class is no project class
    if qname.startswith(apis.PRIMITIVE_PACKAGE) and qname.rpartition(".")[2][:1].isupper():
        return True  # a Primitive: no Cell, cells() never yields it
    return qname in apis.NEVER_A_LAYER_SUBCLASS and not any(
        named_q in apis.CELL_ROOT_CLASSES for _, named_q in classes)


def _off_as_built(test: nodes.NodeNG, in_body: bool, defaults: bool = True) -> bool:
    init = _init_read_by(test)
    if init is None:
        return _off_as_assigned(test, in_body, defaults)
    built = _built_ways(init, defaults)
    if built is None:
        return False
    ways, reached = built
    for way in ways:
        taken = _truth(test, way, init, _unproven(way, reached) if reached else _EVERY_GUESS)
        if taken is None or taken == in_body:
            return False
    return True


def _built_ways(init: nodes.FunctionDef, defaults: bool = True) -> tuple[list[_Way], bool] | None:
    """The ways ``init`` runs, and whether one starts in code that runs: the
    constructions in sight, else (with ``defaults``) its defaults, as mslint
    judges code nothing builds; None when some ways were left out on a guess,
    or when nothing is in sight and ``defaults`` is False."""
    ways = _ways(init, 0)
    if ways is None and not defaults:
        return None
    if ways is None:  # no construction in sight: its defaults, as mslint judges code nothing builds
        return [{
            param.name: Received(constant(default), None, default) if default is not None else Received(astutil.UNKNOWN, None, None)
            for param in astutil.all_params(init)
            for default in [astutil.default_of(init.args, param)]
        }], True
    dropped = _DROPPED_ON.get(init, frozenset())
    if not ways or _UNFOLLOWED in dropped:
        return None
    reached = any(way.get(_REACHED) for way in ways)
    if not reached and _UNREACHED in dropped:
        return None
    return ways, reached


def _off_as_assigned(test: nodes.NodeNG, in_body: bool, defaults: bool = True) -> bool:
    """_off_as_built for a test of one ``self`` attribute (and constants) that
    several ``__init__`` of the class's hierarchy and subclasses assign (a base's
    ``self.pool = "max"``, a subclass's ``self.pool = pool`` after
    ``super().__init__()``): the attribute ends up holding what one of them
    assigns, so the branch never runs when no value any of them gives in any way
    it is built takes it."""
    attrs: set[str] = set()
    anchor = None
    for part in test.nodes_of_class(nodes.NodeNG):
        if isinstance(part, nodes.Attribute):
            attr = astutil.self_attribute(part)
            if attr is None:
                return False
            attrs.add(attr)
            anchor = part
        elif isinstance(part, nodes.Name):
            if not (part.name == "self" and isinstance(part.parent, nodes.Attribute) and part.parent.expr is part):
                return False
        elif not isinstance(part, (nodes.Const, nodes.Compare, nodes.BoolOp, nodes.UnaryOp)) or (
                isinstance(part, nodes.UnaryOp) and not _test_unary(part)):
            return False
    if len(attrs) != 1 or anchor is None:
        return False
    (attr,) = attrs
    assigned = _init_assignments(anchor, attr)
    if not assigned:
        return False
    held: list[object] = []
    for value in assigned:
        init = value.frame()
        direct = _evaluate(value, None, init, 0)
        if direct.value is not astutil.UNKNOWN and direct.guess is None:
            held.append(direct.value)  # a constant, whatever the construction passes
            continue
        built = _built_ways(init, defaults)
        if built is None:
            return False
        ways, reached = built
        for way in ways:
            found = _evaluate(value, way, init, 0)
            if found.value is astutil.UNKNOWN or found.guess in (_unproven(way, reached) if reached else _EVERY_GUESS):
                return False
            held.append(found.value)
    for one in held:
        def value_of(expr: nodes.NodeNG, one: object = one) -> object:
            return astutil.literal(expr, lambda node: one if astutil.self_attribute(node) == attr else astutil.UNKNOWN)

        taken = _truth_given(test, value_of)
        if taken is None or taken == in_body:
            return False
    return True


def _init_assignments(node: nodes.NodeNG, attr: str) -> list[nodes.NodeNG] | None:
    """The values of every ``self.<attr> = value`` in the class of ``node``, its user
    bases and their subclasses in those modules, when each is a plain assignment
    made directly in an ``__init__`` of one of those classes; None otherwise."""
    cls = astutil.enclosing_class(node)
    if cls is None:
        return None
    user, _ = resolve.class_hierarchy(cls)
    found = [
        target for module in {klass.root() for klass in user} for target in _self_assignments(module).get(attr, ())
        if _related(astutil.enclosing_class(target), cls, user)
    ]
    assigned = []
    for target in found:
        statement, method = target.parent, target.frame()
        if not (isinstance(statement, nodes.Assign) and statement.targets == [target]):
            return None
        if not (isinstance(method, nodes.FunctionDef) and method.name == "__init__"
                and _related(method.parent if isinstance(method.parent, nodes.ClassDef) else None, cls, user)):
            return None
        assigned.append(statement.value)
    return assigned


def _truth_given(test: nodes.NodeNG, value_of: Callable[[nodes.NodeNG], object]) -> bool | None:
    """The truth of a test (``not``, ``and``/``or``, one comparison) whose other
    parts have the values ``value_of`` gives (astutil.UNKNOWN when unknown); None
    when unknown."""
    if isinstance(test, nodes.UnaryOp) and test.op == "not":
        inner = _truth_given(test.operand, value_of)
        return None if inner is None else not inner
    if isinstance(test, nodes.BoolOp):
        results = [_truth_given(value, value_of) for value in test.values]
        stop = test.op == "or"
        if stop in results:
            return stop
        return None if None in results else not stop
    if isinstance(test, nodes.Compare) and len(test.ops) == 1:
        operator, right = test.ops[0]
        left_value, right_value = value_of(test.left), value_of(right)
        compare = _COMPARISONS.get(operator)
        if compare is None or astutil.UNKNOWN in (left_value, right_value):
            return None
        if _NOT_NONE in (left_value, right_value) and (
                operator not in ("is", "is not") or None not in (left_value, right_value)):
            return None  # only its identity with None is known
        try:
            return bool(compare(left_value, right_value))
        except TypeError:
            return None
    value = value_of(test)
    return None if value is astutil.UNKNOWN or value is _NOT_NONE else bool(value)


def _test_unary(node: nodes.UnaryOp) -> bool:
    """``not ...``, or the sign of a number literal (``-1``: a UnaryOp over Const 1)."""
    return node.op == "not" or (
        node.op in ("-", "+") and isinstance(node.operand, nodes.Const)
        and isinstance(node.operand.value, (int, float)) and not isinstance(node.operand.value, bool)
    )


def _init_read_by(test: nodes.NodeNG) -> nodes.FunctionDef | None:
    """The ``__init__`` that assigns every ``self`` attribute ``test`` reads, when
    the test reads only such attributes and constants (through ``not``, signed numbers,
    ``and``/``or`` and one comparison); None otherwise."""
    allowed = (nodes.Const, nodes.Compare, nodes.BoolOp, nodes.UnaryOp, nodes.Attribute, nodes.Name)
    inits: set[nodes.FunctionDef] = set()
    for part in test.nodes_of_class(nodes.NodeNG):
        if not isinstance(part, allowed) or (isinstance(part, nodes.UnaryOp) and not _test_unary(part)):
            return None
        if isinstance(part, nodes.Name):
            if not (part.name == "self" and isinstance(part.parent, nodes.Attribute) and part.parent.expr is part):
                return None
        elif isinstance(part, nodes.Attribute):
            attr = astutil.self_attribute(part)
            assigned = _init_assignment(part, attr) if attr is not None else None
            if assigned is None:
                return None
            inits.add(assigned.frame())
    if len(inits) != 1:
        return None
    (init,) = inits
    return init if isinstance(init, nodes.FunctionDef) else None


def _unproven(way: _Way, reached: bool) -> frozenset[str]:
    """The guesses that prove nothing about a way's guards: a default read past the
    callers followed never does; the default of a caller nothing in sight calls
    does only for that caller's own ways, and only beside ways from code that runs
    (mslint judges code nothing builds with its defaults; alone, they prove nothing)."""
    return frozenset({_UNFOLLOWED}) if reached and not way.get(_REACHED) else _EVERY_GUESS


def _evaluate(
    expr: nodes.NodeNG, way: _Way | None, func: nodes.NodeNG, depth: int, defaults: bool | str = False,
) -> Received:
    """The value of ``expr`` in ``func`` called in one way (None: no call in
    sight; with ``defaults``, a parameter then reads its default)."""
    origin: list[Received] = []

    def lookup(node: nodes.NodeNG) -> object:
        found = _lookup(node, way, func, depth, defaults)
        if found is None:
            return astutil.UNKNOWN
        origin.append(found)
        return found.value

    value = astutil.literal(expr, lookup)
    if value is astutil.UNKNOWN and isinstance(expr, nodes.Subscript):
        found = _lookup(expr, way, func, depth, defaults)
        if found is not None:
            return found
    if len(origin) == 1 and value == origin[0].value:
        # one value read from elsewhere: name where it is written (``Block(drop=0.1)``,
        # ``self._bn_mom = 0.1``)
        return origin[0]
    guesses = {found.guess for found in origin}
    guess = _UNFOLLOWED if _UNFOLLOWED in guesses else _UNREACHED if _UNREACHED in guesses else None
    if len(origin) == 1 and origin[0].site is not None:
        return Received(value, origin[0].site, expr, guess)  # computed here from a value a site passes
    return Received(value, None, expr, guess)


def _lookup(node: nodes.NodeNG, way: _Way | None, func: nodes.NodeNG, depth: int, defaults: bool | str) -> Received | None:
    """What a name, ``self.x`` or ``config.key`` in ``func`` holds in one way it is called."""
    if depth > _FLOW_DEPTH:
        _CUT[0] = True
        return None
    if isinstance(node, nodes.Name):
        bound = func.locals.get(node.name, ()) if isinstance(func, nodes.FunctionDef) else ()
        if len(bound) > 1 and node.frame() is func:
            bound = _parameter_before_rebinding(node, func, bound)
        if len(bound) == 1 and isinstance(bound[0].parent, nodes.Arguments) and node.frame() is func:
            if way is not None:
                return way.get(node.name)
            default = astutil.default_of(func.args, bound[0]) if defaults else None
            value = constant(default) if default is not None else astutil.UNKNOWN
            guess = _UNFOLLOWED if defaults == _UNFOLLOWED else _UNREACHED
            return Received(value, None, default, guess) if value is not astutil.UNKNOWN else None
        value = _local_constant(node)
        if value is not astutil.UNKNOWN:
            return Received(value, None, node)
        if len(bound) == 1 and isinstance(bound[0].parent, nodes.Assign) and bound[0].parent.targets == [bound[0]]:
            # ``rate = drop * 2`` above: what that value takes in this way
            return _evaluate(bound[0].parent.value, way, func, depth + 1, defaults)
        return _config_value(node)
    attr = astutil.self_attribute(node)
    if attr is not None:
        if isinstance(func, nodes.FunctionDef) and node.frame() is func:
            local = _reaching_self_assignment(node, attr, func, way)
            if local is _UNREADABLE:
                return None
            if local is not None:  # ``self.drop = drop`` above, then ``if self.drop > 0.:``
                return _evaluate(local, way, func, depth + 1, defaults)
        assigned = _init_assignment(node, attr)
        if assigned is None:
            return None
        init = assigned.frame()
        return _evaluate(assigned, way if init is func else None, init, depth + 1, defaults)
    if way is not None:
        found = _passed_object_attribute(node, way, func, depth, defaults) or _passed_mapping_key(node, way, func, depth)
        if found is not None:
            return found
    return _config_value(node)


def _passed_mapping_key(node: nodes.NodeNG, way: _Way, func: nodes.NodeNG, depth: int) -> Received | None:
    """``params["dropout"]`` where ``params`` is a parameter of ``func`` and the way
    passes a mapping whose keys are all known (a dict display at the call, or a
    local of the caller bound once to one: ``para = {"dropout": 0.0}``, then
    ``Net(para)``): what the mapping gives the key, as the caller writes it. None
    when the key is absent or its value unknown, or when ``func`` or the caller
    writes into the mapping (``params["dropout"] = ...``, ``params.update(...)``)."""
    if not (isinstance(node, nodes.Subscript) and isinstance(node.value, nodes.Name)
            and isinstance(node.slice, nodes.Const) and isinstance(node.slice.value, str)
            and isinstance(func, nodes.FunctionDef) and node.frame() is func):
        return None
    name = node.value.name
    bound = func.locals.get(name, ())
    if not (len(bound) == 1 and isinstance(bound[0].parent, nodes.Arguments)) or _mapping_written(func, name):
        return None
    given = way.get(name)
    written = given.written if given is not None and given.site is not None else None
    if written is None or isinstance(written.parent, nodes.Arguments):
        return None
    local = written.name if isinstance(written, nodes.Name) else None
    if local is None and isinstance(written, nodes.Dict) and isinstance(written.parent, nodes.Assign) \
            and len(written.parent.targets) == 1 and isinstance(written.parent.targets[0], nodes.AssignName):
        local = written.parent.targets[0].name  # the value of the local the site passes, as written
    if local is not None and _mapping_written(written.frame(), local):
        return None
    entries = _mapping_entries(written, None, written.frame(), depth + 1, False, 1)
    found = entries.get(node.slice.value) if entries is not None else None
    if found is None or found.value is astutil.UNKNOWN:
        return None
    return found if found.site is not None else found._replace(site=given.site)


_MAPPING_METHODS_WRITING = frozenset({"update", "pop", "popitem", "setdefault", "clear", "__setitem__"})


def _mapping_written(func: nodes.NodeNG, name: str) -> bool:
    """Whether ``func`` stores into, deletes from or updates the mapping ``name`` holds."""
    for use in func.nodes_of_class(nodes.Name):
        if use.name != name or use.frame() is not func:
            continue
        parent = use.parent
        if isinstance(parent, nodes.Subscript) and parent.value is use and parent.ctx is not Context.Load:
            return True
        if isinstance(parent, nodes.Attribute) and parent.attrname in _MAPPING_METHODS_WRITING:
            return True
    return False


def _parameter_before_rebinding(node: nodes.Name, func: nodes.FunctionDef, bound: list) -> list:
    """``[the parameter]`` when ``node`` reads a parameter of ``func`` before any
    other binding of its name: every other binding comes later in the function and
    no loop of ``func`` holds the read (``if bottleneck is None: bottleneck = X``);
    else ``bound`` as it is."""
    params = [binding for binding in bound if isinstance(binding.parent, nodes.Arguments)]
    if len(params) != 1:
        return bound
    parent = node.parent
    while parent is not None and parent is not func:
        if isinstance(parent, (nodes.For, nodes.While, nodes.Comprehension)):
            return bound
        parent = parent.parent
    here = (node.lineno or 0, node.col_offset or 0)
    later = all(
        binding.lineno is not None and (binding.lineno, binding.col_offset or 0) > here
        for binding in bound if binding is not params[0])
    return params if later else bound


def _passed_object_attribute(
    node: nodes.NodeNG, way: _Way, func: nodes.NodeNG, depth: int, defaults: bool | str,
) -> Received | None:
    """``config.rate`` where ``config`` is a parameter of ``func`` and the way passes
    a local of the caller bound once to a project class's construction
    (``config = Config(dim=8)``, then ``Net(config)``): what that construction's
    ``__init__`` assigns ``self.rate`` (one plain assignment, at the top of
    ``__init__``), in the way of that construction. None when the object may be
    changed between: an attribute assigned or a method called on it, or the object
    passed to another call, in the caller; the attribute assigned in ``func``."""
    if not (isinstance(node, nodes.Attribute) and isinstance(node.expr, nodes.Name)
            and isinstance(func, nodes.FunctionDef) and node.frame() is func):
        return None
    name, attr = node.expr.name, node.attrname
    bound = func.locals.get(name, ())
    if not (len(bound) == 1 and isinstance(bound[0].parent, nodes.Arguments)):
        return None
    given = way.get(name)
    if given is None or given.site is None:
        return None
    written, site = given.written, given.site
    if isinstance(written, nodes.Call) and isinstance(written.parent, nodes.Assign) \
            and len(written.parent.targets) == 1 and isinstance(written.parent.targets[0], nodes.AssignName):
        local = written.parent.targets[0].name  # the value of the local ``site`` passes, as written
    elif isinstance(written, nodes.Name):
        local = written.name
    else:
        return None
    caller = site.frame()
    held = caller.locals.get(local, ()) if isinstance(caller, (nodes.FunctionDef, nodes.Module)) else ()
    if not (len(held) == 1 and isinstance(held[0], nodes.AssignName) and isinstance(held[0].parent, nodes.Assign)
            and held[0].parent.targets == [held[0]] and isinstance(held[0].parent.value, nodes.Call)):
        return None
    construction = held[0].parent.value
    if not isinstance(construction.func, (nodes.Name, nodes.Attribute)) or not any(
        isinstance(argument, nodes.Name) and argument.name == local for argument in astutil.call_arguments(site)
    ):
        return None
    if not _object_left_alone(caller, local, site) or any(
        target.attrname == attr and isinstance(target.expr, nodes.Name) and target.expr.name == name
        for target in func.nodes_of_class(nodes.AssignAttr)
    ):
        return None
    cls = resolve.user_class_of_call(construction)
    init = resolve.find_method(cls, "__init__") if cls is not None else None
    if init is None or not init.body:
        return None
    assigned = _init_assignment(init.body[0], attr)
    if assigned is None or assigned.frame() is not init or assigned.parent.parent is not init:
        return None  # assigned in a base's __init__, or under a branch
    key = (construction, attr)
    if key in _OBJECTS_READ:
        _CUT[0] = True
        return None  # met again while it is being read
    _OBJECTS_READ.add(key)
    try:
        # read at this depth: one step more, into what the construction passes
        # (the chain of callers that led here is already as long as it may be)
        skips_self = isinstance(init.parent, nodes.ClassDef)
        built = _way_of_call(construction, init, skips_self, None, caller, depth, False)
        found = _evaluate(assigned, built, init, depth, False)
    finally:
        _OBJECTS_READ.discard(key)
    return found if found.value is not astutil.UNKNOWN else None


_OBJECTS_READ: set[tuple[nodes.Call, str]] = set()  # (construction, attribute) being read


def _object_left_alone(caller: nodes.NodeNG, name: str, site: nodes.Call) -> bool:
    """Every use of ``name`` in ``caller`` but its binding and ``site``'s argument
    reads an attribute (no method called, nothing assigned, not passed elsewhere)."""
    for use in caller.nodes_of_class(nodes.Name):
        if use.name != name or use.frame() is not caller:
            continue
        parent = use.parent
        if isinstance(parent, nodes.Keyword):
            parent = parent.parent
        if parent is site:
            continue
        if isinstance(parent, nodes.Attribute) and not (
            isinstance(parent.parent, nodes.Call) and parent.parent.func is parent
        ):
            continue
        return False
    return not any(
        isinstance(target.expr, nodes.Name) and target.expr.name == name and target.frame() is caller
        for target in caller.nodes_of_class((nodes.AssignAttr, nodes.DelAttr))
    )


_UNREADABLE = object()  # an assignment reaches the read, but which one is unsure


def _assigns_self(statement: nodes.NodeNG, attr: str) -> bool:
    # asked of the same statements for every attribute a method reads: each
    # statement's subtree is walked once and its answer kept on the node
    assigned = statement.__dict__.get("_mslint_self_assigned")
    if assigned is None:
        frame = statement.frame()
        assigned = frozenset(
            astutil.self_attribute(target)
            for target in statement.nodes_of_class(nodes.AssignAttr)
            if target.frame() is frame
        )
        statement.__dict__["_mslint_self_assigned"] = assigned
    return attr in assigned


def _reaching_self_assignment(node: nodes.NodeNG, attr: str, func: nodes.FunctionDef, way: _Way | None) -> object:
    """The value of the last ``self.<attr> = value`` that runs before ``node`` in
    ``func`` called in ``way`` (``self.drop = drop`` then ``if self.drop > 0.:``):
    statements before it in its blocks, nearest first; an ``if`` whose taken branch
    in this way does not assign the attribute is passed over. _UNREADABLE when an
    assignment that may reach the read cannot be read (in a loop, a branch not
    known, a ``try`` body that may have stopped before it, read from a handler, the
    ``else`` or the ``finally``); None when no assignment in ``func`` comes before
    the read."""
    child, parent = node, node.parent
    while parent is not None and child is not func:
        if isinstance(parent, (nodes.For, nodes.While)) and child is not getattr(parent, "iter", None) \
                and _assigns_self(parent, attr):
            return _UNREADABLE  # the loop's next turn sees what its body assigns
        position = _block_position(child, parent)
        if isinstance(parent, (nodes.Try, nodes.TryStar)) and (position is None or position[0] != "body"):
            # a handler, the else or the finally: the body may have assigned, or not
            finally_ = position is not None and position[0] == "finalbody"
            ran = parent.body + parent.handlers + parent.orelse if finally_ else parent.body
            if any(_assigns_self(statement, attr) for statement in ran):
                return _UNREADABLE
        if position is not None:
            field, index = position
            # handlers are alternatives: the ones before this one did not run
            earlier = [] if field == "handlers" else getattr(parent, field)[:index]
            for statement in reversed(earlier):
                if not _assigns_self(statement, attr):
                    continue
                if isinstance(statement, nodes.Assign) and len(statement.targets) == 1 \
                        and astutil.self_attribute(statement.targets[0]) == attr:
                    return statement.value
                if isinstance(statement, nodes.If) and not _assigns_self(statement.test, attr):
                    taken = _truth(statement.test, way, func)
                    branch = None if taken is None else statement.body if taken else statement.orelse
                    if branch is not None and not any(_assigns_self(inner, attr) for inner in branch):
                        continue  # the branch this way takes leaves the attribute as it was
                return _UNREADABLE
        child, parent = parent, parent.parent
    return None


def _block_position(child: nodes.NodeNG, parent: nodes.NodeNG) -> tuple[str, int] | None:
    """Which block of ``parent`` (body, orelse, handlers, finalbody) holds the
    statement ``child``, and where; None when none does (an expression, a test).
    Kept on the parent: asked for every attribute each method reads."""
    positions = parent.__dict__.get("_mslint_block_positions")
    if positions is None:
        positions = {}
        for field in ("body", "orelse", "handlers", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list):
                for index, statement in enumerate(block):
                    positions.setdefault(id(statement), (field, index))
        parent.__dict__["_mslint_block_positions"] = positions
    return positions.get(id(child))


def _config_value(node: nodes.NodeNG) -> Received | None:
    """``CONFIG.momentum``, ``CONFIG["momentum"]``, ``Config.momentum``: a key of a
    mapping (a dict literal, ``dict(...)``, ``EasyDict({...})``) or a class
    attribute that a project module binds once, read as a constant."""
    if isinstance(node, nodes.Attribute):
        parsed = arguments.option_value(node)
        if parsed is not None:  # ``args.lr`` of ``parser.parse_args([])``: the option's default
            return Received(parsed[0], None, parsed[1] or node)
        container, key = node.expr, node.attrname
    elif isinstance(node, nodes.Subscript) and isinstance(node.slice, nodes.Const) and isinstance(node.slice.value, str):
        container, key = node.value, node.slice.value
    else:
        return None
    if not isinstance(container, nodes.Name):
        return None
    holder = resolve.constant_binding(container)
    if holder is None:
        bound = resolve.binding(container)
        holder = bound if isinstance(bound, nodes.ClassDef) and isinstance(bound.parent, nodes.Module) else None
    entry = _mapping_entry(holder, key)
    if entry is None:
        return None
    value = constant(entry)
    return Received(value, None, entry) if value is not astutil.UNKNOWN else None


def _mapping_entry(holder: nodes.NodeNG | None, key: str) -> nodes.NodeNG | None:
    if isinstance(holder, nodes.Dict):
        found = [value for name, value in holder.items if isinstance(name, nodes.Const) and name.value == key]
        return found[0] if len(found) == 1 else None
    if isinstance(holder, nodes.Call) and isinstance(holder.func, (nodes.Name, nodes.Attribute)):
        name = holder.func.name if isinstance(holder.func, nodes.Name) else holder.func.attrname
        if name not in apis.CONFIG_MAPPING_CALLS:
            return None
        keyword = [kw.value for kw in holder.keywords or () if kw.arg == key]
        if keyword:
            return keyword[0]
        return _mapping_entry(holder.args[0], key) if len(holder.args) == 1 else None
    if isinstance(holder, nodes.ClassDef):
        bound = holder.locals.get(key, ())
        if len(bound) == 1 and isinstance(bound[0].parent, nodes.Assign) and bound[0].parent.targets == [bound[0]]:
            return bound[0].parent.value
    return None


def _related(klass: nodes.ClassDef | None, cls: nodes.ClassDef, user: list[nodes.ClassDef]) -> bool:
    """A class of ``cls``'s hierarchy, or a subclass of it (which may assign the attribute otherwise)."""
    return klass is not None and (klass in user or cls in resolve.class_hierarchy(klass)[0])


def _init_assignment(node: nodes.NodeNG, attr: str) -> nodes.NodeNG | None:
    """The value of ``self.<attr> = value`` when that is the attribute's one
    assignment in its class, its user bases and their subclasses in those modules,
    made directly in ``__init__``."""
    cls = astutil.enclosing_class(node)
    if cls is None:
        return None
    user, _ = resolve.class_hierarchy(cls)
    found = [
        target for module in {klass.root() for klass in user} for target in _self_assignments(module).get(attr, ())
        if _related(astutil.enclosing_class(target), cls, user)
    ]
    if len(found) != 1:
        return None
    (target,) = found
    statement = target.parent
    method = target.frame()
    if not (isinstance(statement, nodes.Assign) and statement.targets == [target]):
        return None
    if not (isinstance(method, nodes.FunctionDef) and method.name == "__init__" and method.parent in user):
        return None
    return statement.value


def init_value(node: nodes.NodeNG) -> nodes.NodeNG | None:
    """For ``self.<attr>``: the expression ``__init__`` assigns it, when that is the
    attribute's one assignment (``self.p = 1.0 - drop_rate``); else None."""
    if not (isinstance(node, nodes.Attribute) and isinstance(node.expr, nodes.Name) and node.expr.name == "self"):
        return None
    return _init_assignment(node, node.attrname)


_SELF_ASSIGNMENTS: dict[nodes.Module, dict[str, list[nodes.AssignAttr]]] = {}


def self_assignments_of(cls: nodes.ClassDef, attr: str) -> list[nodes.AssignAttr]:
    """Every ``self.<attr> = ...`` target in the methods of ``cls`` itself."""
    return [target for target in _self_assignments(cls.root()).get(attr, ()) if astutil.enclosing_class(target) is cls]


def _self_assignments(module: nodes.Module) -> dict[str, list[nodes.AssignAttr]]:
    """attr -> every ``self.<attr> = ...`` target in the module's classes (one walk per module)."""
    known = _SELF_ASSIGNMENTS.get(module)
    if known is None:
        if len(_SELF_ASSIGNMENTS) > 256:
            _SELF_ASSIGNMENTS.clear()
        known = _SELF_ASSIGNMENTS[module] = {}
        for target in astutil.module_nodes(module, nodes.AssignAttr):
            if astutil.is_self(target.expr) and astutil.enclosing_class(target) is not None:
                known.setdefault(target.attrname, []).append(target)
    return known


# func -> (the depth its ways were found at, the ways)
_WAYS_MEMO: dict[nodes.FunctionDef, tuple[int, list[_Way] | None]] = {}
# function -> the guesses some of its ways were left out on (a site under a guard
# false only by a caller's default), there or in a caller: with them, its ways are
# not all the ways the program may have
_DROPPED_ON: dict[nodes.FunctionDef, frozenset[str]] = {}


def _ways(func: nodes.FunctionDef, depth: int) -> list[_Way] | None:
    """One {parameter: Received} per way ``func`` is called in sight (through up to
    _FLOW_DEPTH callers); None when no call is in sight. Ways found deeper in a
    chain followed fewer callers: asked for at a shallower depth, they are found
    again, unless their finding reached no limit (_CUT): then they are kept as
    found at the top."""
    known = _WAYS_MEMO.get(func)
    if known is not None and known[0] <= depth:
        if known[0] != 0:
            _CUT[0] = True  # a cycle's mark, or ways found short of some chain
        return known[1]
    if len(_WAYS_MEMO) > 2000:
        _WAYS_MEMO.clear()
        _DROPPED_ON.clear()
    _WAYS_MEMO[func] = (-1, None)  # a call cycle: unknown
    _DROPPED_ON.pop(func, None)
    outer_cut, _CUT[0] = _CUT[0], False
    result = _find_ways(func, depth)
    cut = _CUT[0]
    # found without reaching any limit, the ways are those found at any depth: kept
    # as found at the top, they are not found again when asked there (each time
    # with every caller's again: five times the work on the benchmark)
    _WAYS_MEMO[func] = (depth if cut else 0, result)
    _CUT[0] = outer_cut or cut
    return result


# whether the ways being found reached a limit: the depth of callers or of the
# reading followed, a call cycle, an object met again while it is being read
_CUT = [False]


def _find_ways(func: nodes.FunctionDef, depth: int) -> list[_Way] | None:
    found = sites.calls_of(func) + sites.partial_calls_of(func)
    if not found:
        return None
    ways: list[_Way] = []
    seen: set[tuple] = set()
    for call, skips_self in found:
        caller = call.frame()
        outer, defaults = _callers_ways(caller, depth)
        if outer and caller in _DROPPED_ON:
            _DROPPED_ON[func] = _DROPPED_ON.get(func, frozenset()) | _DROPPED_ON[caller]
        # what the site gives in the caller's ways, with the entries of those ways it
        # read: a caller's ways differ in parameters a site often does not read
        given_in: list[tuple[tuple, _Way]] = []
        for outer_way in outer if outer else [None]:
            if outer_way is not None and _guards_hold(call, caller, outer_way) is False:
                for guess in (_UNREACHED, _UNFOLLOWED):
                    if _guards_hold(call, caller, outer_way, frozenset({guess})) is not False:
                        _DROPPED_ON[func] = _DROPPED_ON.get(func, frozenset()) | {guess}
                continue  # the site itself is never reached that way
            if outer_way is None:
                way = _way_of_call(call, func, skips_self, None, caller, depth, defaults)
                way[_REACHED] = not isinstance(caller, nodes.FunctionDef)  # a module's or a class body's own code
            else:
                way = _given_in(call, func, skips_self, outer_way, caller, depth, given_in)
                way[_REACHED] = outer_way.get(_REACHED, False)
            key = _way_key(way)
            if key in seen:
                continue  # the same values another way gives: it answers nothing new
            seen.add(key)
            ways.append(way)
            if len(ways) >= _FLOW_WAYS:
                # more ways than are followed: the others may give anything
                ways.append({param.name: Received(astutil.UNKNOWN, None, None) for param in astutil.all_params(func)})
                return ways
    return ways


class _ReadWay(dict):
    """A copy of a way that records the entries read from it (``get``, ``[]``,
    ``in``), each with what it held (_ABSENT: nothing); any other reading
    (iteration, a view) records that everything was read."""

    def __init__(self, way: _Way) -> None:
        super().__init__(way)
        self.read: dict[str, object] | None = {}

    def _note(self, key: str) -> None:
        if self.read is not None and key not in self.read:
            self.read[key] = dict.get(self, key, _ABSENT)

    def get(self, key, default=None):  # noqa: ANN001, ANN201
        self._note(key)
        return dict.get(self, key, default)

    def __getitem__(self, key):  # noqa: ANN001, ANN204
        self._note(key)
        return dict.__getitem__(self, key)

    def __contains__(self, key) -> bool:  # noqa: ANN001
        self._note(key)
        return dict.__contains__(self, key)

    def __iter__(self):  # noqa: ANN204
        self.read = None
        return dict.__iter__(self)

    def items(self):  # noqa: ANN201
        self.read = None
        return dict.items(self)

    def keys(self):  # noqa: ANN201
        self.read = None
        return dict.keys(self)

    def values(self):  # noqa: ANN201
        self.read = None
        return dict.values(self)

    def copy(self):  # noqa: ANN201
        self.read = None
        return dict(self)


_ABSENT = object()  # an entry a way does not hold (_ReadWay.read)


def _given_in(
    call: nodes.Call, func: nodes.FunctionDef, skips_self: bool, outer_way: _Way, caller: nodes.NodeNG, depth: int,
    given_in: list[tuple[tuple, _Way]],
) -> _Way:
    """_way_of_call of ``call`` in the caller's ``outer_way``: what an earlier way of
    the caller (``given_in``: the entries read, the way found) gave, when this
    way holds the same in every entry that reading read; else found and kept."""
    for read, way in given_in:
        if all(outer_way.get(key, _ABSENT) == held for key, held in read):
            return _copied_way(way)
    reading = _ReadWay(outer_way)
    way = _way_of_call(call, func, skips_self, reading, caller, depth, False)
    if reading.read is not None:
        given_in.append((tuple(reading.read.items()), _copied_way(way)))
    return way


def _copied_way(way: _Way) -> _Way:
    copied = dict(way)
    if isinstance(copied.get(_EXTRA_KEYWORDS), dict):
        copied[_EXTRA_KEYWORDS] = dict(copied[_EXTRA_KEYWORDS])
    return copied


def _callers_ways(caller: nodes.NodeNG, depth: int) -> tuple[list[_Way] | None, bool | str]:
    """The ways the function holding a site is called, and how its parameters
    read when there are none: code outside functions has no parameters; a
    function no call in sight reaches reads its defaults (how mslint judges code
    nothing builds); one whose callers are not followed (past _FLOW_DEPTH, a
    call cycle) reads them as a guess."""
    if not isinstance(caller, nodes.FunctionDef):
        return None, True
    if depth >= _FLOW_DEPTH:
        _CUT[0] = True
        return None, _UNFOLLOWED
    outer = _ways(caller, depth + 1)
    if outer is None and _WAYS_MEMO.get(caller, (0, None))[0] < 0:
        _CUT[0] = True
        return None, _UNFOLLOWED  # a call cycle: its ways are being found
    return outer, True


def _way_key(way: _Way) -> tuple:
    """What a way gives each parameter: its value, or where an unknown value is
    written (a mapping read from there differs with the expression)."""
    def part(given: Received) -> tuple:
        value = given.value
        if value is astutil.UNKNOWN or not isinstance(value, (int, float, str, bool, tuple, type(None))):
            return ("?", id(given.written))
        return ("=", type(value).__name__, value, given.guess)

    key = []
    for name, given in sorted(way.items(), key=lambda item: item[0]):
        if name == _EXTRA_POSITIONAL:
            key.append((name, tuple(part(item) for item in given)))
        elif name == _EXTRA_KEYWORDS:
            key.append((name, tuple(sorted((entry, part(item)) for entry, item in given.items()))))
        elif name == _REACHED:
            key.append((name, given))
        else:
            key.append((name, part(given)))
    return tuple(key)


def _way_of_call(
    call: nodes.Call, func: nodes.FunctionDef, skips_self: bool, outer_way: _Way | None, caller: nodes.NodeNG,
    depth: int, defaults: bool | str,
) -> _Way:
    """What each parameter of ``func`` receives from ``call``, a call in ``caller``
    called in ``outer_way``: the argument's value, the entries of a ``**mapping``
    mslint can read (``create(**defaults())``), what the caller's own ``*args`` and
    ``**kwargs`` hold when it passes them on (``super().__init__(*args,
    **kwargs)``), the default where the call leaves a parameter out. The extra
    arguments ``func``'s own ``*args`` and ``**kwargs`` collect are kept under
    _EXTRA_POSITIONAL and _EXTRA_KEYWORDS, for the calls it passes them on to."""
    way: _Way = {}
    params = {param.name for param in astutil.all_params(func)}
    extra_positional: list[Received] | None = []
    extra_keywords: dict[str, Received] | None = {}
    skipped = 1 if skips_self else 0
    positional = [param.name for param in astutil.positional_params(func)][skipped:]
    default_guess: str | None = None  # the guess the defaults the call leaves rest on
    # ``functools.partial(func, ...)``: its first argument is ``func``, and what it
    # leaves out is given where the partial object is called (unknown here)
    open_ended = bool(call.args) and isinstance(call.func, (nodes.Name, nodes.Attribute)) \
        and resolve.qualified_name(call.func) == sites.PARTIAL
    arguments_given = call.args[1:] if open_ended else call.args
    if open_ended:
        extra_positional = None
    for index, value in enumerate(arguments_given):
        if isinstance(value, nodes.Starred):
            passed = _forwarded(value.value, outer_way, caller, _EXTRA_POSITIONAL)
            if passed is None or index != len(arguments_given) - 1:
                for name in positional[index:]:  # which parameters a sequence fills is unsure
                    way[name] = Received(astutil.UNKNOWN, call, value)
                extra_positional = None
                continue
            arguments = list(passed)
        else:
            arguments = [_passed(value, call, outer_way, caller, depth, defaults)]
        for offset, given in enumerate(arguments):
            if index + offset < len(positional):
                way[positional[index + offset]] = given
            elif extra_positional is not None:
                extra_positional.append(given)
    for keyword in call.keywords or ():
        if keyword.arg is not None:
            given = _passed(keyword.value, call, outer_way, caller, depth, defaults)
            entries: dict[str, Received] | None = {keyword.arg: given}
        else:
            entries = _mapping_entries(keyword.value, outer_way, caller, depth + 1, defaults, 0)
            if entries is not None:
                entries = {name: given._replace(site=given.site or call) for name, given in entries.items()}
        if entries is None:  # an unknown **mapping may fill any parameter
            way.update((name, Received(astutil.UNKNOWN, call, keyword.value)) for name in params if name not in way)
            extra_keywords = None
            continue
        for name, given in entries.items():
            if name == _OPEN_KEYWORDS:
                open_ended = True
            elif name == _UNSEEN_KEYWORDS:
                default_guess = given.guess
                if extra_keywords is not None:
                    extra_keywords[name] = given
            elif name in params:
                way[name] = given
            elif extra_keywords is not None:
                extra_keywords[name] = given
    for param in astutil.all_params(func):
        if param.name not in way:
            if open_ended:  # given, or not, where the partial object is called
                way[param.name] = Received(astutil.UNKNOWN, call, None)
                continue
            default = astutil.default_of(func.args, param)
            way[param.name] = Received(
                constant(default) if default is not None else astutil.UNKNOWN, call, default, default_guess)
    if func.args.vararg and extra_positional is not None:
        way[_EXTRA_POSITIONAL] = tuple(extra_positional)
    if func.args.kwarg and extra_keywords is not None:
        if open_ended:  # the keywords it collects are known in part: those passed on say so
            extra_keywords[_OPEN_KEYWORDS] = Received(astutil.UNKNOWN, call, None)
        way[_EXTRA_KEYWORDS] = extra_keywords
    return way


def _passed(
    value: nodes.NodeNG, call: nodes.Call, outer_way: _Way | None, caller: nodes.NodeNG, depth: int, defaults: bool | str,
) -> Received:
    """What one argument of ``call`` passes, named where it is written."""
    given = _evaluate(value, outer_way, caller, depth + 1, defaults=defaults)
    return given if given.site is not None else given._replace(site=call)


def _forwarded(value: nodes.NodeNG, way: _Way | None, func: nodes.NodeNG, kind: str) -> object:
    """What ``func``'s own ``*args`` (kind _EXTRA_POSITIONAL) or ``**kwargs``
    (_EXTRA_KEYWORDS) holds in ``way`` when ``value`` names it; else None."""
    if way is None or not _passes_own_extras(value, func, kind):
        return None
    return way.get(kind)


def _passes_own_extras(value: nodes.NodeNG, func: nodes.NodeNG, kind: str) -> bool:
    """Whether ``value`` names ``func``'s own ``*args`` (kind _EXTRA_POSITIONAL) or
    ``**kwargs`` (_EXTRA_KEYWORDS), which ``func`` only passes on whole (not
    ``kwargs.pop("rate")``, ``kwargs["rate"] = ...``: what is passed on differs)."""
    if not isinstance(value, nodes.Name) or not isinstance(func, nodes.FunctionDef):
        return False
    own = func.args.vararg if kind == _EXTRA_POSITIONAL else func.args.kwarg
    return value.name == own and value.frame() is func and len(func.locals.get(own, ())) == 1 \
        and _only_passed_on(func, own)


def _only_passed_on(func: nodes.FunctionDef, name: str) -> bool:
    """Whether every use of ``name`` in ``func`` passes it on whole (``*name``, ``**name``)."""
    for use in func.nodes_of_class(nodes.Name):
        if use.name != name or use.frame() is not func:
            continue
        parent = use.parent
        if not (isinstance(parent, nodes.Starred) or (isinstance(parent, nodes.Keyword) and parent.arg is None)):
            return False
    return True


# functions and names a ``**mapping`` is followed through to the mapping it holds, at most
_MAPPING_HOPS = 4


def _mapping_entries(  # noqa: PLR0911 - one case per form
    expr: nodes.NodeNG | None, way: _Way | None, func: nodes.NodeNG, depth: int, defaults: bool | str, hops: int,
) -> dict[str, Received] | None:
    """The keys of a mapping expression in ``func`` called in ``way``, and what
    each holds, when every key is known: a dict literal or ``dict(k=v)``, here or
    returned by a user function (``def defaults(drop=0.9): return dict(drop=drop)``),
    through a name bound once, a parameter (as its site writes it) or the
    function's own ``**kwargs``; else None."""
    if expr is None or hops > _MAPPING_HOPS:
        return None
    if isinstance(expr, nodes.Dict):
        if not all(isinstance(key, nodes.Const) and isinstance(key.value, str) for key, _ in expr.items):
            return None  # ``{**base, ...}`` or a computed key
        return {key.value: _evaluate(value, way, func, depth, defaults) for key, value in expr.items}
    if isinstance(expr, nodes.Call):
        if isinstance(expr.func, nodes.Name) and expr.func.name == "dict" and resolve.binding(expr.func) is None:
            if expr.args or any(keyword.arg is None for keyword in expr.keywords or ()):
                return None
            return {keyword.arg: _evaluate(keyword.value, way, func, depth, defaults) for keyword in expr.keywords or ()}
        return _returned_entries(expr, way, func, depth, defaults, hops)
    if not isinstance(expr, nodes.Name):
        return None
    forwarded = _forwarded(expr, way, func, _EXTRA_KEYWORDS)
    if forwarded is not None:
        return dict(forwarded)
    if way is None and defaults and _passes_own_extras(expr, func, _EXTRA_KEYWORDS):
        # the function's own ``**kwargs`` where no call of it is in sight (or its
        # callers were not followed): judged by its defaults, it collects none
        guess = _UNFOLLOWED if defaults == _UNFOLLOWED else _UNREACHED
        return {_UNSEEN_KEYWORDS: Received(astutil.UNKNOWN, None, None, guess)}
    bound = func.locals.get(expr.name, ()) if isinstance(func, nodes.FunctionDef) else ()
    if len(bound) == 1 and isinstance(bound[0].parent, nodes.Arguments):
        # a parameter: the mapping as the site of this way writes it, read there
        # (in no way of its own: a parameter there is unknown)
        given = way.get(expr.name) if way is not None else None
        written = given.written if given is not None and given.site is not None else None
        if written is None or isinstance(written.parent, nodes.Arguments):
            return None
        return _mapping_entries(written, None, written.frame(), depth, False, hops + 1)
    if len(bound) == 1 and isinstance(bound[0].parent, nodes.Assign) and bound[0].parent.targets == [bound[0]]:
        return _mapping_entries(bound[0].parent.value, way, func, depth, defaults, hops + 1)
    if not bound:
        held = resolve.constant_binding(expr)  # a module's ``OPTIONS = dict(...)``
        return _mapping_entries(held, None, held.frame(), depth, False, hops + 1) if held is not None else None
    return None


def _returned_entries(
    call: nodes.Call, way: _Way | None, func: nodes.NodeNG, depth: int, defaults: bool | str, hops: int,
) -> dict[str, Received] | None:
    """The entries of the mapping a user function returns, read in the way
    ``call`` calls it: the function's one ``return`` statement."""
    callee = call.func
    target = resolve.binding(callee) if isinstance(callee, nodes.Name) else None
    if not isinstance(target, nodes.FunctionDef):
        target = resolve.project_function(callee)
    if target is None or isinstance(target.parent, nodes.ClassDef):
        return None
    returns = [node for node in target.nodes_of_class(nodes.Return) if node.frame() is target]
    if len(returns) != 1:
        return None
    inner = _way_of_call(call, target, False, way, func, depth, defaults)
    return _mapping_entries(returns[0].value, inner, target, depth, False, hops + 1)


def _guards_hold(
    node: nodes.NodeNG, func: nodes.NodeNG, way: _Way, strict: frozenset[str] = frozenset(),
) -> bool | None:
    """False when an ``if`` (or ``a if c else b``) between ``node`` and ``func``
    takes the other branch in this way; True when every guard is known to hold;
    None when one cannot be read, or rests on one of the guesses ``strict`` names."""
    held: bool | None = True
    child, parent = node, node.parent
    while parent is not None and parent is not func:
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            taken = _truth(parent.test, way, func, strict)
            in_body = child is parent.body if isinstance(parent, nodes.IfExp) else child in parent.body
            if taken is None:
                held = None
            elif taken != in_body:
                return False
        child, parent = parent, parent.parent
    return held


def guarded_off(node: nodes.NodeNG) -> bool:
    """Whether an ``if`` (or ``a if c else b``) around ``node`` in its function
    takes the other branch whatever calls the function: its test reads only
    constants, configs and options fixed where the program parses them
    (``if args.device_num > 1:`` after ``parser.parse_args([])``)."""
    return _guards_hold(node, node.frame(), None) is False


def guarded_off_by_defaults(node: nodes.NodeNG) -> bool:
    """Whether an ``if`` (or ``a if c else b``) around ``node`` in its function takes
    the other branch when every parameter holds its default
    (``nn.Dropout(p=1 - rate) if rate > 0.0 else None`` with ``rate=0.0``): the
    defaults are then no value the code under the guard runs with."""
    func = node.frame()
    if not isinstance(func, nodes.FunctionDef) or not _guarded(node, func):
        return False
    way = {
        param.name: Received(constant(default), None, default) if default is not None
        else Received(astutil.UNKNOWN, None, None)
        for param in astutil.all_params(func)
        for default in [astutil.default_of(func.args, param)]
    }
    return _guards_hold(node, func, way) is False


def guarded_off_by_call(node: nodes.NodeNG, func: nodes.FunctionDef, call: nodes.Call, skips_self: bool) -> bool:
    """Whether an ``if`` around ``node`` in ``func`` takes the other branch when
    ``call`` runs ``func``: its test reads what the call passes as written or
    leaves to a default (``if mode is None:`` where the call omits ``mode``). What
    the call reads from its own caller is unknown here: not off."""
    if not _guarded(node, func) and not _after_an_if(node, func):
        return False
    way = _way_of_call(call, func, skips_self, None, call.frame(), 0, False)
    return _guards_hold(node, func, way) is False or _after_exit(node, func, way)


def _after_an_if(node: nodes.NodeNG, func: nodes.NodeNG) -> bool:
    return any(isinstance(earlier, nodes.If) for _, earlier in _earlier_statements(node, func))


def _earlier_statements(node: nodes.NodeNG, func: nodes.NodeNG):
    """(block, statement) for each statement before the one holding ``node``, in
    each block between ``node`` and ``func``."""
    child, parent = node, node.parent
    while parent is not None and child is not func:
        for field in ("body", "orelse", "handlers", "finalbody"):
            block = getattr(parent, field, None)
            if isinstance(block, list) and any(statement is child for statement in block):
                for statement in block[: next(i for i, s in enumerate(block) if s is child)]:
                    yield block, statement
                break
        child, parent = parent, parent.parent


def _after_exit(node: nodes.NodeNG, func: nodes.NodeNG, way: _Way) -> bool:
    """Whether ``node`` follows, in a block, an ``if`` whose branch taken in this
    way ends in ``return`` or ``raise`` (``if mode is None: return ...`` then the
    other modes' code)."""
    return any(_exits(statement, func, way) for _, statement in _earlier_statements(node, func))


def _exits(statement: nodes.NodeNG, func: nodes.NodeNG, way: _Way) -> bool:
    if isinstance(statement, (nodes.Return, nodes.Raise)):
        return True
    if not isinstance(statement, nodes.If):
        return False
    taken = _truth(statement.test, way, func)
    branches = [statement.body, statement.orelse] if taken is None else [statement.body if taken else statement.orelse]
    return all(branch and _exits(branch[-1], func, way) for branch in branches)


def _guarded(node: nodes.NodeNG, func: nodes.NodeNG) -> bool:
    child, parent = node, node.parent
    while parent is not None and parent is not func:
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            return True
        child, parent = parent, parent.parent
    return False


_COMPARISONS: dict[str, Callable[[object, object], bool]] = {
    "<": lambda a, b: a < b, "<=": lambda a, b: a <= b, ">": lambda a, b: a > b, ">=": lambda a, b: a >= b,
    "==": lambda a, b: a == b, "!=": lambda a, b: a != b, "is": lambda a, b: a is b, "is not": lambda a, b: a is not b,
}


def _truth(test: nodes.NodeNG, way: _Way, func: nodes.NodeNG, strict: frozenset[str] = frozenset()) -> bool | None:
    """The truth of a guard in one way its function is called, None when unknown
    or when it rests on one of the guesses ``strict`` names."""

    def value_of(expr: nodes.NodeNG) -> object:
        found = _evaluate(expr, way, func, 0)
        if found.guess in strict:
            return astutil.UNKNOWN
        if found.value is astutil.UNKNOWN and found.site is not None and _never_none(found.written):
            return _NOT_NONE  # ``bottleneck=nn.SequentialCell(...)``: ``bottleneck is None`` is False
        return found.value

    return _truth_given(test, value_of)


class _NotNone:
    """An object of unknown value that is certainly not None: only ``is None`` and
    ``is not None`` are read from it (its ``==`` and truth are the class's own)."""

    def __repr__(self) -> str:
        return "<not None>"


_NOT_NONE = _NotNone()


def _never_none(written: nodes.NodeNG | None, depth: int = 0) -> bool:
    """Whether an argument as a site writes it is never None: a construction of a
    class (a project class without its own ``__new__``, or a framework's class:
    ``nn.SequentialCell(...)``), a list, tuple, dict or set display, a lambda, or
    a name whose one binding in its scope is one of those."""
    if isinstance(written, (nodes.List, nodes.Tuple, nodes.Dict, nodes.Set, nodes.Lambda,
                            nodes.ListComp, nodes.DictComp, nodes.SetComp)):
        return True
    if isinstance(written, nodes.Name) and depth < 3:
        held = resolve.assigned_value(written, sole=True)
        return held is not None and held is not written and _never_none(held, depth + 1)
    if not isinstance(written, nodes.Call) or not isinstance(written.func, (nodes.Name, nodes.Attribute)):
        return False
    cls, qname = resolve.class_named(written.func)
    if cls is not None:
        user, _ = resolve.class_hierarchy(cls)
        return not any("__new__" in member.locals for member in user)
    if qname is None or not resolve.is_external(qname):
        return False
    qname = resolve.canonical(qname)
    *modules, last = qname.split(".")
    return last[:1].isupper() and all(part.islower() for part in modules)


def forget_flow() -> None:
    """Drop what was learned of the calls of functions (a new run, new trees)."""
    _WAYS_MEMO.clear()
    _DROPPED_ON.clear()
    _SELF_ASSIGNMENTS.clear()
    _CUT[0] = False


# ---------------------------------------------------------------------------
# Which framework's object a receiver is (outside graph code)
# ---------------------------------------------------------------------------
TENSOR, CELL = "tensor", "cell"


def mindspore_object(expr: nodes.NodeNG | None, depth: int = 0) -> str | None:
    """TENSOR or CELL when ``expr`` certainly holds a MindSpore tensor or Cell, in any
    code (a training or evaluation function, module level): a Tensor, an op's
    result, an item of a MindSpore dataset iterator (``for x, y in
    ds.create_tuple_iterator()``, ``data["image"]`` of ``create_dict_iterator()``
    without ``output_numpy=True``); a Cell built from mindspore.nn or a user Cell
    class (through methods that return the Cell itself: ``Net().set_train()``),
    held in a name (the assignment that reaches the use: ``net = Net()`` then
    ``net = net.half()``), in ``self.x`` (assigned once), or passed in by every
    caller in sight. None when unsure (a torch object, a helper's result)."""
    if expr is None or depth > _CONSTANT_DEPTH:
        return None
    if isinstance(expr, nodes.Call):
        return _object_made_by(expr, depth)
    if isinstance(expr, nodes.Subscript):
        # data["image"] of a dict iterator; batch[0] of a tuple iterator item
        holder = expr.value
        if isinstance(holder, nodes.Name) and _iterated_from_dataset(holder) == "container":
            return TENSOR
        # indexing a MindSpore tensor gives a tensor (a 0-d one for a scalar index)
        return TENSOR if mindspore_object(holder, depth + 1) == TENSOR else None
    if isinstance(expr, nodes.BinOp):
        return _arithmetic_object(expr, depth)
    if isinstance(expr, nodes.Name):
        if _iterated_from_dataset(expr) == TENSOR:
            return TENSOR
        bound = _reaching_binding(expr)
        if bound is None:
            return None
        if _dataset_loop_item(bound) == TENSOR:
            return TENSOR  # the loop's target reaches the use (``x = x.float()`` elsewhere)
        if isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Arguments):
            if _declared_tensor(bound):
                return TENSOR
            return _passed_object(expr, bound, depth)
        statement = bound.parent
        if isinstance(statement, nodes.Assign) and statement.targets == [bound]:
            return mindspore_object(statement.value, depth + 1)
        return None
    if isinstance(expr, nodes.Attribute) and expr.attrname in apis.LAYER_PARAMETER_ATTRIBUTES \
            and not astutil.is_self(expr.expr) \
            and _mindspore_layer(expr.expr, depth + 1) in apis.LAYERS_WITH_PARAMETER_ATTRIBUTES:
        return TENSOR  # layer.weight of an nn.Dense: a Parameter
    attr = astutil.self_attribute(expr)
    if attr is not None:
        return _attribute_object(expr, attr, depth)
    if isinstance(expr, nodes.Attribute) and expr.attrname in apis.TENSOR_RESULT_ATTRIBUTES:
        return TENSOR if mindspore_object(expr.expr, depth + 1) == TENSOR else None  # p.data, x.T
    return None


def cell_output(expr: nodes.NodeNG | None) -> str | None:
    """TENSOR when ``expr`` is what a call of a MindSpore layer returned, a layer
    whose call returns one tensor (apis.TENSOR_OUTPUT_CELLS, or a SequentialCell
    whose last cell is one): ``feats = self.pre(x)`` with ``self.pre =
    nn.SequentialCell(nn.Conv2d(...), nn.ReLU())``. None when unsure (a project
    Cell, whose construct may return anything; a sequence that grows later)."""
    if isinstance(expr, nodes.Name):
        bound = _reaching_binding(expr)
        statement = bound.parent if isinstance(bound, nodes.AssignName) else None
        if not (isinstance(statement, nodes.Assign) and statement.targets == [bound]):
            return None
        expr = statement.value
    if not isinstance(expr, nodes.Call) or expr.args and isinstance(expr.args[0], nodes.Starred):
        return None
    return TENSOR if _tensor_output_layer(expr.func, 0) else None


def _tensor_output_layer(layer: nodes.NodeNG, depth: int) -> bool:
    """Whether ``layer`` certainly holds a layer whose call returns one tensor."""
    if depth > _CONSTANT_DEPTH:
        return False
    if isinstance(layer, nodes.Name):
        return _tensor_output_layer(resolve.assigned_value(layer, sole=True), depth + 1)
    attr = astutil.self_attribute(layer)
    if attr is not None:
        cls = astutil.enclosing_class(layer)
        if cls is None:
            return False
        made = []
        for klass in resolve.class_hierarchy(cls)[0]:
            for node in klass.nodes_of_class((nodes.AssignAttr, nodes.Attribute)):
                if node.attrname != attr or not astutil.is_self(node.expr):
                    continue
                if isinstance(node, nodes.AssignAttr):
                    statement = node.parent
                    if not (isinstance(statement, nodes.Assign) and statement.targets == [node]):
                        return False
                    made.append(statement.value)
                elif isinstance(node.parent, nodes.Attribute):
                    return False  # ``self.pre.append(...)``: the sequence may change
        return bool(made) and all(_tensor_output_layer(value, depth + 1) for value in made)
    if not isinstance(layer, nodes.Call) or not isinstance(layer.func, (nodes.Name, nodes.Attribute)):
        return False
    qname = resolve.qualified_name(layer.func)
    if qname in apis.TENSOR_OUTPUT_CELLS:
        return True
    if qname not in apis.SEQUENTIAL_CELLS or layer.keywords or not layer.args:
        return False
    cells = layer.args
    if len(cells) == 1 and isinstance(cells[0], (nodes.List, nodes.Tuple)):
        cells = cells[0].elts
    if not cells or any(isinstance(cell, nodes.Starred) for cell in cells):
        return False
    return _tensor_output_layer(cells[-1], depth + 1)


def _arithmetic_object(expr: nodes.BinOp, depth: int) -> str | None:
    """TENSOR for arithmetic on a MindSpore tensor (measured: ``t <op> v`` is a
    tensor or raises TypeError, whatever ``v``; ``2.0 * t`` is one too, but not
    ``a * t`` for a numpy array ``a``, which numpy answers first)."""
    if expr.op not in apis.TENSOR_ARITHMETIC_OPERATORS:
        return None
    if mindspore_object(expr.left, depth + 1) == TENSOR:
        return TENSOR
    left = expr.left.operand if isinstance(expr.left, nodes.UnaryOp) else expr.left
    number = isinstance(left, nodes.Const) and type(left.value) in (int, float)
    return TENSOR if number and mindspore_object(expr.right, depth + 1) == TENSOR else None


def _object_made_by(call: nodes.Call, depth: int) -> str | None:
    func = call.func
    if isinstance(func, nodes.Attribute) and func.attrname in apis.CELL_SELF_RETURNING_METHODS:
        inner = mindspore_object(func.expr, depth + 1)
        if inner == CELL:
            return CELL
    if isinstance(func, nodes.Attribute) and func.attrname in apis.TENSOR_RESULT_METHODS \
            and mindspore_object(func.expr, depth + 1) == TENSOR:
        return TENSOR  # t.squeeze(), t.reshape(...): a MindSpore tensor's methods give tensors
    if not isinstance(func, (nodes.Name, nodes.Attribute)):
        return None
    qname = resolve.qualified_name(func)
    if qname is not None:
        if qname in apis.TENSOR_CONSTRUCTORS or is_op_function(qname) and qname not in apis.CONSTANT_RESULT_CALLS:
            return TENSOR
        if resolve.is_cell_qname(qname):
            return CELL
        if resolve.is_external(qname):
            return None
    cls = resolve.user_class_of_call(call)
    if cls is not None and resolve.is_cell_class(cls):
        return CELL
    return None


def reaching_value(name: nodes.Name) -> nodes.NodeNG | None:
    """The value assigned to ``name`` by the assignment that reaches this use
    (``net = Net()``, then ``net = net.half()`` reads ``Net()``); None for a
    parameter, an unpacking, or when unsure."""
    bound = _reaching_binding(name)
    statement = bound.parent if bound is not None else None
    return statement.value if isinstance(statement, nodes.Assign) and statement.targets == [bound] else None


def reaching_assignment(name: nodes.Name) -> nodes.Assign | None:
    """The assignment statement that gives ``name`` its value at this use, an
    unpacking included (``verts, faces = marching_cubes(...)``); None for a
    parameter, a loop variable, or when unsure."""
    bound = _reaching_binding(name)
    statement = bound.statement() if bound is not None else None
    return statement if isinstance(statement, nodes.Assign) else None


def reaching_attribute_value(attribute: nodes.NodeNG) -> nodes.NodeNG | None:
    """The value ``owner.attr = value`` in the function of the use gives the read
    ``owner.attr`` (``owner`` a bare name): the last such assignment above the use in
    its block or an enclosing one, the only one in a loop around the use; None when
    unsure (another form of assignment, none in the function). A helper nested in a
    method that takes its own ``self`` sees its own ``self.models = nn.CellList()``."""
    if not (isinstance(attribute, nodes.Attribute) and isinstance(attribute.expr, nodes.Name)):
        return None
    frame = attribute.frame()
    if not isinstance(frame, (nodes.FunctionDef, nodes.AsyncFunctionDef)):
        return None
    owner, attr = attribute.expr.name, attribute.attrname
    statements = []
    for target in frame.nodes_of_class(nodes.AssignAttr, skip_klass=(nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)):
        if target.attrname != attr or not (isinstance(target.expr, nodes.Name) and target.expr.name == owner):
            continue
        statement = target.statement()
        if not (isinstance(statement, nodes.Assign) and statement.targets == [target]):
            return None  # an unpacking, a loop target, an augmented assignment: unsure
        statements.append(statement)
    if any(isinstance(b, nodes.AssignName) and not isinstance(b.parent, nodes.Arguments) for b in frame.locals.get(owner, ())):
        return None  # the owner itself is rebound in the function
    last = _reaching_assignment(attribute, statements) if statements else None
    return last.value if last is not None else None


def passed_values(name: nodes.Name) -> list[nodes.NodeNG] | None:
    """What the calls in sight pass for the parameter ``name`` reads (as written at
    each site); None when it is no parameter or no call is in sight."""
    func = name.frame()
    bound = func.locals.get(name.name, ()) if isinstance(func, nodes.FunctionDef) else ()
    if len(bound) != 1 or not isinstance(bound[0].parent, nodes.Arguments):
        return None
    passed = [
        value for site, skips_self in sites.calls_of(func)
        for names, value in astutil.bind_call(site, func, skips_self) if names == [name.name]
    ]
    return passed or None


def _reaching_binding(name: nodes.Name) -> nodes.NodeNG | None:
    """The binding of ``name`` that gives it its value at this use: in a function,
    the last assignment above the use in the same block or an enclosing one (a
    parameter when none); at module level, the one binding."""
    frame = name.frame()
    bound = [b for b in frame.locals.get(name.name, ()) if isinstance(b, nodes.AssignName)]
    if not bound:
        found = resolve.binding(name)
        return found if isinstance(found, nodes.AssignName) else None
    if len(bound) == 1:
        return bound[0]
    ancestors = set()
    node = name.parent
    while node is not None and node is not frame:
        ancestors.add(node)
        node = node.parent
    # not the statement holding the use (``x = f(\n    x)``: its value reads the one before)
    above = [
        b for b in bound
        if (b.lineno or 0) < (name.lineno or 0) and not isinstance(b.parent, nodes.Arguments) and b.statement() not in ancestors
    ]
    for binding in sorted(above, key=lambda b: b.lineno, reverse=True):
        statement = binding.statement()
        if statement.parent is frame or any(node in ancestors for node in _block_of(statement)):
            return binding  # in the use's block or an enclosing one: the last one reaches the use
        if not _other_branch(statement, ancestors, frame):
            return None  # in a block that may or may not have run before the use: unsure
    return None


def _other_branch(statement: nodes.NodeNG, ancestors: set[nodes.NodeNG], frame: nodes.NodeNG) -> bool:
    """Whether ``statement`` sits in one arm of an ``if`` whose other arm holds the use
    (``ancestors``: the nodes above it), outside any loop of ``frame``: it never runs
    before the use (``if a: m = m[:1]`` then ``elif b: f(m)``)."""
    child, parent = statement, statement.parent
    while parent is not None and parent is not frame:
        if isinstance(parent, (nodes.For, nodes.While)):
            return False  # an earlier iteration may have run it
        if isinstance(parent, nodes.If) and parent in ancestors:
            use_in_body = any(node in ancestors for node in parent.body)
            return (child in parent.body) != use_in_body and child is not parent.test
        child, parent = parent, parent.parent
    return False


def _iterated_from_dataset(name: nodes.Name) -> str | None:
    """TENSOR when ``name`` is a target of ``for ... in <dataset>.create_tuple_iterator()``
    unpacked, without ``output_numpy=True``; "container" for the whole item (a list
    of tensors, or a dict of them for create_dict_iterator)."""
    frame = name.frame()
    for binding in frame.locals.get(name.name, ()):
        return _dataset_loop_item(binding)
    return None


def _dataset_loop_item(binding: nodes.NodeNG) -> str | None:
    """What the loop target ``binding`` holds when its loop runs over a MindSpore
    dataset iterator (see :func:`_iterated_from_dataset`), else None."""
    loop = binding.parent
    while isinstance(loop, (nodes.Tuple, nodes.List)):
        loop = loop.parent
    if not isinstance(loop, nodes.For) or not loop.parent_of(binding):
        return None
    enumerated, iterator = _dataset_iterator(loop.iter, 0)
    if iterator is None:
        return None
    if binding.parent is loop:  # the whole item: a dict or a list of tensors
        return None if enumerated else "container"
    if enumerated:
        # ``for step, (x, y) in enumerate(...)``: the step is an int; the item is
        # the second element
        pair = binding.parent
        while isinstance(pair.parent, (nodes.Tuple, nodes.List)):
            pair = pair.parent
        if not (isinstance(pair, nodes.Tuple) and len(pair.elts) == 2 and pair.parent is loop):
            return None
        item = pair.elts[1]
        if item is binding:
            return "container"
        if not item.parent_of(binding):
            return None
    return TENSOR


def _dataset_iterator(expr: nodes.NodeNG | None, depth: int) -> tuple[bool, nodes.NodeNG | None]:
    """The dataset iterator call a loop runs over (``ds.create_tuple_iterator()``,
    through ``enumerate(...)``, ``tqdm(...)`` or a name assigned it once), or the
    dataset pipeline itself (its ``__iter__`` is create_tuple_iterator), and whether
    ``enumerate`` pairs each item with its step; (False, None) when it is not one."""
    enumerated = False
    while depth <= _CONSTANT_DEPTH:
        depth += 1
        if isinstance(expr, nodes.Name):
            value = resolve.assigned_value(expr, sole=True)
            if value is None:  # ``loader = loader.batch(8)`` after ``loader = GeneratorDataset(...)``
                return (enumerated, expr) if _dataset_pipeline(expr, depth) else (False, None)
            expr = value
            continue
        if not isinstance(expr, nodes.Call):
            return False, None
        func = expr.func
        if isinstance(func, nodes.Name) and func.name == "enumerate" and resolve.binding(func) is None:
            if enumerated or not expr.args:
                return False, None
            enumerated, expr = True, expr.args[0]
            continue
        if isinstance(func, (nodes.Name, nodes.Attribute)) and resolve.qualified_name(func) in apis.ITEM_PRESERVING_WRAPPERS:
            expr = expr.args[0] if expr.args else None
            continue
        if not (isinstance(func, nodes.Attribute) and func.attrname in apis.DATASET_TENSOR_ITERATORS):
            # ``for x, y in loader`` over the dataset itself: Dataset.__iter__ is
            # create_tuple_iterator(num_epochs=1), MindSpore tensors
            return (enumerated, expr) if _dataset_pipeline(expr, depth) else (False, None)
        numpy_output = astutil.argument(expr, None, "output_numpy")
        if numpy_output is astutil.UNKNOWN or (numpy_output is not None and astutil.literal_bool(numpy_output) is not False):
            return False, None
        return enumerated, expr
    return False, None


def _dataset_pipeline(expr: nodes.NodeNG | None, depth: int) -> bool:
    """A mindspore.dataset object: a source built from mindspore.dataset
    (``GeneratorDataset(...)``), or a pipeline method on one (``.batch(8)``), through
    names assigned it once."""
    while depth <= _CONSTANT_DEPTH:
        depth += 1
        if isinstance(expr, nodes.Name):
            value = resolve.assigned_value(expr, sole=True)
            if value is None:
                return _pipeline_in_every_assignment(expr, depth)
            expr = value
            continue
        if not (isinstance(expr, nodes.Call) and isinstance(expr.func, (nodes.Name, nodes.Attribute))):
            return False
        if isinstance(expr.func, nodes.Attribute) and expr.func.attrname in guide.DATASET_PIPELINE_METHODS:
            expr = expr.func.expr
            continue
        qname = resolve.call_name(expr)
        return qname is not None and qname.startswith(guide.DATASET_PACKAGE + ".") and qname.endswith("Dataset")
    return False


def _pipeline_in_every_assignment(name: nodes.Name, depth: int) -> bool:
    """``loader = GeneratorDataset(...)`` then ``loader = loader.batch(8)``: every
    assignment of the name in its scope is a pipeline, one built from a source and the
    others pipeline methods on it or on another pipeline."""
    bound = resolve.binding(name)
    if not isinstance(bound, nodes.AssignName):
        return False
    sourced = False
    for binding in bound.scope().locals.get(name.name, ()):
        statement = binding.parent
        if not (isinstance(statement, nodes.Assign) and statement.targets == [binding]):
            return False
        value = statement.value
        while (isinstance(value, nodes.Call) and isinstance(value.func, nodes.Attribute)
               and value.func.attrname in guide.DATASET_PIPELINE_METHODS):
            value = value.func.expr
        if isinstance(value, nodes.Name) and value.name == name.name:
            continue  # ``loader = loader.batch(8)``: a pipeline where loader is one
        if not _dataset_pipeline(value, depth + 1):
            return False
        sourced = True
    return sourced


def _mindspore_layer(expr: nodes.NodeNG | None, depth: int) -> str | None:
    """The MindSpore layer class ``expr`` certainly holds (``nn.Dense(...)``, a name
    the reaching assignment binds to one, ``self.fc`` that every assignment in its
    class binds to the same class, a parameter annotated with a mindspore class and
    no None default); None when unsure."""
    if expr is None or depth > _CONSTANT_DEPTH:
        return None
    if isinstance(expr, nodes.Call):
        qname = resolve.call_name(expr) if isinstance(expr.func, (nodes.Name, nodes.Attribute)) else None
        return qname if qname is not None and resolve.is_cell_qname(qname) else None
    if isinstance(expr, nodes.Name):
        bound = _reaching_binding(expr)
        if isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Arguments):
            annotation = astutil.annotation_of(bound.parent, bound)
            if not isinstance(annotation, (nodes.Name, nodes.Attribute)):
                return None
            default = _default_of(bound.parent, bound)
            if isinstance(default, nodes.Const) and default.value is None:
                return None
            qname = resolve.qualified_name(annotation)
            return qname if qname is not None and resolve.is_cell_qname(qname) else None
        statement = bound.parent if isinstance(bound, nodes.AssignName) else None
        if isinstance(statement, nodes.Assign) and statement.targets == [bound]:
            return _mindspore_layer(statement.value, depth + 1)
        return None
    attr = astutil.self_attribute(expr)
    cls = astutil.enclosing_class(expr) if attr is not None else None
    if cls is None:
        return None
    found = set()
    for klass in resolve.class_hierarchy(cls)[0]:
        for target in klass.nodes_of_class(nodes.AssignAttr):
            if target.attrname != attr or not astutil.is_self(target.expr):
                continue
            statement = target.parent
            if not (isinstance(statement, nodes.Assign) and statement.targets == [target]):
                return None
            found.add(_mindspore_layer(statement.value, depth + 1))
    return found.pop() if len(found) == 1 else None


def _declared_tensor(param: nodes.AssignName) -> bool:
    """A parameter annotated ``ms.Tensor`` (or Parameter), without a None default:
    the author declares a MindSpore tensor (``def decode(self, z: ms.Tensor)``)."""
    args = param.parent
    annotation = astutil.annotation_of(args, param)
    if not isinstance(annotation, (nodes.Name, nodes.Attribute)):
        return False  # none, Optional[...], a string
    if resolve.qualified_name(annotation) not in apis.TENSOR_ANNOTATIONS:
        return False
    default = _default_of(args, param)
    return not (isinstance(default, nodes.Const) and default.value is None)


def _default_of(args: nodes.Arguments, param: nodes.AssignName) -> nodes.NodeNG | None:
    positional = list(args.posonlyargs or ()) + list(args.args or ())
    if param in positional:
        index = positional.index(param) - (len(positional) - len(args.defaults or ()))
        return args.defaults[index] if index >= 0 else None
    if param in (args.kwonlyargs or ()):
        return (args.kw_defaults or [])[args.kwonlyargs.index(param)]
    return None


def callers_pass_no_tensor(expr: nodes.NodeNG) -> bool:
    """Whether ``expr`` is a parameter of a module function or of a method (or a
    value its methods, attributes or indexing compute from it: ``true.flatten()``),
    read before anything rebinds it, and the calls of that function in sight (at
    least one; for a method, also ``<x>.<method>(...)`` on a name bound to an
    instance: sites.method_calls) pass it nothing mslint knows for a MindSpore
    tensor: torch values, or values it cannot name. A helper in a module that
    imports no torch may well be handed torch tensors by its callers (a
    half-done port's metric meter). False when no call is in sight, or when one
    passes a MindSpore tensor (an op's result, a layer's output)."""
    root = astutil.read_root(expr, _CONSTANT_DEPTH * 2)
    if not isinstance(root, nodes.Name):
        return False
    func = root.frame()
    if not isinstance(func, nodes.FunctionDef):
        return False
    bound = func.locals.get(root.name, ())
    params = [b for b in bound if isinstance(b, nodes.AssignName) and isinstance(b.parent, nodes.Arguments)]
    if len(params) != 1 or params[0] in (func.args.vararg_node, func.args.kwarg_node):
        return False
    param = params[0]
    for other in bound:
        if other is param:
            continue
        if (other.lineno or 0) < (root.lineno or 0) or _in_loop_with(root, other, func):
            return False  # rebound before the use (or in a loop around it)
    if isinstance(func.parent, nodes.ClassDef):
        found = sites.method_calls(func)
    elif isinstance(func.parent, nodes.Module):
        found = sites.calls_of(func)
    else:
        return False
    if not found:
        return False
    for site, skips_self in found:
        for names, value in astutil.bind_call(site, func, skips_self):
            if param.name in names and (mindspore_object(value) == TENSOR or cell_output(value) == TENSOR):
                return False
    return True


def _in_loop_with(use: nodes.NodeNG, other: nodes.NodeNG, frame: nodes.NodeNG) -> bool:
    """Whether a loop of ``frame`` around ``use`` also holds ``other``."""
    node = use.parent
    while node is not None and node is not frame:
        if isinstance(node, (nodes.For, nodes.While)) and node.parent_of(other):
            return True
        node = node.parent
    return False


def _passed_object(name: nodes.Name, param: nodes.AssignName, depth: int) -> str | None:
    """What every caller in sight passes for a parameter: one kind, else None."""
    func = name.frame()
    if not isinstance(func, nodes.FunctionDef) or depth > 2:
        return None
    kinds = set()
    for site, skips_self in sites.calls_of(func):
        for names, value in astutil.bind_call(site, func, skips_self):
            if names == [param.name]:
                kinds.add(mindspore_object(value, depth + 1))
    return kinds.pop() if len(kinds) == 1 else None


def _attribute_object(expr: nodes.NodeNG, attr: str, depth: int) -> str | None:
    cls = astutil.enclosing_class(expr)
    if cls is None:
        return None
    found = [
        target for klass in resolve.class_hierarchy(cls)[0] for target in klass.nodes_of_class(nodes.AssignAttr)
        if target.attrname == attr and astutil.is_self(target.expr)
    ]
    kinds = set()
    for target in found:
        statement = target.parent
        if not (isinstance(statement, nodes.Assign) and statement.targets == [target]):
            return None
        kinds.add(mindspore_object(statement.value, depth + 1))
    return kinds.pop() if len(kinds) == 1 else None


# ---------------------------------------------------------------------------
# Code that runs only when a function is given a numpy array
# ---------------------------------------------------------------------------

_HOST_ARRAY_TYPE = "numpy.ndarray"


def only_for_host_arrays(node: nodes.NodeNG) -> bool:
    """Whether ``node`` sits in the taken arm of an ``if`` (or ``x if c else y``)
    whose condition holds only when the function was given a numpy array:
    ``isinstance(v, np.ndarray)``, a name assigned from it, or the flag a helper
    returns beside its value (``v, is_numpy = to_tensor(v)``, the helper returning
    True only under that isinstance test). Graph code receives tensors, never numpy
    arrays, so that arm is not compiled (OpenPCDet's ``limit_period`` idiom)."""
    func = node.frame()
    if not isinstance(func, nodes.FunctionDef):
        return False
    child, parent = node, node.parent
    while parent is not None and parent is not func:
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            in_body = child is parent.body if isinstance(parent, nodes.IfExp) else child in parent.body
            if in_body and _tests_host_array(parent.test, func, 0):
                return True
        child, parent = parent, parent.parent
    return False


def _is_host_array_test(test: nodes.NodeNG) -> bool:
    """``isinstance(v, np.ndarray)``, or an ``and`` of tests one of which is that
    (``vs and isinstance(vs[0], np.ndarray)``: the arm runs only when it holds)."""
    if isinstance(test, nodes.BoolOp) and test.op == "and":
        return any(_is_host_array_test(value) for value in test.values)
    return (
        isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "isinstance"
        and len(test.args) == 2 and resolve.qualified_name(test.args[1]) == _HOST_ARRAY_TYPE
    )


def _tests_host_array(test: nodes.NodeNG, func: nodes.FunctionDef, depth: int) -> bool:
    if _is_host_array_test(test):
        return True
    if not isinstance(test, nodes.Name) or depth > 2:
        return False
    bindings = [node for node in func.nodes_of_class(nodes.AssignName) if node.name == test.name]
    if len(bindings) != 1:
        return False
    target = bindings[0]
    statement = target.parent
    if isinstance(statement, nodes.Assign) and statement.targets == [target]:
        return _tests_host_array(statement.value, func, depth + 1)
    if not (isinstance(statement, nodes.Tuple) and isinstance(statement.parent, nodes.Assign)):
        return False
    call = statement.parent.value
    if statement.parent.targets != [statement] or not isinstance(call, nodes.Call):
        return False
    callee = _module_callee(call)
    if callee is None:
        return False
    return _returns_host_flag(callee[0], statement.elts.index(target), len(statement.elts))


def _returns_host_flag(helper: nodes.FunctionDef, index: int, width: int) -> bool:
    """Whether every return of ``helper`` is a tuple of ``width`` whose item ``index``
    is the constant True under an ``isinstance(..., np.ndarray)`` test and False elsewhere."""
    returns = list(helper.nodes_of_class(nodes.Return, skip_klass=(nodes.FunctionDef, nodes.Lambda, nodes.ClassDef)))
    if not returns:
        return False
    for ret in returns:
        value = ret.value
        if not (isinstance(value, nodes.Tuple) and len(value.elts) == width):
            return False
        flag = value.elts[index]
        if not (isinstance(flag, nodes.Const) and isinstance(flag.value, bool)):
            return False
        if flag.value and not _under_host_array_test(ret, helper):
            return False
    return True


def _under_host_array_test(node: nodes.NodeNG, func: nodes.FunctionDef) -> bool:
    child, parent = node, node.parent
    while parent is not None and parent is not func:
        if isinstance(parent, nodes.If) and child in parent.body and _is_host_array_test(parent.test):
            return True
        child, parent = parent, parent.parent
    return False
