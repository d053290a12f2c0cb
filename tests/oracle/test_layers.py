"""Premises of the layer-migration rules (checkers/layers.py), proven with the real
MindSpore and PyTorch: each test builds the code a rule flags, asserts the harm
(a different shape or statistic than PyTorch's, an exception, a silently kept
bias) and that the call the message suggests removes it. The first test keeps
the knowledge table (mslint.knowledge.apis.LAYER_APIS) equal to the installed signatures.
"""

from __future__ import annotations

import json

import pytest

from mslint.knowledge import apis

# Imported by the snippets below, after the PRELUDE of conftest.py.
TORCH = '''
import torch

def shape(cell, *dims):
    return list(cell(Tensor(np.random.randn(*dims).astype(np.float32))).shape)

def torch_shape(module, *dims):
    return list(module(torch.randn(*dims)).shape)
'''


def test_table_layer_apis_match_the_installed_signatures(run_snippet):
    names = sorted(set(apis.LAYER_APIS) | {api.torch for api in apis.LAYER_APIS.values()})
    result = run_snippet(
        TORCH
        + f'''
import importlib, inspect

def describe(qname):
    module, _, name = qname.rpartition(".")
    obj = getattr(importlib.import_module(module), name)
    params = [p for p in inspect.signature(obj).parameters.values()
              if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD) and p.name != "self"]
    defaults = {{}}
    for p in params:
        if p.default is not p.empty:
            try:
                json.dumps(p.default)
                defaults[p.name] = p.default
            except TypeError:
                defaults[p.name] = repr(p.default)
    return {{"params": [p.name for p in params], "defaults": defaults}}

names = {names!r}
report(**{{name: describe(name) for name in names}})
'''
    )
    for qname, api in apis.LAYER_APIS.items():
        installed = result[qname]
        assert tuple(installed["params"]) == api.params, qname
        for param, default in api.defaults.items():
            assert installed["defaults"][param] == default, (qname, param)
        counterpart = result[api.torch]
        assert tuple(counterpart["params"]) == api.torch_params, api.torch
        for param, default in api.torch_defaults.items():
            assert counterpart["defaults"][param] == default, (api.torch, param)
        for torch_param, ms_param in api.torch_to_ms.items():
            assert torch_param in api.torch_params, (qname, torch_param)
            assert ms_param is None or ms_param in api.params, (qname, ms_param)
        for trap in api.positional_traps:
            assert api.params[trap.index] == trap.ms_param, qname
            assert api.torch_params[trap.index] == trap.torch_param, qname
        for diff in api.default_differs:
            assert diff.ms_param in api.params, qname
        for param, default in api.pad_mode_only.items():
            assert installed["defaults"][param] == default, (qname, param)
        for argument in api.argument_types:
            assert api.params[argument.position] == argument.param, qname


# -- ms-conv-implicit-pad-mode -----------------------------------------------


def test_ms_conv_implicit_pad_mode_same_differs_from_torch_and_valid_matches(run_snippet):
    result = run_snippet(
        TORCH
        + '''
report(
    naive=shape(nn.Conv2d(3, 4, 3), 1, 3, 8, 8),
    torch=torch_shape(torch.nn.Conv2d(3, 4, 3), 1, 3, 8, 8),
    fixed_valid=shape(nn.Conv2d(3, 4, 3, pad_mode="valid"), 1, 3, 8, 8),
    naive_1d=shape(nn.Conv1d(3, 4, 5), 1, 3, 8),
    torch_1d=torch_shape(torch.nn.Conv1d(3, 4, 5), 1, 3, 8),
    fixed_1d=shape(nn.Conv1d(3, 4, 5, pad_mode="valid", padding=0), 1, 3, 8),
    naive_t=shape(nn.Conv2dTranspose(3, 4, 4, stride=2), 1, 3, 8, 8),
    torch_t=torch_shape(torch.nn.ConvTranspose2d(3, 4, 4, stride=2), 1, 3, 8, 8),
    fixed_t=shape(nn.Conv2dTranspose(3, 4, 4, stride=2, pad_mode="valid"), 1, 3, 8, 8),
)
'''
    )
    assert result["naive"] == [1, 4, 8, 8]
    assert result["torch"] == [1, 4, 6, 6]
    assert result["fixed_valid"] == result["torch"]
    assert result["naive_1d"] == [1, 4, 8] and result["torch_1d"] == [1, 4, 4]
    assert result["fixed_1d"] == result["torch_1d"]
    assert result["naive_t"] == [1, 4, 16, 16] and result["torch_t"] == [1, 4, 18, 18]
    assert result["fixed_t"] == result["torch_t"]


def test_ms_conv_implicit_pad_mode_kernel_equal_to_stride_agrees_with_torch_on_multiples(run_snippet):
    """Why the rule is silent when kernel_size == stride (patch embeddings, k x k
    upsampling): no padding on inputs that are multiples of the stride, and never
    for transposed convolutions; on other sizes a plain convolution differs."""
    result = run_snippet(
        TORCH
        + '''
rows = []
for k in (2, 4):
    for size in (8, 16):
        rows.append([
            shape(nn.Conv2d(3, 4, k, stride=k), 1, 3, size, size),
            torch_shape(torch.nn.Conv2d(3, 4, k, stride=k), 1, 3, size, size),
        ])
    for size in (7, 8):
        rows.append([
            shape(nn.Conv2dTranspose(3, 4, k, stride=k), 1, 3, size, size),
            torch_shape(torch.nn.ConvTranspose2d(3, 4, k, stride=k), 1, 3, size, size),
        ])
report(
    rows=rows,
    odd=shape(nn.Conv2d(3, 4, 2, stride=2), 1, 3, 7, 7),
    odd_torch=torch_shape(torch.nn.Conv2d(3, 4, 2, stride=2), 1, 3, 7, 7),
)
'''
    )
    for ms_shape, torch_shape in result["rows"]:
        assert ms_shape == torch_shape
    assert result["odd"] == [1, 4, 4, 4] and result["odd_torch"] == [1, 4, 3, 3]


def test_ms_conv_implicit_pad_mode_same_is_torch_padding_half_the_kernel_at_stride_1(run_snippet):
    """Why the rule is silent where the PyTorch original beside the port pads
    (k - 1) // 2 of an odd kernel: at stride 1 MindSpore's default "same" pads the
    same on each side, so the outputs are equal, values included, for every input
    size. At stride 2 the sizes still agree, but on even sizes "same" pads only
    after (0 before, 1 after) where PyTorch pads both sides: the values shift (the
    rule, about sizes, stays silent there too). With kernel_size == stride and no
    padding, "same" agrees only on inputs that are multiples of the stride."""
    result = run_snippet(
        TORCH
        + '''
def agree(k, s, pad, n):
    w = np.random.RandomState(0).randn(4, 3, k, k).astype(np.float32)
    x = np.random.RandomState(1).randn(1, 3, n, n).astype(np.float32)
    mine = nn.Conv2d(3, 4, k, stride=s, weight_init=Tensor(w))(Tensor(x)).asnumpy()
    theirs = torch.nn.Conv2d(3, 4, k, stride=s, padding=pad, bias=False)
    theirs.weight.data = torch.tensor(w)
    theirs = theirs(torch.tensor(x)).detach().numpy()
    return [mine.shape == theirs.shape, mine.shape == theirs.shape and bool(np.allclose(mine, theirs, atol=1e-4))]
report(
    stride1=[agree(k, 1, (k - 1) // 2, n) for k in (3, 5, 7) for n in (7, 8)],
    stride2_odd=agree(3, 2, 1, 7), stride2_even=agree(3, 2, 1, 8),
    patch_multiple=agree(4, 4, 0, 8), patch_other=agree(4, 4, 0, 7),
)
'''
    )
    assert result["stride1"] == [[True, True]] * 6
    assert result["stride2_odd"] == [True, True]
    assert result["stride2_even"] == [True, False]  # the same size, shifted values
    assert result["patch_multiple"] == [True, True]
    assert result["patch_other"] == [False, False]


def test_ms_conv_implicit_pad_mode_1x1_agrees_with_torch_at_any_stride_but_not_transposed(run_snippet):
    """Why the rule is silent for 1x1 convolutions (and 1x1, stride 1 transposed ones)."""
    result = run_snippet(
        TORCH
        + '''
rows = []
for stride in (1, 2, 3):
    for size in (7, 8):
        rows.append([
            stride,
            shape(nn.Conv2d(3, 4, 1, stride=stride), 1, 3, size, size),
            torch_shape(torch.nn.Conv2d(3, 4, 1, stride=stride), 1, 3, size, size),
            shape(nn.Conv2dTranspose(3, 4, 1, stride=stride), 1, 3, size, size),
            torch_shape(torch.nn.ConvTranspose2d(3, 4, 1, stride=stride), 1, 3, size, size),
        ])
report(rows=rows)
'''
    )
    for stride, ms_conv, torch_conv, ms_transposed, torch_transposed in result["rows"]:
        assert ms_conv == torch_conv
        assert (ms_transposed == torch_transposed) == (stride == 1)


# -- ms-conv-padding-ignored -------------------------------------------------


def test_ms_conv_padding_ignored_raises_and_the_fix_matches_torch(run_snippet):
    result = run_snippet(
        TORCH
        + '''
def build(make):
    return attempt(lambda: make() and "built")

report(
    naive=build(lambda: nn.Conv2d(3, 8, 3, padding=1)),
    same=build(lambda: nn.Conv2d(3, 8, 3, stride=2, pad_mode="same", padding=1)),
    valid=build(lambda: nn.Conv2d(3, 8, 3, 1, "valid", 1)),
    transposed=build(lambda: nn.Conv2dTranspose(8, 3, 4, stride=2, padding=1)),
    conv3d=build(lambda: nn.Conv3d(3, 8, 3, padding=1)),
    string=build(lambda: nn.Conv2d(3, 8, 3, padding="same")),
    tuple2d=build(lambda: nn.Conv2d(3, 8, 3, pad_mode="pad", padding=(1, 2))),
    tuple1d=build(lambda: nn.Conv1d(3, 8, 3, padding=(2,))),
    tuple3d=build(lambda: nn.Conv3d(3, 8, 3, padding=(1, 1, 1))),
    zero=build(lambda: nn.Conv2d(3, 8, 3, padding=0)),
    zero_pair=build(lambda: nn.Conv2d(3, 8, 3, padding=(0, 0))),
    zero_sides=build(lambda: nn.Conv2d(3, 8, 3, padding=(0, 0, 0, 0))),
    pair1d=build(lambda: nn.Conv1d(3, 8, 3, pad_mode="pad", padding=(1, 1))),
    foreign=build(lambda: nn.Conv2d(3, 8, 3, padding=1, activation=nn.ReLU())),
    foreign_kept=build(lambda: nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1, activation=nn.ReLU())),
    foreign_dropped=build(lambda: nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1)),
    fixed=shape(nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1), 1, 3, 8, 8),
    torch=torch_shape(torch.nn.Conv2d(3, 8, 3, padding=1), 1, 3, 8, 8),
    fixed_t=shape(nn.Conv2dTranspose(8, 3, 4, stride=2, pad_mode="pad", padding=1), 1, 8, 8, 8),
    torch_t=torch_shape(torch.nn.ConvTranspose2d(8, 3, 4, stride=2, padding=1), 1, 8, 8, 8),
    fixed_string=shape(nn.Conv2d(3, 8, 3, pad_mode="same"), 1, 3, 8, 8),
    torch_string=torch_shape(torch.nn.Conv2d(3, 8, 3, padding="same"), 1, 3, 8, 8),
    fixed_2d=shape(nn.Conv2d(3, 8, 3, pad_mode="pad", padding=(1, 1, 2, 2)), 1, 3, 8, 8),
    torch_2d=torch_shape(torch.nn.Conv2d(3, 8, 3, padding=(1, 2)), 1, 3, 8, 8),
    fixed_1d=shape(nn.Conv1d(3, 8, 3, pad_mode="pad", padding=2), 1, 3, 8),
    torch_1d=torch_shape(torch.nn.Conv1d(3, 8, 3, padding=2), 1, 3, 8),
    fixed_3d=shape(nn.Conv3d(3, 8, 3, pad_mode="pad", padding=(1, 1, 1, 1, 1, 1)), 1, 3, 6, 6, 6),
    torch_3d=torch_shape(torch.nn.Conv3d(3, 8, 3, padding=(1, 1, 1)), 1, 3, 6, 6, 6),
)
'''
    )
    for case in ("naive", "same", "valid", "transposed", "conv3d", "tuple2d", "tuple3d", "zero_pair"):
        assert result[case][0] == "error" and result[case][1].startswith("ValueError"), case
    for case in ("string", "tuple1d", "pair1d"):
        assert result[case][0] == "error" and result[case][1].startswith("TypeError"), case
    assert result["zero"] == ["ok", "built"]
    assert result["zero_sides"] == ["ok", "built"]  # zeros per side need no pad_mode
    # a keyword nn.Conv2d does not take raises TypeError before padding is looked at, and
    # the rewrite that keeps it still fails: the suggestion leaves it out
    for case in ("foreign", "foreign_kept"):
        assert result[case][0] == "error" and result[case][1].startswith("TypeError"), case
    assert result["foreign_dropped"] == ["ok", "built"]
    for fixed, reference in (("fixed", "torch"), ("fixed_t", "torch_t"), ("fixed_string", "torch_string"),
                             ("fixed_2d", "torch_2d"), ("fixed_1d", "torch_1d"), ("fixed_3d", "torch_3d")):
        assert result[fixed] == result[reference], fixed


def test_ms_conv_padding_ignored_pools_refuse_torch_arguments_without_pad_mode(run_snippet):
    """PyTorch's pooling arguments without pad_mode="pad": ValueError at construction
    (padding for every pool; ceil_mode, dilation, return_indices for MaxPool); with
    pad_mode="pad" the layer builds and gives PyTorch's output (values, not only shapes)."""
    result = run_snippet(
        TORCH
        + '''
def build(make):
    return attempt(lambda: make() and "built")

x = np.random.RandomState(0).randn(2, 3, 7, 7).astype(np.float32)
x1 = x[:, :, 0, :]
x3 = np.random.RandomState(1).randn(1, 2, 5, 5, 5).astype(np.float32)

def same(cell, module, data):
    mine = cell(Tensor(data)).asnumpy()
    theirs = module(torch.tensor(data)).numpy()
    return list(mine.shape) == list(theirs.shape) and bool(np.allclose(mine, theirs, atol=1e-5))

report(
    max_padding=build(lambda: nn.MaxPool2d(kernel_size=3, stride=1, padding=1)),
    max_ceil=build(lambda: nn.MaxPool2d(kernel_size=2, stride=2, ceil_mode=True)),
    max_dilation=build(lambda: nn.MaxPool2d(3, stride=1, dilation=2)),
    max_indices=build(lambda: nn.MaxPool2d(3, stride=1, return_indices=True)),
    max_same=build(lambda: nn.MaxPool2d(3, stride=1, pad_mode="same", padding=1)),
    max1d_padding=build(lambda: nn.MaxPool1d(3, stride=2, padding=1)),
    max3d_ceil=build(lambda: nn.MaxPool3d(2, stride=2, ceil_mode=True)),
    max3d_padding=build(lambda: nn.MaxPool3d(3, stride=1, padding=1)),
    avg_padding=build(lambda: nn.AvgPool2d(3, stride=1, padding=(1, 1))),
    avg1d_padding=build(lambda: nn.AvgPool1d(3, stride=1, padding=1)),
    avg_ceil=build(lambda: nn.AvgPool2d(2, stride=2, ceil_mode=True)),
    zero=build(lambda: nn.MaxPool2d(3, stride=2, padding=0, ceil_mode=False, dilation=1, return_indices=False)),
    fixed_padding=same(nn.MaxPool2d(3, stride=1, pad_mode="pad", padding=1), torch.nn.MaxPool2d(3, 1, padding=1), x),
    fixed_ceil=same(nn.MaxPool2d(2, stride=2, pad_mode="pad", ceil_mode=True), torch.nn.MaxPool2d(2, 2, ceil_mode=True), x),
    fixed_avg=same(nn.AvgPool2d(3, stride=1, pad_mode="pad", padding=(1, 1)), torch.nn.AvgPool2d(3, 1, padding=(1, 1)), x),
    fixed_1d=same(nn.MaxPool1d(3, stride=2, pad_mode="pad", padding=1), torch.nn.MaxPool1d(3, 2, padding=1), x1),
    fixed_3d=same(nn.MaxPool3d(2, stride=2, pad_mode="pad", ceil_mode=True), torch.nn.MaxPool3d(2, 2, ceil_mode=True), x3),
    fixed_dilation=build(lambda: nn.MaxPool2d(3, stride=1, pad_mode="pad", dilation=2, return_indices=True)),
)
'''
    )
    for case in ("max_padding", "max_ceil", "max_dilation", "max_indices", "max_same", "max1d_padding",
                 "max3d_ceil", "max3d_padding", "avg_padding", "avg1d_padding"):
        assert result[case][0] == "error" and result[case][1].startswith("ValueError"), (case, result[case])
    assert result["avg_ceil"] == ["ok", "built"] and result["zero"] == ["ok", "built"], result
    for case in ("fixed_padding", "fixed_ceil", "fixed_avg", "fixed_1d", "fixed_3d"):
        assert result[case] is True, case
    assert result["fixed_dilation"] == ["ok", "built"], result


# -- ms-torch-argument-type --------------------------------------------------


def test_ms_torch_argument_type_layernorm_int_raises_and_the_tuple_matches_torch(run_snippet):
    """nn.LayerNorm(d) with PyTorch's int: TypeError at construction (with epsilon
    too); (d,) builds and, with epsilon=1e-5, computes PyTorch's LayerNorm(d)."""
    result = run_snippet(
        TORCH
        + '''
values = np.random.RandomState(0).randn(3, 16).astype(np.float32)
fixed = nn.LayerNorm((16,), epsilon=1e-5)
theirs = torch.nn.LayerNorm(16)(torch.tensor(values)).detach().numpy()
report(
    naive=attempt(lambda: nn.LayerNorm(16) and "built"),
    naive_epsilon=attempt(lambda: nn.LayerNorm(16, epsilon=1e-5) and "built"),
    keyword=attempt(lambda: nn.LayerNorm(normalized_shape=16) and "built"),
    listed=attempt(lambda: nn.LayerNorm([16]) and "built"),
    difference=float(np.abs(fixed(Tensor(values)).asnumpy() - theirs).max()),
)
'''
    )
    for case in ("naive", "naive_epsilon", "keyword"):
        assert result[case][0] == "error" and result[case][1].startswith("TypeError"), (case, result[case])
    assert result["listed"] == ["ok", "built"] and result["difference"] < 1e-5, result


# -- ms-pool-implicit-stride -------------------------------------------------


def test_ms_pool_implicit_stride_default_is_one_and_stride_kernel_size_matches_torch(run_snippet):
    result = run_snippet(
        TORCH
        + '''
import inspect
from mindspore import mint
report(
    max_naive=shape(nn.MaxPool2d(2), 1, 3, 8, 8),
    max_torch=torch_shape(torch.nn.MaxPool2d(2), 1, 3, 8, 8),
    max_fixed=shape(nn.MaxPool2d(2, stride=2), 1, 3, 8, 8),
    avg_naive=shape(nn.AvgPool2d(kernel_size=3), 1, 3, 9, 9),
    avg_torch=torch_shape(torch.nn.AvgPool2d(kernel_size=3), 1, 3, 9, 9),
    avg_fixed=shape(nn.AvgPool2d(kernel_size=3, stride=3), 1, 3, 9, 9),
    max1d_naive=shape(nn.MaxPool1d(2), 1, 3, 8),
    max1d_torch=torch_shape(torch.nn.MaxPool1d(2), 1, 3, 8),
    max1d_fixed=shape(nn.MaxPool1d(2, stride=2), 1, 3, 8),
    max3d_naive=shape(nn.MaxPool3d(2), 1, 3, 4, 4, 4),
    max3d_torch=torch_shape(torch.nn.MaxPool3d(2), 1, 3, 4, 4, 4),
    max3d_fixed=shape(nn.MaxPool3d(2, stride=2), 1, 3, 4, 4, 4),
    kernel1=shape(nn.MaxPool2d(kernel_size=1), 1, 3, 8, 8),
    kernel1_torch=torch_shape(torch.nn.MaxPool2d(kernel_size=1), 1, 3, 8, 8),
    same=shape(nn.MaxPool2d(5, pad_mode="same"), 1, 3, 8, 8),
    global_pool=shape(nn.AvgPool2d(kernel_size=(8, 8)), 1, 3, 8, 8),
    global_pool_torch=torch_shape(torch.nn.AvgPool2d(kernel_size=(8, 8)), 1, 3, 8, 8),
    mint_stride_defaults=[inspect.signature(cls).parameters["stride"].default
                          for cls in (mint.nn.MaxPool2d, mint.nn.AvgPool2d)],
)
'''
    )
    assert result["max_naive"] == [1, 3, 7, 7] and result["max_torch"] == [1, 3, 4, 4]
    assert result["avg_naive"] == [1, 3, 7, 7] and result["avg_torch"] == [1, 3, 3, 3]
    assert result["max1d_naive"] == [1, 3, 7] and result["max1d_torch"] == [1, 3, 4]
    assert result["max3d_naive"] == [1, 3, 3, 3, 3] and result["max3d_torch"] == [1, 3, 2, 2, 2]
    for name in ("max", "avg", "max1d", "max3d"):
        assert result[f"{name}_fixed"] == result[f"{name}_torch"], name
    # Silent cases: kernel_size 1 agrees; pad_mode="same" with stride 1 keeps the size (SPP);
    # a kernel sized from the input pools to one value either way.
    assert result["kernel1"] == result["kernel1_torch"] == [1, 3, 8, 8]
    assert result["same"] == [1, 3, 8, 8]
    assert result["global_pool"] == result["global_pool_torch"] == [1, 3, 1, 1]
    # mint's pooling takes PyTorch's stride=None (= kernel_size): never flagged.
    assert result["mint_stride_defaults"] == [None, None]


def test_ms_pool_implicit_stride_functional_average_pools_stride_one(run_snippet):
    """ops.avg_pool1d/2d/3d default to stride 1 (PyTorch's functional pools to
    kernel_size): ops.avg_pool2d(x, 2) keeps 31 of 32 rows where F.avg_pool2d halves them,
    and stride=kernel_size gives PyTorch's shape; ops.max_pool2d and mint's pools follow
    PyTorch already (apis.FUNCTIONAL_POOLS_STRIDE_ONE lists exactly the stride-1 ones)."""
    table = json.dumps(apis.FUNCTIONAL_POOLS_STRIDE_ONE)
    result = run_snippet(
        TORCH
        + f'''
import importlib, inspect
from mindspore import ops, mint
def default(qname):
    module, _, name = qname.rpartition(".")
    return inspect.signature(getattr(importlib.import_module(module), name)).parameters["stride"].default
table = {table}
x = Tensor(np.ones((1, 3, 32, 32), np.float32))
report(
    naive=list(ops.avg_pool2d(x, 2).shape),
    fixed=list(ops.avg_pool2d(x, 2, stride=2).shape),
    torch=list(torch.nn.functional.avg_pool2d(torch.ones(1, 3, 32, 32), 2).shape),
    naive1d=list(ops.avg_pool1d(Tensor(np.ones((1, 3, 8), np.float32)), 2).shape),
    torch1d=list(torch.nn.functional.avg_pool1d(torch.ones(1, 3, 8), 2).shape),
    defaults={{ms_name: default(ms_name) for ms_name in table}},
    parameters=sorted({{name for ms_name in table for name in inspect.signature(
        getattr(ops, ms_name.rpartition(".")[2])).parameters}}),
    # (torch's functional pools are builtins without a signature: their default is measured)
    torch_strides={{torch_name: list(getattr(torch.nn.functional, torch_name.rpartition(".")[2])(
        torch.ones(1, 1, *([4] * int(torch_name[-2]))), 2).shape)[2:] for torch_name in table.values()}},
    others=[default("mindspore.ops.max_pool2d"), default("mindspore.ops.max_pool3d"),
            default("mindspore.mint.nn.functional.avg_pool2d"), default("mindspore.mint.nn.functional.max_pool2d")],
)
'''
    )
    assert result["naive"] == [1, 3, 31, 31] and result["torch"] == [1, 3, 16, 16]
    assert result["fixed"] == result["torch"]
    assert result["naive1d"] == [1, 3, 7] and result["torch1d"] == [1, 3, 4]
    assert all(value == 1 for value in result["defaults"].values()), result["defaults"]
    assert all(all(size == 2 for size in sizes) for sizes in result["torch_strides"].values()), result["torch_strides"]
    assert result["others"] == [None, None, None, None]
    from mslint.checkers import layers  # noqa: PLC0415 - the checker's copy of the keywords
    assert set(result["parameters"]) == layers._FUNCTIONAL_POOL_PARAMETERS  # noqa: SLF001


def test_ms_pool_implicit_stride_a_kernel_of_the_wrong_rank_never_pools(run_snippet):
    """A 3-d kernel on a 2-d pool, or a tuple on a 1-d pool: the layer cannot run, with
    the default stride or with stride=kernel_size, so the stride advice does not apply.
    A 3-d pool with the same kernel builds and strides by 1."""
    result = run_snippet(
        TORCH
        + '''
report(
    max2d=attempt(lambda: nn.MaxPool2d(kernel_size=(1, 2, 2))),
    max2d_strided=attempt(lambda: nn.MaxPool2d(kernel_size=(1, 2, 2), stride=(1, 2, 2))),
    avg2d=attempt(lambda: shape(nn.AvgPool2d(kernel_size=(1, 2, 2)), 1, 3, 8, 8)),
    avg2d_strided=attempt(lambda: shape(nn.AvgPool2d(kernel_size=(1, 2, 2), stride=(1, 2, 2)), 1, 3, 8, 8)),
    max1d=attempt(lambda: nn.MaxPool1d(kernel_size=(2, 2))),
    max3d=attempt(lambda: shape(nn.MaxPool3d(kernel_size=(1, 2, 2)), 1, 3, 4, 8, 8)),
)
'''
    )
    for name in ("max2d", "max2d_strided", "avg2d", "avg2d_strided"):
        assert result[name][0] == "error" and result[name][1].startswith("ValueError"), (name, result[name])
    assert result["max1d"][0] == "error" and result["max1d"][1].startswith("TypeError"), result["max1d"]
    assert result["max3d"] == ["ok", [1, 3, 4, 7, 7]]


# -- ms-dropout-keep-prob ----------------------------------------------------


def test_ms_dropout_keep_prob_first_argument_is_keep_prob_and_p_matches_torch(run_snippet):
    result = run_snippet(
        TORCH
        + '''
from mindspore import mint
ones = Tensor(np.ones((1000, 1000), np.float32))

def kept(cell):
    cell.set_train(True)
    return float((cell(ones).asnumpy() != 0).mean())

torch_dropout = torch.nn.Dropout(0.1)
torch_dropout.train()
channels = Tensor(np.ones((100, 1000, 2, 2), np.float32))
dropout2d = nn.Dropout2d(0.1)
dropout2d.set_train(True)
report(
    naive=kept(nn.Dropout(0.1)),
    keyword_naive=kept(nn.Dropout(keep_prob=0.2)),
    torch=float((torch_dropout(torch.ones(1000, 1000)) != 0).float().mean()),
    fixed=kept(nn.Dropout(p=0.1)),
    keep_prob=kept(nn.Dropout(keep_prob=0.9)),
    converted=kept(nn.Dropout(1 - 0.1)),
    p_overrides=kept(nn.Dropout(0.1, p=0.1)),
    zero=attempt(lambda: nn.Dropout(0.0) and "built"),
    zero_fixed=kept(nn.Dropout(p=0.0)),
    dropout2d=float((dropout2d(channels).asnumpy() != 0).mean()),
    mint_p=mint.nn.Dropout(0.1).p,
)
'''
    )
    assert result["naive"] == pytest.approx(0.1, abs=0.01)  # drops 90%
    assert result["keyword_naive"] == pytest.approx(0.2, abs=0.01)
    assert result["torch"] == pytest.approx(0.9, abs=0.01)
    assert result["fixed"] == pytest.approx(result["torch"], abs=0.01)
    # Silent cases: keep probabilities, conversions, p given, Dropout2d and mint take p.
    assert result["keep_prob"] == pytest.approx(0.9, abs=0.01)
    assert result["converted"] == pytest.approx(0.9, abs=0.01)
    assert result["p_overrides"] == pytest.approx(0.9, abs=0.01)
    assert result["dropout2d"] == pytest.approx(0.9, abs=0.03)
    assert result["mint_p"] == pytest.approx(0.1)
    assert result["zero"][0] == "error" and result["zero"][1].startswith("ValueError")
    assert result["zero_fixed"] == 1.0


# -- ms-batchnorm-momentum ---------------------------------------------------

BATCHNORM = '''
# Two channels, batch means 2 and 3; running means start at 0.
data = np.arange(4, dtype=np.float32).reshape(2, 2, 1, 1) + 1.0

def ms_running_mean(cell, x=data):
    cell.set_train(True)
    cell(Tensor(x))
    return [round(float(v), 5) for v in cell.moving_mean.asnumpy()]

def torch_running_mean(momentum):
    bn = torch.nn.BatchNorm2d(2, momentum=momentum)
    bn.train()
    bn(torch.tensor(data))
    return [round(float(v), 5) for v in bn.running_mean]
'''


def test_ms_batchnorm_momentum_weights_the_running_average(run_snippet):
    result = run_snippet(
        TORCH
        + BATCHNORM
        + '''
report(
    naive=ms_running_mean(nn.BatchNorm2d(2, momentum=0.1)),
    positional=ms_running_mean(nn.BatchNorm2d(2, 1e-5, 0.1)),
    naive_1d=ms_running_mean(nn.BatchNorm1d(2, momentum=0.1), data.reshape(2, 2)),
    naive_sync=ms_running_mean(nn.SyncBatchNorm(2, momentum=0.1)),
    torch=torch_running_mean(0.1),
    fixed=ms_running_mean(nn.BatchNorm2d(2, momentum=1 - 0.1)),
    fixed_sync=ms_running_mean(nn.SyncBatchNorm(2, momentum=0.9)),
    default=ms_running_mean(nn.BatchNorm2d(2)),
)
'''
    )
    assert result["torch"] == [0.2, 0.3]  # PyTorch: 0.1 of the new batch
    for naive in ("naive", "positional", "naive_1d", "naive_sync"):
        assert result[naive] == [1.8, 2.7], naive  # MindSpore: 0.1 of the running average
    assert result["fixed"] == result["fixed_sync"] == result["torch"]
    assert result["default"] == result["torch"]  # MindSpore's default 0.9 is PyTorch's 0.1


def test_ms_batchnorm_momentum_mint_has_the_pytorch_meaning(run_snippet):
    """mint.nn.BatchNorm2d passes momentum to mint.functional.batch_norm as the weight
    of the new batch. Its kernel (BatchNormExt) is not built for CPU, so the call is
    routed to ops.batch_norm, whose PyTorch meaning this test checks first."""
    result = run_snippet(
        TORCH
        + BATCHNORM
        + '''
from mindspore import mint
running = Parameter(Tensor(np.zeros(2, np.float32)), name="running_mean")
variance = Parameter(Tensor(np.ones(2, np.float32)), name="running_var")
ops.batch_norm(Tensor(data), running, variance, Tensor(np.ones(2, np.float32)),
               Tensor(np.zeros(2, np.float32)), training=True, momentum=0.1)
direct = [round(float(v), 5) for v in running.asnumpy()]
calls = []
def batch_norm(*args, **kwargs):
    calls.append(args[6])
    return ops.batch_norm(*args, **kwargs)
mint.functional.batch_norm = batch_norm

def mint_running_mean(cell):
    cell.set_train(True)
    cell(Tensor(data))
    return [round(float(v), 5) for v in cell.running_mean.asnumpy()]

report(
    ops_batch_norm=direct,
    torch=torch_running_mean(0.1),
    mint_naive=mint_running_mean(mint.nn.BatchNorm2d(2, momentum=0.9)),
    mint_fixed=mint_running_mean(mint.nn.BatchNorm2d(2, momentum=0.1)),
    mint_default=mint_running_mean(mint.nn.BatchNorm2d(2)),
    ms_0_9=ms_running_mean(nn.BatchNorm2d(2, momentum=0.9)),
    factors=calls,
)
'''
    )
    assert result["ops_batch_norm"] == result["torch"] == [0.2, 0.3]
    assert result["factors"] == [0.9, 0.1, 0.1]  # momentum passed through unchanged
    assert result["mint_naive"] == [1.8, 2.7] != result["ms_0_9"]  # MindSpore's 0.9 means 0.1 here
    assert result["mint_fixed"] == result["mint_default"] == result["torch"] == result["ms_0_9"]


def test_ms_batchnorm_momentum_reaches_the_batchnorm_of_conv2dbnact_and_densebnact(run_snippet):
    """nn.Conv2dBnAct / nn.DenseBnAct with has_bn=True hand momentum to the
    nn.BatchNorm2d / BatchNorm1d they build: the same meaning, the same harm.
    The conv and dense weights are the identity, so the BatchNorm sees the data."""
    result = run_snippet(
        TORCH
        + BATCHNORM
        + '''
identity = Tensor(np.eye(2, dtype=np.float32))

def block_running_mean(cell, x=data):
    cell.set_train(True)
    cell(Tensor(x))
    return [round(float(v), 5) for v in cell.batchnorm.moving_mean.asnumpy()]

def conv(**kwargs):
    return nn.Conv2dBnAct(2, 2, 1, weight_init=identity.reshape(2, 2, 1, 1), **kwargs)

def dense(**kwargs):
    return nn.DenseBnAct(2, 2, weight_init=identity, has_bias=False, **kwargs)

report(
    conv_naive=block_running_mean(conv(has_bn=True, momentum=0.1)),
    conv_fixed=block_running_mean(conv(has_bn=True, momentum=0.9)),
    conv_stored=conv(has_bn=True, momentum=0.1).batchnorm.momentum,
    conv_no_bn=[name for name, _ in conv(momentum=0.1).cells_and_names()],
    dense_naive=block_running_mean(dense(has_bn=True, momentum=0.1), data.reshape(2, 2)),
    dense_fixed=block_running_mean(dense(has_bn=True, momentum=0.9), data.reshape(2, 2)),
    bn_naive=ms_running_mean(nn.BatchNorm2d(2, momentum=0.1)),
    torch=torch_running_mean(0.1),
)
'''
    )
    assert result["torch"] == [0.2, 0.3]
    assert result["conv_naive"] == result["dense_naive"] == result["bn_naive"] == [1.8, 2.7]  # as nn.BatchNorm2d
    assert abs(result["conv_stored"] - 0.9) < 1e-6  # stored as 1 - momentum, like nn.BatchNorm2d
    assert result["conv_fixed"] == result["dense_fixed"] == result["torch"]
    assert "batchnorm" not in result["conv_no_bn"]  # has_bn=False (the default): no BatchNorm, momentum unused


# -- ms-torch-positional-args ------------------------------------------------


def test_ms_torch_positional_args_dense_third_is_weight_init_and_the_bias_stays(run_snippet):
    result = run_snippet(
        TORCH
        + '''
def describe(cell):
    weight = cell.weight.asnumpy()
    return {
        "params": sorted(p.name for p in cell.trainable_params()),
        "weight_min": float(weight.min()),
        "weight_max": float(weight.max()),
    }

report(
    false=describe(nn.Dense(4, 3, False)),
    true=describe(nn.Dense(4, 3, True)),
    fixed=describe(nn.Dense(4, 3, has_bias=False)),
    default=describe(nn.Dense(4, 3)),
    torch=sorted(name for name, _ in torch.nn.Linear(4, 3, False).named_parameters()),
    torch_default=sorted(name for name, _ in torch.nn.Linear(4, 3).named_parameters()),
    # (4096 outputs: the bias's sample std is then within about 2% of its law's, where
    # 256 draws left two independent samples 12% apart now and then)
    init_std=[float(nn.Dense(256, 4096).weight.asnumpy().std()), float(nn.Dense(256, 4096).bias.asnumpy().std())],
    torch_init_std=[float(torch.nn.Linear(256, 4096).weight.detach().std()),
                    float(torch.nn.Linear(256, 4096).bias.detach().std())],
)
'''
    )
    assert result["torch"] == ["weight"]
    assert result["false"]["params"] == ["bias", "weight"]  # the bias stays
    assert result["false"]["weight_min"] == result["false"]["weight_max"] == 0.0  # all zeros
    assert result["true"]["params"] == ["bias", "weight"]
    assert result["true"]["weight_min"] == result["true"]["weight_max"] == 1.0  # all ones
    assert result["fixed"]["params"] == ["weight"]
    assert result["fixed"]["weight_min"] < result["fixed"]["weight_max"]
    # nn.Dense's has_bias default matches PyTorch's bias default: no default-differs hint.
    assert result["default"]["params"] == ["bias", "weight"] and result["torch_default"] == ["bias", "weight"]
    assert result["init_std"] == pytest.approx(result["torch_init_std"], rel=0.1)


def test_ms_torch_positional_args_conv_padding_is_pad_mode_and_fails(run_snippet):
    result = run_snippet(
        TORCH
        + '''
def build(make):
    return attempt(lambda: make() and "built")

report(
    conv=build(lambda: nn.Conv2d(3, 8, 3, 1, 1)),
    conv_zero=build(lambda: nn.Conv2d(3, 8, 3, 1, 0)),
    conv_tuple=build(lambda: nn.Conv2d(3, 8, 3, 1, (1, 2))),
    conv1d=build(lambda: nn.Conv1d(3, 8, 3, 1, 1)),
    conv3d=build(lambda: nn.Conv3d(3, 8, 3, 1, 1)),
    transposed=build(lambda: nn.Conv2dTranspose(3, 8, 4, 2, 1)),
    maxpool=build(lambda: nn.MaxPool2d(3, 2, 1)),
    avgpool=build(lambda: nn.AvgPool2d(3, 2, 1)),
    maxpool1d=build(lambda: nn.MaxPool1d(3, 2, 1)),
    conv_fixed=shape(nn.Conv2d(3, 8, 3, 1, pad_mode="pad", padding=1), 1, 3, 8, 8),
    conv_torch=torch_shape(torch.nn.Conv2d(3, 8, 3, 1, 1), 1, 3, 8, 8),
    conv_zero_fixed=shape(nn.Conv2d(3, 8, 3, 1, pad_mode="valid"), 1, 3, 8, 8),
    conv_zero_torch=torch_shape(torch.nn.Conv2d(3, 8, 3, 1, 0), 1, 3, 8, 8),
    conv_many_fixed=shape(nn.Conv2d(4, 8, 3, 2, pad_mode="pad", padding=1, dilation=1, group=2, has_bias=False),
                          1, 4, 9, 9),
    conv_many_torch=torch_shape(torch.nn.Conv2d(4, 8, 3, 2, 1, 1, 2, False), 1, 4, 9, 9),
    transposed_fixed=shape(nn.Conv2dTranspose(3, 8, 4, 2, pad_mode="pad", padding=1), 1, 3, 8, 8),
    transposed_torch=torch_shape(torch.nn.ConvTranspose2d(3, 8, 4, 2, 1), 1, 3, 8, 8),
    maxpool_fixed=shape(nn.MaxPool2d(3, 2, pad_mode="pad", padding=1), 1, 3, 8, 8),
    maxpool_torch=torch_shape(torch.nn.MaxPool2d(3, 2, 1), 1, 3, 8, 8),
    avgpool_fixed=shape(nn.AvgPool2d(3, 2, pad_mode="pad", padding=1), 1, 3, 8, 8),
    avgpool_torch=torch_shape(torch.nn.AvgPool2d(3, 2, 1), 1, 3, 8, 8),
    mindspore_order=shape(nn.Conv2d(3, 8, 3, 1, "pad", 1), 1, 3, 8, 8),
)
'''
    )
    for case in ("conv", "conv_zero", "conv_tuple", "conv1d", "conv3d", "transposed", "maxpool", "avgpool",
                 "maxpool1d"):
        assert result[case][0] == "error" and "pad_mode" in result[case][1], case
    for name in ("conv", "conv_zero", "conv_many", "transposed", "maxpool", "avgpool"):
        assert result[f"{name}_fixed"] == result[f"{name}_torch"], name
    assert result["mindspore_order"] == result["conv_torch"]


def test_ms_torch_positional_args_list_padding_fails_and_per_side_tuples_fix_it(run_snippet):
    """PyTorch takes a list as padding (``nn.Conv2d(c, c, k, 1, [k[0] // 2, k[1] // 2])``,
    mindocr's rec_multi_head): in MindSpore's fifth slot, pad_mode, it fails at
    construction, and so does keeping the list as padding; MindSpore's per-side tuple
    gives PyTorch's output."""
    result = run_snippet(
        TORCH
        + '''
def build(make):
    return attempt(lambda: make() and "built")

k = (3, 5)
report(
    conv=build(lambda: nn.Conv2d(4, 4, k, 1, [k[0] // 2, k[1] // 2], group=4)),
    conv_tuple_expr=build(lambda: nn.Conv2d(4, 4, k, 1, (k[0] // 2, k[1] // 2))),
    conv1d=build(lambda: nn.Conv1d(4, 4, 3, 1, [1])),
    conv3d=build(lambda: nn.Conv3d(4, 4, 3, 1, [1, 1, 1])),
    transposed=build(lambda: nn.Conv2dTranspose(4, 4, 3, 1, [1, 1])),
    maxpool=build(lambda: nn.MaxPool2d(3, 1, [1, 1])),
    list_kept=build(lambda: nn.Conv2d(4, 4, k, 1, pad_mode="pad", padding=[1, 2])),
    fixed=shape(nn.Conv2d(4, 4, k, 1, pad_mode="pad", padding=(1, 1, 2, 2), group=4), 1, 4, 8, 25),
    torch=torch_shape(torch.nn.Conv2d(4, 4, k, 1, [1, 2], groups=4), 1, 4, 8, 25),
)
'''
    )
    for case in ("conv", "conv_tuple_expr", "conv1d", "conv3d", "transposed", "maxpool"):
        assert result[case][0] == "error" and "pad_mode" in result[case][1], case
    assert result["list_kept"][0] == "error"  # a list is no MindSpore padding either
    assert result["fixed"] == result["torch"] == [1, 4, 8, 25]


def test_ms_torch_positional_args_layernorm_and_embedding(run_snippet):
    result = run_snippet(
        TORCH
        + '''
x = Tensor(np.random.randn(2, 4).astype(np.float32))
layernorm = attempt(lambda: nn.LayerNorm((4,), 1e-5).begin_norm_axis)
forward = attempt(lambda: nn.LayerNorm((4,), 1e-5)(x).shape)
fixed = nn.LayerNorm((4,), epsilon=1e-5)
torch_norm = torch.nn.LayerNorm(4, 1e-5)
values = np.random.randn(2, 4).astype(np.float32)
difference = float(np.abs(fixed(Tensor(values)).asnumpy() - torch_norm(torch.tensor(values)).detach().numpy()).max())
embedding = attempt(lambda: nn.Embedding(100, 4, 0) and "built")
fixed_embedding = nn.Embedding(100, 4, padding_idx=0)
report(
    layernorm=layernorm,
    forward=forward,
    difference=difference,
    embedding=embedding,
    padding_row=fixed_embedding.embedding_table.asnumpy()[0].tolist(),
    torch_padding_row=torch.nn.Embedding(100, 4, 0).weight[0].tolist(),
    use_one_hot=attempt(lambda: nn.Embedding(100, 4, False) and "built"),
)
'''
    )
    assert result["layernorm"] == ["ok", 1e-5]  # eps landed in begin_norm_axis
    assert result["forward"][0] == "error" and result["forward"][1].startswith("TypeError")
    assert result["difference"] < 1e-5
    assert result["embedding"][0] == "error" and result["embedding"][1].startswith("TypeError")
    assert result["padding_row"] == result["torch_padding_row"] == [0.0, 0.0, 0.0, 0.0]
    assert result["use_one_hot"] == ["ok", "built"]


def test_ms_torch_positional_args_dropout_inplace_flag_raises(run_snippet):
    """``nn.Dropout(0.3, True)``, PyTorch's (p, inplace): the flag lands in MindSpore's
    second slot, p, and construction fails; the fix, nn.Dropout(p=0.3), drops
    as many values as PyTorch's does."""
    result = run_snippet(
        TORCH
        + '''
x = Tensor(np.ones((200, 200), np.float32))
fixed = nn.Dropout(p=0.3)
fixed.set_train(True)
report(
    inplace_true=attempt(lambda: nn.Dropout(0.3, True) and "built"),
    inplace_false=attempt(lambda: nn.Dropout(0.3, False) and "built"),
    fixed_zeros=float((fixed(x).asnumpy() == 0).mean()),
)
'''
    )
    assert result["inplace_true"][0] == "error" and result["inplace_true"][1].startswith("TypeError")
    assert result["inplace_false"][0] == "error" and result["inplace_false"][1].startswith("TypeError")
    assert 0.25 < result["fixed_zeros"] < 0.35


# -- ms-layer-default-differs ------------------------------------------------


def test_ms_layer_default_differs_from_pytorch_and_the_matching_arguments(run_snippet):
    result = run_snippet(
        TORCH
        + '''
from mindspore.common.initializer import Normal
small = np.array([[0.0, 1e-3, 0.0, 1e-3]], np.float32)
negative = np.array([-1.0], np.float32)
g = np.array([-1.0, 0.5, 2.0], np.float32)

def gap(a, b):
    return float(np.abs(np.asarray(a) - np.asarray(b)).max())

def param_names(cell):
    return sorted(p.name for p in cell.trainable_params())

torch_layernorm = torch.nn.LayerNorm(4)(torch.tensor(small)).detach().numpy()
torch_gelu = torch.nn.GELU()(torch.tensor(g)).numpy()
report(
    layernorm=gap(nn.LayerNorm((4,))(Tensor(small)).asnumpy(), torch_layernorm),
    layernorm_fixed=gap(nn.LayerNorm((4,), epsilon=1e-5)(Tensor(small)).asnumpy(), torch_layernorm),
    leaky=float(nn.LeakyReLU()(Tensor(negative)).asnumpy()[0]),
    leaky_torch=float(torch.nn.LeakyReLU()(torch.tensor(negative))[0]),
    leaky_fixed=float(nn.LeakyReLU(alpha=0.01)(Tensor(negative)).asnumpy()[0]),
    instancenorm=param_names(nn.InstanceNorm2d(3)),
    instancenorm_torch=sorted(name for name, _ in torch.nn.InstanceNorm2d(3).named_parameters()),
    instancenorm_fixed=param_names(nn.InstanceNorm2d(3, affine=False)),
    embedding_std=float(nn.Embedding(1000, 64).embedding_table.asnumpy().std()),
    embedding_torch_std=float(torch.nn.Embedding(1000, 64).weight.detach().std()),
    embedding_fixed_std=float(nn.Embedding(1000, 64, embedding_table=Normal(1.0)).embedding_table.asnumpy().std()),
    conv_bias=nn.Conv2d(3, 4, 3).bias is not None,
    conv_bias_torch=torch.nn.Conv2d(3, 4, 3).bias is not None,
    conv_bias_fixed=nn.Conv2d(3, 4, 3, has_bias=True).bias is not None,
    gelu=gap(nn.GELU()(Tensor(g)).asnumpy(), torch_gelu),
    gelu_fixed=gap(nn.GELU(approximate=False)(Tensor(g)).asnumpy(), torch_gelu),
)
'''
    )
    assert result["layernorm"] > 0.5 and result["layernorm_fixed"] < 1e-5
    assert result["leaky"] == pytest.approx(-0.2) and result["leaky_torch"] == pytest.approx(-0.01)
    assert result["leaky_fixed"] == pytest.approx(result["leaky_torch"])
    assert result["instancenorm"] == ["beta", "gamma"] and result["instancenorm_torch"] == []
    assert result["instancenorm_fixed"] == []
    assert result["embedding_std"] == pytest.approx(0.01, rel=0.1)
    assert result["embedding_torch_std"] == pytest.approx(1.0, rel=0.1)
    assert result["embedding_fixed_std"] == pytest.approx(1.0, rel=0.1)
    assert result["conv_bias"] is False and result["conv_bias_torch"] is True and result["conv_bias_fixed"] is True
    assert result["gelu"] > 1e-4 and result["gelu_fixed"] < 1e-5


# -- ms-torch-positional-args: the orders the generated mapping data adds -----


def test_ms_torch_positional_args_triplet_margin_loss_first_positional_is_p(run_snippet):
    """nn.TripletMarginLoss(0.3) builds with p=0.3 and margin 1.0 (its first call
    then raises TypeError: p must be an int); margin=0.3 is PyTorch's meaning.
    MindSpore 2.10 has no CPU kernel for the loss, so the attributes are compared."""
    result = run_snippet('''
import torch
naive, fixed = nn.TripletMarginLoss(0.3), nn.TripletMarginLoss(margin=0.3)
moved, fixed_two = nn.TripletMarginLoss(1.0, 2), nn.TripletMarginLoss(margin=1.0, p=2)
x = Tensor(np.ones((2, 3), np.float32))
reference = torch.nn.TripletMarginLoss(0.3)
reference_two = torch.nn.TripletMarginLoss(1.0, 2)
report(
    naive=[naive.p, naive.margin, naive.swap],
    fixed=[fixed.p, fixed.margin, fixed.swap],
    torch=[reference.p, reference.margin, reference.swap],
    moved=[moved.p, moved.margin, moved.swap],
    fixed_two=[fixed_two.p, fixed_two.margin, fixed_two.swap],
    torch_two=[reference_two.p, reference_two.margin, reference_two.swap],
    naive_call=attempt(lambda: naive(x, x, x)),
)
''')
    assert result["naive"] == [0.3, 1.0, False]  # p took PyTorch's margin
    assert result["fixed"][1:] == result["torch"][1:] == [0.3, False] and result["fixed"][0] == result["torch"][0]
    assert result["moved"] == [1.0, 1.0, 2]  # margin 1.0 went to p, p=2 to swap
    assert result["fixed_two"] == result["torch_two"] == [2, 1.0, False]
    assert result["naive_call"][0] == "error" and result["naive_call"][1].startswith("TypeError")
# ---------------------------------------------------------------------------
# Issue 24: frozen statistics, values from where a layer is built, a bias before
# a BatchNorm, a keep probability of one half
# ---------------------------------------------------------------------------
FROZEN_HARNESS = '''
pynative_mode()
x = Tensor(np.random.RandomState(0).randn(8, 4, 3, 3) * 2 + 1, ms.float32)

def moving_mean_after(bn, train=True, steps=3):
    bn.set_train(train)
    for _ in range(steps):
        bn(x)
    return round(float(bn.moving_mean.asnumpy().sum()), 6)

class FrozenBatchNorm(nn.BatchNorm2d):
    """Normalises with fixed statistics: construct never updates them."""
    def __init__(self, num_features, momentum=0.1):
        super().__init__(num_features, momentum=momentum)
    def construct(self, x):
        return ops.batch_norm(x, self.moving_mean, self.moving_variance, self.gamma, self.beta, False)

class TorchStyleBN(nn.BatchNorm2d):
    """Passes PyTorch's momentum up to nn.BatchNorm2d."""
    def __init__(self, num_features, momentum=0.1):
        super().__init__(num_features, momentum=momentum)
'''


def test_ms_batchnorm_momentum_frozen_statistics_never_move(run_snippet):
    """use_batch_statistics=False, a layer only evaluated, and a subclass whose construct
    normalises with the moving statistics never update them: momentum has no effect.
    Frozen parameters alone do not freeze them (the layer in training mode still moves)."""
    result = run_snippet(FROZEN_HARNESS + '''
frozen_params = nn.BatchNorm2d(4, momentum=0.1)
for p in frozen_params.trainable_params():
    p.requires_grad = False
report(
    no_batch_statistics=[moving_mean_after(nn.BatchNorm2d(4, momentum=m, use_batch_statistics=False)) for m in (0.1, 0.9)],
    evaluated=[moving_mean_after(nn.BatchNorm2d(4, momentum=m), train=False) for m in (0.1, 0.9)],
    frozen_subclass=[moving_mean_after(FrozenBatchNorm(4, momentum=m)) for m in (0.1, 0.9)],
    frozen_parameters=moving_mean_after(frozen_params),
    trained=[moving_mean_after(nn.BatchNorm2d(4, momentum=m)) for m in (0.1, 0.9)],
)
''')
    assert result["no_batch_statistics"] == [0.0, 0.0]
    assert result["evaluated"] == [0.0, 0.0]
    assert result["frozen_subclass"] == [0.0, 0.0]
    assert result["frozen_parameters"] == result["trained"][0] != 0.0  # still moves
    assert result["trained"][0] != result["trained"][1]  # where they move, momentum matters


def test_ms_batchnorm_momentum_batch_statistics_always_leave_momentum_without_effect(run_snippet):
    """use_batch_statistics=True normalises with the current batch in training and in
    evaluation alike: the moving statistics move, but no output reads them, so the
    momentum changes nothing the network computes. The default (None) reads them
    when evaluated: there the momentum matters."""
    result = run_snippet(FROZEN_HARNESS + '''
probe = Tensor(np.random.RandomState(1).randn(2, 4, 3, 3), ms.float32)

def evaluated_after_training(**kwargs):
    bn = nn.BatchNorm2d(4, **kwargs)
    moving_mean_after(bn)
    bn.set_train(False)
    return bn(probe).asnumpy().round(5).tolist()

report(
    batch=[evaluated_after_training(momentum=m, use_batch_statistics=True) for m in (0.1, 0.9)],
    moving=[moving_mean_after(nn.BatchNorm2d(4, momentum=m, use_batch_statistics=True)) for m in (0.1, 0.9)],
    default=[evaluated_after_training(momentum=m) for m in (0.1, 0.9)],
)
''')
    assert result["batch"][0] == result["batch"][1]
    assert result["moving"][0] != result["moving"][1]  # they move, unread
    assert result["default"][0] != result["default"][1]


def test_ms_batchnorm_momentum_a_subclass_passing_it_up_keeps_its_meaning(run_snippet):
    """A BatchNorm subclass passing momentum=0.1 to super().__init__ keeps only 10% of
    the running average, like nn.BatchNorm2d(c, momentum=0.1): the value a construction
    site gives flows to the layer."""
    result = run_snippet(FROZEN_HARNESS + '''
report(subclass=moving_mean_after(TorchStyleBN(4), steps=1),
       direct=moving_mean_after(nn.BatchNorm2d(4, momentum=0.1), steps=1),
       fixed=moving_mean_after(TorchStyleBN(4, momentum=0.9), steps=1),
       default=moving_mean_after(nn.BatchNorm2d(4), steps=1))
''')
    assert result["subclass"] == result["direct"]
    assert result["fixed"] == result["default"] != result["subclass"]


def test_ms_dropout_keep_prob_one_half_keeps_half_either_way(run_snippet):
    """nn.Dropout(0.5) (keep_prob) and nn.Dropout(p=0.5) drop the same share: a rate
    visibly 0.5 is no mistake, whatever its name."""
    result = run_snippet('''
pynative_mode()
def dropped(cell):
    cell.set_train()
    return float((cell(Tensor(np.ones((20000,)), ms.float32)).asnumpy() == 0).mean())
drop = 0.5
report(keep_prob=dropped(nn.Dropout(drop)), p=dropped(nn.Dropout(p=drop)))
''')
    assert abs(result["keep_prob"] - 0.5) < 0.02 and abs(result["p"] - 0.5) < 0.02


def test_ms_dropout_keep_prob_complement_as_p_drops_the_keep_share(run_snippet):
    """nn.Dropout(p=1.0 - dropout) with dropout=0.05 (a rate converted to a keep
    probability, then passed as p) drops 95%; a partial of nn.Dropout builds the layer
    with the arguments it fixes (keep_prob=0.3 keeps 30%)."""
    result = run_snippet('''
pynative_mode()
from functools import partial
def dropped(cell):
    cell.set_train()
    return float((cell(Tensor(np.ones((20000,)), ms.float32)).asnumpy() == 0).mean())
dropout = 0.05
report(complement=dropped(nn.Dropout(p=1.0 - dropout)), rate=dropped(nn.Dropout(p=dropout)),
       partial_keep=dropped(partial(nn.Dropout, keep_prob=0.3)()))
''')
    assert abs(result["complement"] - 0.95) < 0.02
    assert abs(result["rate"] - 0.05) < 0.02
    assert abs(result["partial_keep"] - 0.7) < 0.02


def test_ms_layer_default_differs_a_bias_before_batchnorm_changes_nothing(run_snippet):
    """A conv whose output goes straight into a BatchNorm: with or without a bias the
    output is the same (the norm subtracts the per-channel mean), so MindSpore's
    has_bias=False default loses nothing there; before an activation it does."""
    result = run_snippet('''
pynative_mode()
x = Tensor(np.random.RandomState(0).randn(4, 3, 6, 6), ms.float32)
def conv(has_bias):
    return nn.Conv2d(3, 4, 3, pad_mode="valid", has_bias=has_bias, weight_init="ones", bias_init="ones")
def varied():  # a different bias per channel: a group of several channels keeps their differences
    return nn.Conv2d(3, 4, 3, pad_mode="valid", has_bias=True, weight_init="ones",
                     bias_init=Tensor(np.arange(4), ms.float32))
def run(layers):
    net = nn.SequentialCell(layers)
    net.set_train()
    return net(x).asnumpy()
def appended(layers):
    net = nn.SequentialCell()
    for layer in layers:
        net.append(layer)
    net.set_train()
    return net(x).asnumpy()
def varargs(layers):
    net = nn.SequentialCell(*layers)
    net.set_train()
    return net(x).asnumpy()
report(
    norm=bool(np.allclose(run([conv(True), nn.BatchNorm2d(4)]), run([conv(False), nn.BatchNorm2d(4)]), atol=1e-5)),
    relu=bool(np.allclose(run([conv(True), nn.ReLU()]), run([conv(False), nn.ReLU()]), atol=1e-5)),
    appended=bool(np.allclose(appended([conv(True), nn.BatchNorm2d(4)]), run([conv(False), nn.BatchNorm2d(4)]), atol=1e-5)),
    varargs=bool(np.allclose(varargs([conv(True), nn.BatchNorm2d(4)]), run([conv(False), nn.BatchNorm2d(4)]), atol=1e-5)),
    appended_runs=bool(np.allclose(appended([conv(True), nn.BatchNorm2d(4)]), run([conv(True), nn.BatchNorm2d(4)]), atol=1e-5)),
    group_per_channel=bool(np.allclose(run([varied(), nn.GroupNorm(4, 4)]), run([conv(False), nn.GroupNorm(4, 4)]), atol=1e-5)),
    group_of_two=bool(np.allclose(run([varied(), nn.GroupNorm(2, 4)]), run([conv(False), nn.GroupNorm(2, 4)]), atol=1e-5)),
)
''')
    assert result["norm"] is True and result["relu"] is False
    # GroupNorm with a group per channel subtracts each channel's mean (apis.GROUP_NORMS,
    # checkers.layers._per_channel_group_norm); with fewer groups the bias stays
    assert result["group_per_channel"] is True and result["group_of_two"] is False
    # SequentialCell given its cells one by one, or appended, runs them in that order too
    assert result["appended"] is True and result["varargs"] is True and result["appended_runs"] is True


def test_ms_layer_default_differs_cell_apply_draws_the_embedding_table_again(run_snippet):
    """``self.apply(init_fn)`` in ``__init__`` calls ``init_fn`` on every sub-cell:
    an Embedding table it assigns replaces the default draw (checkers.layers
    _applied_functions: Graphormer's ``self.apply(lambda m: init_params(m, n))``)."""
    result = run_snippet('''
pynative_mode()
from mindspore import Parameter
from mindspore.common.initializer import initializer, Constant

def init_params(cell, value):
    if isinstance(cell, nn.Embedding):
        cell.embedding_table = Parameter(initializer(Constant(value), cell.embedding_table.shape), name="table")

class Features(nn.Cell):
    def __init__(self):
        super().__init__()
        self.atoms = nn.Embedding(5, 3)
        self.apply(lambda cell: init_params(cell, value=0.5))

    def construct(self, ids):
        return self.atoms(ids)

table = Features().atoms.embedding_table.asnumpy()
report(all_set=bool(np.all(table == 0.5)))
''')
    assert result["all_set"] is True


def test_ms_layer_default_differs_embedding_table_assigned_replaces_the_draw(run_snippet):
    """``emb.embedding_table = Parameter(table)`` replaces the table the lookup reads
    (the initial draw is gone); ``emb.weight = Parameter(table)``, PyTorch's name,
    adds another parameter and the lookup keeps the draw. MindSpore's Uniform(s) and
    Normal(s), the initializers the hint names for a PyTorch original that draws the
    table again with uniform_(-s, s) or normal_(0, s), draw those distributions."""
    result = run_snippet('''
from mindspore.common.initializer import Normal, Uniform, initializer
table = np.arange(12, dtype=np.float32).reshape(4, 3)
ids = Tensor(np.array([1, 2]), ms.int32)
replaced = nn.Embedding(4, 3)
replaced.embedding_table = Parameter(Tensor(table), requires_grad=False)
renamed = nn.Embedding(4, 3)
renamed.weight = Parameter(Tensor(table), requires_grad=False)
uniform = initializer(Uniform(0.1), (200, 200), ms.float32).asnumpy()
normal = initializer(Normal(0.02), (200, 200), ms.float32).asnumpy()
report(
    replaced=bool(np.allclose(replaced(ids).asnumpy(), table[[1, 2]])),
    renamed=bool(np.allclose(renamed(ids).asnumpy(), table[[1, 2]])),
    renamed_reads_draw=bool(np.allclose(renamed(ids).asnumpy(), renamed.embedding_table.asnumpy()[[1, 2]])),
    uniform=[float(uniform.min()), float(uniform.max()), float(uniform.std())],
    normal=[float(normal.mean()), float(normal.std())],
)
''')
    assert result["replaced"] is True and result["renamed"] is False, result
    assert result["renamed_reads_draw"] is True, result
    low, high, std = result["uniform"]
    import struct  # noqa: PLC0415

    bound = struct.unpack("f", struct.pack("f", 0.1))[0]  # the float32 nearest 0.1 is a little above it: a draw may reach it
    assert -bound <= low < -0.09 and 0.09 < high <= bound and std == pytest.approx(0.1 / 3 ** 0.5, rel=0.05), result
    assert abs(result["normal"][0]) < 1e-3 and result["normal"][1] == pytest.approx(0.02, rel=0.05), result


# The premise of the silence of the training-only layer settings where programs
# build the network and none of them may train it (mslint.analysis.programs.trained_at):
# with the training flag off, as a new Cell has it and set_train(False) keeps it,
# they change nothing the network computes, nor anything it keeps.
EVALUATED = '''
x = Tensor(np.random.RandomState(0).randn(4, 3, 5, 5).astype(np.float32) * 2 + 1)

def twice(cell, flag):
    if flag is not None:
        cell.set_train(flag)
    return cell(x).asnumpy(), cell(x).asnumpy()

def same(a, b):
    return bool(np.array_equal(a, b))
'''


def test_ms_dropout_keep_prob_drops_nothing_without_the_training_flag(run_snippet):
    result = run_snippet(
        EVALUATED
        + '''
out = {}
for flag in (None, False):  # a new Cell, and set_train(False)
    naive, again = twice(nn.Dropout(0.2), flag)
    fixed, _ = twice(nn.Dropout(p=0.2), flag)
    out[str(flag)] = same(naive, x.asnumpy()) and same(fixed, x.asnumpy()) and same(naive, again)
trained, _ = twice(nn.Dropout(0.2), True)
report(untrained=out, trained_zeroed=float((trained == 0).mean()))
'''
    )
    assert result["untrained"] == {"None": True, "False": True}  # the input, whatever the argument
    assert result["trained_zeroed"] > 0.5  # trained, it keeps 20%


def test_ms_batchnorm_momentum_has_no_effect_without_the_training_flag(run_snippet):
    result = run_snippet(
        EVALUATED
        + '''
out = {}
for flag in (None, False):
    torch_like, fixed = nn.BatchNorm2d(3, momentum=0.1), nn.BatchNorm2d(3, momentum=0.9)
    a, again = twice(torch_like, flag)
    b, _ = twice(fixed, flag)
    out[str(flag)] = [same(a, b) and same(a, again),
                      same(torch_like.moving_mean.asnumpy(), np.zeros(3, np.float32))
                      and same(torch_like.moving_variance.asnumpy(), np.ones(3, np.float32))]
trained_a, trained_b = nn.BatchNorm2d(3, momentum=0.1), nn.BatchNorm2d(3, momentum=0.9)
twice(trained_a, True)
twice(trained_b, True)
report(untrained=out, trained_differ=not same(trained_a.moving_mean.asnumpy(), trained_b.moving_mean.asnumpy()))
'''
    )
    # the same output whatever the momentum, and moving statistics that never move
    assert result["untrained"] == {"None": [True, True], "False": [True, True]}
    assert result["trained_differ"]


def test_ms_layer_default_differs_instancenorm_affine_starts_as_the_identity(run_snippet):
    """InstanceNorm has no CPU kernel: its affine parameters as built are gamma 1
    and beta 0, the identity of y = gamma * x_hat + beta, so affine=True computes
    what affine=False does until training moves them."""
    result = run_snippet(
        '''
norm = nn.InstanceNorm2d(3)
report(gamma=norm.gamma.asnumpy().tolist(), beta=norm.beta.asnumpy().tolist(), trainable=norm.gamma.requires_grad)
'''
    )
    assert result == {"gamma": [1.0, 1.0, 1.0], "beta": [0.0, 0.0, 0.0], "trainable": True}


def test_ms_torch_positional_args_one_too_many_raises_type_error(run_snippet):
    """Every class and function of apis.POSITIONAL_LIMITS (generated from the measured
    signatures: PyTorch's counterpart takes more positional arguments) raises
    TypeError given one positional argument more than the table says it binds
    (``nn.ReLU(True)``: PyTorch's inplace), and the installed signature binds as many
    as the table says; ``nn.ReLU()`` / ``nn.LeakyReLU(0.2)``, the fixed calls, build."""
    table = {qname: len(limit.params) for qname, limit in apis.POSITIONAL_LIMITS.items()}
    assert {"mindspore.nn.ReLU", "mindspore.nn.LeakyReLU", "mindspore.ops.dropout2d"} <= set(table)
    result = run_snippet(f'''
import importlib, inspect

def resolve(qname):
    parts = qname.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except ImportError:
            continue
        for name in parts[cut:]:
            obj = getattr(obj, name)
        return obj

found = {{}}
for qname, count in {json.dumps(table)}.items():
    target = resolve(qname)
    every = inspect.signature(target).parameters.values()
    params = [p for p in every if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    if any(p.kind == p.VAR_POSITIONAL for p in every):
        params = [None] * count  # a decorator's (*args, **kwargs): the call itself says
    outcome = attempt(lambda: target(*([None] * (count + 1))))
    found[qname] = [len(params), outcome[0], outcome[1] if outcome[0] == "error" else ""]
report(found=found,
       relu=attempt(lambda: nn.ReLU(True)), leaky=attempt(lambda: nn.LeakyReLU(0.2, True)),
       relu_fixed=attempt(lambda: type(nn.ReLU()).__name__), leaky_fixed=attempt(lambda: nn.LeakyReLU(0.2).alpha))
''')
    assert result["relu"] == ["error", "TypeError: ReLU.__init__() takes 1 positional argument but 2 were given"]
    assert result["leaky"][0] == "error" and "takes from 1 to 2 positional arguments but 3 were given" in result["leaky"][1]
    assert result["relu_fixed"] == ["ok", "ReLU"] and result["leaky_fixed"] == ["ok", 0.2]
    wrong = {}
    for qname, (installed, status, error) in result["found"].items():
        if installed != table[qname] or status != "error" or not error.startswith("TypeError") or "positional argument" not in error:
            wrong[qname] = (installed, table[qname], status, error)
    assert not wrong


def test_ms_batchnorm_set_after_build_changes_nothing(run_snippet):
    """momentum and eps set on a built mindspore.nn BatchNorm (PyTorch's weight-init
    loop, SAM's momentum = 0 while the second forward runs, precise-BN's momentum = 1)
    change nothing, in PyNative and in GRAPH_MODE: the operator got them when the layer
    was built. Built with the value, it takes effect. PyTorch's assignment does."""
    result = run_snippet(
        TORCH
        + BATCHNORM
        + '''
def after(mode, name, value, cls=nn.BatchNorm2d):
    ms.set_context(mode=mode)
    cell = cls(2)
    setattr(cell, name, value)
    cell.set_train(True)
    out = cell(Tensor(data))
    return [round(float(v), 5) for v in cell.moving_mean.asnumpy()], round(float(out.asnumpy().ravel()[0]), 4)

def built(mode, **kwargs):
    ms.set_context(mode=mode)
    cell = nn.BatchNorm2d(2, **kwargs)
    cell.set_train(True)
    out = cell(Tensor(data))
    return [round(float(v), 5) for v in cell.moving_mean.asnumpy()], round(float(out.asnumpy().ravel()[0]), 4)

torch_bn = torch.nn.BatchNorm2d(2)
torch_bn.momentum = 0.0
torch_bn.train()
torch_bn(torch.tensor(data))
out = {}
for mode, label in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
    out[label] = dict(
        default=built(mode), momentum_0=after(mode, "momentum", 0.0), momentum_1=after(mode, "momentum", 1.0),
        sync=after(mode, "momentum", 0.0, nn.SyncBatchNorm), eps=after(mode, "eps", 0.5),
        built_momentum_1=built(mode, momentum=1.0), built_eps=built(mode, eps=0.5),
    )
report(torch_momentum_0=[round(float(v), 5) for v in torch_bn.running_mean], **out)
'''
    )
    assert result["torch_momentum_0"] == [0.0, 0.0]  # PyTorch: momentum 0 keeps the running mean
    for mode in ("pynative", "graph"):
        runs = result[mode]
        default = runs["default"]
        assert default[0] == [0.2, 0.3], mode  # 0.1 of the batch means 2 and 3
        for name in ("momentum_0", "momentum_1", "sync", "eps"):
            assert runs[name] == default, (mode, name)  # the assignment changed nothing
        assert runs["built_momentum_1"][0] == [0.0, 0.0], mode  # built with it: the running mean stays
        assert runs["built_eps"][1] != default[1], mode  # built with it: the output changes
