"""Premises of the PyTorch-name rules (checkers/migration_api.py), proven with the real
MindSpore and PyTorch: what fails, how, and that the suggested MindSpore spelling runs.
"""

from __future__ import annotations

import json

import pytest

from mslint.knowledge import apis, guide

pytestmark = pytest.mark.frameworks


def test_ms_torch_class_name_is_missing_and_the_mindspore_name_exists(run_snippet):
    """Each name of the table is absent (looked up by introspection of the installed
    MindSpore), a mindspore.nn one is torch.nn's (or
    torch.optim's: AdamW, or torch.optim.lr_scheduler's: StepLR, or torch.nn.parallel's:
    DistributedDataParallel), and the spelling the message gives
    exists (an advice in words is not a name); a same-module rename takes no
    parameter PyTorch's class does not (the rename alone is exact)."""
    names = json.dumps(sorted(guide.MISSING_NAMES.items()))
    advice = json.dumps(sorted(guide.MISSING_NAME_ADVICE))
    renames = json.dumps(sorted(guide.SAME_MODULE_RENAMES))
    result = run_snippet(f'''
import importlib, inspect
import torch
found = {{}}
for qname, replacement in {names}:
    module, _, name = qname.rpartition(".")
    target = replacement if "." in replacement else module + "." + replacement
    target_module, _, target_name = target.rpartition(".")
    exists = qname in {advice} or hasattr(importlib.import_module(target_module), target_name)
    in_torch = not module == "mindspore.nn" or hasattr(torch.nn, name) or hasattr(torch.optim, name) \
        or hasattr(torch.optim.lr_scheduler, name) or hasattr(torch.nn.parallel, name)
    subset = True
    if qname in {renames} and module == "mindspore.nn" and isinstance(getattr(torch.nn, name, None), type):
        mine = {{p.name for p in inspect.signature(getattr(importlib.import_module(target_module), target_name)).parameters.values()
                if p.kind not in (p.VAR_POSITIONAL, p.VAR_KEYWORD)}}
        subset = mine <= set(inspect.signature(getattr(torch.nn, name)).parameters)
    try:
        present = hasattr(importlib.import_module(module), name)
    except ModuleNotFoundError:  # mindspore.cuda.amp: no such module at all
        present = False
    found[qname] = [present, exists, in_torch, subset]
report(linear=hasattr(nn, "Linear"), **found)
''')
    wrong = {qname: result[qname] for qname in guide.MISSING_NAMES if result[qname] != [False, True, True, True]}
    assert not wrong, wrong
    # not every PyTorch layer name is missing: mindspore.nn.Linear exists in 2.10
    assert result["linear"] is True and "mindspore.nn.Linear" not in guide.MISSING_NAMES


def test_ms_torch_class_name_schedulers_are_experimental_optims(run_snippet):
    """torch.optim.lr_scheduler's classes looked up in mindspore.nn raise AttributeError;
    mindspore.experimental.optim.lr_scheduler has those the message names, with
    PyTorch's parameters (CyclicLR without the momentum ones), built on an
    experimental optimizer and refusing a mindspore.nn one (TypeError). It has no
    OneCycleLR, whose advice, a per-step list of rates as an nn optimizer's
    learning_rate, gives each step its rate; ChainedScheduler has no spelling and is
    not in the table."""
    named = json.dumps(guide.TORCH_SCHEDULERS_IN_EXPERIMENTAL)
    result = run_snippet(f'''
import inspect
import torch
from mindspore.experimental import optim
from mindspore.experimental.optim import lr_scheduler
found = {{}}
for name in {named}:
    mine = getattr(lr_scheduler, name, None)
    params = set(inspect.signature(mine).parameters) if mine is not None else None
    found[name] = [hasattr(nn, name), hasattr(torch.optim.lr_scheduler, name),
                   params is not None and params <= set(inspect.signature(getattr(torch.optim.lr_scheduler, name)).parameters)]
net = nn.Dense(2, 2)
weights = net.trainable_params()
rates = [0.1, 0.2, 0.3]
dynamic = nn.SGD(weights, learning_rate=rates)
seen = []
for _ in range(3):
    seen.append(round(float(dynamic.get_lr().asnumpy()), 6))
    dynamic(tuple(ops.ones_like(w) for w in weights))
report(found=found, other=[hasattr(nn, "OneCycleLR"), hasattr(lr_scheduler, "OneCycleLR"),
                           hasattr(nn, "ChainedScheduler"), hasattr(lr_scheduler, "ChainedScheduler")],
       on_nn=attempt(lambda: lr_scheduler.StepLR(nn.Adam(weights, 1e-3), 10) and None),
       on_experimental=attempt(lambda: type(lr_scheduler.StepLR(optim.Adam(weights, lr=1e-3), 10, gamma=0.5)).__name__),
       rates=seen)
''')
    assert result["found"] == {name: [False, True, True] for name in guide.TORCH_SCHEDULERS_IN_EXPERIMENTAL}, result
    assert result["other"] == [False, False, False, False], result
    assert result["on_nn"][0] == "error" and result["on_nn"][1].startswith("TypeError"), result
    assert result["on_experimental"] == ["ok", "StepLR"], result
    assert result["rates"] == [0.1, 0.2, 0.3], result
    assert "mindspore.nn.ChainedScheduler" not in guide.MISSING_NAMES
    assert all(f"mindspore.nn.{name}" in guide.MISSING_NAMES for name in (*guide.TORCH_SCHEDULERS_IN_EXPERIMENTAL, "OneCycleLR"))


def test_ms_torch_class_name_adamw_is_mint_optim(run_snippet):
    """``mindspore.nn.AdamW`` (torch.optim's name) raises AttributeError; the
    replacement the message gives, mindspore.mint.optim.AdamW, is built with
    PyTorch's arguments (its AdamW kernel is not registered on CPU, so no step is
    taken here; nn.AdamWeightDecay's neither)."""
    result = run_snippet('''
from mindspore import mint
net = nn.Dense(2, 2)
build = lambda: type(mint.optim.AdamW(net.trainable_params(), lr=1e-3, betas=(0.9, 0.999), weight_decay=1e-2)).__name__
report(missing=attempt(lambda: nn.AdamW and None), mint=attempt(build))
''')
    assert result["missing"][0] == "error" and result["missing"][1].startswith("AttributeError"), result
    assert result["mint"] == ["ok", "AdamW"], result


def test_ms_torch_class_name_missing_modules_fail_to_import(run_snippet):
    """``import mindspore.nn.init`` / ``.functional``: ModuleNotFoundError; the
    modules the message names import."""
    result = run_snippet('''
import importlib
report(**{name: attempt(lambda name=name: importlib.import_module(name) and None)
          for name in ("mindspore.nn.init", "mindspore.nn.functional",
                       "mindspore.common.initializer", "mindspore.mint.nn.functional")})
''')
    assert result["mindspore.nn.init"][1].startswith("ModuleNotFoundError"), result
    assert result["mindspore.nn.functional"][1].startswith("ModuleNotFoundError"), result
    assert result["mindspore.common.initializer"] == ["ok", None], result
    assert result["mindspore.mint.nn.functional"] == ["ok", None], result


def test_ms_torch_class_name_torch_packages_are_missing(run_snippet):
    """torch's packages looked up in mindspore: ``import mindspore.distributed``,
    ``from mindspore.cuda.amp import GradScaler``, ``from mindspore.nn.lr_scheduler
    import _LRScheduler`` raise ModuleNotFoundError, ``from mindspore.nn.utils import
    data`` ImportError. What the messages name instead works: mindspore.mint.distributed
    has torch.distributed's functions; mindspore.amp's auto_mixed_precision and
    DynamicLossScaler take the arguments the advice names; a subclass of
    experimental's LRScheduler defining get_lr() over base_lrs steps like PyTorch's."""
    result = run_snippet('''
import importlib, inspect
import torch.distributed as td
def load(statement):
    return attempt(lambda: exec(statement, {}) and None)
from mindspore import amp
from mindspore.experimental import optim
from mindspore.experimental.optim.lr_scheduler import LRScheduler
import mindspore.mint.distributed as md
class Const(LRScheduler):
    def get_lr(self):
        return list(self.base_lrs)
net = nn.Dense(2, 2)
sched = Const(optim.Adam(net.trainable_params(), lr=0.1))
sched.step()
report(distributed=load("import mindspore.distributed"),
       amp=load("from mindspore.cuda.amp import autocast, GradScaler"),
       scheduler=load("from mindspore.nn.lr_scheduler import _LRScheduler"),
       data=load("from mindspore.nn.utils import data"),
       mint=[name for name in ("init_process_group", "get_world_size", "get_rank", "all_reduce", "barrier",
                               "broadcast", "all_gather") if not (hasattr(md, name) and hasattr(td, name))],
       scaler=sorted(set(inspect.signature(amp.DynamicLossScaler).parameters)),
       mixed="amp_level" in inspect.signature(amp.auto_mixed_precision).parameters,
       last=[round(float(lr), 6) for lr in sched.get_last_lr()])
''')
    for key in ("distributed", "amp", "scheduler"):
        assert result[key][0] == "error" and result[key][1].startswith("ModuleNotFoundError"), result
    assert result["data"][0] == "error" and result["data"][1].startswith("ImportError"), result
    assert result["mint"] == [], result
    assert result["scaler"] == ["scale_factor", "scale_value", "scale_window"], result
    assert result["mixed"] is True and result["last"] == [0.1], result


def test_ms_torch_class_name_torch_tensor_types_are_missing(run_snippet):
    """PyTorch's typed tensor classes (``LongTensor``, ``FloatTensor``, ...) looked
    up in mindspore raise AttributeError (``from mindspore import LongTensor``:
    ImportError); the dtype the message names is the one torch's class holds, and
    ``mindspore.Tensor(data, dtype=mindspore.<dtype>)`` builds a tensor of it."""
    table = json.dumps(guide.TORCH_TENSOR_TYPES)
    result = run_snippet(f'''
import torch
import mindspore
found = {{}}
for name, dtype in {table}.items():
    torch_dtype = str(getattr(torch, name)().dtype).replace("torch.", "")
    built = mindspore.Tensor([1, 0], dtype=getattr(mindspore, dtype)).dtype == getattr(mindspore, dtype)
    found[name] = [hasattr(mindspore, name), torch_dtype == dtype.rstrip("_"), built]
def imported():
    from mindspore import LongTensor  # noqa: F401
report(imported=attempt(imported), attribute=attempt(lambda: mindspore.LongTensor([1]) and None), **found)
''')
    wrong = {name: result[name] for name in guide.TORCH_TENSOR_TYPES if result[name] != [False, True, True]}
    assert not wrong, wrong
    assert result["imported"][0] == "error" and result["imported"][1].startswith("ImportError"), result
    assert result["attribute"][0] == "error" and result["attribute"][1].startswith("AttributeError"), result
    assert all(f"mindspore.{name}" in guide.MISSING_NAMES for name in guide.TORCH_TENSOR_TYPES)


def test_ms_torch_optimizer_api_scheduler_and_param_groups_fail(run_snippet):
    result = run_snippet('''
import torch
optimizer = nn.SGD(nn.Dense(2, 2).trainable_params(), 0.1)
from mindspore import mint
mint_optimizer = mint.optim.AdamW(nn.Dense(2, 2).trainable_params(), lr=0.1)
report(
    scheduler=attempt(lambda: torch.optim.lr_scheduler.StepLR(optimizer, 10) and None),
    param_groups=attempt(lambda: optimizer.param_groups and None),
    mint_param_groups=attempt(lambda: len(mint_optimizer.param_groups)),
    schedule=attempt(lambda: len(nn.cosine_decay_lr(0.0, 0.1, 20, 5, 2))),
)
''')
    assert result["scheduler"][0] == "error" and result["scheduler"][1].startswith("TypeError"), result
    assert result["param_groups"][0] == "error" and result["param_groups"][1].startswith("AttributeError"), result
    assert result["mint_param_groups"] == ["ok", 1] and result["schedule"] == ["ok", 20], result


def test_ms_transpose_torch_args_fails_and_swapaxes_swaps(run_snippet):
    result = run_snippet('''
import mindspore
from mindspore import mint
x = Tensor(np.zeros((2, 3, 4)), ms.float32)
report(
    naive=attempt(lambda: ops.transpose(x, 0, 1).shape),
    fixed=attempt(lambda: list(ops.swapaxes(x, 0, 1).shape)),
    mint=attempt(lambda: list(mint.transpose(x, 0, 1).shape)),
)
''')
    assert result["naive"][0] == "error" and result["naive"][1].startswith("TypeError"), result
    assert result["fixed"] == ["ok", [3, 2, 4]] and result["mint"] == ["ok", [3, 2, 4]], result


def test_ms_dataloader_keyword_args_every_source_rejects_them(run_snippet):
    """No mindspore.dataset source class takes a PyTorch DataLoader keyword (read from the
    signatures), and a call with one raises TypeError; the renamed keywords work."""
    keywords = sorted(guide.DATALOADER_KEYWORDS)
    result = run_snippet(f'''
import inspect
import mindspore.dataset as ds
accepting = {{}}
for name in dir(ds):
    cls = getattr(ds, name)
    if not (name.endswith("Dataset") and isinstance(cls, type)) or "mindspore.dataset." + name in {sorted(guide.DATASET_NON_SOURCES)!r}:
        continue
    params = inspect.signature(cls.__init__).parameters
    takes = [k for k in {keywords!r} if k in params or any(p.kind == p.VAR_KEYWORD for p in params.values())]
    if takes:
        accepting[name] = takes
def source():
    for i in range(4):
        yield (np.array([i], np.float32),)
batch_params = list(inspect.signature(ds.GeneratorDataset.batch).parameters)
report(
    accepting=accepting,
    naive={{k: attempt(lambda: ds.GeneratorDataset(source, ["x"], **{{k: 2}}) and None)[1].split(":")[0]
           for k in {keywords!r}}},
    batch_naive=attempt(lambda: ds.GeneratorDataset(source, ["x"]).batch(2, drop_last=True) and None),
    fixed=attempt(lambda: [len(list(ds.GeneratorDataset(source, ["x"], num_parallel_workers=2)
                                    .batch(3, drop_remainder=True).create_tuple_iterator()))]),
    batch_takes=[k for k in ("drop_remainder", "num_parallel_workers") if k in batch_params],
)
''')
    assert result["accepting"] == {}, result["accepting"]
    assert set(result["naive"].values()) == {"TypeError"}, result["naive"]
    assert result["batch_naive"][0] == "error" and result["batch_naive"][1].startswith("TypeError"), result
    assert result["fixed"] == ["ok", [1]] and result["batch_takes"] == ["drop_remainder", "num_parallel_workers"]


def test_ms_softmax_ce_index_labels_raise_without_sparse(run_snippet):
    result = run_snippet('''
logits = Tensor(np.random.RandomState(0).randn(4, 3), ms.float32)
indices = Tensor(np.array([0, 1, 2, 1]), ms.int32)
report(
    naive=attempt(lambda: nn.SoftmaxCrossEntropyWithLogits()(logits, indices).shape),
    fixed=attempt(lambda: list(nn.SoftmaxCrossEntropyWithLogits(sparse=True)(logits, indices).shape)),
)
''')
    assert result["naive"][0] == "error" and result["naive"][1].startswith("TypeError"), result
    assert result["fixed"] == ["ok", [4]], result


def test_ms_torch_init_on_parameter_fails_on_every_device(run_snippet):
    """The torch.nn.init functions of the table raise on a MindSpore Parameter before any
    kernel runs (TypeError: Tensor.size is an int; AttributeError), so on every device;
    MindSpore's own initializer does the same job."""
    functions = sorted(qname.rsplit(".", 1)[-1] for qname in guide.TORCH_INIT_FAILING)
    result = run_snippet(f'''
import torch
from mindspore.common.initializer import initializer, XavierUniform
net = nn.Dense(4, 3)
found = {{name: attempt(lambda: getattr(torch.nn.init, name)(net.weight) and None) for name in {functions!r}}}
net.weight.set_data(initializer(XavierUniform(), net.weight.shape, net.weight.dtype))
report(found=found, fixed=float(np.abs(net.weight.asnumpy()).max()))
''')
    for name, outcome in result["found"].items():
        assert outcome[0] == "error" and outcome[1].split(":")[0] in ("TypeError", "AttributeError"), (name, outcome)
    assert 0 < result["fixed"] < 2


def test_ms_set_context_device_target_only_warns(tmp_path):
    """Deprecated, not removed: set_context(device_target=...) works and warns;
    set_device does the same without the warning."""
    import subprocess
    import sys

    def run(code: str) -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300,
                              check=False, cwd=tmp_path)

    naive = run("import mindspore as ms; ms.set_context(device_target='CPU'); print(ms.get_context('device_target'))")
    assert naive.returncode == 0 and naive.stdout.strip().endswith("CPU"), naive.stderr[-2000:]
    assert "deprecated" in naive.stderr and "set_device" in naive.stderr, naive.stderr[-2000:]
    fixed = run("import mindspore as ms; ms.set_device('CPU'); print(ms.get_context('device_target'))")
    assert fixed.returncode == 0 and fixed.stdout.strip().endswith("CPU")
    assert "deprecated" not in fixed.stderr


def test_table_add_module_is_missing_and_insert_child_to_cell_registers(run_snippet):
    """Cell has no add_module (ms-torch-module-method's table row); insert_child_to_cell
    takes the same arguments and registers the child's parameters."""
    assert "add_module" in apis.TORCH_MODULE_METHODS
    result = run_snippet('''
net = nn.Cell()
missing = not hasattr(net, "add_module")
net.insert_child_to_cell("fc", nn.Dense(2, 2))
report(missing=missing, params=len(net.trainable_params()))
''')
    assert result == {"missing": True, "params": 2}


def test_ms_torch_class_name_optim_and_utils_data_are_missing(run_snippet):
    """``from mindspore import optim`` (torch.optim's place) raises ImportError and
    ``mindspore.utils.data.DataLoader`` AttributeError; the spellings the messages
    give exist: mindspore.experimental.optim's Adam takes PyTorch's arguments, and a
    GeneratorDataset batched stands for a DataLoader."""
    assert guide.MISSING_NAMES["mindspore.optim"] == "mindspore.experimental.optim"
    assert guide.MISSING_NAMES["mindspore.utils.data"] == "mindspore.dataset"
    result = run_snippet('''
import mindspore.utils
def import_optim():
    from mindspore import optim  # noqa: F401
def batched():
    import mindspore.dataset as ds
    data = ds.GeneratorDataset([(np.ones(2, np.float32),)] * 4, column_names=["x"]).batch(2)
    return data.get_dataset_size()
from mindspore.experimental import optim
report(
    optim=attempt(import_optim),
    data=attempt(lambda: mindspore.utils.data.DataLoader and None),
    experimental=attempt(lambda: type(optim.Adam(nn.Dense(2, 2).trainable_params(), lr=1e-3,
                                                 betas=(0.9, 0.999))).__name__),
    batched=attempt(batched),
)
''')
    assert result["optim"][0] == "error" and result["optim"][1].startswith("ImportError"), result
    assert result["data"][0] == "error" and result["data"][1].startswith("AttributeError"), result
    assert result["experimental"] == ["ok", "Adam"], result
    assert result["batched"] == ["ok", 2], result


def test_ms_torch_class_name_cells_yields_direct_children_only(run_snippet):
    """The premise of the silence for ``for m in self.cells(): if isinstance(m, nn.Dense):
    nn.init...`` (values.no_child_matches): Cell.cells() yields the direct children only,
    not a Primitive held as an attribute, so a Dense wrapped in a project Cell, in a CellList,
    never reaches the branch (and the nn.init line never runs: building raises nothing); the
    containers (apis.NEVER_A_LAYER_SUBCLASS) are no subclass of another mindspore.nn class
    but Cell, and no class of mindspore.ops (apis.PRIMITIVE_PACKAGE) is a Cell."""
    containers = json.dumps(sorted(apis.NEVER_A_LAYER_SUBCLASS))
    package = apis.PRIMITIVE_PACKAGE.rstrip(".")
    result = run_snippet(f'''
import importlib, inspect
import mindspore as ms
from mindspore import nn, ops

class Holder(nn.Cell):
    def __init__(self, inner):
        super().__init__()
        self.inner = inner
    def construct(self, x):
        return self.inner(x)

class Mixer(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = Holder(nn.Dense(4, 4))
        self.blocks = nn.CellList([Holder(nn.Dense(4, 4))])
        self.softmax = ops.Softmax()
        self.kinds = [type(c).__name__ for c in self.cells()]
        for m in self.cells():
            if isinstance(m, nn.Dense):
                nn.init.constant_(m.bias, 0)

net = Mixer()
layers = [cls for _, cls in inspect.getmembers(nn, inspect.isclass) if issubclass(cls, nn.Cell) and cls is not nn.Cell]
bad = []
for qname in {containers}:
    module, _, name = qname.rpartition(".")
    container = getattr(importlib.import_module(module), name)
    bad += [f"{{name}} < {{other.__name__}}" for other in layers if other is not container and issubclass(container, other)]
ops_module = importlib.import_module("{package}")
cells_in_ops = [name for name, cls in inspect.getmembers(ops_module, inspect.isclass) if issubclass(cls, nn.Cell)]
report(kinds=net.kinds, bad=bad, cells_in_ops=cells_in_ops)
''')
    assert result == {"kinds": ["Holder", "CellList"], "bad": [], "cells_in_ops": []}


def test_ms_torch_class_name_tensor_functions_are_missing(run_snippet):
    """torch.cat, torch.randint, torch.nn.functional.normalize and Tensor.zeros looked up in
    mindspore, mindspore.ops and mindspore.tensor raise AttributeError (mindspore.tensor is
    a function); the spellings the messages give run on CPU: mint.cat with (tensors, dim),
    ops.randint(low, high, size), ops.L2Normalize(axis=1) (the p=2 norm), ops.zeros with the
    shape as one tuple (two sizes: TypeError); mint's randint and normalize have no CPU kernel."""
    assert guide.MISSING_NAMES["mindspore.cat"] == "mindspore.mint.cat"
    assert guide.MISSING_NAMES["mindspore.randint"] == "mindspore.ops.randint"
    assert guide.MISSING_NAMES["mindspore.ops.normalize"] == "mindspore.ops.L2Normalize"
    assert guide.MISSING_NAMES["mindspore.tensor.zeros"] == "mindspore.ops.zeros"
    result = run_snippet('''
from mindspore import mint
x = Tensor(np.array([[3., 4.]], np.float32))
report(
    cat=attempt(lambda: ms.cat), randint=attempt(lambda: ms.randint),
    normalize=attempt(lambda: ops.normalize), zeros=attempt(lambda: ms.tensor.zeros),
    mint_cat=attempt(lambda: ms.mint.cat([x, x], dim=1).asnumpy().tolist()),
    ops_randint=attempt(lambda: ops.randint(1, 100, (1,)).shape),
    l2=attempt(lambda: np.round(ops.L2Normalize(axis=1)(x).asnumpy().astype(np.float64), 4).tolist()),
    ops_zeros=attempt(lambda: ops.zeros((2, 3)).shape), ops_zeros_two=attempt(lambda: ops.zeros(2, 3)),
    mint_randint=attempt(lambda: ms.mint.randint(1, 100, (1,)).asnumpy()),
    mint_normalize=attempt(lambda: ms.mint.nn.functional.normalize(x).asnumpy()),
)
''')
    for name in ("cat", "randint", "normalize", "zeros"):
        assert result[name][0] == "error" and result[name][1].startswith("AttributeError"), result
    assert result["mint_cat"] == ["ok", [[3.0, 4.0, 3.0, 4.0]]], result
    assert result["ops_randint"] == ["ok", [1]], result
    assert result["l2"] == ["ok", [[0.6, 0.8]]], result
    assert result["ops_zeros"] == ["ok", [2, 3]], result
    assert result["ops_zeros_two"][0] == "error" and result["ops_zeros_two"][1].startswith("TypeError"), result
    assert result["mint_randint"][0] == "error" and result["mint_normalize"][0] == "error", result


def test_ms_torch_class_name_more_tensor_functions_are_missing(run_snippet):
    """torch's arange, ones, zeros, sigmoid, mul, transpose, randn, nonzero, cumsum and
    autograd looked up in mindspore raise AttributeError (``import mindspore.autograd``:
    ModuleNotFoundError); mindspore.log is the logging module, so ``mindspore.log(x)``
    raises TypeError. The spellings the messages give run on CPU with PyTorch's meaning:
    ops.arange, ops.ones/ops.zeros with the shape as one tuple (two sizes: TypeError),
    ops.sigmoid, ops.mul, mint.transpose(x, 0, 1), ops.randn(2, 3), mint.nonzero (index
    rows), ops.cumsum(x, 1), ops.log, mindspore.grad; mint's arange, cumsum and randn have
    no CPU kernel (a kernel's failure shows when the result is read: each value is read back)."""
    names = ("arange", "ones", "zeros", "sigmoid", "mul", "transpose", "randn", "nonzero", "cumsum", "autograd")
    for name in names:
        assert f"mindspore.{name}" in guide.MISSING_NAMES, name
    assert guide.CALLED_MODULES == {"mindspore.log": "mindspore.ops.log"}
    result = run_snippet(f'''
import importlib, types
from mindspore import mint
x = Tensor(np.array([[0., 1., 2.], [3., 0., 5.]], np.float32))
rounded = lambda t: np.round(t.asnumpy().astype(np.float64), 4).tolist()
report(
    missing={{name: attempt(lambda name=name: getattr(ms, name)) for name in {names!r}}},
    import_autograd=attempt(lambda: importlib.import_module("mindspore.autograd")),
    log_is_module=isinstance(ms.log, types.ModuleType), log_call=attempt(lambda: ms.log(x)),
    arange=attempt(lambda: ops.arange(1, 7, 2).asnumpy().tolist()),
    ones=attempt(lambda: ops.ones((2, 3)).asnumpy().shape), zeros=attempt(lambda: ops.zeros((2, 3)).asnumpy().shape),
    ones_two=attempt(lambda: ops.ones(2, 3)), zeros_two=attempt(lambda: ops.zeros(2, 3)),
    sigmoid=attempt(lambda: rounded(ops.sigmoid(x))[0]),
    mul=attempt(lambda: ops.mul(x, x).asnumpy().tolist()),
    transpose=attempt(lambda: mint.transpose(x, 0, 1).asnumpy().tolist()),
    randn=attempt(lambda: ops.randn(2, 3).asnumpy().shape),
    nonzero=attempt(lambda: mint.nonzero(x).asnumpy().tolist()),
    cumsum=attempt(lambda: ops.cumsum(x, 1).asnumpy().tolist()),
    log=attempt(lambda: rounded(ops.log(x + 1))[0]),
    grad=attempt(lambda: ms.grad(lambda t: (t * t).sum())(x).asnumpy().tolist()),
    mint_arange=attempt(lambda: mint.arange(5).asnumpy()), mint_cumsum=attempt(lambda: mint.cumsum(x, 1).asnumpy()),
    mint_randn=attempt(lambda: mint.randn(2, 3).asnumpy()),
)
''')
    for name in names:
        assert result["missing"][name][0] == "error" and result["missing"][name][1].startswith("AttributeError"), result
    assert result["import_autograd"][0] == "error" and result["import_autograd"][1].startswith("ModuleNotFoundError")
    assert result["log_is_module"] is True, result
    assert result["log_call"][0] == "error" and result["log_call"][1].startswith("TypeError"), result
    assert result["arange"] == ["ok", [1, 3, 5]], result
    assert result["ones"] == ["ok", [2, 3]] and result["zeros"] == ["ok", [2, 3]], result
    assert result["ones_two"][0] == "error" and result["zeros_two"][0] == "error", result
    assert result["sigmoid"] == ["ok", [0.5, 0.7311, 0.8808]], result
    assert result["mul"] == ["ok", [[0.0, 1.0, 4.0], [9.0, 0.0, 25.0]]], result
    assert result["transpose"] == ["ok", [[0.0, 3.0], [1.0, 0.0], [2.0, 5.0]]], result
    assert result["randn"] == ["ok", [2, 3]], result
    assert result["nonzero"] == ["ok", [[0, 1], [0, 2], [1, 0], [1, 2]]], result
    assert result["cumsum"] == ["ok", [[0.0, 1.0, 3.0], [3.0, 3.0, 8.0]]], result
    assert result["log"] == ["ok", [0.0, 0.6931, 1.0986]], result
    assert result["grad"] == ["ok", [[0.0, 2.0, 4.0], [6.0, 0.0, 10.0]]], result
    for name in ("mint_arange", "mint_cumsum", "mint_randn"):
        assert result[name][0] == "error", (name, result)


def test_ms_torch_class_name_elementwise_functions_run_from_mindspore_ops(run_snippet):
    """torch's sqrt, stack, exp, abs, tanh, cos, sin, pow, matmul, where, mean, sum,
    clamp, relu, squeeze, unsqueeze, flatten, full, eye, linspace and rand looked up in
    mindspore raise AttributeError; mindspore.ops has each under the same name, and each
    runs on CPU with PyTorch's arguments (values read back)."""
    names = ("sqrt", "stack", "exp", "abs", "tanh", "cos", "sin", "pow", "matmul", "where", "mean", "sum", "clamp",
             "relu", "squeeze", "unsqueeze", "flatten", "full", "eye", "linspace", "rand")
    for name in names:
        assert guide.MISSING_NAMES[f"mindspore.{name}"] == f"mindspore.ops.{name}", name
    result = run_snippet(f'''
x = Tensor(np.array([[1., 4.], [9., 16.]], np.float32))
calls = {{
    "sqrt": lambda: ops.sqrt(x), "stack": lambda: ops.stack([x, x]), "exp": lambda: ops.exp(x),
    "abs": lambda: ops.abs(-x), "tanh": lambda: ops.tanh(x), "cos": lambda: ops.cos(x), "sin": lambda: ops.sin(x),
    "pow": lambda: ops.pow(x, 2), "matmul": lambda: ops.matmul(x, x), "where": lambda: ops.where(x > 2, x, -x),
    "mean": lambda: ops.mean(x), "sum": lambda: ops.sum(x), "clamp": lambda: ops.clamp(x, 2.0, 10.0),
    "relu": lambda: ops.relu(-x), "squeeze": lambda: ops.squeeze(x[None]), "unsqueeze": lambda: ops.unsqueeze(x, 0),
    "flatten": lambda: ops.flatten(x), "full": lambda: ops.full((2, 2), 3.0), "eye": lambda: ops.eye(2),
    "linspace": lambda: ops.linspace(0.0, 1.0, 3), "rand": lambda: ops.rand(2, 2),
}}
report(missing={{name: attempt(lambda name=name: getattr(ms, name)) for name in {names!r}}},
       runs={{name: attempt(lambda call=call: call().asnumpy().shape) for name, call in calls.items()}})
''')
    for name in names:
        assert result["missing"][name][0] == "error" and result["missing"][name][1].startswith("AttributeError"), name
        assert result["runs"][name][0] == "ok", (name, result["runs"][name])


# -- ms-primitive-given-inputs -------------------------------------------------


def test_ms_primitive_given_inputs_table_is_the_installed_one_and_one_more_raises(run_snippet):
    """The table of operator classes (mslint.knowledge.primitives) is what the installed
    MindSpore has (generate_primitives read again); every class, built with one more
    positional argument than its constructor binds, raises TypeError; and the fix,
    built then called on the tensors, computes (ops.Tanh()(x), ops.ExpandDims()(x, 1),
    ops.Squeeze(0)(x))."""
    from mslint.knowledge import primitives

    table = json.dumps(sorted(primitives.PRIMITIVE_INIT_PARAMS.items()))
    result = run_snippet(f'''
from mslint.knowledge import generate_primitives
installed = {{qname: list(params) for qname, params in generate_primitives.read_installed().items()}}
failures = {{}}
x = Tensor(np.ones((1, 2), np.float32))
for qname, params in {table}:
    cls = getattr(ops, qname.rpartition(".")[2])
    outcome = attempt(lambda: cls(*([x] * (len(params) + 1))) and "built")
    if outcome[0] != "error" or not outcome[1].startswith("TypeError"):
        failures[qname] = outcome
report(installed=installed, failures=failures,
       naive=attempt(lambda: ops.Tanh(x) and "built"),
       fixed=ops.Tanh()(x).shape, expanded=ops.ExpandDims()(x, 1).shape, squeezed=ops.Squeeze(0)(x).shape)
''')
    assert result["installed"] == {qname: list(params) for qname, params in primitives.PRIMITIVE_INIT_PARAMS.items()}
    assert result["failures"] == {}
    assert result["naive"][0] == "error" and result["naive"][1].startswith("TypeError")
    assert result["fixed"] == [1, 2] and result["expanded"] == [1, 1, 2] and result["squeezed"] == [2]
