"""Premises of the training-setup rules (ms-amp-overrides-to-float,
ms-bprop-without-set-grad, ms-auto-prefix, ms-forward-not-construct), proven with
the real MindSpore, and the knowledge table entries they read.
"""

from __future__ import annotations

import pytest

# ---------------------------------------------------------------------------
# ms-amp-overrides-to-float
# ---------------------------------------------------------------------------
AMP_HARNESS = '''
from mindspore.train import Model, FixedLossScaleManager
from mindspore import amp

x = Tensor(np.full((2, 2), 1.0001), ms.float32)  # 1.0001 rounds to 1.0 in float16
seen = []

def eye():
    return Tensor(np.eye(2), ms.float32)

class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2, weight_init=eye(), bias_init="zeros")
    def construct(self, x):
        y = self.fc(x)
        seen.append(str(y.dtype))
        return y

class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.body = nn.Dense(2, 2, weight_init=eye(), bias_init="zeros")
        self.head = Head()
    def construct(self, x):
        return self.head(self.body(x))

def trained(api, net, level):
    """The network that trains after the amp call, and its inputs."""
    opt = nn.SGD(net.trainable_params(), 0.0)
    scale = FixedLossScaleManager(drop_overflow_update=False)  # CPU refuses the dynamic one of O2
    if api == "Model":
        return Model(net, None, opt, amp_level=level, loss_scale_manager=scale).train_network
    if api == "build_train_network":
        return amp.build_train_network(net, opt, level=level, loss_scale_manager=scale)
    return amp.auto_mixed_precision(net, level)

def head_dtype(api, level, to_float, after=False):
    """dtype the head computes in, inside the network that trains."""
    net = Net()
    if to_float and not after:
        net.head.to_float(ms.float32)
    train = trained(api, net, level)
    if to_float and after:
        net.head.to_float(ms.float32)
    seen.clear()
    train(x)
    return seen[-1]

def precision_kept(api, level, to_float):
    """Whether the whole network still computes in float32 (1.0001 survives)."""
    net = Net()
    if to_float:
        net.to_float(ms.float32)
    out = trained(api, net, level)(x)
    return abs(float(out.asnumpy().ravel()[0]) - 1.0001) < 1e-5
'''

AMP_APIS = ("Model", "build_train_network", "auto_mixed_precision")


def test_ms_amp_overrides_to_float_levels_o2_and_o3_override_a_sub_cell(run_snippet):
    result = run_snippet(AMP_HARNESS + f'''
pynative_mode()
report(before=str(Net()(x).dtype), **{{
    api + ":" + level: head_dtype(api, level, to_float=True)
    for api in {AMP_APIS!r} for level in ("O2", "O3")
}})
''')
    assert result.pop("before") == "Float32"
    assert result and all(dtype == "Float16" for dtype in result.values()), result


def test_ms_amp_overrides_to_float_after_the_amp_call_keeps_float32(run_snippet):
    result = run_snippet(AMP_HARNESS + f'''
pynative_mode()
report(**{{
    api + ":" + level: head_dtype(api, level, to_float=True, after=True)
    for api in {AMP_APIS!r} for level in ("O2", "O3")
}})
''')
    assert result and all(dtype == "Float32" for dtype in result.values()), result


def test_ms_amp_overrides_to_float_levels_o0_o1_auto_keep_it_and_o2_o3_do_not(run_snippet):
    result = run_snippet(AMP_HARNESS + f'''
pynative_mode()
report(**{{
    api + ":" + level: [precision_kept(api, level, True), precision_kept(api, level, False)]
    for api in {AMP_APIS!r} for level in ("O0", "O1", "O2", "O3", "auto")
}})
''')
    for api in AMP_APIS:
        # O0: nothing is cast, with or without to_float
        assert result[f"{api}:O0"] == [True, True]
        # O1 and auto lower precision, but keep a Cell's to_float(float32)
        assert result[f"{api}:O1"] == [True, False]
        assert result[f"{api}:auto"] == [True, False]
        # O2 and O3 overwrite it
        assert result[f"{api}:O2"] == [False, False]
        assert result[f"{api}:O3"] == [False, False]


def test_ms_amp_overrides_to_float_o2_keeps_batchnorm_and_layernorm_in_float32_itself(run_snippet):
    result = run_snippet('''
from mindspore import amp
from mindspore.train import amp as train_amp
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)
        self.bn = nn.BatchNorm1d(4)
        self.ln = nn.LayerNorm((4,))
    def construct(self, x):
        return self.ln(self.bn(self.fc(x)))
def precision(level, to_float):
    net = Net()
    if to_float:
        net.bn.to_float(ms.float32)
        net.ln.to_float(ms.float32)
        net.fc.to_float(ms.float32)
    cells = [net.bn, net.ln, net.fc]  # O2 wraps the norms in an output cast: keep the cells
    amp.auto_mixed_precision(net, level)
    return [str(cell.get_mixed_precision_type()) for cell in cells]
report(o2=precision("O2", True), o2_plain=precision("O2", False), o3=precision("O3", True),
       black_list=sorted(c.__name__ for c in train_amp.AMP_BLACK_LIST))
''')
    fp32, fp16 = "MixedPrecisionType.FP32", "MixedPrecisionType.FP16"
    assert result["o2"] == [fp32, fp32, fp16]  # the Dense loses its to_float, the norms keep float32
    assert result["o2_plain"] == [fp32, fp32, fp16]  # ... with or without to_float
    assert result["o3"] == [fp16, fp16, fp16]
    from mslint.knowledge import apis

    assert {q.rsplit(".", 1)[-1] for q in apis.AMP_O2_FLOAT32_CELLS} == set(result["black_list"])


def test_ms_amp_overrides_to_float_table_matches_the_signatures(run_snippet):
    result = run_snippet('''
import inspect
from mindspore import amp
from mindspore.train import Model
def describe(fn, skip_self=False):
    params = list(inspect.signature(fn).parameters.values())[1 if skip_self else 0:]
    return {p.name: [i, None if p.default is inspect.Parameter.empty else str(p.default)]
            for i, p in enumerate(params)}
report(Model=describe(Model.__init__, skip_self=True),
       build_train_network=describe(amp.build_train_network),
       auto_mixed_precision=describe(amp.auto_mixed_precision),
       same=[ms.Model is Model, ms.train.Model is Model, ms.build_train_network is amp.build_train_network,
             ms.train.build_train_network is amp.build_train_network,
             ms.train.amp.auto_mixed_precision is amp.auto_mixed_precision])
''')
    from mslint.knowledge import apis

    assert all(result.pop("same"))
    for qname, api in apis.AMP_APIS.items():
        signature = result[api.name]
        assert signature[api.network[1]][0] == api.network[0], qname
        assert signature[api.level[1]] == [api.level[0], api.level_default], qname
        if api.dtype is not None:
            assert signature[api.dtype[1]] == [api.dtype[0], "Float16"], qname


# ---------------------------------------------------------------------------
# ms-bprop-without-set-grad
# ---------------------------------------------------------------------------
BPROP_HARNESS = '''
x = Tensor(np.ones((2, 2)), ms.float32)
calls = []

class Clip(nn.Cell):
    def construct(self, x):
        calls.append(1)
        return x * 2
    def bprop(self, x, out, dout):
        return (dout * 2,)

def runs(step, set_grad=None):
    """Forward runs of a bprop Cell for one step; set_grad: None, "before" or "after" the call."""
    net = Clip()
    if set_grad == "before":
        net.set_grad()
    calls.clear()
    step(net, set_grad)
    return len(calls)

def call_then_grad(net, set_grad):
    net(x)
    if set_grad == "after":
        net.set_grad()
    ms.grad(net)(x)

steps = {
    "call_then_grad": call_then_grad,
    "call_then_value_and_grad": lambda net, _: (net(x), ms.value_and_grad(net)(x)),
    "call_then_grad_operation": lambda net, _: (net(x), ops.GradOperation()(net)(x)),
    "grad_only": lambda net, _: ms.grad(net)(x),
    "value_and_grad_only": lambda net, _: ms.value_and_grad(net)(x),
    "grad_then_call": lambda net, _: (ms.grad(net)(x), net(x)),
    "other_inputs": lambda net, _: (net(x), ms.grad(net)(x + 1)),
}
'''


def test_ms_bprop_without_set_grad_called_then_differentiated_runs_the_forward_twice(run_snippet):
    result = run_snippet(BPROP_HARNESS + '''
pynative_mode()
report(**{name: [runs(step), runs(step, "before"), runs(step, "after")] for name, step in steps.items()})
''')
    # the harm: twice without set_grad(), once with set_grad() before the call
    for name in ("call_then_grad", "call_then_value_and_grad", "call_then_grad_operation"):
        assert result[name][:2] == [2, 1], name
    # set_grad() after the forward call is too late
    assert result["call_then_grad"][2] == 2
    # only differentiated: once either way (the 25 working bprop Cells without set_grad)
    assert result["grad_only"] == [1, 1, 1]
    assert result["value_and_grad_only"] == [1, 1, 1]
    # differentiated first, or on other inputs: two runs that set_grad() cannot merge
    assert result["grad_then_call"] == [2, 2, 2]
    assert result["other_inputs"] == [2, 2, 2]


def test_ms_bprop_without_set_grad_set_grad_does_not_spare_the_second_forward_in_graph_mode(run_snippet):
    result = run_snippet('''
x = Tensor(np.ones((2, 2)), ms.float32)
class Clip(nn.Cell):
    def __init__(self):
        super().__init__()
        self.count = Parameter(Tensor(0.0, ms.float32), requires_grad=False)
    def construct(self, x):
        ops.assign_add(self.count, Tensor(1.0, ms.float32))
        return x * 2
    def bprop(self, x, out, dout):
        return (dout * 2,)
def forwards(mode, set_grad):
    ms.set_context(mode=mode)
    net = Clip()
    if set_grad:
        net.set_grad()
    net(x)
    ms.grad(net)(x)
    return float(net.count.asnumpy())
report(pynative=[forwards(ms.PYNATIVE_MODE, False), forwards(ms.PYNATIVE_MODE, True)],
       graph=[forwards(ms.GRAPH_MODE, False), forwards(ms.GRAPH_MODE, True)])
''')
    # a side effect in the forward (a Parameter update, as BatchNorm's statistics) runs twice
    assert result["pynative"] == [2.0, 1.0]
    assert result["graph"] == [2.0, 2.0]


def test_table_pynative_is_the_default_mode(run_snippet):
    result = run_snippet('''
report(mode=ms.get_context("mode"), pynative=ms.PYNATIVE_MODE, graph=ms.GRAPH_MODE)
''')
    from mslint.knowledge import apis

    assert result["mode"] == result["pynative"] == apis.PYNATIVE_MODE_VALUE
    assert result["graph"] != apis.PYNATIVE_MODE_VALUE


def test_ms_bprop_without_set_grad_train_one_step_cell_calls_set_grad_on_its_network(run_snippet):
    result = run_snippet('''
net = nn.Dense(2, 2)
with_loss = nn.WithLossCell(net, nn.MSELoss())
before = with_loss.requires_grad
train = nn.TrainOneStepCell(with_loss, nn.SGD(net.trainable_params(), 0.1))
report(before=before, after=with_loss.requires_grad)
''')
    assert result == {"before": False, "after": True}


# ---------------------------------------------------------------------------
# ms-auto-prefix
# ---------------------------------------------------------------------------
PREFIX_HARNESS = '''
import os
class Inner(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)
    def construct(self, x):
        return self.fc(x)

class Wrap(nn.Cell):
    """network and optimizer, as nn.TrainOneStepCell holds them"""
    def __init__(self, network, optimizer, auto_prefix):
        super().__init__(auto_prefix=auto_prefix)
        self.network = network
        self.optimizer = optimizer
    def construct(self, x):
        return self.network(x)

class UsesOptimizerParameters(nn.Cell):
    def __init__(self, network, optimizer, auto_prefix):
        super().__init__(auto_prefix=auto_prefix)
        self.network = network
        self.weights = optimizer.parameters
    def construct(self, x):
        return self.network(x)

class GradOnly(nn.Cell):
    def __init__(self, optimizer):
        super().__init__()
        self.weights = optimizer.parameters
    def construct(self, x):
        return x

class Sub(nn.TrainOneStepCell):
    def __init__(self, network, optimizer):
        super().__init__(network, optimizer)

def names(make, auto_prefix=None):
    net = Inner()
    opt = nn.SGD(net.trainable_params(), 0.1)
    make(net, opt) if auto_prefix is None else make(net, opt, auto_prefix)
    return [p.name for p in net.get_parameters()]

def pretrained_loads(make, auto_prefix):
    """Load a checkpoint of a plain network into a network that a wrapper holds."""
    pretrained = Inner()
    ms.save_checkpoint(pretrained, "pretrained.ckpt")
    net = Inner()
    make(net, nn.SGD(net.trainable_params(), 0.1), auto_prefix)
    not_loaded, _ = ms.load_param_into_net(net, ms.load_checkpoint("pretrained.ckpt"))
    same = bool(np.allclose(net.fc.weight.asnumpy(), pretrained.fc.weight.asnumpy()))
    return {"not_loaded": not_loaded, "same_weights": same}

def saved_names(make, auto_prefix):
    net = Inner()
    make(net, nn.SGD(net.trainable_params(), 0.1), auto_prefix)
    ms.save_checkpoint(net, "net.ckpt")
    return sorted(ms.load_checkpoint("net.ckpt"))
'''


def test_ms_auto_prefix_wrapper_holding_an_optimizer_renames_the_network_parameters(run_snippet):
    result = run_snippet(PREFIX_HARNESS + '''
report(wrap=[names(Wrap, True), names(Wrap, False)],
       uses_parameters=[names(UsesOptimizerParameters, True), names(UsesOptimizerParameters, False)],
       saved=[saved_names(Wrap, True), saved_names(Wrap, False)],
       pretrained=[pretrained_loads(Wrap, True), pretrained_loads(Wrap, False)],
       grad_only=names(lambda net, opt: GradOnly(opt)),
       subclass=names(lambda net, opt: Sub(nn.WithLossCell(net, nn.MSELoss()), opt)),
       train_one_step=names(lambda net, opt: nn.TrainOneStepCell(nn.WithLossCell(net, nn.MSELoss()), opt)))
''')
    assert result["wrap"] == [["optimizer.fc.weight", "optimizer.fc.bias"], ["fc.weight", "fc.bias"]]
    assert result["uses_parameters"] == [["network.fc.weight", "network.fc.bias"], ["fc.weight", "fc.bias"]]
    # the network's own checkpoint carries the wrapper's prefix
    assert result["saved"] == [["optimizer.fc.bias", "optimizer.fc.weight"], ["fc.bias", "fc.weight"]]
    # a checkpoint with the original names (pretrained weights) no longer loads into it
    renamed = ["optimizer.fc.weight", "optimizer.fc.bias"]
    assert result["pretrained"][0] == {"not_loaded": renamed, "same_weights": False}
    assert result["pretrained"][1] == {"not_loaded": [], "same_weights": True}
    # silent cases: no Cell stored, or MindSpore's wrappers (auto_prefix=False already)
    assert result["grad_only"] == ["fc.weight", "fc.bias"]
    assert result["subclass"] == ["fc.weight", "fc.bias"]
    assert result["train_one_step"] == ["fc.weight", "fc.bias"]


def test_ms_auto_prefix_optimizers_of_every_family_rename_when_held(run_snippet):
    result = run_snippet(PREFIX_HARNESS + '''
import mindspore.experimental.optim as eo
import mindspore.mint.optim as mo
def held(make_optimizer):
    net = Inner()
    Wrap(net, make_optimizer(net.trainable_params()), True)
    return [p.name for p in net.get_parameters()]
report(nn_adam=held(lambda p: nn.Adam(p)), experimental=held(lambda p: eo.Adam(p)),
       mint=held(lambda p: mo.AdamW(p)))
''')
    assert set(map(tuple, result.values())) == {("optimizer.fc.weight", "optimizer.fc.bias")}


def test_ms_auto_prefix_backbone_with_auto_prefix_false_collides(run_snippet):
    result = run_snippet('''
class Backbone(nn.Cell):
    def __init__(self, auto_prefix):
        super().__init__(auto_prefix=auto_prefix)
        self.fc1 = nn.Dense(2, 2)
        self.fc2 = nn.Dense(2, 2)
    def construct(self, x):
        return self.fc2(self.fc1(x))
class NoSharedNames(nn.Cell):
    def __init__(self):
        super().__init__(auto_prefix=False)
        self.fc = nn.Dense(2, 2)
        self.bn = nn.BatchNorm1d(2)
    def construct(self, x):
        return self.bn(self.fc(x))
def outcome(net):
    names = [p.name for p in net.get_parameters()]
    optimizer = attempt(lambda: len(nn.Adam(net.trainable_params()).parameters))
    ms.save_checkpoint(net, "b.ckpt")
    return {"names": names, "optimizer": optimizer, "saved": len(ms.load_checkpoint("b.ckpt"))}
report(prefixed=outcome(Backbone(True)), unprefixed=outcome(Backbone(False)), distinct=outcome(NoSharedNames()))
''')
    assert result["prefixed"]["names"] == ["fc1.weight", "fc1.bias", "fc2.weight", "fc2.bias"]
    assert result["prefixed"]["optimizer"] == ["ok", 4] and result["prefixed"]["saved"] == 4
    assert result["unprefixed"]["names"] == ["weight", "bias", "weight", "bias"]
    assert result["unprefixed"]["optimizer"][0] == "error" and "ValueError" in result["unprefixed"]["optimizer"][1]
    assert result["unprefixed"]["saved"] == 2  # half the parameters are lost from the checkpoint
    assert result["distinct"]["optimizer"][0] == "ok"  # no shared name: nothing collides


def test_ms_auto_prefix_layer_parameter_names_table(run_snippet):
    result = run_snippet('''
from mindspore import mint
from mslint.knowledge import apis
examples = {
    "mindspore.nn.Dense": lambda: nn.Dense(2, 2), "mindspore.nn.Conv1d": lambda: nn.Conv1d(2, 2, 1),
    "mindspore.nn.Conv2d": lambda: nn.Conv2d(2, 2, 1), "mindspore.nn.Conv3d": lambda: nn.Conv3d(2, 2, 1),
    "mindspore.nn.Conv1dTranspose": lambda: nn.Conv1dTranspose(2, 2, 1),
    "mindspore.nn.Conv2dTranspose": lambda: nn.Conv2dTranspose(2, 2, 1),
    "mindspore.nn.Conv3dTranspose": lambda: nn.Conv3dTranspose(2, 2, 1),
    "mindspore.nn.Embedding": lambda: nn.Embedding(4, 2), "mindspore.nn.BatchNorm1d": lambda: nn.BatchNorm1d(2),
    "mindspore.nn.BatchNorm2d": lambda: nn.BatchNorm2d(2), "mindspore.nn.LayerNorm": lambda: nn.LayerNorm((2,)),
    "mindspore.nn.GroupNorm": lambda: nn.GroupNorm(1, 2), "mindspore.nn.InstanceNorm2d": lambda: nn.InstanceNorm2d(2),
    "mindspore.nn.LSTM": lambda: nn.LSTM(2, 2), "mindspore.nn.GRU": lambda: nn.GRU(2, 2),
    "mindspore.mint.nn.Linear": lambda: mint.nn.Linear(2, 2),
    "mindspore.mint.nn.Conv2d": lambda: mint.nn.Conv2d(2, 2, 1),
    "mindspore.mint.nn.LayerNorm": lambda: mint.nn.LayerNorm((2,)),
    "mindspore.mint.nn.Embedding": lambda: mint.nn.Embedding(4, 2),
    "mindspore.mint.nn.GroupNorm": lambda: mint.nn.GroupNorm(1, 2),
}
report(measured={k: sorted(p.name for p in make().get_parameters()) for k, make in examples.items()},
       table={k: sorted(v) for k, v in apis.LAYER_PARAMETER_NAMES.items()})
''')
    assert result["measured"] == result["table"]


def test_table_optimizer_classes(run_snippet):
    result = run_snippet('''
import inspect
import mindspore.experimental.optim as eo
import mindspore.mint.optim as mo
from mslint.knowledge import apis
def optimizers(module, base, prefix):
    classes = [getattr(module, n) for n in dir(module)]
    return {prefix + c.__name__ for c in classes if inspect.isclass(c) and issubclass(c, base)}
found = (optimizers(nn, nn.Optimizer, "mindspore.nn.") - {"mindspore.nn.OptTFTWrapper"})
found |= optimizers(eo, eo.Optimizer, "mindspore.experimental.optim.")
found |= optimizers(mo, eo.Optimizer, "mindspore.mint.optim.")
report(missing=sorted(found - apis.OPTIMIZER_CLASSES), extra=sorted(apis.OPTIMIZER_CLASSES - found))
''')
    assert result == {"missing": [], "extra": []}


# ---------------------------------------------------------------------------
# ms-forward-not-construct
# ---------------------------------------------------------------------------
@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_ms_forward_not_construct_raises_and_construct_works(run_snippet, mode):
    result = run_snippet(f'''
x = Tensor(np.ones((2, 2)), ms.float32)
pynative_mode() if "{mode}" == "pynative" else graph_mode()
class Ported(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)
    def forward(self, x):
        return self.fc(x)
class Fixed(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)
    def construct(self, x):
        return self.fc(x)
report(ported=attempt(lambda: Ported()(x).shape), fixed=attempt(lambda: Fixed()(x).shape),
       cell_has_forward=hasattr(nn.Cell, "forward"))
''')
    assert result["ported"][0] == "error"
    assert "AttributeError" in result["ported"][1] and "'construct' is not defined" in result["ported"][1]
    assert result["fixed"] == ["ok", [2, 2]]
    assert result["cell_has_forward"] is False


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_ms_forward_not_construct_forward_called_by_name_runs(run_snippet, mode):
    """A Cell without construct whose forward is an ordinary method: building it and
    calling forward by name (from another of its methods) works, and its layers
    compute; only calling the instance raises (the rule stays silent where no call
    of an instance is in sight)."""
    result = run_snippet(f'''
x = Tensor(np.ones((1, 4)), ms.float32)
pynative_mode() if "{mode}" == "pynative" else graph_mode()
class Controller(nn.Cell):
    def __init__(self):
        super().__init__()
        self.agent = nn.Dense(4, 2)
    def select(self, x):
        return self.forward(x).argmax(axis=1)
    def forward(self, x):
        return self.agent(x)
ctl = Controller()
report(selected=attempt(lambda: ctl.select(x).shape), called=attempt(lambda: ctl(x).shape))
''')
    assert result["selected"] == ["ok", [1]]
    assert result["called"][0] == "error" and "'construct' is not defined" in result["called"][1]


def test_ms_forward_not_construct_a_misspelled_construct_raises_and_the_alias_fixes_it(run_snippet):
    """A Cell whose only forward method is ``consturct``: calling it raises the same
    AttributeError as a PyTorch forward; ``construct = consturct`` (the fix) runs it."""
    result = run_snippet('''
x = Tensor(np.ones((2, 2)), ms.float32)
class Typo(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)
    def consturct(self, x):
        return self.fc(x)
class Fixed(Typo):
    construct = Typo.consturct
report(typo=attempt(lambda: Typo()(x).shape), fixed=attempt(lambda: Fixed()(x).shape))
''')
    assert result["typo"][0] == "error"
    assert "AttributeError" in result["typo"][1] and "'construct' is not defined" in result["typo"][1]
    assert result["fixed"] == ["ok", [2, 2]]


@pytest.mark.parametrize("mode", ["pynative", "graph"])
def test_ms_forward_not_construct_inherited_construct_runs_instead(run_snippet, mode):
    """A subclass that ports forward() under a project base whose construct never
    calls forward: MindSpore runs the base's construct, the subclass's forward never
    runs (any_softmax's CircleSoftmax under Linear). construct = forward makes it run."""
    result = run_snippet(f'''
x = Tensor(np.ones((2, 2)), ms.float32)
pynative_mode() if "{mode}" == "pynative" else graph_mode()
calls = []
class Scaled(nn.Cell):
    def __init__(self, s):
        super().__init__()
        self.s = s
    def construct(self, logits):
        return logits * self.s
class Margin(Scaled):
    def forward(self, logits):
        calls.append("forward")
        return (logits - 0.5) * self.s
class Fixed(Scaled):
    def forward(self, logits):
        return (logits - 0.5) * self.s
    construct = forward
class Delegating(nn.Cell):
    def construct(self, x):
        return self.forward(x)
class Ported(Delegating):
    def forward(self, x):
        return x * 3
report(
    margin=attempt(lambda: Margin(4.0)(x).asnumpy().tolist()),
    forward_calls=len(calls),
    fixed=attempt(lambda: Fixed(4.0)(x).asnumpy().tolist()),
    delegated=attempt(lambda: Ported()(x).asnumpy().tolist()),
)
''')
    assert result["margin"] == ["ok", [[4.0, 4.0], [4.0, 4.0]]]  # Scaled.construct: logits * s
    assert result["forward_calls"] == 0  # Margin.forward never ran
    assert result["fixed"] == ["ok", [[2.0, 2.0], [2.0, 2.0]]]  # the alias runs the subclass's forward
    assert result["delegated"] == ["ok", [[3.0, 3.0], [3.0, 3.0]]]  # a construct calling self.forward runs it


def test_ms_auto_prefix_harm_is_a_load_after_wrapping(run_snippet):
    """Where the rename bites: a checkpoint with the bare names loaded into the network
    (or the wrapper) after wrapping loads nothing, silently. Loading before wrapping, or
    loading what the wrapped network saved into a fresh network, works (2.10 matches
    the prefixed names)."""
    result = run_snippet(PREFIX_HARNESS + '''
def weights_equal(a, b):
    return bool(np.allclose(a.fc.weight.asnumpy(), b.fc.weight.asnumpy()))

pretrained = Inner()
ms.save_checkpoint(pretrained, "bare.ckpt")

# loaded before wrapping: the values stay when the wrapper renames them
before = Inner()
ms.load_param_into_net(before, ms.load_checkpoint("bare.ckpt"))
Wrap(before, nn.SGD(before.trainable_params(), 0.1), True)

# saved after wrapping (prefixed names), loaded into a fresh network
trained = Inner()
Wrap(trained, nn.SGD(trained.trainable_params(), 0.1), True)
ms.save_checkpoint(trained, "prefixed.ckpt")
fresh = Inner()
fresh_not_loaded, _ = ms.load_param_into_net(fresh, ms.load_checkpoint("prefixed.ckpt"))

# loaded into the wrapper after wrapping
held = Inner()
wrapper = Wrap(held, nn.SGD(held.trainable_params(), 0.1), True)
wrapper_not_loaded, _ = ms.load_param_into_net(wrapper, ms.load_checkpoint("bare.ckpt"))

report(before=weights_equal(before, pretrained),
       prefixed_names=sorted(ms.load_checkpoint("prefixed.ckpt")),
       fresh=[fresh_not_loaded, weights_equal(fresh, trained)],
       wrapper=[sorted(wrapper_not_loaded), weights_equal(held, pretrained)])
''')
    assert result["before"] is True
    assert result["prefixed_names"] == ["optimizer.fc.bias", "optimizer.fc.weight"]
    assert result["fresh"] == [[], True]
    not_loaded, loaded_weights = result["wrapper"]
    assert {"optimizer.fc.bias", "optimizer.fc.weight"} <= set(not_loaded) and loaded_weights is False


def test_ms_amp_overrides_to_float_the_guide_loop_before_o3_is_undone(run_snippet):
    """The migration guide's loop that sets every BatchNorm back to float32
    (``for _, cell in net.cells_and_names(): if isinstance(cell, nn.BatchNorm2d):
    cell.to_float(ms.float32)``), then Model(amp_level="O3") or auto_mixed_precision
    "O3": the BatchNorm computes in float16. O2 keeps it in float32 itself; the loop
    after the amp call keeps it too."""
    result = run_snippet('''
pynative_mode()
from mindspore.train import Model, FixedLossScaleManager
seen = []
class BN(nn.BatchNorm2d):
    def construct(self, x):
        y = super().construct(x)
        seen.append(str(y.dtype))
        return y
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(3, 4, 3)
        self.bn = BN(4)
        self.fc = nn.Dense(4, 2)
    def construct(self, x):
        return self.fc(self.bn(self.conv(x)).mean((2, 3)))
x = Tensor(np.ones((2, 3, 8, 8)), ms.float32)
def keep_bn_fp32(net):
    for _, cell in net.cells_and_names():
        if isinstance(cell, nn.BatchNorm2d):
            cell.to_float(ms.float32)
def bn_dtype(run):
    seen.clear()
    run(x)
    return seen[-1]
out = {}
for level in ("O2", "O3"):
    net = Net()
    keep_bn_fp32(net)
    scale = FixedLossScaleManager(drop_overflow_update=False)
    model = Model(net, None, nn.SGD(net.trainable_params(), 0.0), amp_level=level, loss_scale_manager=scale)
    cast = Net()
    keep_bn_fp32(cast)
    cast = ms.amp.auto_mixed_precision(cast, level)
    after = ms.amp.auto_mixed_precision(Net(), level)
    keep_bn_fp32(after)
    out[level] = [bn_dtype(model.train_network), bn_dtype(cast), bn_dtype(after)]
report(**out)
''')
    assert result["O3"] == ["Float16", "Float16", "Float32"], result
    assert result["O2"] == ["Float32", "Float32", "Float32"], result


# ---------------------------------------------------------------------------
# ms-torch-train-override
# ---------------------------------------------------------------------------
def test_ms_torch_train_override_is_never_called_by_set_train_or_model_train(run_snippet):
    """PyTorch's ``train(mode)`` hook on a Cell (where ports freeze BatchNorm): nn.Cell
    has no train method, and set_train() on the Cell or on a wrapper and Model.train
    never call it; the wrapper's set_train does not call a child's
    overridden set_train either (flags are set on every Cell of the tree). Called by
    name it runs, and its super().train() raises AttributeError."""
    result = run_snippet('''
import mindspore.dataset as ds
from mindspore.train import Model
calls = []
class Frozen(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(2, 2)
        self.bn = nn.BatchNorm1d(2)
    def train(self, mode=True):
        calls.append(("train", mode))
        super().train(mode)
    def set_train(self, mode=True):
        calls.append(("set_train", mode))
        return super().set_train(mode)
    def construct(self, x):
        return self.bn(self.fc(x))
def step(what):
    calls.clear()
    net = Frozen()
    loss = nn.MSELoss()
    if what == "own_set_train":
        net.set_train(True)
        net.set_train(False)
    elif what == "wrapper_set_train":
        nn.WithLossCell(net, loss).set_train(True)
    elif what == "model_train":
        data = ds.NumpySlicesDataset({"x": np.ones((4, 2), np.float32), "y": np.ones((4, 2), np.float32)},
                                     shuffle=False).batch(2)
        model = Model(net, loss, nn.SGD(net.trainable_params(), 0.01))
        model.train(1, data, dataset_sink_mode=False)
    return [list(call) for call in calls]
report(cell_has_train=hasattr(nn.Cell, "train"),
       own_set_train=step("own_set_train"), wrapper_set_train=step("wrapper_set_train"),
       model_train=step("model_train"),
       by_name=attempt(lambda: Frozen().train(False)))
''')
    assert result["cell_has_train"] is False
    # set_train on the Cell itself runs its own set_train, never its train
    assert result["own_set_train"] == [["set_train", True], ["set_train", False]]
    # through a wrapper or Model.train: neither method of the inner Cell runs
    assert result["wrapper_set_train"] == []
    assert result["model_train"] == []
    # called by name it runs, and super().train() raises
    assert result["by_name"][0] == "error" and "AttributeError" in result["by_name"][1]


def test_table_cell_root_classes_are_mindspores_cell(run_snippet):
    """Every name of apis.CELL_ROOT_CLASSES is mindspore.nn.Cell itself (mint.nn
    re-exports it): a class deriving from any of them is a Cell."""
    result = run_snippet(f'''
import importlib
same = {{}}
for qname in {sorted(__import__("mslint.knowledge.apis", fromlist=["apis"]).CELL_ROOT_CLASSES)!r}:
    module, _, name = qname.rpartition(".")
    same[qname] = getattr(importlib.import_module(module), name) is nn.Cell
report(**same)
''')
    assert result and all(result.values()), result
