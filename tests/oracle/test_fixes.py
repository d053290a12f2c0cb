"""Oracle tests of the autofixes: the code ``mslint --fix`` / ``--unsafe-fixes``
writes (fixtures/fixes/<rule>/after_*.py, which tests/test_fixes.py proves is
exactly what the command writes) runs with the real MindSpore, and where a fix
claims PyTorch's behaviour, the fixed layer gives PyTorch's output shape, kept
fraction or statistics.

Each snippet executes the fixed file statement by statement (``run_fixed``), so
the statements a rule leaves unfixed on purpose (``betas=``, ``.half()``) are
named as the only ones that still fail. Named ``test_table_fixes_*``: they prove
the fix table of several rules (tests/test_manifest.py's naming rule).
"""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
FIXES = ROOT / "fixtures" / "fixes"

pytestmark = pytest.mark.frameworks

TORCH = '''
import torch
torch.manual_seed(0)

def shape_ms(cell, *shape):
    return list(cell(Tensor(np.ones(shape, np.float32))).shape)

def shape_torch(module, *shape):
    return list(module(torch.ones(*shape)).shape)
'''


def fixture(symbol: str, kind: str) -> Path:
    return FIXES / symbol / f"{kind}_{symbol.replace('-', '_')}.py"


def fixed_code(symbol: str, unsafe: bool) -> str:
    """The snippet text that runs the fixed fixture: ``space`` holds its names,
    ``failed`` the source lines of the statements that raised."""
    text = fixture(symbol, "after_unsafe_fixes" if unsafe else "after_fix").read_text(encoding="utf-8")
    return f'''
import ast as _ast
_SOURCE = {text!r}
space, failed = {{"__name__": "fixed"}}, []
for _statement in _ast.parse(_SOURCE).body:
    _code = compile(_ast.Module([_statement], []), "fixed.py", "exec")
    try:
        exec(_code, space)
    except Exception as _error:
        failed.append(_statement.lineno)
'''


def importable(folder: Path, **modules: tuple[str, str]) -> str:
    """Write fixture files as modules in ``folder`` (name=(rule, file name)) and
    return the snippet lines that put ``folder`` on sys.path (MindSpore's graph
    parser reads a Cell's source from its file)."""
    for name, (symbol, kind) in modules.items():
        (folder / f"{name}.py").write_text(fixture(symbol, kind).read_text(encoding="utf-8"), encoding="utf-8")
    return f"import sys\nsys.path.insert(0, {str(folder)!r})\n"


def test_table_fixes_safe_layer_fixes_build_with_pytorch_shapes(run_snippet):
    """ms-conv-padding-ignored (convs and pools), ms-torch-positional-args and
    ms-torch-argument-type: the naive calls raise at construction; the fixed ones
    build and give PyTorch's output shapes."""
    result = run_snippet(
        TORCH
        + fixed_code("ms-conv-padding-ignored", unsafe=False)
        + '''
net = space["Net"]()
padding = dict(
    a=[shape_ms(net.a, 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, padding=1), 1, 3, 8, 8)],
    b=[shape_ms(net.b, 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, padding=1), 1, 3, 8, 8)],
    c=[shape_ms(net.c, 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, padding="same"), 1, 3, 8, 8)],
    d=[shape_ms(net.d, 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, padding=1), 1, 3, 8, 8)],
    e=[shape_ms(net.e, 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, padding=(1, 2)), 1, 3, 8, 8)],
    f=[shape_ms(net.f, 1, 3, 8), shape_torch(torch.nn.Conv1d(3, 8, 3, padding=1), 1, 3, 8)],
    pool=[shape_ms(net.pool, 1, 3, 7, 7), shape_torch(torch.nn.MaxPool2d(2, 2, ceil_mode=True), 1, 3, 7, 7)],
    pool2=[shape_ms(net.pool2, 1, 3, 7, 7), shape_torch(torch.nn.MaxPool2d(3, 1, padding=1), 1, 3, 7, 7)],
    avg=[shape_ms(net.avg, 1, 3, 7, 7), shape_torch(torch.nn.AvgPool2d(3, 1, padding=(1, 1)), 1, 3, 7, 7)],
)
padding_failed = failed
naive = attempt(lambda: nn.Conv2d(3, 8, 3, padding=1))[0]
naive_pool = attempt(lambda: nn.MaxPool2d(kernel_size=2, stride=2, ceil_mode=True))[0]
'''
        + fixed_code("ms-torch-positional-args", unsafe=False)
        + '''
positional = dict(
    conv=[shape_ms(space["conv"], 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, 1, 1), 1, 3, 8, 8)],
    conv_zero=[shape_ms(space["conv_zero"], 1, 3, 9, 9), shape_torch(torch.nn.Conv2d(3, 8, 3, 2, 0), 1, 3, 9, 9)],
    conv_tuple=[shape_ms(space["conv_tuple"], 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, 1, (1, 2)), 1, 3, 8, 8)],
    conv_more=[shape_ms(space["conv_more"], 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, 1, 1, 1, 1, False), 1, 3, 8, 8)],
    conv_lines=[shape_ms(space["conv_lines"], 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3, 1, 1), 1, 3, 8, 8)],
    conv_list=[shape_ms(space["conv_list"], 1, 8, 8, 25),
               shape_torch(torch.nn.Conv2d(8, 8, (3, 5), 1, [1, 2], groups=8), 1, 8, 8, 25)],
    conv1d_list=[shape_ms(space["conv1d_list"], 1, 3, 8), shape_torch(torch.nn.Conv1d(3, 8, 3, 1, [1]), 1, 3, 8)],
    pool_tuple=[shape_ms(space["pool_tuple"], 1, 3, 8, 8), shape_torch(torch.nn.MaxPool2d(3, 2, (1, 0)), 1, 3, 8, 8)],
)
positional_failed = failed
dense_bias, conv_more_bias = space["dense"].has_bias, space["conv_more"].has_bias
naive_norm = attempt(lambda: nn.LayerNorm(16))[0]
'''
        + fixed_code("ms-torch-argument-type", unsafe=False)
        + '''
block = space["NET"]
argument_type = {
    name: [shape_ms(getattr(block, name), 2, size), shape_torch(torch.nn.LayerNorm(size), 2, size)]
    for name, size in (("norm", 512), ("norm2", 512), ("hidden", 768), ("wide", 512), ("split", 512))
}
report(
    padding=padding, padding_failed=padding_failed, naive=naive, naive_pool=naive_pool,
    positional=positional, positional_failed=positional_failed,
    argument_type=argument_type, argument_type_failed=failed, naive_norm=naive_norm,
    dense_bias=dense_bias, conv_more_bias=conv_more_bias,
    torch_dense_bias=torch.nn.Linear(16, 4, False).bias is not None,
)
'''
    )
    assert result["naive"] == "error" and result["naive_pool"] == "error" and result["naive_norm"] == "error"
    assert result["padding_failed"] == [] and result["positional_failed"] == [] and result["argument_type_failed"] == []
    for name, (mindspore_shape, torch_shape) in {
        **result["padding"], **result["positional"], **result["argument_type"],
    }.items():
        assert mindspore_shape == torch_shape, name
    assert result["dense_bias"] is False and result["conv_more_bias"] is False and result["torch_dense_bias"] is False


def test_table_fixes_keyword_and_method_fixes_run(run_snippet):
    """ms-torch-keyword-args and ms-torch-module-method: every fixed statement runs;
    only the ones left unfixed on purpose (betas=, .half()) still fail."""
    result = run_snippet(
        fixed_code("ms-torch-keyword-args", unsafe=False)
        + '''
keyword_failed = failed
keyword = dict(
    dense_bias=space["dense"].has_bias, epsilon=space["norm"].epsilon, rows_sum_to_one=bool(np.allclose(space["soft"](Tensor(np.ones((2, 3), np.float32))).asnumpy().sum(axis=1), 1)),
    learning_rate=float(space["opt"].learning_rate.asnumpy()), group=space["conv"].group,
)
'''
        + fixed_code("ms-torch-module-method", unsafe=False)
        + '''
report(keyword_failed=keyword_failed, keyword=keyword, method_failed=failed, training=space["net"].training,
       parameters=type(space["params"]).__name__, named=type(space["named"]).__name__)
'''
    )
    keyword_source = (fixture("ms-torch-keyword-args", "after_fix")).read_text(encoding="utf-8").splitlines()
    assert [keyword_source[line - 1] for line in result["keyword_failed"]] == ["adam = nn.Adam("]
    assert result["keyword"] == {"dense_bias": False, "epsilon": 1e-5, "rows_sum_to_one": True, "learning_rate": pytest.approx(0.1), "group": 1}
    method_source = (fixture("ms-torch-module-method", "after_fix")).read_text(encoding="utf-8").splitlines()
    # left unfixed on purpose: .half() needs a dtype import; named_parameters() in a
    # parameter group has no exact fix (so the optimizer built from it fails too)
    assert [method_source[line - 1] for line in result["method_failed"]] == [
        "half = net.half()  # no exact fix: needs a dtype import",
        'groups = [{"params": [p for n, p in net.named_parameters() if "bias" not in n], "weight_decay": 1e-4}]',
        "momentum = nn.Momentum(groups, 0.1, 0.9)",
    ]
    assert result["training"] is False  # eval(), train(), train(False) as set_train calls
    assert (result["parameters"], result["named"]) == ("list", "dict")


def test_table_fixes_forward_renamed_compiles_strict_with_the_true_gradient(run_snippet, tmp_path: Path):
    """ms-forward-not-construct: the fixed Cell (``construct = forward``) compiles in
    GRAPH_MODE under STRICT and its gradient is the true one (relu'(x) = x > 0); and
    what called ``.forward()`` before the fix still works: a direct call, and a
    subclass's ``super().forward(x)`` inside its own compiled construct."""
    result = run_snippet(
        importable(tmp_path, fixed_block=("ms-forward-not-construct", "after_fix"))
        + '''
graph_mode("strict")
from fixed_block import Block
block = Block()
x = Tensor(np.array([[-1.0, 2.0], [3.0, -4.0]], np.float32))
forward = attempt(lambda: block(x).asnumpy().tolist())
def objective(v):
    return block(v).sum()
gradient = attempt(lambda: ms.grad(objective)(x).asnumpy().tolist())
direct = attempt(lambda: block.forward(x).asnumpy().tolist())
import sys
sys.path.insert(0, {folder!r})
with open({caller!r}, "w") as stream:
    stream.write("from fixed_block import Block\\n\\n\\nclass Twice(Block):\\n    def construct(self, x):\\n        return super().forward(x) * 2\\n")
from twice import Twice
subclass = attempt(lambda: Twice()(x).asnumpy().tolist())
report(forward=forward, gradient=gradient, direct=direct, subclass=subclass)
'''.format(folder=str(tmp_path), caller=str(tmp_path / "twice.py"))
    )
    assert result["forward"] == ["ok", [[1.0, 3.0], [4.0, 1.0]]]
    assert result["gradient"] == ["ok", [[0.0, 1.0], [1.0, 0.0]]]
    assert result["direct"] == ["ok", [[1.0, 3.0], [4.0, 1.0]]]
    assert result["subclass"] == ["ok", [[2.0, 6.0], [8.0, 2.0]]]


def test_table_fixes_unsafe_layer_fixes_give_pytorch_shapes(run_snippet):
    """ms-conv-implicit-pad-mode and ms-pool-implicit-stride: the fixed layers give
    PyTorch's output shapes (the naive ones do not)."""
    result = run_snippet(
        TORCH
        + fixed_code("ms-conv-implicit-pad-mode", unsafe=True)
        + '''
conv_failed = failed
shapes = dict(
    conv=[shape_ms(space["conv"], 1, 3, 8, 8), shape_torch(torch.nn.Conv2d(3, 8, 3), 1, 3, 8, 8)],
    conv_stride=[shape_ms(space["conv_stride"], 1, 3, 9, 9), shape_torch(torch.nn.Conv2d(3, 8, 3, stride=2), 1, 3, 9, 9)],
    up=[shape_ms(space["up"], 1, 8, 5, 5), shape_torch(torch.nn.ConvTranspose2d(8, 3, 4, stride=2), 1, 8, 5, 5)],
)
naive_conv = shape_ms(nn.Conv2d(3, 8, 3), 1, 3, 8, 8)
'''
        + fixed_code("ms-pool-implicit-stride", unsafe=True)
        + '''
shapes.update(
    pool=[shape_ms(space["pool"], 1, 3, 8, 8), shape_torch(torch.nn.MaxPool2d(2), 1, 3, 8, 8)],
    avg=[shape_ms(space["avg"], 1, 3, 9, 9), shape_torch(torch.nn.AvgPool2d(3), 1, 3, 9, 9)],
    pool_tuple=[shape_ms(space["pool_tuple"], 1, 3, 8, 8), shape_torch(torch.nn.MaxPool2d((2, 2)), 1, 3, 8, 8)],
)
report(shapes=shapes, failed=conv_failed + failed, naive_conv=naive_conv, naive_pool=shape_ms(nn.MaxPool2d(2), 1, 3, 8, 8))
'''
    )
    assert result["failed"] == []
    for name, (mindspore_shape, torch_shape) in result["shapes"].items():
        assert mindspore_shape == torch_shape, name
    assert result["naive_conv"] != result["shapes"]["conv"][1]
    assert result["naive_pool"] != result["shapes"]["pool"][1]


def test_table_fixes_dropout_and_momentum_give_pytorch_statistics(run_snippet):
    """ms-dropout-keep-prob: the fixed Dropout keeps PyTorch's fraction (90% for
    0.1); ms-batchnorm-momentum: the fixed BatchNorm's running mean is PyTorch's."""
    result = run_snippet(
        TORCH
        + fixed_code("ms-dropout-keep-prob", unsafe=True)
        + '''
first, second, third = space["build"](0.1)
ones = np.ones((400, 500), np.float32)
def kept_ms(cell):
    cell.set_train(True)
    return float((cell(Tensor(ones)).asnumpy() != 0).mean())
def kept_torch(module):
    module.train()
    return float((module(torch.ones(400, 500)) != 0).float().mean())
kept = dict(first=kept_ms(first), second=kept_ms(second), third=kept_ms(third),
            torch_first=kept_torch(torch.nn.Dropout(0.1)), torch_second=kept_torch(torch.nn.Dropout(0.2)),
            naive=kept_ms(nn.Dropout(0.1)))
dropout_failed = failed
'''
        + fixed_code("ms-batchnorm-momentum", unsafe=True)
        + '''
data = np.arange(16, dtype=np.float32).reshape(2, 8)
def running_ms(cell, x):
    cell.set_train(True)
    cell(Tensor(x))
    return [round(float(v), 5) for v in cell.moving_mean.asnumpy()]
def running_torch(module, x):
    module.train()
    module(torch.from_numpy(x))
    return [round(float(v), 5) for v in module.running_mean]
report(
    kept=kept, failed=dropout_failed + failed,
    bn=running_ms(space["bn"], data.reshape(2, 8, 1, 1)),
    torch_bn=running_torch(torch.nn.BatchNorm2d(8, momentum=0.1), data.reshape(2, 8, 1, 1)),
    bn1=running_ms(space["bn1"], data),
    torch_bn1=running_torch(torch.nn.BatchNorm1d(8, eps=1e-5, momentum=0.01), data),
)
'''
    )
    assert result["failed"] == []
    kept = result["kept"]
    assert kept["first"] == pytest.approx(kept["torch_first"], abs=0.01) == pytest.approx(0.9, abs=0.01)
    assert kept["second"] == pytest.approx(kept["torch_second"], abs=0.01)
    assert kept["third"] == pytest.approx(0.9, abs=0.01)  # build(0.1): drop_rate passed as p
    assert kept["naive"] == pytest.approx(0.1, abs=0.01)
    assert result["bn"] == result["torch_bn"]
    assert result["bn1"] == result["torch_bn1"]


def test_table_fixes_size_and_auto_prefix(run_snippet, tmp_path: Path):
    """ms-torch-in-cell: x.shape[0] (the fix of x.size(0)) compiles in GRAPH_MODE
    under STRICT where x.size(0) fails; ms-auto-prefix: with auto_prefix=False the
    wrapper keeps the network's parameter names (a checkpoint still loads)."""
    result = run_snippet(
        importable(
            tmp_path,
            fixed_ms_torch_in_cell=("ms-torch-in-cell", "after_unsafe_fixes"),
            fixed_ms_auto_prefix=("ms-auto-prefix", "after_unsafe_fixes"),
            naive_head=("ms-torch-in-cell", "before"),
        )
        + '''
graph_mode("strict")
from fixed_ms_torch_in_cell import Head
from naive_head import Head as NaiveHead
from fixed_ms_auto_prefix import TrainStep
x = Tensor(np.ones((2, 3, 4), np.float32))
fixed = attempt(lambda: list(Head()(x).shape))
naive = attempt(lambda: list(NaiveHead()(x).shape))
pynative_mode()
net = nn.Dense(4, 2)
step = TrainStep(net, nn.SGD(net.trainable_params(), learning_rate=0.1))
report(fixed=fixed, naive=naive[0], names=sorted(p.name for p in step.network.trainable_params()),
       original=sorted(p.name for p in nn.Dense(4, 2).trainable_params()))
'''
    )
    assert result["fixed"] == ["ok", [2, 12]]
    assert result["naive"] == "error"
    assert result["names"] == result["original"] == ["bias", "weight"]


def test_table_fixes_numpy_to_ops_compiles_strict_with_the_true_gradient(run_snippet, tmp_path: Path):
    """ms-numpy-on-tensor: the fixed Cell (ops.exp, ops.maximum) compiles in
    GRAPH_MODE under STRICT and its gradient is exp(x) + (x > 0); the naive one
    fails under STRICT."""
    result = run_snippet(
        importable(
            tmp_path,
            fixed_head=("ms-numpy-on-tensor", "after_unsafe_fixes"),
            naive_head=("ms-numpy-on-tensor", "before"),
        )
        + '''
graph_mode("strict")
from fixed_head import Head
from naive_head import Head as NaiveHead
x = Tensor(np.array([[-1.0, 2.0]], np.float32))
def fixed_objective(v):
    return Head()(v).sum()
def naive_objective(v):
    return NaiveHead()(v).sum()
report(
    gradient=attempt(lambda: [round(float(g), 4) for g in ms.grad(fixed_objective)(x).asnumpy().ravel()]),
    naive=attempt(lambda: NaiveHead()(x))[0],
    expected=[round(float(np.exp(v) + (v > 0)), 4) for v in (-1.0, 2.0)],
)
'''
    )
    assert result["gradient"] == ["ok", result["expected"]]
    assert result["naive"] == "error"
