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


def test_ms_torch_in_cell_method_idiom_table(run_snippet):
    result = run_snippet(OBJECTS + '''
from mslint.knowledge import apis
methods = sorted(apis.TORCH_METHOD_IDIOMS)
report(tensor={m: callable(getattr(x, m, None)) for m in methods},
       cell={m: callable(getattr(net, m, None)) for m in methods},
       optimizers={k: {m: hasattr(o, m) for m in methods} for k, o in optimizers.items()})
''')
    # none of them is a callable method of a MindSpore Tensor, Cell or optimizer
    assert not any(result["tensor"].values())
    assert not any(result["cell"].values())
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
