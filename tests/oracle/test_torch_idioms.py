"""Premises of ms-torch-in-cell, proven with the real MindSpore and PyTorch: each
PyTorch idiom fails (or does nothing) on MindSpore objects, and the MindSpore
spelling the message suggests works.
"""

from __future__ import annotations

import pytest

OBJECTS = '''
import torch
x = Tensor(np.ones((2, 3)), ms.float32)
net = nn.Dense(3, 3)
optimizers = {"nn.Adam": nn.Adam(net.trainable_params())}
import mindspore.experimental.optim as eo
import mindspore.mint.optim as mo
optimizers["experimental.optim.Adam"] = eo.Adam(net.trainable_params())
optimizers["mint.optim.AdamW"] = mo.AdamW(net.trainable_params())
'''


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_ms_torch_in_cell_size_is_an_int_attribute_so_size_0_raises(run_snippet, mode):
    result = run_snippet(f'''
x = Tensor(np.ones((2, 3)), ms.float32)
pynative_mode() if "{mode}" == "pynative" else graph_mode()
class TorchStyle(nn.Cell):
    def construct(self, x):
        return x.reshape(x.size(0), -1)
class MindSporeStyle(nn.Cell):
    def construct(self, x):
        return x.reshape(x.shape[0], -1)
report(size=x.size, torch_style=attempt(lambda: TorchStyle()(x).shape),
       fixed=attempt(lambda: MindSporeStyle()(x).shape))
''')
    assert result["size"] == 6  # the element count, not a method
    assert result["torch_style"][0] == "error"
    assert result["fixed"] == ["ok", [2, 3]]


def test_ms_torch_in_cell_pytorch_methods_do_not_exist(run_snippet):
    result = run_snippet(OBJECTS + '''
loss = nn.MSELoss()(net(x), x)
report(tensor_cuda=attempt(lambda: x.cuda()), cell_cuda=attempt(lambda: net.cuda()),
       backward=attempt(lambda: loss.backward()),
       zero_grad={k: attempt(lambda: o.zero_grad()) for k, o in optimizers.items()},
       step={k: attempt(lambda: o.step()) for k, o in optimizers.items()},
       set_device=hasattr(ms, "set_device"))
''')
    for key in ("tensor_cuda", "cell_cuda", "backward"):
        assert result[key][0] == "error" and result[key][1].startswith("AttributeError"), key
    for key in ("zero_grad", "step"):
        assert result[key] and all(v[0] == "error" and v[1].startswith("AttributeError") for v in result[key].values())
    assert result["set_device"] is True  # the message's ms.set_device("GPU")


def test_ms_torch_in_cell_the_mindspore_training_step_the_messages_suggest(run_snippet):
    result = run_snippet('''
pynative_mode()
x = Tensor(np.ones((4, 3)), ms.float32)
y = Tensor(np.zeros((4, 3)), ms.float32)
net = nn.Dense(3, 3)
loss_fn = nn.MSELoss()
optimizer = nn.SGD(net.trainable_params(), 0.1)
def forward_fn(data, label):
    return loss_fn(net(data), label)
value_and_grad = ms.value_and_grad(forward_fn, None, optimizer.parameters)
losses = []
for _ in range(3):
    loss, grads = value_and_grad(x, y)
    optimizer(grads)
    losses.append(float(loss.asnumpy()))
report(losses=losses)
''')
    losses = result["losses"]
    assert losses[0] > losses[1] > losses[2]  # no zero_grad needed: gradients do not accumulate


def test_ms_torch_in_cell_to_accepts_dtypes_and_mindspore_devices_but_not_pytorch_devices(run_snippet):
    result = run_snippet(OBJECTS + '''
from mslint.knowledge import apis
devices = ["cuda", "cuda:0", "CUDA", "mps", "xpu"]
report(torch_devices={d: attempt(lambda: x.to(d)) for d in devices},
       prefixed=[d.lower().startswith(apis.TORCH_DEVICE_PREFIXES) for d in devices],
       torch_device=attempt(lambda: x.to(torch.device("cpu"))),
       cell_cuda=attempt(lambda: net.to("cuda")),
       dtype=attempt(lambda: str(x.to(ms.float16).dtype)),
       cpu=attempt(lambda: str(x.to("cpu").device)),
       CPU=attempt(lambda: str(x.to("CPU").device)),
       cell_dtype=attempt(lambda: type(net.to(ms.float16)).__name__))
''')
    assert all(v[0] == "error" and v[1].startswith("ValueError") for v in result["torch_devices"].values())
    assert all(result["prefixed"])
    assert result["torch_device"][0] == "error"
    assert result["cell_cuda"][0] == "error" and result["cell_cuda"][1].startswith("ValueError")
    # MindSpore's own spellings of .to stay legal: the rule is silent on them
    assert result["dtype"] == ["ok", "Float16"]
    assert result["cpu"] == ["ok", "CPU"] and result["CPU"] == ["ok", "CPU"]
    assert result["cell_dtype"] == ["ok", "Dense"]


def test_ms_torch_in_cell_to_a_torch_device_is_a_no_op_on_a_cell_without_parameters(run_snippet):
    """Cell.to converts the Cell's parameters: a Cell holding none (a loss of plain
    numbers) returns itself for a PyTorch device, where one with a layer raises;
    the rule stays silent on the first (fixtures/torch_idioms/ms_torch_in_cell_other_objects*)."""
    result = run_snippet(OBJECTS + '''
class Charbonnier(nn.Cell):
    def __init__(self, eps=1e-9):
        super().__init__()
        self.eps = eps
    def construct(self, a, b):
        return ((a - b) ** 2 + self.eps).sqrt().mean()
class Scaled(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(3, 3)
    def construct(self, a):
        return self.fc(a)
loss = Charbonnier()
report(empty=attempt(lambda: loss.to("cuda") is loss), empty_runs=attempt(lambda: float(loss(x, x + 1).asnumpy()) > 0),
       held=attempt(lambda: Scaled().to("cuda")))
''')
    assert result["empty"] == ["ok", True] and result["empty_runs"] == ["ok", True]
    assert result["held"][0] == "error" and result["held"][1].startswith("ValueError")


def test_ms_torch_in_cell_torch_functions_reject_mindspore_tensors(run_snippet):
    result = run_snippet(OBJECTS + '''
class Cell(nn.Cell):
    def construct(self, x):
        return torch.relu(x)
pynative_mode()
pynative = attempt(lambda: Cell()(x))
graph_mode()
graph = attempt(lambda: Cell()(x))
report(sum=attempt(lambda: torch.sum(x)), pynative=pynative, graph=graph,
       ops=attempt(lambda: float(ops.relu(x).sum().asnumpy())))
''')
    assert result["sum"][0] == "error" and result["sum"][1].startswith("TypeError")
    assert result["pynative"][0] == "error" and result["pynative"][1].startswith("TypeError")
    assert result["graph"][0] == "error"
    assert result["ops"] == ["ok", 6.0]


def test_ms_torch_in_cell_torch_objects_are_not_trained_nor_mixable(run_snippet):
    result = run_snippet(OBJECTS + '''
class Mixed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = torch.nn.Linear(3, 3)
        self.mask = torch.ones(3)
        self.fc = nn.Dense(3, 3)
    def construct(self, x):
        return self.fc(x) * self.mask
mixed = Mixed()
pynative_mode()
report(trainable=[p.name for p in mixed.trainable_params()], call=attempt(lambda: mixed(x)))
''')
    assert result["trainable"] == ["fc.weight", "fc.bias"]  # torch.nn.Linear's weights are not trained
    assert result["call"][0] == "error" and result["call"][1].startswith("TypeError")


def test_ms_torch_in_cell_torch_no_grad_does_not_stop_mindspore_gradients(run_snippet):
    result = run_snippet('''
import torch
pynative_mode()
v = Tensor(np.ones(3), ms.float32)
def plain(a):
    return (a * 3 * a).sum()
def with_torch_no_grad(a):
    with torch.no_grad():
        b = a * 3
    return (b * a).sum()
def with_stop_gradient(a):
    b = ops.stop_gradient(a * 3)
    return (b * a).sum()
grad = lambda fn: ms.grad(fn)(v).asnumpy().tolist()
report(plain=grad(plain), torch_no_grad=grad(with_torch_no_grad), stop_gradient=grad(with_stop_gradient))
''')
    assert result["torch_no_grad"] == result["plain"] == [6.0, 6.0, 6.0]  # nothing was stopped
    assert result["stop_gradient"] == [3.0, 3.0, 3.0]  # the fix stops it


def test_ms_torch_in_cell_stop_gradient_is_no_context_manager(run_snippet):
    """``with ops.stop_gradient():`` (a port of ``with torch.no_grad():``) raises
    TypeError, in PyNative and in a function ms.grad differentiates; the fix the
    message gives (no with, the value wrapped) stops that value's gradient."""
    result = run_snippet('''
import mindspore.ops.functional as F
pynative_mode()
v = Tensor(np.ones(3), ms.float32)
def as_context():
    with ops.stop_gradient():
        return v * 2
def differentiated(a):
    with F.stop_gradient():
        b = a * 3
    return (b * a).sum()
def fixed(a):
    b = ops.stop_gradient(a * 3)
    return (b * a).sum()
report(context=attempt(as_context), differentiated=attempt(lambda: ms.grad(differentiated)(v)),
       fixed=ms.grad(fixed)(v).asnumpy().tolist())
''')
    for key in ("context", "differentiated"):
        assert result[key][0] == "error" and result[key][1].startswith("TypeError"), result
    assert result["fixed"] == [3.0, 3.0, 3.0]


def test_ms_torch_in_cell_method_idiom_table(run_snippet):
    result = run_snippet(OBJECTS + '''
from mslint.knowledge import apis
methods = sorted(apis.TORCH_METHOD_IDIOMS)
w = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")
report(tensor={m: callable(getattr(x, m, None)) for m in methods},
       parameter={m: callable(getattr(w, m, None)) for m in methods},
       cell={m: callable(getattr(net, m, None)) for m in methods},
       optimizers={k: {m: hasattr(o, m) for m in methods} for k, o in optimizers.items()},
       numpy={m: hasattr(np.ones(3), m) for m in apis.TORCH_TENSOR_ONLY_METHODS},
       torch={m: callable(getattr(torch.ones(2, 3), m, None)) for m in methods if m not in ("zero_grad", "step")})
''')
    # none of them is a callable method of a MindSpore Tensor, Parameter, Cell or optimizer
    assert not any(result["tensor"].values())
    assert not any(result["parameter"].values())
    assert not any(result["cell"].values())
    # the methods reported whatever the receiver: numpy arrays lack them too
    assert not any(result["numpy"].values())
    # each is a PyTorch tensor method (its idiom)
    assert all(result["torch"].values()), [m for m, v in result["torch"].items() if not v]
    for flags in result["optimizers"].values():
        assert not any(flags.values())


def test_ms_torch_in_cell_outside_construct_dataset_items_are_tensors_without_torch_methods(run_snippet):
    """Outside construct (evaluation code, module level): the items of a MindSpore
    dataset iterator are MindSpore tensors (numpy arrays with output_numpy=True), and a
    tensor has no .detach(), .cpu() or .cuda() (AttributeError), .size(0) raises
    TypeError, .to("cuda") ValueError; a Cell has no .half() or .eval(). The
    suggested spellings work."""
    result = run_snippet('''
pynative_mode()
import mindspore.dataset as ds
data = ds.NumpySlicesDataset((np.ones((4, 3), np.float32), np.zeros((4,), np.int32)), shuffle=False).batch(2)
images, labels = next(data.create_tuple_iterator())
batch = next(data.create_dict_iterator())
numpy_images, _ = next(data.create_tuple_iterator(output_numpy=True))
net = nn.Dense(3, 3)
report(
    kinds=[type(images).__name__, type(batch["column_0"]).__name__, type(numpy_images).__name__],
    detach=attempt(lambda: images.detach()), cpu=attempt(lambda: images.cpu()), cuda=attempt(lambda: images.cuda()),
    size=attempt(lambda: labels.size(0)), to=attempt(lambda: images.to("cuda")),
    half=attempt(lambda: net.half()), eval=attempt(lambda: net.eval()),
    fixed=[labels.shape[0], float(ops.stop_gradient(images).sum()), type(net.to_float(ms.float16)).__name__,
           net.set_train(False).training],
)
''')
    assert result["kinds"] == ["Tensor", "Tensor", "ndarray"], result["kinds"]
    for key in ("detach", "cpu", "cuda", "half", "eval"):
        assert result[key][0] == "error" and result[key][1].startswith("AttributeError"), (key, result[key])
    assert result["size"][0] == "error" and result["size"][1].startswith("TypeError"), result["size"]
    assert result["to"][0] == "error" and result["to"][1].startswith("ValueError"), result["to"]
    assert result["fixed"] == [2, 6.0, "Dense", False]


def test_ms_torch_in_cell_detach_in_place_fails_where_a_layer_is_built(run_snippet):
    """``self.weights.detach_()`` in __init__ (a PyTorch sinusoidal embedding's make_weights):
    the Cell cannot be built (AttributeError); deleting it leaves a frozen Parameter."""
    result = run_snippet('''
pynative_mode()
class SinPos(nn.Cell):
    def __init__(self, detach):
        super().__init__()
        self.weights = Parameter(ops.zeros((4, 2)), requires_grad=False)
        if detach:
            self.weights.detach_()
    def construct(self, x):
        return x + self.weights
report(torch_style=attempt(lambda: SinPos(True)), fixed=attempt(lambda: len(SinPos(False).trainable_params())))
''')
    assert result["torch_style"][0] == "error" and result["torch_style"][1].startswith("AttributeError")
    assert result["fixed"] == ["ok", 0]


def test_ms_torch_in_cell_in_place_methods_have_out_of_place_counterparts(run_snippet):
    """The in-place PyTorch methods the rule reports: MindSpore's tensor lacks them
    (PyNative: AttributeError; graph mode fails to compile), and the out-of-place
    method the message suggests computes what PyTorch's in-place one leaves in x."""
    result = run_snippet('''
import torch
from mslint.knowledge import apis
values = np.array([[0.25, 0.5, 0.75], [0.1, 0.2, 0.3]], np.float32)
other = np.array([[0.5, 0.4, 0.3], [0.2, 0.6, 0.9]], np.float32)
arguments = {"pow_": (2,), "clip_": (0.2, 0.6), "cumsum_": (0,), "cumprod_": (1,), "fmod_": (0.3,),
             "lerp_": ("other", 0.5), "addcmul_": ("other", "other"),
             "atan2_": ("other",), "divide_": ("other",), "multiply_": ("other",),
             "subtract_": ("other",), "true_divide_": ("other",), "xlogy_": ("other",),
             "transpose_": (0, 1), "swapaxes_": (0, 1), "swapdims_": (0, 1), "unsqueeze_": (0,),
             "tril_": (), "triu_": (1,)}
def given(args, make):
    return [make(other) if a == "other" else a for a in args]
same, missing, present = {}, [], []
for name in sorted(apis.TORCH_INPLACE_TENSOR_METHODS):
    args = arguments.get(name, ())
    t = torch.tensor(values)
    getattr(t, name)(*given(args, torch.tensor))
    x = Tensor(values)
    missing.append(not hasattr(x, name))
    out = attempt(lambda: getattr(x, name[:-1])(*given(args, Tensor)).asnumpy())
    same[name] = out[0] == "ok" and bool(np.allclose(out[1], t.numpy(), atol=1e-5, equal_nan=True)) or out
for name in sorted(apis.TORCH_INPLACE_DTYPE_KEEPING_METHODS):
    x = Tensor(values)
    missing.append(not hasattr(x, name))
    present.append(callable(getattr(x, name[:-1], None)))
class InPlace(nn.Cell):
    def construct(self, x):
        x.unsqueeze_(0)
        return x
graph_mode()
report(same=same, missing=all(missing), present=all(present), graph=attempt(lambda: InPlace()(Tensor(values)).shape))
''')
    assert result["missing"] and result["present"]
    assert all(v is True for v in result["same"].values()), {n: v for n, v in result["same"].items() if v is not True}
    assert result["graph"][0] == "error"


def test_ms_torch_in_cell_what_a_mindspore_tensor_gives_is_a_tensor(run_snippet):
    """What mslint.analysis.values.mindspore_object takes for a MindSpore tensor outside
    construct: indexing one, its methods in TENSOR_RESULT_METHODS and attributes in
    TENSOR_RESULT_ATTRIBUTES, and arithmetic with it on the left (a tensor or a
    TypeError, whatever the right operand) or after a Python number; not numpy on
    the left, which answers first with an array."""
    result = run_snippet('''
import torch
from mslint.knowledge import apis
x = Tensor(np.arange(6).reshape(2, 3), ms.float32)
w = Parameter(Tensor(np.ones((2, 3)), ms.float32), name="w")
arguments = {"reshape": (3, 2), "view": (3, 2), "view_as": (x,), "reshape_as": (x,), "expand": ((2, 2, 3),),
             "expand_as": (x,), "broadcast_to": ((2, 2, 3),), "transpose": (0, 1), "swapaxes": (0, 1),
             "permute": (1, 0), "astype": (ms.float16,), "type_as": (x,), "pow": (2,), "clamp": (0.0, 1.0),
             "clip": (0.0, 1.0), "repeat_interleave": (2,), "tile": ((2, 1),), "softmax": (-1,),
             "unsqueeze": (0,), "flip": ((0,),), "narrow": (0, 0, 1), "cumsum": (0,),
             "index_select": (0, Tensor([0], ms.int32)), "gather": (Tensor([0], ms.int32), 0),
             "masked_fill": (x > 2, 0.0), "matmul": (x.T,), "add": (x,), "sub": (x,), "mul": (x,), "div": (2.0,)}
def kind_of(value):
    value.asnumpy()  # PyNative runs ops asynchronously: a failing kernel fails here
    return "Tensor" if isinstance(value, Tensor) else type(value).__name__  # a Parameter is a Tensor
methods = {f"{kind}.{m}": attempt(lambda: kind_of(getattr(t, m)(*arguments.get(m, ()))))
           for kind, t in (("tensor", x), ("parameter", w)) for m in sorted(apis.TENSOR_RESULT_METHODS)}
attributes = {f"{kind}.{a}": type(getattr(t, a)).__name__
              for kind, t in (("tensor", x), ("parameter", w)) for a in sorted(apis.TENSOR_RESULT_ATTRIBUTES)}
others = {"numpy": np.ones((2, 3), np.float32), "torch": torch.ones(2, 3), "list": [1.0, 2.0, 3.0], "float": 2.0,
          "none": None, "object": object()}
arithmetic = {f"{name} {op}": attempt(lambda: type(eval("x " + op + " v", {"x": x, "v": v})).__name__)
              for name, v in others.items() for op in apis.TENSOR_ARITHMETIC_OPERATORS}
import importlib
declared = [isinstance(getattr(importlib.import_module(q.rsplit(".", 1)[0]), q.rsplit(".", 1)[1])(x), Tensor)
            for q in sorted(apis.TENSOR_ANNOTATIONS)]
report(methods=methods, attributes=attributes, arithmetic=arithmetic, declared=declared,
       index=[type(x[0, 0]).__name__, type(x[:, 1:]).__name__, type(w[0]).__name__],
       number_left=type(2.0 * x).__name__, numpy_left=type(np.ones((2, 3), np.float32) * x).__name__)
''')
    # a plain tensor's clone() has no CPU kernel in 2.10 (a Parameter's does): the line
    # fails there before any PyTorch idiom after it, so it still runs no further
    cpu_gaps = {"tensor.clone": ["error", "RuntimeError: The kernel Clone unregistered."]}
    assert all(v == ["ok", "Tensor"] or cpu_gaps.get(m) == v for m, v in result["methods"].items()), \
        {m: v for m, v in result["methods"].items() if v != ["ok", "Tensor"]}
    assert result["methods"]["parameter.clone"] == ["ok", "Tensor"]
    assert set(result["attributes"].values()) <= {"Tensor", "Parameter"}, result["attributes"]
    for key, outcome in result["arithmetic"].items():
        assert outcome == ["ok", "Tensor"] or outcome[0] == "error" and outcome[1].startswith("TypeError"), (key, outcome)
    assert result["index"] == ["Tensor", "Tensor", "Tensor"]
    assert result["number_left"] == "Tensor" and result["numpy_left"] == "ndarray"
    assert all(result["declared"])  # the annotations taken as a declared tensor name Tensor classes


# An input each layer of apis.TENSOR_OUTPUT_CELLS takes, and the arguments it is built with.
_LAYER_CASES = {
    "Conv1d": ("(4, 8, 1)", (1, 4, 6)), "Conv2d": ("(4, 8, 1)", (1, 4, 6, 6)),
    "Conv3d": ("(4, 8, 1)", (1, 4, 6, 6, 6)), "Conv2dTranspose": ("(4, 8, 1)", (1, 4, 6, 6)),
    "BatchNorm1d": ("(4,)", (2, 4)), "BatchNorm2d": ("(4,)", (1, 4, 6, 6)),
    "BatchNorm3d": ("(4,)", (1, 4, 6, 6, 6)), "LayerNorm": ("((6,),)", (1, 4, 6)),
    "GroupNorm": ("(2, 4)", (1, 4, 6, 6)), "Dense": ("(6, 3)", (2, 6)), "ReLU": ("()", (2, 6)),
    "ReLU6": ("()", (2, 6)), "LeakyReLU": ("()", (2, 6)), "GELU": ("()", (2, 6)), "Sigmoid": ("()", (2, 6)),
    "Tanh": ("()", (2, 6)), "SiLU": ("()", (2, 6)), "Softmax": ("()", (2, 6)), "PReLU": ("()", (2, 6)),
    "ELU": ("()", (2, 6)), "Dropout": ("()", (2, 6)), "Flatten": ("()", (1, 4, 6, 6)),
    "Identity": ("()", (2, 6)), "MaxPool1d": ("(2, 2)", (1, 4, 6)), "MaxPool2d": ("(2, 2)", (1, 4, 6, 6)),
    "AvgPool1d": ("(2, 2)", (1, 4, 6)), "AvgPool2d": ("(2, 2)", (1, 4, 6, 6)),
    "AdaptiveAvgPool2d": ("(1,)", (1, 4, 6, 6)), "Embedding": ("(10, 4)", None),
}


def test_ms_torch_in_cell_layer_outputs_are_tensors_so_size_0_raises(run_snippet):
    """Each layer of apis.TENSOR_OUTPUT_CELLS returns one MindSpore tensor, and so does
    a SequentialCell ending with one: ``.size(0)`` on the result raises TypeError
    (PyNative, as in a helper method outside construct)."""
    from mslint.knowledge import apis

    assert {f"mindspore.nn.{name}" for name in _LAYER_CASES} == set(apis.TENSOR_OUTPUT_CELLS)
    result = run_snippet(f'''
pynative_mode()
cases = {_LAYER_CASES!r}
out = {{}}
for name, (args, shape) in cases.items():
    layer = getattr(nn, name)(*eval(args))
    x = Tensor(np.ones((2, 3)), ms.int32) if shape is None else Tensor(np.ones(shape), ms.float32)
    y = layer(x)
    out[name] = [type(y).__name__, attempt(lambda: y.size(0))[1].split(":")[0]]
seq = nn.SequentialCell(nn.Conv2d(4, 8, 1, has_bias=True), nn.BatchNorm2d(8), nn.ReLU())
y = seq(Tensor(np.ones((1, 4, 6, 6)), ms.float32))
out["SequentialCell"] = [type(y).__name__, attempt(lambda: y.size(0))[1].split(":")[0]]
report(**out)
''')
    wrong = {name: got for name, got in result.items() if got != ["Tensor", "TypeError"]}
    assert not wrong, wrong


def test_ms_torch_in_cell_layer_parameters_are_mindspore_tensors(run_snippet):
    """The weight and bias of the layers in LAYERS_WITH_PARAMETER_ATTRIBUTES are
    Parameters (bias: or None), without .detach(); clone() of a tensor is a tensor
    (TENSOR_RESULT_METHODS)."""
    result = run_snippet('''
import importlib
from mslint.knowledge import apis
ARGS = {"Dense": (2, 2), "BiDense": (2, 2, 2), "Linear": (2, 2)}
out = {}
for qname in sorted(apis.LAYERS_WITH_PARAMETER_ATTRIBUTES):
    module, name = qname.rsplit(".", 1)
    cls = getattr(importlib.import_module(module), name)
    layer = cls(*ARGS.get(name, (2, 2, 1)))
    out[qname] = [type(layer.weight).__name__, type(getattr(layer, "bias", "missing")).__name__,
                  hasattr(layer.weight, "detach")]
report(layers=out, clone=attempt(lambda: type(Tensor(np.ones(2, np.float32)).clone()).__name__),
       detach=hasattr(ms.Tensor, "detach"))
''')
    for qname, (weight, bias, has_detach) in result["layers"].items():
        assert weight == "Parameter" and bias in ("Parameter", "NoneType") and not has_detach, (qname, weight, bias)
    assert result["clone"] == ["ok", "Tensor"] and result["detach"] is False, result


def test_ms_torch_in_cell_a_dataset_iterated_directly_gives_tensors(run_snippet):
    """``for data, target in loader`` over a batched GeneratorDataset itself (no
    create_tuple_iterator()): Dataset.__iter__ gives the tuple iterator's items,
    MindSpore tensors, so ``target.size(0)`` raises TypeError as it does on them."""
    result = run_snippet('''
pynative_mode()
from mindspore.dataset import GeneratorDataset
def source():
    for i in range(6):
        yield np.ones(3, np.float32), np.array(i, np.int32)
loader = GeneratorDataset(source, column_names=["data", "target"], shuffle=False).batch(4)
kinds, sizes = [], []
for step, (data, target) in enumerate(loader):
    kinds.append([type(data).__name__, type(target).__name__])
    sizes.append(attempt(lambda: target.size(0)))
whole = [type(item).__name__ for item in next(iter(loader))]
report(kinds=kinds, sizes=sizes, whole=whole, fixed=[t.shape[0] for _, t in loader])
''')
    assert result["kinds"] == [["Tensor", "Tensor"]] * 2, result
    assert all(size[0] == "error" and size[1].startswith("TypeError") for size in result["sizes"]), result
    assert result["whole"] == ["Tensor", "Tensor"], result
    assert result["fixed"] == [4, 2], result


def test_ms_torch_in_cell_a_mindspore_loss_returns_a_tensor_without_backward(run_snippet):
    """Each loss of apis.LOSS_REDUCTIONS is a MindSpore Cell; called, the losses
    (mean, and an unreduced default) return a MindSpore Tensor, which has no
    ``backward`` (AttributeError): ``cls = nn.BCEWithLogitsLoss()(out, y); cls.backward()``."""
    from mslint.knowledge import apis
    names = sorted(apis.LOSS_REDUCTIONS)
    result = run_snippet(f'''
import importlib
cells = {{}}
for qname in {names!r}:
    module, _, name = qname.rpartition(".")
    cells[qname] = issubclass(getattr(importlib.import_module(module), name), nn.Cell)
out = Tensor(np.array([[0.2, -0.4], [1.0, 0.3]], np.float32))
y = Tensor(np.array([[1.0, 0.0], [0.0, 1.0]], np.float32))
results = [nn.BCEWithLogitsLoss()(out, y), nn.MSELoss()(out, y), nn.L1Loss()(out, y), nn.SmoothL1Loss()(out, y)]
cls = results[0]
report(cells=cells, tensors=[type(r).__name__ for r in results],
       backward=[hasattr(r, "backward") for r in results], call=attempt(lambda: cls.backward()))
''')
    assert all(result["cells"].values()), result["cells"]
    assert result["tensors"] == ["Tensor"] * 4, result
    assert result["backward"] == [False] * 4, result
    assert result["call"][0] == "error" and result["call"][1].startswith("AttributeError"), result
