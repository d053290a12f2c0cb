"""Premises of the checkpoint rules (checkers/checkpoints.py), proven with the real
MindSpore and PyTorch: ms-load-checkpoint-discarded, ms-torch-names-not-mapped,
ms-load-result-ignored.
"""

from __future__ import annotations

import pytest

from mslint.knowledge import guide

pytestmark = pytest.mark.frameworks


def test_ms_load_checkpoint_discarded_loads_nothing(run_snippet):
    result = run_snippet('''
pynative_mode()
saved = nn.Dense(2, 2, weight_init="ones")
ms.save_checkpoint(saved, "w.ckpt")
net = nn.Dense(2, 2, weight_init="zeros")
ms.load_checkpoint("w.ckpt")               # the naive statement
naive = float(net.weight.asnumpy().sum())
ms.load_checkpoint("w.ckpt", net)          # the fix: the net is given
fixed = float(net.weight.asnumpy().sum())
report(naive=naive, fixed=fixed)
''')
    assert result == {"naive": 0.0, "fixed": 4.0}


def test_ms_torch_names_not_mapped_loads_nothing_and_raises_nothing(run_snippet):
    """A PyTorch BatchNorm state dict given to load_param_into_net unrenamed: gamma stays
    1, the call returns the names it did not load, strict_load=True raises nothing; with
    PyTorch's names mapped to MindSpore's the weights load."""
    result = run_snippet('''
import torch
pynative_mode()
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.bn = nn.BatchNorm2d(4)
torch_bn = torch.nn.Sequential()
torch_bn.add_module("bn", torch.nn.BatchNorm2d(4))
with torch.no_grad():
    torch_bn.bn.weight.fill_(3.0)
torch.save(torch_bn.state_dict(), "w.pth")
state = torch.load("w.pth")
naive = {k: Parameter(Tensor(v.numpy()), name=k) for k, v in state.items()}
net = Net()
returned = ms.load_param_into_net(net, naive)
strict = attempt(lambda: ms.load_param_into_net(Net(), naive, strict_load=True))
names = {"weight": "gamma", "bias": "beta", "running_mean": "moving_mean", "running_var": "moving_variance"}
mapped = {k.rsplit(".", 1)[0] + "." + names.get(k.rsplit(".", 1)[1], k.rsplit(".", 1)[1]): Parameter(Tensor(v.numpy()))
          for k, v in state.items()}
fixed = Net()
ms.load_param_into_net(fixed, mapped)
report(naive_gamma=float(net.bn.gamma.asnumpy()[0]), returned=[sorted(part) for part in returned],
       strict=strict[0], fixed_gamma=float(fixed.bn.gamma.asnumpy()[0]))
''')
    assert result["naive_gamma"] == 1.0 and result["fixed_gamma"] == 3.0, result
    assert "bn.gamma" in result["returned"][0] and "bn.weight" in result["returned"][1], result
    assert result["strict"] == "ok", result


def test_ms_torch_names_not_mapped_table_matches_the_layers(run_snippet):
    """Every layer in guide.RENAMED_PARAMETERS names its parameters otherwise than its
    PyTorch counterpart (and Dense/Conv2d, left out, name them alike)."""
    layers = sorted(qname.rsplit(".", 1)[-1] for qname in guide.RENAMED_PARAMETERS)
    result = run_snippet(f'''
import torch
arguments = {{"LayerNorm": ((4,),), "GroupNorm": (2, 4), "Embedding": (5, 4), "PReLU": (), "Dense": (4, 4),
             "Conv2d": (4, 4, 3)}}
torch_arguments = {{"InstanceNorm1d": dict(affine=True), "InstanceNorm2d": dict(affine=True),
                   "InstanceNorm3d": dict(affine=True)}}
found = {{}}
for name in {layers!r} + ["Dense", "Conv2d"]:
    ms_layer = getattr(nn, name)(*arguments.get(name, (4,)))
    torch_name = {{"Dense": "Linear", "SyncBatchNorm": "BatchNorm2d"}}.get(name, name)
    torch_layer = getattr(torch.nn, torch_name)(*arguments.get(name, (4,)),
                                                **torch_arguments.get(name, {{}}))
    found[name] = [sorted(n.rsplit(".", 1)[-1] for n, _ in ms_layer.parameters_and_names()),
                   sorted(n for n, _ in torch_layer.named_parameters())]
report(**found)
''')
    for name in layers:
        ms_names, torch_names = result[name]
        assert torch_names and not set(torch_names) <= set(ms_names), (name, result[name])
    for name in ("Dense", "Conv2d"):
        ms_names, torch_names = result[name]
        assert set(ms_names) <= set(torch_names), (name, result[name])


def test_ms_load_result_ignored_the_returned_lists_are_the_only_sign(run_snippet):
    """Names that match nothing: no exception (strict_load or not), the network keeps its
    weights, and the two returned lists name what was not loaded. (Without strict_load a
    name that differs only in its prefix, ``fc.weight`` for ``weight``, does load: the
    PyTorch names that break are those whose last part differs, gamma for weight.)"""
    result = run_snippet('''
pynative_mode()
net = nn.Dense(2, 2, weight_init="zeros")
foreign = {"fc.kernel": Parameter(Tensor(np.ones((2, 2)), ms.float32), name="fc.kernel")}
lenient = attempt(lambda: [sorted(part) for part in ms.load_param_into_net(net, foreign)])
strict = attempt(lambda: [sorted(part) for part in ms.load_param_into_net(net, foreign, strict_load=True)])
report(lenient=lenient, strict=strict, weight=float(net.weight.asnumpy().sum()))
''')
    expected = ["ok", [["bias", "weight"], ["fc.kernel"]]]
    assert result["lenient"] == expected and result["strict"] == expected, result
    assert result["weight"] == 0.0


def test_ms_load_result_always_true_the_result_is_a_true_pair_whatever_loaded(run_snippet):
    """load_param_into_net returns (params not loaded, checkpoint entries not used):
    a tuple of two lists, true and of length 2 after a perfect load as after one
    that loaded nothing; only its first list tells them apart."""
    result = run_snippet('''
pynative_mode()
saved = nn.Dense(2, 2, weight_init="ones")
ms.save_checkpoint(saved, "w.ckpt")
perfect = ms.load_param_into_net(nn.Dense(2, 2), ms.load_checkpoint("w.ckpt"))
renamed = {name + "_old": value for name, value in ms.load_checkpoint("w.ckpt").items()}
nothing = ms.load_param_into_net(nn.Dense(2, 2), renamed)
report(types=[type(perfect).__name__, type(nothing).__name__], truth=[bool(perfect), bool(nothing)],
       lengths=[len(perfect), len(nothing)], first=[sorted(perfect[0]), sorted(nothing[0])])
''')
    assert result["types"] == ["tuple", "tuple"]
    assert result["truth"] == [True, True] and result["lengths"] == [2, 2]
    assert result["first"] == [[], ["bias", "weight"]]


def test_ms_load_param_given_path_raises_and_the_fix_loads(run_snippet):
    """ms-load-param-given-path: load_param_into_net given a checkpoint's path (a
    string, a pathlib.Path) raises TypeError and loads nothing; given the dict
    load_checkpoint returns, it loads."""
    result = run_snippet('''
from pathlib import Path
pynative_mode()
saved = nn.Dense(2, 2, weight_init="ones")
ms.save_checkpoint(saved, "w.ckpt")
net = nn.Dense(2, 2, weight_init="zeros")
raised = []
for given in ("w.ckpt", Path("w.ckpt")):
    try:
        ms.load_param_into_net(net, given)      # the naive call
        raised.append("")
    except TypeError as error:
        raised.append(type(error).__name__)
naive = float(net.weight.asnumpy().sum())
ms.load_param_into_net(net, ms.load_checkpoint("w.ckpt"))  # the fix
fixed = float(net.weight.asnumpy().sum())
report(raised=raised, naive=naive, fixed=fixed)
''')
    assert result == {"raised": ["TypeError", "TypeError"], "naive": 0.0, "fixed": 4.0}
