"""Graph scope, differentiated scope and tensor dependence."""

from __future__ import annotations

import astroid
from astroid import nodes

from mslint.analysis import scope


def _analysis(source: str) -> tuple[scope.ModuleAnalysis, dict[str, nodes.FunctionDef]]:
    module = astroid.parse(source)
    functions = {func.qname().split(".", 1)[1]: func for func in module.nodes_of_class(nodes.FunctionDef)}
    return scope.ModuleAnalysis(module), functions


SOURCE = """
import mindspore as ms
from mindspore import nn, ops

class Net(nn.Cell):
    def construct(self, x):
        return self.helper(x) + module_helper(x)

    def helper(self, x):
        return self.deeper(x)

    def deeper(self, x):
        return x

    def unused(self, x):
        return x

def module_helper(x):
    return x

@ms.jit
def compiled(x):
    return x

def forward_fn(data):
    return fn_helper(data)

def fn_helper(data):
    return data

def plain(x):
    return x

grad_fn = ms.value_and_grad(forward_fn)
"""


def test_graph_functions_are_found_transitively() -> None:
    analysis, functions = _analysis(SOURCE)
    graph = {name for name, func in functions.items() if analysis.kinds.get(func) == scope.GRAPH}
    assert graph == {"Net.construct", "Net.helper", "Net.deeper", "module_helper", "compiled"}


def test_differentiated_functions_are_found_transitively() -> None:
    analysis, functions = _analysis(SOURCE)
    differentiated = {name for name, func in functions.items() if analysis.kinds.get(func) == scope.DIFFERENTIATED}
    assert differentiated == {"forward_fn", "fn_helper"}


def test_cells_given_to_grad_and_wrappers_are_differentiated() -> None:
    analysis, functions = _analysis(
        """
import mindspore as ms
from mindspore import nn, ops

class Plain:
    def construct(self, x):
        return x

def loss(x):
    return x

net = Plain()
grad = ops.GradOperation()(loss)
"""
    )
    assert analysis.kinds.get(functions["loss"]) == scope.DIFFERENTIATED
    assert functions["Plain.construct"] not in analysis.kinds


def _depends(source: str, function: str, expression: str) -> bool:
    module = astroid.parse(source)
    analysis = scope.ModuleAnalysis(module)
    for node in module.nodes_of_class((nodes.Name, nodes.Attribute)):
        if node.as_string() == expression and node.frame().qname().endswith(function):
            return analysis.depends_on_tensor(node)
    raise AssertionError(f"{expression} not found")


TAINT_SOURCE = """
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Parameter, Tensor

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.w = Parameter(Tensor(np.ones(2)))
        self.t = ops.ones((2, 2))
        self.n = 3
        self.anchors = self.make_anchors()

    def construct(self, x, training=False, k: int = 2, scale: float = 1.0):
        b, c = x.shape
        y = x * 2
        z = ops.exp(y)
        n = len(x)
        m = x.ndim + 1
        s = np.zeros((b, c))
        self.helper(y, b)
        return z, self.w, self.t, self.n, self.anchors, b, c, n, m, s, training, k, scale, x.shape

    def helper(self, t, count):
        u = t + 1
        return u, count
"""


def test_tensor_dependence() -> None:
    tainted = {"x", "y", "z", "self.w", "self.t", "u", "t"}
    constant = {"b", "c", "n", "m", "s", "training", "k", "scale", "self.n", "self.anchors", "x.shape", "count"}
    for name in tainted:
        function = "helper" if name in {"u", "t"} else "construct"
        assert _depends(TAINT_SOURCE, function, name), name
    for name in constant:
        function = "helper" if name == "count" else "construct"
        assert not _depends(TAINT_SOURCE, function, name), name


def test_a_pynative_module_compiles_only_its_jit_functions() -> None:
    source = """
import mindspore as ms
from mindspore import nn
ms.set_context(mode=ms.PYNATIVE_MODE)

class Net(nn.Cell):
    def construct(self, x):
        return x

@ms.jit
def step(x):
    return x
"""
    analysis, functions = _analysis(source)
    assert analysis.pynative_only
    assert functions["Net.construct"] not in analysis.kinds
    assert analysis.kinds[functions["step"]] == scope.GRAPH
    # a module that also sets GRAPH_MODE (or a mode mslint cannot read) compiles its Cells
    for mode in ("ms.GRAPH_MODE", "config.mode"):
        analysis, functions = _analysis(source + f"ms.set_context(mode={mode})\n")
        assert not analysis.pynative_only
        assert analysis.kinds[functions["Net.construct"]] == scope.GRAPH
