"""The value analysis (mslint/analysis/values.py) and the shared AST helpers (mslint/analysis/astutil.py):
one walker's three questions, the per-class table of what ``self.x`` holds, and the
argument binding and literal evaluation the checkers share. Static: no framework."""

from __future__ import annotations

import astroid
import pytest
from astroid import nodes

from mslint.analysis import astutil, scope, sites, values

HEADER = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor

def probe(value):
    return value

def scale_rows(weights):
    half = weights * 0.5
    return half.astype(np.float32)

class Net(nn.Cell):
    def __init__(self, flag):
        super().__init__()
        self.w = Parameter(Tensor(1.0), "w")
        self.frozen_positional = Parameter(Tensor(1.0), "fp", False)
        self.frozen_keyword = Parameter(Tensor(1.0), name="fk", requires_grad=False)
        self.frozen_later = Parameter(Tensor(1.0), name="fl")
        self.frozen_later.requires_grad = False
        self.unsure = Parameter(Tensor(1.0), name="u", requires_grad=flag)
        self.table = ops.ones((2, 2))
        self.items = []
        self.count = 0
        self.p, self.q = make_pair()

    def construct(self, x, n, *args, **kwargs):
"""


def _probes(body: str) -> tuple[values.FunctionValues, list[nodes.NodeNG]]:
    source = HEADER + "".join(f"        {line}\n" for line in body.strip().splitlines())
    module = astroid.parse(source)
    analysis = scope.ModuleAnalysis(module)
    probes = [call.args[0] for call in module.nodes_of_class(nodes.Call) if getattr(call.func, "name", None) == "probe"]
    known = analysis.values_at(probes[0])
    assert known is not None
    return known, probes


def _answers(expression: str, before: str = "") -> tuple[bool, bool, bool]:
    known, probes = _probes(before + f"\nreturn probe({expression})")
    expr = probes[-1]
    return known.depends(expr), known.is_tensor(expr), known.carries_gradient(expr)


# (may depend, is a tensor, carries a gradient)
@pytest.mark.parametrize(
    ("expression", "expected"),
    [
        ("x", (True, False, True)),  # a bare parameter may be a Python number
        ("ops.exp(x)", (True, True, True)),
        ("x.shape[0]", (False, False, False)),
        ("x.numel()", (False, False, False)),
        # IfExp: any branch may depend; a tensor only when every branch is one
        ("ops.exp(x) if n else ops.sin(x)", (True, True, True)),
        ("ops.exp(x) if n else x.shape[0]", (True, False, True)),
        ("x.shape if x is not None else (1,)", (False, False, False)),
        # identity and membership: Python bools
        ("x is None", (False, False, False)),
        ('"mask" in kwargs', (False, False, False)),
        ("x in (1, 2)", (False, False, False)),
        ("ops.exp(x) > 0", (True, True, False)),  # a comparison of tensors: a tensor, no gradient
        # tuples and lists hold tensors but are not one
        ("(x, 1)", (True, False, True)),
        ("[ops.exp(x)]", (True, False, True)),
        ("(x.shape[0], 1)", (False, False, False)),
        # constant calls
        ("len(x)", (False, False, False)),
        ("ops.shape(x)", (False, False, False)),
        ("ops.Shape()(x)", (False, False, False)),
        ("np.zeros(x.shape)", (False, False, False)),
        ("np.float32(x)", (True, False, False)),  # a conversion of tensor data
        ("float(x)", (True, False, False)),  # detached Python number (FACTS.md)
        ("ops.stop_gradient(x)", (True, True, False)),
        ("ops.ReduceSum()(x)", (True, True, True)),
        ("x.asnumpy()", (True, False, False)),
        ("ops.exp(x).detach()", (True, True, False)),
        ("n.sum()", (True, True, True)),  # only tensors have .sum(): n is one
        ("ops.exp(x).type_as(n)", (True, True, True)),
        ("ops.zeros((2,)).type_as(x)", (True, True, False)),  # x lends its dtype only
        ("self.helper(x)", (True, False, True)),  # a user helper: unsure it is a tensor
        # self attributes
        ("self.w * 2", (True, True, True)),
        ("self.table", (True, True, False)),
        ("self.frozen_positional", (True, True, False)),
        ("self.count", (False, False, False)),
    ],
)
def test_walker_questions(expression: str, expected: tuple[bool, bool, bool]) -> None:
    assert _answers(expression) == expected


@pytest.mark.parametrize(
    ("expression", "before", "carries", "may_carry"),
    [
        ("n(x)", "", False, True),  # a callable passed in (a Cell): counted through its arguments
        ("n(self.table)", "", False, False),  # ... here of a constant tensor attribute
        ("self.helper(x)", "", True, True),
        ("self.table * 2", "", False, False),  # a constant tensor attribute has no gradient
        ("self.table * x", "", True, True),
        ("self.w", "", True, True),  # a trainable Parameter
        # integer results: indices, random integers
        ("ops.argmax(x)", "", False, False),
        ("x.argsort()", "", False, False),
        ("pick(x)", "pick = ops.Argmax()\n", False, False),
        ("ops.UniformInt()((2,), x, x)", "", False, False),
        ("float(x)", "", False, False),
        ("np.exp(x)", "", False, False),
    ],
)
def test_may_carry_gradient(expression: str, before: str, carries: bool, may_carry: bool) -> None:
    known, probes = _probes(before + f"\nreturn probe({expression})")
    assert (known.carries_gradient(probes[-1]), known.may_carry_gradient(probes[-1])) == (carries, may_carry)


def test_values_as_entry_outside_graph_code() -> None:
    module = astroid.parse(
        "from mindspore import ops\n"
        "def step(net, data):\n    out = net(data)\n    probe(out)\n    probe(ops.argmax(out))\n"
        "probe(1)\n"
    )
    analysis = scope.ModuleAnalysis(module)
    calls = [call for call in module.nodes_of_class(nodes.Call) if getattr(call.func, "name", None) == "probe"]
    assert analysis.values_at(calls[0]) is None  # not graph code
    known = analysis.values_as_entry(calls[0])
    assert known is not None
    assert [known.may_carry_gradient(call.args[0]) for call in calls[:2]] == [True, False]
    assert analysis.values_as_entry(calls[2]) is None  # module level


def test_names_follow_their_assignments() -> None:
    before = "y = ops.exp(x)\nz = ops.exp(x)\nz = 1\ns = x.shape\n"
    assert _answers("y", before) == (True, True, True)
    # bound twice: may depend and carry (one binding does), not certainly a tensor
    assert _answers("z", before) == (True, False, True)
    assert _answers("s", before) == (False, False, False)


def test_taint_flows_through_loops_and_augmented_assignment() -> None:
    before = "total = 0\nfor row in x:\n    total += row\n"
    assert _answers("total", before)[0]


def test_comprehension_variables_hold_their_iterable_elements() -> None:
    before = "d = x\n"  # another d of the function holds a tensor
    assert _answers("tuple(int(d) for d in x.shape)", before)[0] is False
    assert _answers("[e * 2 for e in x]")[0] is True
    assert _answers("[e * 2 for e in x]")[2] is True  # a list of values computed from x
    assert _answers("[e for e in x.shape]")[2] is False


def test_trainable_sources() -> None:
    known, probes = _probes(
        "a = probe(self.w * 2)\nb = probe(self.frozen_keyword)\nc = probe(self.w.detach())\n"
        "return probe(ops.exp(x) + self.w)"
    )
    assert [known.trainable_sources(expr) for expr in probes] == [
        frozenset({"w"}),
        frozenset(),
        frozenset(),
        frozenset({"w"}),
    ]


def test_entry_parameters_declared_constant_are_not_tensors() -> None:
    module = astroid.parse(
        "import mindspore as ms\n"
        "@ms.jit\n"
        "def f(x, k: int, shape=(1, 2), scale=1.0, *args, mode='a', **kw):\n"
        "    return x\n"
    )
    func = next(module.nodes_of_class(nodes.FunctionDef))
    assert values.entry_tensor_params(func) == {"x", "args", "kw"}


# ---------------------------------------------------------------------------
# The class table
# ---------------------------------------------------------------------------


def _class_facts(source: str, name: str = "Net") -> tuple[scope.ModuleAnalysis, values.ClassFacts]:
    module = astroid.parse(source)
    analysis = scope.ModuleAnalysis(module)
    cls = next(c for c in module.nodes_of_class(nodes.ClassDef) if c.name == name)
    return analysis, analysis.class_facts(cls)


def test_requires_grad_in_every_spelling() -> None:
    _, facts = _class_facts(HEADER + "        return x\n")
    assert facts.trainable == {"w"}
    assert {"w", "frozen_positional", "frozen_keyword", "frozen_later", "unsure", "table"} <= facts.tensor_attrs
    assert "count" not in facts.tensor_attrs and "items" not in facts.tensor_attrs


@pytest.mark.parametrize(
    ("parameter", "expected"),
    [
        ('Parameter(t, "w")', True),
        ('Parameter(t, "w", True)', True),
        ('Parameter(t, "w", False)', False),
        ('Parameter(t, name="w", requires_grad=False)', False),
        ('Parameter(t, "w", requires_grad=flag)', None),
        ("Parameter(*args)", None),
    ],
)
def test_requires_grad_of_a_call(parameter: str, expected: bool | None) -> None:
    assert values.requires_grad(astroid.extract_node(parameter)) is expected


CELLS = """
from mindspore import nn, Parameter, Tensor

class Frozen(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(2.0), "scale", False)

class FrozenKeyword(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(2.0), name="scale", requires_grad=False)

class FrozenLater(nn.Cell):
    def __init__(self):
        super().__init__()
        bias = Parameter(Tensor(1.0), name="bias")
        bias.requires_grad = False
        self.bias = bias

class Trainable(nn.Cell):
    def __init__(self):
        super().__init__()
        self.scale = Parameter(Tensor(2.0), "scale", True)

class Holder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Trainable()

class FrozenHolder(nn.Cell):
    def __init__(self):
        super().__init__()
        self.inner = Frozen()

class WithLayer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.norm = nn.BatchNorm1d(2, affine=False)
        self.dense = nn.Dense(2, 2)

class Derived(Trainable):
    pass
"""


@pytest.mark.parametrize(
    ("name", "expected"),
    [
        ("Frozen", False),
        ("FrozenKeyword", False),
        ("FrozenLater", False),
        ("Trainable", True),
        ("Holder", True),
        ("FrozenHolder", False),
        ("WithLayer", True),
        ("Derived", True),
    ],
)
def test_creates_trainable_parameters(name: str, expected: bool) -> None:
    analysis, facts = _class_facts(CELLS, name)
    assert facts.creates_trainable_parameters(analysis.class_facts) is expected


def test_attribute_kinds_and_values() -> None:
    source = HEADER + (
        "        self.cache = x\n"
        "        return x\n"
        "    def reset(self):\n"
        "        self.count = 1\n"
        "        self.mapping = {}\n"
        "    @property\n"
        "    def size(self):\n"
        "        return 1\n"
        "    @size.setter\n"
        "    def size(self, value):\n"
        "        self.stored = value\n"
    )
    _, facts = _class_facts(source)
    assert facts.kind("items") == values.LIST
    assert facts.kind("mapping") == values.DICT
    assert facts.kind("count") == values.VALUE
    assert facts.kind("w") == values.PARAMETER
    assert facts.kind("cache") == values.ABSENT  # assigned in graph code only
    assert facts.kind("p") == values.UNSURE  # hidden by unpacking
    assert facts.kind("stored") == values.UNSURE  # a property setter is read too
    assert facts.values("p") == [None]
    assert [value.as_string() for value in facts.values("count")] == ["0", "1"]


def test_class_attributes_and_dynamic_creation() -> None:
    source = (
        "from mindspore import nn\n"
        "class Net(nn.Cell):\n"
        "    steps = 0\n"
        "    def __init__(self):\n"
        "        super().__init__()\n"
        "        setattr(self, 'x', 1)\n"
        "    def construct(self, x):\n"
        "        return x\n"
    )
    _, facts = _class_facts(source)
    assert facts.kind("steps") == values.VALUE
    assert facts.kind("anything") == values.UNSURE  # setattr may create it


def test_class_facts_are_cached_per_class() -> None:
    analysis, facts = _class_facts(CELLS, "Holder")
    assert analysis.class_facts(facts.cls) is facts


# ---------------------------------------------------------------------------
# Shared AST helpers
# ---------------------------------------------------------------------------


def test_argument_by_position_or_keyword() -> None:
    call = astroid.extract_node("f(a, b, c=3)")
    assert astutil.argument(call, 1, "b").as_string() == "b"
    assert astutil.argument(call, 5, "c").as_string() == "3"
    assert astutil.argument(call, 5, "d") is None
    assert astutil.argument(astroid.extract_node("f(*args)"), 1, "b") is astutil.UNKNOWN
    assert astutil.argument(astroid.extract_node("f(**kw)"), 1, "b") is astutil.UNKNOWN


def test_bind_call_to_a_function() -> None:
    module = astroid.parse("def f(self, a, b=1, *rest, c, **extra):\n    pass\nf(x, y, z, w, c=v, d=u)\nf(*s)\n")
    func = next(module.nodes_of_class(nodes.FunctionDef))
    first, second = list(module.nodes_of_class(nodes.Call))
    bound = [(names, value.as_string()) for names, value in astutil.bind_call(first, func, skips_self=True)]
    assert bound == [(["a"], "x"), (["b"], "y"), (["rest"], "z"), (["rest"], "w"), (["c"], "v"), (["extra"], "u")]
    starred = list(astutil.bind_call(second, func, skips_self=True))
    assert starred[0][0] == ["a", "b", "rest"]


def test_bind_by_name() -> None:
    assert astutil.bind_by_name(astroid.extract_node("f(1, b=2)"), ("a", "b")).keys() == {"a", "b"}
    assert astutil.bind_by_name(astroid.extract_node("f(1, 2, 3)"), ("a", "b")) is None
    assert astutil.bind_by_name(astroid.extract_node("f(*x)"), ("a", "b")) is None


@pytest.mark.parametrize(
    ("source", "expected"),
    [("1 - 0.25", 0.75), ("(1, -2)", (1, -2)), ("'same'", "same"), ("1 / 0", astutil.UNKNOWN), ("k", astutil.UNKNOWN)],
)
def test_literal(source: str, expected: object) -> None:
    assert astutil.literal(astroid.extract_node(f"f({source})").args[0]) == expected


def test_enclosing_method_class_and_paths() -> None:
    module = astroid.parse(
        "class A:\n"
        "    def m(self):\n"
        "        def inner():\n"
        "            return self.net.head\n"
        "        return inner\n"
    )
    attribute = next(node for node in module.nodes_of_class(nodes.Attribute) if node.attrname == "head")
    method, cls = astutil.enclosing_method(attribute)
    assert (method.name, cls.name) == ("m", "A")
    assert astutil.enclosing_class(attribute) is cls
    assert astutil.attribute_path(attribute) == "self.net.head"
    assert astutil.self_attribute(attribute.expr) == "net"


def test_assignment_pairs() -> None:
    assign = astroid.extract_node("a, (b, c) = 1, (2, 3)")
    pairs = [(target.name, value.as_string()) for target, value in astutil.assignment_pairs(assign.targets, assign.value)]
    assert pairs == [("a", "1"), ("b", "2"), ("c", "3")]
    hidden = astroid.extract_node("a, b = f()")
    assert [value for _, value in astutil.assignment_pairs(hidden.targets, hidden.value)] == [None, None]


def test_optional_parameters_may_be_tensors() -> None:
    # None and Optional[Tensor] mean "maybe a tensor"; scalar defaults stay constants
    module = astroid.parse(
        "from typing import Optional\n"
        "from mindspore import Tensor\n"
        "class Net:\n"
        "    def construct(self, ids=None, mask: Optional[Tensor] = None, n: Optional[int] = None,\n"
        "                  rate=0.1, size=(2, 3), name='a', flag=False):\n"
        "        return ids\n"
    )
    func = next(module.nodes_of_class(nodes.FunctionDef))
    assert values.entry_tensor_params(func) == {"ids", "mask"}


CONSTANTS = """
import mindspore.nn as nn
BN_MOMENTUM = 0.1
TWICE = BN_MOMENTUM * 2
REBOUND = 0.1
REBOUND = 0.9
def bn(c, momentum=0.03, size=7):
    return (momentum, BN_MOMENTUM, TWICE, REBOUND, size // 2, c)
"""


def test_constant_reads_module_constants_and_parameter_defaults() -> None:
    module = astroid.parse(CONSTANTS)
    ret = next(module.nodes_of_class(nodes.Return)).value
    momentum, bn_momentum, twice, rebound, half, channels = ret.elts
    assert values.constant(bn_momentum) == 0.1
    assert values.constant(twice) == pytest.approx(0.2)
    assert values.constant(rebound) is astutil.UNKNOWN  # bound twice: unsure
    assert values.constant(momentum) is astutil.UNKNOWN  # a caller may pass another value
    assert values.constant(momentum, defaults=True) == 0.03
    assert values.constant(half, defaults=True) == 3
    assert values.constant(channels, defaults=True) is astutil.UNKNOWN
    func, default = values.parameter_default(momentum)
    assert func.name == "bn" and default.value == 0.03
    assert values.parameter_default(channels) is None


def test_constant_follows_imports_of_project_modules_only(tmp_path, monkeypatch) -> None:
    (tmp_path / "projconf.py").write_text("BN_MOMENTUM = 0.1\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(tmp_path))
    module = astroid.parse(
        "from projconf import BN_MOMENTUM\nfrom numpy import pi\nBN_MOMENTUM #@\npi\n",
        path=str(tmp_path / "user.py"),
    )
    first, second = [expr.value for expr in module.body[2:]]
    assert values.constant(first) == 0.1
    assert values.constant(second) is astutil.UNKNOWN  # a framework's name: never read


# How a host copy is used (values.FunctionValues.uses): copies made at ``probe(...)``.
@pytest.mark.parametrize(
    ("body", "carrying", "expected"),
    [
        ("m = int(probe(n.asnumpy()).max())\nreturn x.reshape(m, -1)", False, {values.STRUCTURE}),
        ("return x[:, Tensor(probe(n.asnumpy()))]", False, {values.STRUCTURE}),
        ("b = ops.BroadcastTo((2, probe(n.asnumpy()).tolist()))\nreturn b(x)", False, {values.STRUCTURE}),
        ("return x * Tensor(probe(x.asnumpy()))", True, {values.DATA}),
        ("return x * Tensor(probe(x.asnumpy()))", False, set()),  # no gradient to lose as data
        ("return x * Tensor(np.digitize(probe(x.asnumpy()), np.ones(3)))", True, set()),
        ("return x[Tensor(np.digitize(probe(x.asnumpy()), np.ones(3)))]", True, {values.STRUCTURE}),
        ("if probe(n.asnumpy()).max() > 3:\n    return x\nreturn x * 2", True, set()),
        ("kwargs['loss'] = probe(x.asnumpy()).item()\nprint(probe(x.asnumpy()))\nreturn x", True, set()),
        ("total = 0\ntotal += probe(x.asnumpy()).item()\nreturn total", True, {values.DATA, values.UNFOLLOWED}),
        ("sizes = []\nsizes.extend(probe(n.asnumpy()).tolist())\nreturn sizes", False, {values.UNFOLLOWED}),
        ("return self.embed(Tensor(np.digitize(probe(x.asnumpy()), np.ones(3))))", True, set()),
        ("w = probe(scale_rows(ops.ones((2, 2)).asnumpy()))\nreturn x * Tensor(w)", False, set()),
        ("w = scale_rows(probe(ops.ones((2, 2)).asnumpy()))\nreturn x.reshape(int(w.max()), -1)", False, {values.STRUCTURE}),
        ("return ops.Conv2D(out_channel=int(probe(n.asnumpy())), kernel_size=3)(x, x)", False, {values.STRUCTURE}),
    ],
)
def test_uses_of_a_host_copy(body: str, carrying: bool, expected: set) -> None:
    known, probes = _probes(body)
    found = set()
    for probe in probes:
        found |= known.uses(probe.parent, carrying)
    assert found == expected


@pytest.mark.parametrize(
    ("expression", "carries"),
    [
        ("ops.argmax(x)", False),
        ("ops.Cast()(x, ms.int32)", False),
        ("ops.cast(x, ms.float16)", True),
        ("x.astype('int64')", False),
        ("(x > 0).astype(ms.float32)", False),
        ("ops.floor(x)", False),
        ("x.eq(n)", False),
    ],
)
def test_integer_and_step_results_carry_no_gradient(expression: str, carries: bool) -> None:
    assert _answers(expression)[2] is carries


def test_host_data_and_inference_only_code() -> None:
    module = astroid.parse(HEADER + """
        copy = x.asnumpy()
        if not self.training:
            return self.post(probe(copy.max()))
        if self.training:
            return probe(np.max(copy))
        return self.post(x)

    def post(self, y):
        return probe(y)
""")
    analysis = scope.ModuleAnalysis(module)
    probes = [call.args[0] for call in module.nodes_of_class(nodes.Call) if getattr(call.func, "name", None) == "probe"]
    first, second, in_post = probes
    assert values.host_data(first) and values.host_data(second) and not values.host_data(in_post)
    assert values.inference_only(first, analysis.class_facts)
    assert not values.inference_only(second, analysis.class_facts)
    assert values.inference_only(in_post, analysis.class_facts)  # every call of post is inference code


def test_host_data_of_a_rebound_name_is_the_assignment_that_reaches_it() -> None:
    module = astroid.parse("""
    import numpy as np

    def post(boxes, flag):
        probe(boxes)
        boxes = boxes.asnumpy()
        probe(boxes)
        scores = flag * 2
        if flag:
            scores = boxes.asnumpy()
        probe(scores)
        for step in range(3):
            probe(boxes)
            boxes = boxes + 1
    """)
    probes = [call.args[0] for call in module.nodes_of_class(nodes.Call) if getattr(call.func, "name", None) == "probe"]
    before, after, maybe, in_loop = probes
    assert not values.host_data(before)  # the parameter: a tensor
    assert values.host_data(after)  # the copy reaches it
    assert not values.host_data(maybe)  # the copy is made in one branch only
    assert not values.host_data(in_loop)  # a later iteration reads boxes + 1


# ---------------------------------------------------------------------------
# Values that flow with construction (values.received, values.never_runs)
# ---------------------------------------------------------------------------


def _probed(source: str) -> list[nodes.NodeNG]:
    """The arguments of ``probe(...)`` in ``source``, in order."""
    module = astroid.parse(source)
    values.forget_flow()
    return [call.args[0] for call in module.nodes_of_class(nodes.Call) if getattr(call.func, "name", None) == "probe"]


def _taken(expr: nodes.NodeNG) -> list[object] | None:
    found = values.received(expr)
    return None if found is None else [item.value for item in found]


def test_a_class_passed_as_an_argument_is_built_where_its_parameter_is_called() -> None:
    """``Trunk(Unit)`` -> ``self._stage(unit, ...)`` -> ``unit(width, track=track)``:
    that call constructs Unit, with the flag a local turned off."""
    (track,) = _probed("""
    from mindspore import nn

    class Unit(nn.Cell):
        def __init__(self, width, track=True):
            super().__init__()
            probe(track)

    class Trunk(nn.Cell):
        def __init__(self, unit):
            super().__init__()
            statistics_on = False
            self.stage = self._stage(unit, 32, track=statistics_on)

        def _stage(self, unit, width, track=True):
            return nn.SequentialCell([unit(width, track=track) for _ in range(2)])

    net = Trunk(Unit)
    """)
    init = track.frame()
    (site, skips_self), = sites.calls_of(init)
    assert site.as_string() == "unit(width, track=track)" and skips_self
    assert _taken(track) == [False]


def test_a_class_passed_to_a_parameter_that_is_rebound_is_not_followed() -> None:
    (track,) = _probed("""
    from mindspore import nn

    class Unit(nn.Cell):
        def __init__(self, track=True):
            super().__init__()
            probe(track)

    def build(unit):
        unit = pick(unit)
        return unit(track=False)

    build(Unit)
    """)
    assert sites.calls_of(track.frame()) == []


@pytest.mark.parametrize(
    ("call", "expected"),
    [
        ("create(**defaults())", [0.9]),  # a user function's one returned dict(...)
        ("create(**defaults(rate=0.1))", [0.1]),  # read in the way the call calls it
        ("create(**{'width': 4, 'rate': 0.5})", [0.5]),
        ("create(**OPTIONS)", [0.7]),  # a module's mapping
        ("opts = dict(width=4, rate=0.3)\ncreate(**opts)", [0.3]),
        ("create(**dict(width=4))", [0.25]),  # a known mapping that leaves rate out: the default
        ("create(**unknown())", [values.astutil.UNKNOWN]),
        ("create(**{**OPTIONS, 'width': 8})", [values.astutil.UNKNOWN]),  # a key mslint cannot list
    ],
)
def test_a_mapping_unpacked_into_a_call_gives_its_keys(call: str, expected: list) -> None:
    body = "".join(f"    {line}\n" for line in call.splitlines())
    (rate,) = _probed(f"""
OPTIONS = {{"width": 2, "rate": 0.7}}

def defaults(rate=0.9):
    return dict(width=4, rate=rate)

def create(width, rate=0.25):
    probe(rate)

def main():
{body}
""")
    assert _taken(rate) == expected


def test_args_and_kwargs_passed_on_keep_their_values() -> None:
    """``super().__init__(*args, **kwargs)`` hands the caller's arguments on as they were passed."""
    rate, width = _probed("""
    from mindspore import nn

    class Thin(nn.Cell):
        def __init__(self, width, rate=0.5):
            super().__init__()
            probe(rate)
            probe(width)

    class Wrapper(Thin):
        def __init__(self, *args, **kwargs):
            super().__init__(*args, **kwargs)

    Wrapper(16, rate=0.1)
    Wrapper(8)
    """)
    assert _taken(rate) == [0.1, 0.5]
    assert _taken(width) == [16, 8]


def test_kwargs_changed_before_they_are_passed_on_are_unknown() -> None:
    (rate,) = _probed("""
    from mindspore import nn

    class Thin(nn.Cell):
        def __init__(self, width, rate=0.5):
            super().__init__()
            probe(rate)

    class Wrapper(Thin):
        def __init__(self, width, **kwargs):
            self.own = kwargs.pop("rate", 0.9)
            super().__init__(width, **kwargs)

    Wrapper(16, rate=0.1)
    """)
    assert _taken(rate) == [values.astutil.UNKNOWN]


def test_ways_found_deep_in_a_chain_are_found_again_from_nearer() -> None:
    """A function's ways first found at the end of a long chain followed fewer
    callers (the value is unknown past them); asked for directly, they reach the call."""
    near_leaf, in_second = _probed("""
    def leaf(rate):
        probe(rate)

    def f1(rate):
        leaf(rate)

    def f2(rate):
        probe(rate)
        f1(rate)

    def f3(rate):
        f2(rate)

    def f4(rate):
        f3(rate)

    def f5(rate):
        f4(rate)

    def f6(rate):
        f5(rate)

    f6(0.1)
    """)
    assert _taken(near_leaf) == [values.astutil.UNKNOWN]  # f6's call is past the callers followed
    assert _taken(in_second) == [0.1]


_NET = """
class Net(nn.Cell):
    def __init__(self{params}):
        super().__init__()
        self.block = Block(8{passed})
"""


@pytest.mark.parametrize(
    ("builds", "never"),
    [
        ("Block(8)", True),  # every way passes glu=True
        ("Block(8); Block(8, gated=False)", False),  # one way takes the arm
        ("Block(8, gated=unknown())", False),  # a way mslint cannot read
        # no Block in sight: mslint judges it with its defaults, but a default of
        # code nothing builds is no proof that the arm never runs
        ("", False),
        # built only in a class nothing builds, whose site writes what FF gets
        (_NET.format(params="", passed=""), True),
        # ... whose own default is what FF gets: no proof
        (_NET.format(params=", gated=True", passed=", gated=gated"), False),
        # a construction that runs proves it; the class nothing builds counts by its default
        ("Block(8)\n" + _NET.format(params=", gated=True", passed=", gated=gated"), True),
        ("Block(8)\n" + _NET.format(params=", gated=False", passed=", gated=gated"), False),
    ],
)
def test_code_under_a_guard_every_way_makes_false_never_runs(builds: str, never: bool) -> None:
    dead, guard_free = _probed(f"""
from mindspore import nn

class FF(nn.Cell):
    def __init__(self, dim, glu=False):
        super().__init__()
        self.inner = probe(nn.Dense(dim, dim)) if not glu else GEGLU(dim)
        self.out = probe(nn.Dense(dim, dim))

class Block(nn.Cell):
    def __init__(self, dim, gated=True):
        super().__init__()
        self.ff = FF(dim, glu=gated)

{builds}
""")
    assert values.never_runs(dead) is never
    assert not values.never_runs(guard_free)


@pytest.mark.parametrize(
    ("builds", "never"),
    [
        ("Neck(neck=nn.SequentialCell([nn.ReLU()]))", True),  # a class's construction: never None
        ("held = nn.Identity()\nNeck(held)", True),  # a name bound once to one
        ("Neck(neck=[nn.ReLU()])", True),  # a list display
        ("Neck(neck=Own())", True),  # a project class
        ("Neck(neck=Odd())", False),  # a project class with its own __new__: may be anything
        ("Neck()", False),  # the default None
        ("Neck(neck=None)", False),
        ("Neck(neck=make())", False),  # a helper's result: maybe None
        ("Neck(neck=nn.Identity()); Neck()", False),  # one way takes the arm
        ("held = None\nif flag:\n    held = nn.Identity()\nNeck(held)", False),  # bound twice: unsure
    ],
)
def test_a_none_default_guard_is_false_where_every_construction_passes_an_object(builds: str, never: bool) -> None:
    """``if neck is None: neck = <default>`` reads the parameter before the function
    rebinds it: a construction that passes an object never None never builds the default."""
    (default,) = _probed(f"""
from mindspore import nn

class Own(nn.Cell):
    pass

class Odd(nn.Cell):
    def __new__(cls):
        return None

class Neck(nn.Cell):
    def __init__(self, neck=None):
        super().__init__()
        if neck is None:
            neck = probe(nn.Dense(8, 8))
        self.neck = neck

{builds}
""")
    assert values.never_runs(default) is never


def test_a_parameter_read_in_a_loop_that_rebinds_it_is_unknown() -> None:
    """In a loop, a later ``neck = None`` may reach the read on the next round."""
    (default,) = _probed("""
from mindspore import nn

class Necks(nn.Cell):
    def __init__(self, neck=None):
        super().__init__()
        self.layers = []
        for _ in range(2):
            if neck is None:
                self.layers.append(probe(nn.Dense(8, 8)))
            neck = None

Necks(nn.Identity())
""")
    assert not values.never_runs(default)


def test_a_none_guard_reads_only_identity_with_none() -> None:
    """An object known only to be no None: ``== None`` and its truth are its class's."""
    in_truth, in_equal = _probed("""
from mindspore import nn

class Neck(nn.Cell):
    def __init__(self, neck=None, head=None):
        super().__init__()
        if not neck:
            probe(nn.Dense(8, 8))
        if head == None:  # noqa: E711
            probe(nn.Dense(8, 8))

Neck(nn.SequentialCell([]), head=nn.Identity())
""")
    assert not values.never_runs(in_truth)
    assert not values.never_runs(in_equal)


def test_a_self_attribute_read_past_a_try_body_that_assigns_it_is_unknown() -> None:
    """A handler, the else and the finally of a ``try`` whose body assigns the
    attribute may see that value or the one before: unknown. Earlier handlers
    are alternatives, not statements that ran before."""
    in_handler, in_else, in_finally, after_other_handler, after_handlers = _probed("""
    from mindspore import nn

    class Block(nn.Cell):
        def __init__(self, drop=0.1):
            super().__init__()
            self.rate = 0.2
            try:
                self.rate = drop
            except ValueError:
                probe(self.rate)
            else:
                probe(self.rate)
            finally:
                probe(self.rate)
            self.rate = 0.3
            try:
                pass
            except TypeError:
                self.rate = 0.4
            except KeyError:
                probe(self.rate)
            finally:
                probe(self.rate)

    Block(0.5)
    """)
    unknown = [values.astutil.UNKNOWN]
    assert _taken(in_handler) == _taken(in_else) == _taken(in_finally) == unknown
    assert _taken(after_other_handler) == [0.3]  # the TypeError handler did not run
    assert _taken(after_handlers) == unknown  # the finally follows any handler


def test_code_of_a_class_nothing_in_sight_builds_may_run() -> None:
    """No construction in sight: a library's class, built either way."""
    (guarded,) = _probed("""
    from mindspore import nn

    class FF(nn.Cell):
        def __init__(self, dim, glu=True):
            super().__init__()
            self.inner = probe(nn.Dense(dim, dim)) if not glu else GEGLU(dim)
    """)
    assert not values.never_runs(guarded)


def test_a_class_passed_in_another_module_is_found_by_the_project_index(tmp_path, monkeypatch) -> None:
    """train.py passes Unit to Trunk (in trunk.py), which calls it: the index of
    the names each file passes finds train.py for Unit's sites."""
    package = tmp_path / "models"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "blocks.py").write_text(
        "from mindspore import nn\n\n\nclass Unit(nn.Cell):\n"
        "    def __init__(self, width, track=True):\n        super().__init__()\n        self.track = track\n",
        encoding="utf-8",
    )
    (package / "trunk.py").write_text(
        "from mindspore import nn\n\n\nclass Trunk(nn.Cell):\n"
        "    def __init__(self, unit):\n        super().__init__()\n        self.stage = self._stage(unit, 8)\n\n"
        "    def _stage(self, unit, width):\n        return nn.SequentialCell([unit(width, track=False)])\n",
        encoding="utf-8",
    )
    (tmp_path / "train.py").write_text(
        "from models.blocks import Unit\nfrom models.trunk import Trunk\n\nnet = Trunk(Unit)\n", encoding="utf-8",
    )
    monkeypatch.syspath_prepend(str(tmp_path))
    sites.forget()
    values.forget_flow()
    try:
        module = astroid.MANAGER.ast_from_file(str(package / "blocks.py"), "models.blocks", source=True)
        init = module["Unit"]["__init__"]
        found = sites.calls_of(init)
        assert [(call.root().name, call.as_string()) for call, _ in found] == [("models.trunk", "unit(width, track=False)")]
        track = next(node for node in init.nodes_of_class(nodes.Name) if node.name == "track")
        assert _taken(track) == [False]
    finally:  # these module names are common: later tests must not find these trees
        for name in ("models", "models.blocks", "models.trunk", "train"):
            astroid.MANAGER.astroid_cache.pop(name, None)
        sites.forget()
        values.forget_flow()


# ---------------------------------------------------------------------------
# argparse options where the program fixes the command line (mslint/analysis/arguments.py)
# ---------------------------------------------------------------------------
PARSER = """
import argparse
parser = argparse.ArgumentParser()
parser.add_argument("--device_num", type=int, default=1)
parser.add_argument("--lr", type=float, default="0.01")
parser.add_argument("--amp", action="store_true")
parser.add_argument("--data-dir", dest="root", default="./data")
"""


@pytest.mark.parametrize(
    ("parse", "expression", "expected"),
    [
        ("args = parser.parse_args(args=[])", "args.device_num", 1),
        ("args = parser.parse_args([])", "args.lr", 0.01),  # argparse converts a string default with type=
        ("args = parser.parse_args([])", "args.amp", False),
        ("args = parser.parse_args([])", "args.root", "./data"),
        # through a function returning the module's namespace (``args = get_args()``)
        ("args = parser.parse_args([])\ndef get_args():\n    args.phase = 'train'\n    return args\nargs = get_args()",
         "args.device_num", 1),
        ("args = parser.parse_args([])\nargs.device_num = 1", "args.device_num", 1),  # the same value written again
    ],
)
def test_an_option_of_an_empty_argument_list_holds_its_default(parse: str, expression: str, expected: object) -> None:
    from mslint.analysis import arguments

    node = astroid.extract_node(f"{PARSER}{parse}\n{expression} #@")
    found = arguments.option_value(node)
    assert found is not None and found[0] == expected and type(found[0]) is type(expected)


@pytest.mark.parametrize(
    ("parse", "expression"),
    [
        ("args = parser.parse_args()", "args.device_num"),  # the real command line: a user may pass --device_num 8
        ("args = parser.parse_args(['--device_num', '8'])", "args.device_num"),
        ("args = parser.parse_args([])", "args.missing"),  # no such option here
        ("args = parser.parse_args([])\nargs.device_num = 8", "args.device_num"),
        ("args = parser.parse_args([])\nsetattr(args, 'device_num', 8)", "args.device_num"),
        ("args = parser.parse_args([])\nparser.set_defaults(device_num=8)", "args.device_num"),
        ("args = parser.parse_args([])\nif cli:\n    args = parser.parse_args()", "args.device_num"),
        ("args = parser.parse_args([])\ndef load(args):\n    return args\nns = load(other)", "ns.device_num"),  # a parameter
    ],
)
def test_an_option_that_may_hold_anything_is_unknown(parse: str, expression: str) -> None:
    from mslint.analysis import arguments

    node = astroid.extract_node(f"{PARSER}{parse}\n{expression} #@")
    assert arguments.option_value(node) is None


def test_a_guard_on_a_fixed_option_is_off() -> None:
    module = astroid.parse(f"{PARSER}args = parser.parse_args(args=[])\nif args.device_num > 1:\n    init()\nelse:\n    single()\n")
    calls = {call.func.name: call for call in module.nodes_of_class(nodes.Call) if isinstance(call.func, nodes.Name)}
    assert values.guarded_off(calls["init"]) and not values.guarded_off(calls["single"])
    module = astroid.parse(f"{PARSER}args = parser.parse_args()\nif args.device_num > 1:\n    init()\n")
    init = next(call for call in module.nodes_of_class(nodes.Call) if isinstance(call.func, nodes.Name) and call.func.name == "init")
    assert not values.guarded_off(init)


# ---------------------------------------------------------------------------
# Inputs a compiled range() proves Python ints (mslint/analysis/python_ints.py)
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("before", "expression", "depends"),
    [
        # a part of the input tuple that range() takes: a Python int, and what is built from it
        ("count, state = args[0]\nsteps = list(range(count))\n", "count", False),
        ("count, state = args[0]\n", "np.roll(range(count), 1)", False),
        ("count, state = args[0]\nsteps = range(count - 1)\n", "np.arange(count * 2)", False),
        ("count, state = args[0]\nlast = count - 1\nsteps = range(count)\n", "last", False),
        # ... but not its tensor neighbour, nor a part no range() takes
        ("count, state = args[0]\nsteps = range(count)\n", "state", True),
        ("count, state = args[0]\n", "count", True),
        # a range() in a branch proves nothing outside it
        ("count, state = args[0]\nif self.count:\n    steps = range(count)\n", "count", True),
        # a parameter too; a value the function computes is left to what it is computed from
        ("steps = range(n)\n", "n", False),
        ("k = int(x.sum())\nsteps = range(k)\n", "k", True),
    ],
)
def test_range_proves_an_input_a_python_int(before: str, expression: str, depends: bool) -> None:
    known, probes = _probes(before + f"\nreturn probe({expression})")
    assert known.depends(probes[-1]) is depends
    assert not known.carries_gradient(probes[-1]) or depends


def test_a_call_prunes_the_branches_of_its_callee_it_never_takes() -> None:
    module = astroid.parse(
        "import numpy as np\n"
        "def squash(x, how=None, scale=1):\n"
        "    if how is None:\n        return np.tanh(x)\n"
        "    if how == 'log':\n        a = np.log1p(x)\n        return a\n"
        "    return np.sqrt(x)\n"
        "def use(x, how):\n"
        "    return squash(x), squash(x, 'log'), squash(x, how)\n"
    )
    squash = module.body[1]
    tanh, log1p, sqrt = [call for call in squash.nodes_of_class(nodes.Call) if call.func.attrname in ("tanh", "log1p", "sqrt")]
    plain, log, unknown = module.body[2].body[0].value.elts
    off = values.guarded_off_by_call
    assert [off(node, squash, plain, False) for node in (tanh, log1p, sqrt)] == [False, True, True]
    assert [off(node, squash, log, False) for node in (tanh, log1p, sqrt)] == [True, False, True]
    assert [off(node, squash, unknown, False) for node in (tanh, log1p, sqrt)] == [False, False, False]


HASATTR_GUARDS = """
def guarded(v, w):
    if hasattr(v, "detach"):
        a = v.detach()
    b = v.detach() if hasattr(v, "detach") else v
    c = hasattr(v, "detach") and v.detach()
    if not hasattr(v, "cpu"):
        pass
    else:
        d = v.cpu()
    return a, b, c, d

def early(v):
    if not hasattr(v, "detach"):
        return v
    return v.detach()

def unguarded(v, w):
    if hasattr(v, "cpu"):
        a = v.detach()
    if hasattr(w, "detach"):
        b = v.detach()
    if not hasattr(v, "detach"):
        print(v)
    return a, b, v.detach()
"""


def test_a_call_under_hasattr_on_its_own_receiver_and_method_is_guarded() -> None:
    module = astroid.parse(HASATTR_GUARDS)
    calls = [call for call in module.nodes_of_class(nodes.Call) if isinstance(call.func, nodes.Attribute)]
    guarded = {call.frame().name: [] for call in calls}
    for call in calls:
        guarded[call.frame().name].append(astutil.guarded_by_hasattr(call))
    assert guarded == {"guarded": [True, True, True, True], "early": [True], "unguarded": [False, False, False]}


NESTED_SELF = """
from mindspore import nn

class System(nn.Cell):
    def __init__(self):
        super().__init__()
        def fit(self, fresh, other):
            if fresh:
                self.maybe = nn.CellList()
            self.models = nn.CellList()
            for _ in range(3):
                self.models.append(nn.Dense(2, 2))
            other.models = nn.Dense(2, 2)
            return self.models, self.maybe, other.models, self.unknown
        self.fit = fit
"""


def test_an_attribute_read_takes_the_assignment_that_reaches_it_in_its_function() -> None:
    module = astroid.parse(NESTED_SELF)
    returned = next(module.nodes_of_class(nodes.Return)).value.elts
    found = [values.reaching_attribute_value(read) for read in returned]
    assert [value.as_string() if value is not None else None for value in found] == [
        "nn.CellList()", None, "nn.Dense(2, 2)", None
    ]
