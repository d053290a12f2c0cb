"""Premises of the training-loop rules (checkers/training_loop.py), proven with the
real MindSpore: ms-torch-keyword-args, ms-grad-without-has-aux,
ms-loss-without-reduction, ms-missing-set-train. Each test builds the naive code
and the suggested fix and asserts the harm and that the fix removes it.
"""

from __future__ import annotations

import json

import pytest

from mslint.knowledge import apis

pytestmark = pytest.mark.frameworks

# ---------------------------------------------------------------------------
# ms-torch-keyword-args
# ---------------------------------------------------------------------------
# MindSpore-spelled arguments that build each class (the naive call swaps one of
# them, or adds one, for the PyTorch keyword); "params" is a trainable list.
_OPTIMIZER = {"params": "PARAMS"}
BASE_ARGUMENTS: dict[str, dict] = {
    "Dense": {"in_channels": 16, "out_channels": 4},
    "BiDense": {"in1_channels": 4, "in2_channels": 4, "out_channels": 2},
    "LayerNorm": {"normalized_shape": (16,)},
    "Embedding": {"vocab_size": 10, "embedding_size": 4},
    "PReLU": {},
    "MultiheadAttention": {"embed_dim": 8, "num_heads": 2},
    "Momentum": {**_OPTIMIZER, "learning_rate": 0.1, "momentum": 0.9},
    "Lamb": {**_OPTIMIZER, "learning_rate": 0.1},
    "Threshold": {"threshold": 0.1, "value": 20.0},
    **{name: {"input": "TENSOR"} for name in ("var", "std")},  # functions: called on a tensor
    "load_checkpoint": {"ckpt_file_name": "no_such_file.ckpt"},  # the keyword fails before the file is read
    **{name: {"in_channels": 3, "out_channels": 4, "kernel_size": 3}
       for name in ("Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose")},
    **{name: {"num_features": 4} for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm",
                                              "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d")},
    **{name: {"input_size": 4, "hidden_size": 8} for name in ("LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell")},
    **{name: dict(_OPTIMIZER) for name in ("SGD", "Adam", "AdamWeightDecay", "AdaMax", "RMSProp", "Adagrad",
                                           "Adadelta", "Rprop", "ASGD")},
}
# Values for PyTorch keywords that have no MindSpore rename (a rename takes the base value).
TORCH_VALUES: dict[str, object] = {
    "lr": 0.1, "bias": False, "groups": 1, "eps": 1e-5, "dim": 1, "nesterov": True, "amsgrad": True,
    "alpha": 0.9, "negative_slope": 0.1, "num_parameters": 1, "init": 0.25, "initial_accumulator_value": 0.1,
    "inplace": True, "size_average": True, "reduce": True, "track_running_stats": False,
    "elementwise_affine": True, "betas": (0.9, 0.999), "padding_mode": "zeros", "keepdim": True,
    "unbiased": False, "map_location": "cpu",
}

KEYWORD_HARNESS = '''
import importlib, inspect
import torch

PARAMS = nn.Dense(2, 2).trainable_params()

def find_init(func, depth=0):
    """The function a decorated __init__ wraps (MindSpore's optimizers register
    their arguments through a decorator that hides the signature)."""
    func = inspect.unwrap(func)
    if depth > 3:
        return func
    for cell in getattr(func, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if inspect.isfunction(inner) and inner.__name__ == "__init__" and inner is not func:
            return find_init(inner, depth + 1)
    return func

def accepted(cls):
    """Keyword names the constructor (or the function) takes, and whether it also takes **kwargs."""
    if not inspect.isclass(cls):
        params = list(inspect.signature(cls).parameters.values())
        return ([p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)],
                any(p.kind == p.VAR_KEYWORD for p in params))
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None:
            continue
        params = list(inspect.signature(find_init(init)).parameters.values())
        named = [p.name for p in params if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY) and p.name != "self"]
        if named:
            return named, any(p.kind == p.VAR_KEYWORD for p in params)
    return [], True

BOOLEAN_OVERLOAD_KEYWORDS = {"unbiased"}

def torch_accepts(qname, keyword):
    module, name = qname.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)
    if not inspect.isclass(cls):  # torch.stack: a builtin, documented by its signature lines
        from mslint.knowledge.mapping.measure import signatures
        if any(p[0] == keyword for params in signatures(qname)[1] or () for p in params):
            return True
        # overloads no signature shows (torch.var(x, dim, unbiased, keepdim)): call it
        if keyword in BOOLEAN_OVERLOAD_KEYWORDS:
            return attempt(lambda: cls(torch.ones(2, 3), **{keyword: False}))[0] == "ok"
        return False
    return keyword in accepted(cls)[0]

def build(cls, kwargs):
    values = {"PARAMS": PARAMS, "TENSOR": Tensor(np.ones((2, 3), np.float32))}
    kwargs = {k: values.get(v, v) if isinstance(v, str) else v for k, v in kwargs.items()}
    return attempt(lambda: type(cls(**kwargs)).__name__)
'''


def _table_as_json() -> str:
    return json.dumps({
        qname: {"torch": api.torch, "raises": api.raises,
                "keywords": {name: kw.rename for name, kw in api.keywords.items()}}
        for qname, api in apis.WRITTEN_TORCH_KEYWORD_APIS.items()
    })


def test_ms_torch_keyword_args_table_matches_signatures(run_snippet):
    """Every listed MindSpore API lacks the PyTorch keyword, has the suggested one,
    and the PyTorch counterpart really takes the keyword."""
    result = run_snippet(KEYWORD_HARNESS + f'''
table = json.loads({_table_as_json()!r})
out = {{}}
for qname, entry in table.items():
    cls = getattr(importlib.import_module(qname.rsplit(".", 1)[0]), qname.rsplit(".", 1)[1])
    named, var_keyword = accepted(cls)
    for torch_name, rename in entry["keywords"].items():
        out[qname + ":" + torch_name] = [
            torch_name not in named, rename is None or rename in named, torch_accepts(entry["torch"], torch_name),
        ]
report(**out)
''')
    assert len(result) == sum(len(api.keywords) for api in apis.WRITTEN_TORCH_KEYWORD_APIS.values())
    wrong = {key: value for key, value in result.items() if value != [True, True, True]}
    assert not wrong, wrong  # [MindSpore lacks it, MindSpore has the rename, PyTorch has it]


def test_ms_torch_keyword_args_naive_call_raises_and_fix_builds(run_snippet):
    cases = {}
    for qname, api in apis.WRITTEN_TORCH_KEYWORD_APIS.items():
        name = qname.rsplit(".", 1)[1]
        base = BASE_ARGUMENTS.get(name, {})
        for torch_name, keyword in api.keywords.items():
            naive = {k: v for k, v in base.items() if k != keyword.rename}
            value = base[keyword.rename] if keyword.rename in base else TORCH_VALUES[torch_name]
            naive[torch_name] = value
            fixed = {**base, keyword.rename: value} if keyword.rename else None
            cases[f"{qname}:{torch_name}"] = [qname, naive, fixed]
    result = run_snippet(KEYWORD_HARNESS + f'''
out = {{}}
for key, (qname, naive, fixed) in json.loads({json.dumps(cases)!r}).items():
    cls = getattr(importlib.import_module(qname.rsplit(".", 1)[0]), qname.rsplit(".", 1)[1])
    out[key] = [build(cls, naive), build(cls, fixed) if fixed is not None else None]
report(**out)
''')
    wrong = {}
    for key, (naive, fixed) in result.items():
        qname, torch_name = key.split(":")
        api = apis.WRITTEN_TORCH_KEYWORD_APIS[qname]
        rename = api.keywords[torch_name].rename
        # the naive call fails with the table's exception, naming the PyTorch keyword
        # (or the required MindSpore argument it was meant to be)
        if naive[0] != "error" or not naive[1].startswith(api.raises + ":"):
            wrong[key] = naive
        elif torch_name not in naive[1] and (rename is None or rename not in naive[1]):
            wrong[key] = naive
        if rename and fixed[0] != "ok":
            wrong[key] = fixed
    assert not wrong, wrong


def test_ms_torch_keyword_args_mint_and_experimental_take_torch_names(run_snippet):
    result = run_snippet('''
from mindspore import mint
from mindspore.experimental import optim as exp_optim
params = nn.Dense(2, 2).trainable_params()
report(
    linear=attempt(lambda: type(mint.nn.Linear(16, 4, bias=False)).__name__),
    layernorm=attempt(lambda: type(mint.nn.LayerNorm((16,), eps=1e-5)).__name__),
    adamw=attempt(lambda: type(mint.optim.AdamW(params, lr=0.1)).__name__),
    exp_sgd=attempt(lambda: type(exp_optim.SGD(params, lr=0.1)).__name__),
)
''')
    assert all(value[0] == "ok" for value in result.values()), result


# ---------------------------------------------------------------------------
# ms-grad-without-has-aux
# ---------------------------------------------------------------------------
def test_ms_grad_without_has_aux_differentiates_the_sum_of_outputs(run_snippet):
    result = run_snippet('''
pynative_mode()
x = Tensor(np.ones(2), ms.float32)
def f(x):
    return (2 * x).sum(), 3 * x
def detached(x):
    return (2 * x).sum(), ops.stop_gradient(3 * x)
def passthrough(x, y):
    return (2 * x).sum(), y
report(
    without=ms.grad(f)(x).asnumpy().tolist(),
    has_aux=ms.grad(f, has_aux=True)(x)[0].asnumpy().tolist(),
    value_and_grad=ms.value_and_grad(f)(x)[1].asnumpy().tolist(),
    value_and_grad_aux=ms.value_and_grad(f, has_aux=True)(x)[1].asnumpy().tolist(),
    stop_gradient=ms.grad(detached)(x).asnumpy().tolist(),
    passthrough=ms.grad(passthrough)(x, Tensor(np.ones(2), ms.float32)).asnumpy().tolist(),
)
''')
    assert result["without"] == [5.0, 5.0] and result["value_and_grad"] == [5.0, 5.0]
    assert result["has_aux"] == [2.0, 2.0] and result["value_and_grad_aux"] == [2.0, 2.0]
    # an output cut from the graph, or an input passed through, adds nothing: not flagged
    assert result["stop_gradient"] == [2.0, 2.0] and result["passthrough"] == [2.0, 2.0]


def test_ms_grad_without_has_aux_weights_get_the_logits_gradient(run_snippet):
    result = run_snippet('''
pynative_mode()
ms.set_seed(1)
net = nn.Dense(4, 3)
loss_fn = nn.CrossEntropyLoss()
data = Tensor(np.random.RandomState(0).randn(8, 4), ms.float32)
label = Tensor(np.arange(8) % 3, ms.int32)
def forward_fn(data, label):
    logits = net(data)
    return loss_fn(logits, label), logits
def loss_only(data, label):
    return loss_fn(net(data), label)
weights = net.trainable_params()
naive = ms.value_and_grad(forward_fn, None, weights)(data, label)[1][0].asnumpy()
fixed = ms.value_and_grad(forward_fn, None, weights, has_aux=True)(data, label)[1][0].asnumpy()
true = ms.value_and_grad(loss_only, None, weights)(data, label)[1][0].asnumpy()
report(naive_error=float(np.abs(naive - true).max()), fixed_error=float(np.abs(fixed - true).max()))
''')
    assert result["naive_error"] > 0.1, result
    assert result["fixed_error"] < 1e-6, result


# ---------------------------------------------------------------------------
# ms-loss-without-reduction
# ---------------------------------------------------------------------------
LOSS_HARNESS = '''
pynative_mode()
ms.set_seed(1)
BATCH = 8
data = Tensor(np.random.RandomState(0).randn(BATCH, 4), ms.float32)
label = Tensor(np.arange(BATCH) % 3, ms.int32)

def weight_gradient(loss_fn, reduce=False):
    net = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
    def forward_fn(data, label):
        loss = loss_fn(net(data), label)
        return loss.mean() if reduce else loss
    return ms.value_and_grad(forward_fn, None, net.trainable_params())(data, label)[1][0].asnumpy()

def step_size(loss_fn):
    """How far one SGD step of TrainOneStepCell(WithLossCell(net, loss_fn)) moves the weights."""
    net = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
    train = nn.TrainOneStepCell(nn.WithLossCell(net, loss_fn), nn.SGD(net.trainable_params(), 0.1))
    before = net.weight.asnumpy().copy()
    train(data, label)
    return float(np.abs(net.weight.asnumpy() - before).sum())
'''


def test_ms_loss_without_reduction_defaults_are_none(run_snippet):
    result = run_snippet(LOSS_HARNESS + '''
logits = Tensor(np.random.RandomState(1).randn(BATCH, 3), ms.float32)
report(
    softmax_ce=list(nn.SoftmaxCrossEntropyWithLogits(sparse=True)(logits, label).shape),
    smooth_l1=list(nn.SmoothL1Loss()(logits, logits + 1).shape),
    cross_entropy=list(nn.CrossEntropyLoss()(logits, label).shape),
    mint_smooth_l1=list(ms.mint.nn.SmoothL1Loss()(logits, logits + 1).shape),
)
''')
    assert result["softmax_ce"] == [8] and result["smooth_l1"] == [8, 3]  # one loss per sample
    assert result["cross_entropy"] == [] and result["mint_smooth_l1"] == []  # scalars


def test_ms_loss_without_reduction_scales_the_gradient_by_the_batch(run_snippet):
    result = run_snippet(LOSS_HARNESS + '''
unreduced = weight_gradient(nn.SoftmaxCrossEntropyWithLogits(sparse=True))
mean = weight_gradient(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean"))
reduced_in_fn = weight_gradient(nn.SoftmaxCrossEntropyWithLogits(sparse=True), reduce=True)
report(
    ratio=float(np.abs(unreduced).sum() / np.abs(mean).sum()),
    reduced_matches=bool(np.allclose(reduced_in_fn, mean, atol=1e-6)),
    wrapper_ratio=step_size(nn.SoftmaxCrossEntropyWithLogits(sparse=True))
    / step_size(nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")),
)
''')
    assert abs(result["ratio"] - 8) < 1e-3, result  # the batch size
    assert result["reduced_matches"], result
    assert abs(result["wrapper_ratio"] - 8) < 1e-3, result


# ---------------------------------------------------------------------------
# ms-missing-set-train
# ---------------------------------------------------------------------------
SET_TRAIN_HARNESS = '''
pynative_mode()
from mindspore.train import Model
import mindspore.dataset as ds

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4, weight_init="ones", bias_init="zeros")
        self.drop = nn.Dropout(p=0.5)
        self.bn = nn.BatchNorm1d(4)
    def construct(self, x):
        return self.bn(self.drop(self.fc(x)))

data = Tensor(np.random.RandomState(0).rand(16, 4) + 1, ms.float32)
label = Tensor(np.zeros((16, 4)), ms.float32)

def dropped_fraction(cell):
    return float((cell(Tensor(np.ones((1000,)), ms.float32)).asnumpy() == 0).mean())

def trained_with_train_cell(set_train):
    net = Net()
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
    if set_train:
        train.set_train()
    for _ in range(3):
        train(data, label)
    return [net.training, bool(np.abs(net.bn.moving_mean.asnumpy()).max() > 0)]

def trained_with_value_and_grad(set_train):
    net = Net()
    optimizer = nn.SGD(net.trainable_params(), 0.01)
    loss_fn = nn.MSELoss()
    def forward_fn(x, y):
        return loss_fn(net(x), y)
    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    if set_train:
        net.set_train()
    for _ in range(3):
        _, grads = grad_fn(data, label)
        optimizer(grads)
    return [net.training, bool(np.abs(net.bn.moving_mean.asnumpy()).max() > 0)]

def trained_with_model():
    net = Net()
    model = Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01))
    dataset = ds.NumpySlicesDataset((data.asnumpy(), label.asnumpy()), shuffle=False).batch(16)
    model.train(1, dataset)
    return [net.training, bool(np.abs(net.bn.moving_mean.asnumpy()).max() > 0)]
'''


def test_ms_missing_set_train_dropout_is_off_until_set_train(run_snippet):
    result = run_snippet(SET_TRAIN_HARNESS + '''
fresh = nn.Dropout(p=0.5)
trained = nn.Dropout(p=0.5)
trained.set_train()
mint_fresh = ms.mint.nn.Dropout(p=0.5)
report(fresh=dropped_fraction(fresh), trained=dropped_fraction(trained), mint=dropped_fraction(mint_fresh),
       training=Net().training)
''')
    assert result["training"] is False
    assert result["fresh"] == 0.0 and result["mint"] == 0.0  # passes everything through
    assert 0.4 < result["trained"] < 0.6


def test_ms_missing_set_train_train_cell_and_value_and_grad_leave_eval_mode(run_snippet):
    result = run_snippet(SET_TRAIN_HARNESS + '''
report(
    train_cell=trained_with_train_cell(False),
    train_cell_fixed=trained_with_train_cell(True),
    value_and_grad=trained_with_value_and_grad(False),
    value_and_grad_fixed=trained_with_value_and_grad(True),
    model=trained_with_model(),
)
''')
    # [network in training mode, BatchNorm moving statistics updated]
    assert result["train_cell"] == [False, False], result
    assert result["value_and_grad"] == [False, False], result
    assert result["train_cell_fixed"] == [True, True], result
    assert result["value_and_grad_fixed"] == [True, True], result
    assert result["model"] == [True, True], result  # Model.train calls set_train itself


# ---------------------------------------------------------------------------
# ms-stop-gradient-discarded
# ---------------------------------------------------------------------------
def test_ms_stop_gradient_discarded_changes_no_gradient(run_snippet):
    result = run_snippet('''
pynative_mode()
x = Tensor(np.ones(2), ms.float32)
def discarded(x):
    y = x * 3
    ops.stop_gradient(y)
    return (y * 2).sum() + x.sum()
def assigned(x):
    y = x * 3
    y = ops.stop_gradient(y)
    return (y * 2).sum() + x.sum()
def without(x):
    y = x * 3
    return (y * 2).sum() + x.sum()
report(discarded=ms.grad(discarded)(x).asnumpy().tolist(), assigned=ms.grad(assigned)(x).asnumpy().tolist(),
       without=ms.grad(without)(x).asnumpy().tolist())
''')
    assert result["discarded"] == result["without"] == [7.0, 7.0]  # as if the call were not there
    assert result["assigned"] == [1.0, 1.0]  # the fix stops it


def test_ms_stop_gradient_discarded_eager_code_is_differentiated_only_through_grad(run_snippet):
    """A program's main() runs eagerly: MindSpore has no tape a tensor records to
    (no ``Tensor.backward``), so only the function given to grad/value_and_grad is
    differentiated; a value main() computes itself (a validation loss) takes part
    in no gradient, and a stop_gradient there, kept or discarded, changes none."""
    result = run_snippet('''
pynative_mode()
net = nn.Dense(2, 1)
x = Tensor(np.ones((1, 2)), ms.float32)
def forward(x):
    return net(x).sum()
grad_fn = ms.value_and_grad(forward, None, net.trainable_params())
def main(discard):
    val_loss = net(x).sum() * 3
    if discard:
        ops.stop_gradient(val_loss)
    _, grads = grad_fn(x)
    return [g.asnumpy().tolist() for g in grads]
report(backward=hasattr(Tensor, "backward"), discarded=main(True), without=main(False))
''')
    assert result["backward"] is False
    assert result["discarded"] == result["without"]


# One call of each API mslint takes for an integer result (apis.INTEGER_RESULT_CALLS,
# INTEGER_RESULT_METHODS): its value carries no gradient, so a discarded
# stop_gradient on it loses nothing.
INTEGER_RESULT_SAMPLES = {
    "argmax": "{p}.argmax(x)", "argmin": "{p}.argmin(x)", "argsort": "{p}.argsort(x)",
    "randint": "{p}.randint(0, 5, (2,))", "randperm": "{p}.randperm(4)", "multinomial": "{p}.multinomial(x, 1)",
    "count_nonzero": "{p}.count_nonzero(x)", "nonzero": "{p}.nonzero(x)",
    "bucketize": "ops.bucketize(x, [0.5])", "argwhere": "ops.argwhere(x)",
    "random_categorical": "ops.random_categorical(ops.log(x), 2)",
    "Argmax": "ops.Argmax()(x)", "Argmin": "ops.Argmin()(x)",
    "UniformInt": "ops.UniformInt()((2,), Tensor(0, ms.int32), Tensor(5, ms.int32))",
    "RandomCategorical": "ops.RandomCategorical()(ops.log(x), 2, 1)",
}


def test_ms_stop_gradient_discarded_integer_results_carry_no_gradient(run_snippet):
    calls = {}
    for qname in sorted(apis.INTEGER_RESULT_CALLS):
        package, name = qname.split(".")[1:]
        calls[qname] = INTEGER_RESULT_SAMPLES[name].format(p=package)
    calls.update({f"Tensor.{method}": f"x.{method}()" for method in sorted(apis.INTEGER_RESULT_METHODS)})
    lines = "\n".join(f"dtypes[{qname!r}] = attempt(lambda: _dtype({call}))" for qname, call in calls.items())
    result = run_snippet(f'''
from mindspore import mint
pynative_mode()
x = Tensor([[0.3, 0.1], [0.2, 0.9]], ms.float32)
dtypes = {{}}
def _dtype(result):
    result.asnumpy()  # run it now: an error belongs to this call
    return str(result.dtype)
{lines}
report(**dtypes)
''')
    assert set(result) == set(calls)
    # an integer dtype, or no CPU kernel (some mint ops run on Ascend only; mint.randint's
    # CPU kernel is sometimes not created: "Create kernelmod for op InplaceRandom failed")
    assert {
        qname: outcome for qname, outcome in result.items()
        if not (outcome[0] == "ok" and "Int" in outcome[1] or "unregistered" in outcome[1] or "kernelmod" in outcome[1])
    } == {}
    assert sum(outcome[0] == "ok" for outcome in result.values()) >= len(calls) * 2 // 3


# ---------------------------------------------------------------------------
# ms-torch-module-method
# ---------------------------------------------------------------------------
def test_ms_torch_module_method_cells_lack_them_and_the_equivalents_exist(run_snippet):
    methods = json.dumps(sorted(apis.TORCH_MODULE_METHODS))
    result = run_snippet(f'''
from mindspore import mint
cells = [nn.Dense(2, 2), nn.SequentialCell([nn.Dense(2, 2), nn.Dropout(p=0.1)]), mint.nn.Linear(2, 2),
         nn.LSTM(2, 2), nn.GRU(2, 2)]
net = cells[1]
def equivalents():
    net.set_train(False); net.set_train()
    return [len(list(net.get_parameters())), len(list(net.parameters_and_names())), len(list(net.cells_and_names())),
            len(net.cells()), len(net.name_cells()), type(net.to_float(ms.float16)).__name__]
report(
    present={{m: any(hasattr(cell, m) for cell in cells) for m in {methods}}},
    eval=attempt(lambda: net.eval()),
    equivalents=attempt(equivalents),
)
''')
    assert not any(result["present"].values()), result["present"]
    assert result["eval"][0] == "error" and result["eval"][1].startswith("AttributeError"), result["eval"]
    assert result["equivalents"] == ["ok", [2, 2, 3, 2, 2, "SequentialCell"]], result["equivalents"]


def test_ms_torch_module_method_forward_is_missing_but_on_bijectors(run_snippet):
    owners = json.dumps(sorted(apis.TORCH_MODULE_METHOD_OWNERS["forward"]))
    result = run_snippet(f'''
import importlib, inspect, pkgutil
from mindspore import mint
from mindspore.nn.probability import bijector
pynative_mode()
class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(2, 2, 1)
    def construct(self, x):
        return self.conv.forward(x)
class Fixed(Block):
    def construct(self, x):
        return self.conv(x)
x = Tensor(np.ones((1, 2, 3, 3), np.float32))
with_forward = set()
for package in ("mindspore.nn", "mindspore.mint.nn"):
    root = importlib.import_module(package)
    modules = [root]
    for info in pkgutil.walk_packages(root.__path__, package + "."):
        try:
            modules.append(importlib.import_module(info.name))
        except Exception:
            pass
    for module in modules:
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and issubclass(cls, nn.Cell) and hasattr(cls, "forward"):
                with_forward.add(cls.__module__ + "." + cls.__qualname__)
report(
    naive=attempt(lambda: Block()(x).shape),
    fixed=attempt(lambda: list(Fixed()(x).shape)),
    with_forward=sorted(with_forward),
    bijectors=sorted(name for name in dir(bijector) if inspect.isclass(getattr(bijector, name))),
    owners_have_it=[hasattr(getattr(bijector, q.rsplit(".", 1)[1]), "forward") for q in {owners}],
)
''')
    assert result["naive"][0] == "error" and result["naive"][1].startswith("AttributeError"), result["naive"]
    assert result["fixed"] == ["ok", [1, 2, 3, 3]], result["fixed"]
    # only the probability bijectors define forward; the table names each of them
    assert all(name.startswith("mindspore.nn.probability.") for name in result["with_forward"]), result["with_forward"]
    assert {name.rsplit(".", 1)[1] for name in result["with_forward"]} <= {
        q.rsplit(".", 1)[1] for q in apis.TORCH_MODULE_METHOD_OWNERS["forward"]}, result["with_forward"]
    assert all(result["owners_have_it"]), result["owners_have_it"]


def test_ms_torch_keyword_args_through_a_partial_raises_when_it_builds(run_snippet):
    result = run_snippet('''
import functools
norm = functools.partial(nn.InstanceNorm2d, affine=False, track_running_stats=False)
fixed = functools.partial(nn.InstanceNorm2d, affine=False)
report(naive=attempt(lambda: type(norm(4)).__name__), fixed=attempt(lambda: type(fixed(4)).__name__))
''')
    assert result["naive"][0] == "error" and result["naive"][1].startswith("TypeError"), result["naive"]
    assert "track_running_stats" in result["naive"][1], result["naive"]
    assert result["fixed"] == ["ok", "InstanceNorm2d"], result["fixed"]


def test_ms_torch_keyword_args_project_subclass_runs_its_own_init(run_snippet):
    """A project subclass of a MindSpore layer is built by its own __init__ (the
    nearest one up its chain), else by the layer's: a PyTorch keyword that
    __init__ neither declares nor takes in **kwargs raises TypeError; one it
    declares, or **kwargs handed on after a rename, builds."""
    result = run_snippet('''
class Linear(nn.Dense):
    def __init__(self, in_channels, out_channels, has_bias=True):
        super().__init__(in_channels, out_channels, has_bias=has_bias)

class Scaled(Linear):
    pass

class PlainConv(nn.Conv2d):
    def construct(self, x):
        return super().construct(x)

class Declared(nn.Dense):
    def __init__(self, in_channels, out_channels, bias=True):
        super().__init__(in_channels, out_channels, has_bias=bias)

class Forwarding(nn.Dense):
    def __init__(self, in_channels, out_channels, **kwargs):
        kwargs["has_bias"] = kwargs.pop("bias", True)
        super().__init__(in_channels, out_channels, **kwargs)

def built(make):
    return attempt(lambda: type(make()).__name__)

report(own=built(lambda: Linear(8, 1, bias=False)), inherited=built(lambda: Scaled(8, 1, bias=False)),
       layer=built(lambda: PlainConv(4, 4, 3, groups=4)), renamed=built(lambda: Linear(8, 1, has_bias=False)),
       declared=built(lambda: Declared(8, 1, bias=False)), forwarded=built(lambda: Forwarding(8, 1, bias=False)))
''')
    for name in ("own", "inherited", "layer"):
        assert result[name][0] == "error" and result[name][1].startswith("TypeError"), (name, result[name])
    assert "bias" in result["own"][1] and "groups" in result["layer"][1], result
    assert result["renamed"] == ["ok", "Linear"] and result["declared"] == ["ok", "Declared"], result
    assert result["forwarded"] == ["ok", "Forwarding"], result


# ---------------------------------------------------------------------------
# ms-loss-scale-without-unscale
# ---------------------------------------------------------------------------
def test_ms_loss_scale_without_unscale_multiplies_the_gradients(run_snippet):
    result = run_snippet('''
pynative_mode()
from mindspore.amp import StaticLossScaler, DynamicLossScaler
net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
x = Tensor(np.ones((4, 2)), ms.float32)
weights = net.trainable_params()
out = {}
for name, scaler in (("static", StaticLossScaler(1024)), ("dynamic", DynamicLossScaler(1024, 2, 1000))):
    def forward_fn(x):
        return scaler.scale(net(x).mean())
    grads = ms.grad(forward_fn, None, weights)(x)
    out[name] = [float(grads[0].asnumpy().ravel()[0]), float(scaler.unscale(grads)[0].asnumpy().ravel()[0])]
out["true"] = float(ms.grad(lambda x: net(x).mean(), None, weights)(x)[0].asnumpy().ravel()[0])
report(**out)
''')
    assert result["true"] == 1.0
    assert result["static"] == [1024.0, 1.0] and result["dynamic"] == [1024.0, 1.0], result


# ---------------------------------------------------------------------------
# ms-optimizer-loss-scale-unmatched
# ---------------------------------------------------------------------------
def test_ms_optimizer_loss_scale_unmatched_divides_the_steps(run_snippet):
    """nn.Momentum/nn.SGD built with loss_scale=S divide every gradient by S; only a
    Model given a loss scale manager of the same S (or a TrainOneStepCell given
    sens=S) multiplies the loss back: without it each step is S times too small."""
    result = run_snippet('''
pynative_mode()
from mindspore.train import Model
from mindspore.amp import FixedLossScaleManager
import mindspore.dataset as ds

def moved(make_optimizer, manager=None, cell=None):
    net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
    before = net.weight.asnumpy().copy()
    optimizer = make_optimizer(net.trainable_params())
    x, y = np.ones((8, 4), np.float32), np.zeros((8, 2), np.float32)
    if cell is None:
        data = ds.NumpySlicesDataset({"x": x, "y": y}, shuffle=False).batch(8)
        extra = {} if manager is None else {"loss_scale_manager": manager}
        Model(net, nn.MSELoss(), optimizer, **extra).train(1, data, dataset_sink_mode=False)
    else:
        cell(nn.WithLossCell(net, nn.MSELoss()), optimizer)(Tensor(x), Tensor(y))
    return float(np.abs(net.weight.asnumpy() - before).sum())

momentum = lambda s: (lambda p: nn.Momentum(p, 0.1, 0.9, 0.0, s))
sgd = lambda s: (lambda p: nn.SGD(p, 0.1, loss_scale=s))
report(
    momentum_plain=moved(momentum(1.0)),
    momentum_scaled=moved(momentum(1024.0)),
    momentum_managed=moved(momentum(1024.0), FixedLossScaleManager(1024.0, drop_overflow_update=False)),
    sgd_plain=moved(sgd(1.0)),
    sgd_scaled=moved(sgd(1024.0)),
    cell_scaled=moved(sgd(1024.0), cell=nn.TrainOneStepCell),
    cell_sens=moved(sgd(1024.0), cell=lambda n, o: nn.TrainOneStepCell(n, o, sens=1024.0)),
)
''')
    assert abs(result["momentum_plain"] / result["momentum_scaled"] - 1024) < 1, result
    assert abs(result["momentum_managed"] - result["momentum_plain"]) < 1e-5, result
    assert abs(result["sgd_plain"] / result["sgd_scaled"] - 1024) < 1, result
    assert abs(result["sgd_plain"] / result["cell_scaled"] - 1024) < 1, result
    assert abs(result["cell_sens"] - result["sgd_plain"]) < 1e-5, result


def test_ms_optimizer_loss_scale_unmatched_custom_step_divides_the_steps(run_snippet):
    """A custom step (value_and_grad, then optimizer(grads)) multiplies nothing: an
    nn.Momentum/nn.SGD built with loss_scale=S moves the weights S times less than with
    loss_scale=1; multiplying the loss by S in the forward function moves them as far."""
    result = run_snippet('''
pynative_mode()

def moved(make_optimizer, factor=1.0, grad_only=False):
    net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
    before = net.weight.asnumpy().copy()
    optimizer = make_optimizer(net.trainable_params())
    loss_fn = nn.MSELoss()
    def forward_fn(x, y):
        loss = loss_fn(net(x), y)
        return loss * factor if factor != 1.0 else loss
    x, y = Tensor(np.ones((8, 4), np.float32)), Tensor(np.zeros((8, 2), np.float32))
    if grad_only:
        grads = ms.grad(forward_fn, None, optimizer.parameters)(x, y)
    else:
        _, grads = ms.value_and_grad(forward_fn, None, optimizer.parameters)(x, y)
    optimizer(grads)
    return float(np.abs(net.weight.asnumpy() - before).sum())

momentum = lambda s: (lambda p: nn.Momentum(p, 0.1, 0.9, 0.0, loss_scale=s))
sgd = lambda s: (lambda p: nn.SGD(p, 0.1, loss_scale=s))
report(
    momentum_plain=moved(momentum(1.0)),
    momentum_scaled=moved(momentum(1024.0)),
    momentum_matched=moved(momentum(1024.0), factor=1024.0),
    sgd_plain=moved(sgd(1.0), grad_only=True),
    sgd_scaled=moved(sgd(64.0), grad_only=True),
)
''')
    assert abs(result["momentum_plain"] / result["momentum_scaled"] - 1024) < 1, result
    assert abs(result["momentum_matched"] - result["momentum_plain"]) < 1e-4, result
    assert abs(result["sgd_plain"] / result["sgd_scaled"] - 64) < 0.1, result


# ---------------------------------------------------------------------------
# Seed-document premises measured for other rules (reported, not rules here)
# ---------------------------------------------------------------------------
def test_table_training_loop_premises_that_failed(run_snippet):
    """Measured and dropped: Tensor.transpose(a, b) swaps two axes like PyTorch's, and
    strict_load=True does not make load_param_into_net fail on a checkpoint that loads
    nothing (both return the lists of names not loaded)."""
    result = run_snippet('''
pynative_mode()
t = Tensor(np.zeros((2, 3, 4)), ms.float32)
class A(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)
class B(nn.Cell):
    def __init__(self):
        super().__init__()
        self.head = nn.Dense(2, 2)
ms.save_checkpoint(A(), "a.ckpt")
report(
    transpose=list(t.transpose(0, 1).shape),
    lenient=attempt(lambda: ms.load_param_into_net(B(), ms.load_checkpoint("a.ckpt"))),
    strict=attempt(lambda: ms.load_param_into_net(B(), ms.load_checkpoint("a.ckpt"), strict_load=True)),
)
''')
    assert result["transpose"] == [3, 2, 4]
    expected = ["ok", [["head.weight", "head.bias"], ["fc.weight", "fc.bias"]]]
    assert result["lenient"] == expected and result["strict"] == expected, result


# ---------------------------------------------------------------------------
# Issue 24: the optimizer decides what a summed loss does; extra outputs without
# a gradient; an optimizer's parameters; set_train per instance; loss scaling
# ---------------------------------------------------------------------------
SCALE_HARNESS = '''
pynative_mode()
import importlib
rs = np.random.RandomState(0)
X = Tensor(rs.randn(16, 4), ms.float32)
Y = Tensor(rs.randint(0, 3, 16), ms.int32)

def optimizer(qname, params, weight_decay):
    module, name = qname.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)
    lr = 1.0 if name.lower() == "adadelta" else 0.01
    keywords = {"lr": lr} if module.startswith("mindspore.experimental") else {"learning_rate": lr}
    if weight_decay:
        keywords["weight_decay"] = weight_decay
    if name == "Momentum":
        keywords["momentum"] = 0.9
    return cls(params, **keywords)

def trained(qname, summed, weight_decay=0.0, steps=20):
    net = nn.Dense(4, 3, weight_init="ones", bias_init="zeros")
    loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True)  # reduction 'none': one loss per sample
    opt = optimizer(qname, net.trainable_params(), weight_decay)
    def forward(x, y):
        per_sample = loss_fn(net(x), y)
        return per_sample.sum() if summed else per_sample.mean()
    grad_fn = ms.value_and_grad(forward, None, opt.parameters)
    for _ in range(steps):
        _, grads = grad_fn(X, Y)
        opt(grads)
    return net.weight.asnumpy()

def relative_gap(qname, weight_decay=0.0, steps=20):
    summed, mean = trained(qname, True, weight_decay, steps), trained(qname, False, weight_decay, steps)
    return float(np.abs(summed - mean).max() / max(np.abs(mean - 1).max(), 1e-12))
'''


def test_ms_loss_without_reduction_adaptive_optimizers_ignore_the_loss_scale(run_snippet):
    """Each optimizer of apis.SCALE_INVARIANT_OPTIMIZERS ends 20 steps on a summed loss
    within 1% of the distance moved on the mean loss (nn.Adam: 2e-6); with weight
    decay that is added to the gradient it does not (the decay is batch-size times
    weaker against the sum), decoupled decay keeps it."""
    table = repr(apis.SCALE_INVARIANT_OPTIMIZERS)
    result = run_snippet(SCALE_HARNESS + f'''
gaps = {{}}
for qname, decoupled in {table}.items():
    decays = "Rprop" not in qname or not qname.startswith("mindspore.experimental")
    gaps[qname] = [relative_gap(qname), relative_gap(qname, 0.1) if decays else 0.0, decoupled]
report(**gaps)
''')
    for qname, (plain, decayed, decoupled) in result.items():
        assert plain < 0.01, (qname, plain)
        if decoupled:
            assert decayed < 0.01, (qname, decayed)
        else:
            assert decayed > 0.5, (qname, decayed)  # measured 1.06 to 1.91


def test_ms_loss_without_reduction_sgd_steps_scale_with_the_batch(run_snippet):
    """SGD and Momentum (apis.LINEAR_OPTIMIZERS): one step on the summed loss moves the
    weights batch-size times as far as on the mean; Adam's first step is the same."""
    linear = repr(sorted(apis.LINEAR_OPTIMIZERS))
    result = run_snippet(SCALE_HARNESS + f'''
def first_step(qname, summed):
    return np.abs(trained(qname, summed, steps=1) - 1).sum()
ratios = {{qname: float(first_step(qname, True) / first_step(qname, False)) for qname in {linear}}}
report(ratios=ratios, adam=float(first_step("mindspore.nn.Adam", True) / first_step("mindspore.nn.Adam", False)),
       gaps={{qname: relative_gap(qname) for qname in ("mindspore.nn.Adagrad", "mindspore.nn.RMSProp")}})
''')
    for qname, ratio in result["ratios"].items():
        assert abs(ratio - 16) < 1e-3, (qname, ratio)  # the batch size
    assert abs(result["adam"] - 1) < 1e-3
    assert all(gap > 0.05 for gap in result["gaps"].values()), result["gaps"]  # not invariant either


def test_ms_grad_without_has_aux_outputs_without_gradient_change_nothing(run_snippet):
    """``return loss, acc`` with acc from argmax (or a comparison): the gradients are the
    same with and without has_aux."""
    result = run_snippet('''
pynative_mode()
net = nn.Dense(4, 3)
loss_fn = nn.SoftmaxCrossEntropyWithLogits(sparse=True, reduction="mean")
x = Tensor(np.random.RandomState(0).randn(8, 4), ms.float32)
y = Tensor(np.array([0, 1, 2, 0, 1, 2, 0, 1]), ms.int32)
def with_accuracy(x, y):
    logits = net(x)
    acc = (logits.argmax(1) == y).astype(ms.float32).mean()
    correct = ops.equal(ops.argmax(logits, 1), y).sum()
    return loss_fn(logits, y), acc, correct
weights = net.trainable_params()
plain = ms.grad(with_accuracy, None, weights)(x, y)
aux, _ = ms.grad(with_accuracy, None, weights, has_aux=True)(x, y)
report(same=all(np.allclose(a.asnumpy(), b.asnumpy()) for a, b in zip(plain, aux)))
''')
    assert result["same"] is True


def test_ms_torch_module_method_get_parameters_in_an_optimizer_decays_the_moving_statistics(run_snippet):
    """An optimizer built from get_parameters() (the old safe fix of parameters()) with
    weight decay shrinks the BatchNorm moving statistics; trainable_params() leaves them."""
    result = run_snippet('''
pynative_mode()
def moving_variance(params_of):
    ms.set_seed(0)
    net = nn.SequentialCell([nn.Dense(4, 4), nn.BatchNorm1d(4)])
    net.set_train()
    x = Tensor(np.random.RandomState(0).randn(16, 4) * 3, ms.float32)
    net(x)  # fill the moving statistics once, then only the optimizer acts on them
    net.set_train(False)
    opt = nn.SGD(params_of(net), learning_rate=0.1, weight_decay=0.1)
    grad_fn = ms.value_and_grad(lambda data: net(data).sum(), None, opt.parameters)
    for _ in range(5):
        _, grads = grad_fn(x)
        opt(grads)
    return [float(net[1].moving_variance.asnumpy().mean()), len(opt.parameters)]
report(all_params=moving_variance(lambda n: n.get_parameters()),
       trainable=moving_variance(lambda n: n.trainable_params()))
''')
    decayed, held = result["all_params"]
    kept, trained = result["trainable"]
    assert held == 6 and trained == 4  # get_parameters() hands over the two moving statistics
    assert decayed < kept * 0.97, result  # 5 steps of lr 0.1 x wd 0.1: 0.99 ** 5


def test_ms_missing_set_train_another_instance_or_an_evaluation_does_not_switch_it(run_snippet):
    """set_train() on another network, or set_train(False) in an evaluation function,
    leaves the trained network's Dropout off; set_train() in its caller turns it on."""
    result = run_snippet(SET_TRAIN_HARNESS + '''
def train_loop(net):
    train = nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.01))
    train(data, label)
    return [net.training, bool(np.abs(net.bn.moving_mean.asnumpy()).max() > 0)]
def evaluate(net):
    net.set_train(False)
    net(data)
student, teacher = Net(), Net()
teacher.set_train()
evaluate(student)
first = train_loop(student)
caller_set = Net()
caller_set.set_train()
report(other_instance=first, caller=train_loop(caller_set))
''')
    assert result["other_instance"] == [False, False]
    assert result["caller"] == [True, True]


def test_ms_loss_scale_without_unscale_unscaling_the_loss_leaves_the_gradients_scaled(run_snippet):
    """A loss unscaled for logging says nothing of the gradients: they stay scaled."""
    result = run_snippet('''
pynative_mode()
from mindspore.amp import DynamicLossScaler
net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
scaler = DynamicLossScaler(1024, 2, 1000)
def scale_loss(loss):
    return scaler.scale(loss)
def forward_fn(x):
    return scale_loss(net(x).mean())
loss, grads = ms.value_and_grad(forward_fn, None, net.trainable_params())(Tensor(np.ones((4, 2)), ms.float32))
report(loss=float(scaler.unscale(loss).asnumpy()), grad=float(grads[0].asnumpy().ravel()[0]))
''')
    assert result["loss"] == 2.0 and result["grad"] == 1024.0


# ---------------------------------------------------------------------------
# ms-unknown-context-keyword
# ---------------------------------------------------------------------------
def test_ms_unknown_context_keyword_tables_are_what_mindspore_knows(run_snippet):
    """The known keywords are MindSpore's own: set_auto_parallel_context's setter
    table, set_context's setters, context parameters and context-object attributes;
    every one of them is in mslint's tables, and nothing else is."""
    result = run_snippet('''
from mindspore import context
from mindspore.parallel._auto_parallel_context import _set_auto_parallel_context_func_map
ctx = context._context()
parameters = set(ctx.setters) | {k for k in context.ms_ctx_param.__members__ if not k.startswith("_")}
attributes = {n for n in dir(ctx) if not n.startswith("_")}
report(parallel=sorted(_set_auto_parallel_context_func_map), context=sorted(parameters | attributes))
''')
    known = apis.CONTEXT_KNOWN_KEYWORDS
    assert set(result["parallel"]) == known["mindspore.set_auto_parallel_context"]
    # set_context also names four keys it only warns about, and three it refuses by name
    named = {"enable_sparse", "auto_tune_mode", "enable_auto_mixed_precision", "enable_compile_cache",
             "exception_dump", "grad_for_scalar", "precompile_only"}
    assert set(result["context"]) | named == known["mindspore.set_context"]


def test_ms_unknown_context_keyword_misspelling_raises_and_fix_works(run_snippet):
    """A misspelled keyword raises ValueError (the ProtoNet script's radients_mean),
    the suggested keyword is accepted and takes effect; every known keyword passes
    the name check (any error it raises is about its value, not its name)."""
    result = run_snippet('''
from mslint.knowledge import apis
def named(setter, key):
    outcome = attempt(lambda: setter(**{key: object()}))
    return outcome[0] == "ok" or "not recognized" not in outcome[1]
report(
    parallel=attempt(lambda: ms.set_auto_parallel_context(radients_mean=True)),
    context=attempt(lambda: ms.set_context(devce_target="CPU")),
    fixed=attempt(lambda: ms.set_auto_parallel_context(gradients_mean=True)),
    mean=ms.get_auto_parallel_context("gradients_mean"),
    older=attempt(lambda: ms.set_auto_parallel_context(mirror_mean=True)),
    parallel_known=all(named(ms.set_auto_parallel_context, key)
                       for key in apis.CONTEXT_KNOWN_KEYWORDS["mindspore.set_auto_parallel_context"]),
)
''')
    assert result["parallel"] == ["error", "ValueError: Set context keyword radients_mean is not recognized!"]
    assert result["context"][0] == "error" and result["context"][1].startswith("ValueError")
    assert "devce_target is not recognized" in result["context"][1]
    assert result["fixed"] == ["ok", None] and result["mean"] is True
    assert result["older"][0] == "error"  # an older MindSpore's key fails too, but the rule leaves it alone
    assert result["parallel_known"]


def test_ms_missing_set_train_switched_off_in_the_loop_stays_off(run_snippet):
    """A sampling helper called in the training loop switches the network off and
    nothing switches it back: every later value_and_grad step runs with training=False
    and BatchNorm's moving statistics stop moving; set_train() after the helper, or
    at the top of each step, keeps them moving."""
    result = run_snippet(SET_TRAIN_HARNESS + '''
def run(restore):
    net = Net()
    optimizer = nn.SGD(net.trainable_params(), 0.01)
    grad_fn = ms.value_and_grad(lambda x, y: nn.MSELoss()(net(x), y), None, optimizer.parameters)
    def sample():
        net.set_train(False)
        net(data)
    net.set_train()
    moved, modes = [], []
    for step in range(4):
        before = net.bn.moving_mean.asnumpy().copy()
        _, grads = grad_fn(data, label)
        optimizer(grads)
        modes.append(net.training)
        moved.append(bool(np.abs(net.bn.moving_mean.asnumpy() - before).max() > 0))
        if step == 0:
            sample()
            if restore:
                net.set_train()
    return [modes, moved]
report(naive=run(False), fixed=run(True))
''')
    assert result["naive"] == [[True, False, False, False], [True, False, False, False]]
    assert result["fixed"] == [[True, True, True, True], [True, True, True, True]]


def test_ms_torch_keyword_args_through_a_layer_class_variable(run_snippet):
    """``act_layer(inplace=True)`` where act_layer holds nn.ReLU6 or nn.HSwish raises
    TypeError as the class written there would; nn.Identity takes any keyword, so a
    name that may hold it is not reported."""
    result = run_snippet('''
def block(act_layer=None):
    if act_layer is None:
        act_layer = nn.ReLU6
    return act_layer(inplace=True)
report(
    relu6=attempt(lambda: type(block()).__name__),
    hswish=attempt(lambda: type(block(nn.HSwish)).__name__),
    identity=attempt(lambda: type(block(nn.Identity)).__name__),
)
''')
    assert result["relu6"][0] == "error" and result["relu6"][1].startswith("TypeError"), result["relu6"]
    assert result["hswish"][0] == "error" and result["hswish"][1].startswith("TypeError"), result["hswish"]
    assert result["identity"] == ["ok", "Identity"]


def test_ms_missing_set_train_zero_rate_dropout_is_the_identity_in_training(run_snippet):
    """A Dropout with rate 0 (nn.Dropout(p=0.0), nn.Dropout(keep_prob=1.0), the p-first
    layers with 0.0) passes its input through unchanged with the training flag on:
    set_train() changes nothing for it (checkers/training_loop.py, _inert_layer)."""
    result = run_snippet(SET_TRAIN_HARNESS + '''
x = Tensor(np.random.RandomState(0).rand(4, 3, 8, 8) + 0.5, ms.float32)
layers = {
    "nn.Dropout(p=0.0)": nn.Dropout(p=0.0),
    "nn.Dropout(keep_prob=1.0)": nn.Dropout(keep_prob=1.0),
    "nn.Dropout2d(p=0.0)": nn.Dropout2d(p=0.0),
    "mint.nn.Dropout(p=0.0)": ms.mint.nn.Dropout(p=0.0),
}
same = {}
for name, layer in layers.items():
    layer.set_train()
    same[name] = bool(np.array_equal(layer(x).asnumpy(), x.asnumpy()))
dropping = nn.Dropout(p=0.5)
dropping.set_train()
report(same=same, dropping=bool(np.array_equal(dropping(x).asnumpy(), x.asnumpy())))
''')
    assert all(result["same"].values()), result
    assert result["dropping"] is False


def test_ms_grad_without_has_aux_loss_terms_double_the_gradient(run_snippet):
    """``loss = mse + reg; return loss, mse, reg`` without has_aux: the gradient is
    exactly twice the loss's; AdamWeightDecay (apis.SCALE_INVARIANT_OPTIMIZERS) ends
    20 steps where has_aux=True does, SGD's first step is twice as long."""
    result = run_snippet('''
pynative_mode()
rs = np.random.RandomState(0)
x = Tensor(rs.randn(8, 4), ms.float32)
y = Tensor(rs.randn(8, 2), ms.float32)
def run(optimizer_class, has_aux, steps, **kwargs):
    ms.set_seed(0)
    net = nn.Dense(4, 2, weight_init="ones", bias_init="zeros")
    optimizer = optimizer_class(net.trainable_params(), **kwargs)
    def compute_losses(x, y):
        out = net(x)
        mse = ((out - y) ** 2).mean()
        reg = (out ** 2).mean()
        loss = mse + reg
        return loss, mse, reg
    grad_fn = ms.value_and_grad(compute_losses, None, optimizer.parameters, has_aux=has_aux)
    first = None
    for _ in range(steps):
        _, grads = grad_fn(x, y)
        first = grads[0].asnumpy() if first is None else first
        optimizer(grads)
    return net.weight.asnumpy(), first
adam_plain, g_plain = run(nn.AdamWeightDecay, False, 20, learning_rate=1e-2, weight_decay=0.01)
adam_aux, g_aux = run(nn.AdamWeightDecay, True, 20, learning_rate=1e-2, weight_decay=0.01)
sgd_plain, _ = run(nn.SGD, False, 1, learning_rate=1e-2)
sgd_aux, _ = run(nn.SGD, True, 1, learning_rate=1e-2)
report(ratio=float((g_plain / g_aux).mean()), ratio_spread=float(np.ptp(g_plain / g_aux)),
       adam_gap=float(np.abs(adam_plain - adam_aux).max()),
       adam_moved=float(np.abs(adam_aux - 1).max()),
       sgd_ratio=float(np.abs(sgd_plain - 1).sum() / np.abs(sgd_aux - 1).sum()))
''')
    assert abs(result["ratio"] - 2) < 1e-4 and result["ratio_spread"] < 1e-4, result
    assert result["adam_gap"] < 1e-3 * result["adam_moved"], result
    assert abs(result["sgd_ratio"] - 2) < 1e-3, result


def test_ms_clip_result_discarded_clips_nothing(run_snippet):
    """MindSpore's clipping functions return clipped copies and leave their arguments
    as they were (PyTorch's clip_grad_norm_ clips the parameters' .grad in place): a
    call whose result is dropped changes nothing, in PyNative and in GRAPH_MODE; the
    returned tensors are the clipped ones."""
    result = run_snippet('''
grads = (Tensor(np.array([3.0, 4.0]), ms.float32), Tensor(np.array([0.0, 12.0]), ms.float32))

def discarded(g):
    ops.clip_by_global_norm(g, 1.0)
    ops.clip_by_value(g[0], -1.0, 1.0)
    ops.clip_by_norm(g[1], 1.0)
    return g

def assigned(g):
    return ops.clip_by_global_norm(g, 1.0)

out = {}
for mode, label in ((ms.PYNATIVE_MODE, "pynative"), (ms.GRAPH_MODE, "graph")):
    ms.set_context(mode=mode)
    kept = ms.jit(discarded)(grads) if label == "graph" else discarded(grads)
    clipped = ms.jit(assigned)(grads) if label == "graph" else assigned(grads)
    out[label] = dict(discarded=[[round(float(v), 4) for v in t.asnumpy()] for t in kept],
                      assigned=[[round(float(v), 4) for v in t.asnumpy()] for t in clipped])
report(**out)
''')
    for mode in ("pynative", "graph"):
        assert result[mode]["discarded"] == [[3.0, 4.0], [0.0, 12.0]], mode  # unchanged
        # the global norm is 13: scaled by 1/13
        assert result[mode]["assigned"] == [[0.2308, 0.3077], [0.0, 0.9231]], mode
