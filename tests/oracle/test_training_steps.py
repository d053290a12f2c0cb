"""Premises of the training-step rules (checkers/training_steps.py), proven with the
real MindSpore: ms-aux-before-loss, ms-weight-decay-on-all-parameters,
ms-seed-without-mindspore, ms-grad-of-network-output, ms-accumulation-last-gradient-only.
"""

from __future__ import annotations


import pytest

from mslint.knowledge import guide

pytestmark = pytest.mark.frameworks

CLASSIFIER = '''
pynative_mode()
ms.set_seed(1)
net = nn.Dense(4, 3)
loss_fn = nn.CrossEntropyLoss()
data = Tensor(np.random.RandomState(0).randn(8, 4), ms.float32)
label = Tensor(np.arange(8) % 3, ms.int32)
weights = net.trainable_params()
def bias_grad(fn, **options):
    grads = ms.value_and_grad(fn, None, weights, **options)(data, label)[1]
    return grads[1].asnumpy().tolist()
'''


def test_ms_aux_before_loss_differentiates_the_first_output(run_snippet):
    result = run_snippet(CLASSIFIER + '''
def logits_first(x, y):
    logits = net(x)
    return logits, loss_fn(logits, y)
def loss_first(x, y):
    logits = net(x)
    return loss_fn(logits, y), logits
report(
    naive=bias_grad(logits_first, has_aux=True),
    fixed=bias_grad(loss_first, has_aux=True),
    loss=bias_grad(lambda x, y: loss_fn(net(x), y)),
    logits_sum=bias_grad(lambda x, y: net(x).sum()),
)
''')
    assert result["naive"] == pytest.approx(result["logits_sum"]), result  # [8, 8, 8]: the logits' gradient
    assert result["fixed"] == pytest.approx(result["loss"]), result
    assert result["naive"] != pytest.approx(result["loss"]), result


def test_ms_aux_before_loss_a_second_loss_among_the_auxiliary_outputs_is_not_trained(run_snippet):
    """Two heads, two losses: ``return word_loss, count_loss, probs`` with has_aux=True
    differentiates word_loss alone; the counting head gets a zero gradient while the
    caller reports word_loss + count_loss. Returning the total first trains both."""
    result = run_snippet('''
pynative_mode()
ms.set_seed(1)

class TwoHeads(nn.Cell):
    def __init__(self):
        super().__init__()
        self.words = nn.Dense(4, 3)
        self.counts = nn.Dense(4, 1)
        self.loss_fn = nn.CrossEntropyLoss()

    def construct(self, x, y, n):
        probs = self.words(x)
        return probs, self.loss_fn(probs, y), ((self.counts(x) - n) ** 2).mean()

net = TwoHeads()
data = Tensor(np.random.RandomState(0).randn(8, 4), ms.float32)
label = Tensor(np.arange(8) % 3, ms.int32)
count = Tensor(np.random.RandomState(1).randn(8, 1), ms.float32)
weights = net.trainable_params()

def second_loss_aux(x, y, n):
    probs, word_loss, count_loss = net(x, y, n)
    return word_loss, count_loss, probs

def total_first(x, y, n):
    probs, word_loss, count_loss = net(x, y, n)
    return word_loss + count_loss, count_loss, probs

def counting_head_grad(fn):
    grads = ms.value_and_grad(fn, None, weights, has_aux=True)(data, label, count)[1]
    named = dict(zip([p.name for p in weights], grads))
    return float(np.abs(named["counts.weight"].asnumpy()).sum())

report(naive=counting_head_grad(second_loss_aux), fixed=counting_head_grad(total_first))
''')
    assert result["naive"] == 0.0, result
    assert result["fixed"] > 0.0, result


def test_ms_grad_of_network_output_is_the_gradient_of_the_sum(run_snippet):
    """value_and_grad of the bare network, and TrainOneStepCell around it, differentiate
    the sum of its outputs; with the loss inside (WithLossCell) they follow the loss."""
    result = run_snippet(CLASSIFIER + '''
bare = bias_grad(lambda x, y: net(x))
def step_of(network):
    before = net.bias.asnumpy().copy()
    nn.TrainOneStepCell(network, nn.SGD(weights, 1.0))(data, label) if network is not net else \\
        nn.TrainOneStepCell(network, nn.SGD(weights, 1.0))(data)
    moved = (before - net.bias.asnumpy()).tolist()
    net.bias.set_data(Tensor(before))
    return moved
report(
    bare=bare, logits_sum=bias_grad(lambda x, y: net(x).sum()), loss=bias_grad(lambda x, y: loss_fn(net(x), y)),
    cell_bare=step_of(net), cell_with_loss=step_of(nn.WithLossCell(net, loss_fn)),
)
''')
    assert result["bare"] == pytest.approx(result["logits_sum"]) == [8.0, 8.0, 8.0], result
    assert result["cell_bare"] == pytest.approx(result["logits_sum"]), result
    assert result["cell_with_loss"] == pytest.approx(result["loss"], abs=1e-6), result


def test_ms_weight_decay_on_all_parameters_decays_moving_statistics(run_snippet):
    result = run_snippet('''
pynative_mode()
ms.set_seed(1)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 4)
        self.bn = nn.BatchNorm1d(4)
        self.head = nn.Dense(4, 2)
        self.fc.weight.requires_grad = False   # a frozen backbone
    def construct(self, x):
        return self.head(self.bn(self.fc(x)))
data = Tensor(np.random.RandomState(0).randn(8, 4), ms.float32)
def train(params_of):
    ms.set_seed(1)
    net = Net()
    net.set_train()
    frozen = net.fc.weight.asnumpy().copy()
    optimizer = nn.Momentum(params_of(net), 0.1, 0.9, weight_decay=0.1)
    grad_fn = ms.value_and_grad(lambda x: net(x).mean(), None, optimizer.parameters)
    for _ in range(5):
        optimizer(grad_fn(data)[1])
    return dict(variance=float(net.bn.moving_variance.asnumpy().mean()),
                frozen_change=float(np.abs(net.fc.weight.asnumpy() - frozen).max()))
report(naive=train(lambda net: net.get_parameters()),
       values=train(lambda net: net.parameters_dict().values()),
       fixed=train(lambda net: net.trainable_params()))
''')
    naive, values, fixed = result["naive"], result["values"], result["fixed"]
    assert fixed["frozen_change"] == 0.0, result
    for decayed in (naive, values):
        assert decayed["frozen_change"] > 1e-3, result  # a frozen weight moves
        assert decayed["variance"] < fixed["variance"] - 0.05, result  # the statistics shrink


def test_ms_weight_decay_on_all_parameters_table_matches_signatures(run_snippet):
    table = {qname.rsplit(".", 1)[-1]: position for qname, (position, _) in guide.WEIGHT_DECAY_ARGUMENTS.items()}
    result = run_snippet(f'''
import inspect
def find_init(func, depth=0):
    func = inspect.unwrap(func)
    for cell in getattr(func, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if inspect.isfunction(inner) and inner.__name__ == "__init__" and inner is not func and depth < 3:
            return find_init(inner, depth + 1)
    return func
found = {{}}
for name in {sorted(table)!r}:
    names = [p for p in inspect.signature(find_init(getattr(nn, name).__init__)).parameters if p != "self"]
    found[name] = names.index("weight_decay") if "weight_decay" in names else None
report(**found)
''')
    assert result == table


def _masks_and_weights(run_snippet, seeding: str) -> dict:
    return run_snippet(f'''
import random
{seeding}
weights = nn.Dense(4, 4).weight.asnumpy().ravel().tolist()
dropout = nn.Dropout(p=0.5)
dropout.set_train()
mask = dropout(Tensor(np.ones(32), ms.float32)).asnumpy().tolist()
report(weights=weights, mask=mask)
''')


def test_ms_seed_without_mindspore_dropout_masks_are_not_reproducible(run_snippet):
    """Two runs seeded the PyTorch way (torch, numpy, random) draw different Dropout masks;
    torch and random alone leave the weights different too; ms.set_seed makes both equal."""
    torch_way = "import torch\ntorch.manual_seed(1)\nnp.random.seed(1)\nrandom.seed(1)"
    first, second = _masks_and_weights(run_snippet, torch_way), _masks_and_weights(run_snippet, torch_way)
    assert first["mask"] != second["mask"]
    assert first["weights"] == second["weights"]  # MindSpore's initializers draw from numpy's generator
    no_numpy = "import torch\ntorch.manual_seed(1)\nrandom.seed(1)"
    assert _masks_and_weights(run_snippet, no_numpy)["weights"] != _masks_and_weights(run_snippet, no_numpy)["weights"]
    fixed = [_masks_and_weights(run_snippet, "ms.set_seed(1)") for _ in range(2)]
    assert fixed[0] == fixed[1]


def _shuffled_order(run_snippet, seeding: str) -> list:
    return run_snippet(f'''
{seeding}
import mindspore.dataset as ds
data = ds.GeneratorDataset([(np.array([i], np.int32),) for i in range(32)], ["x"], shuffle=True)
report(order=[int(row[0][0]) for row in data.create_tuple_iterator(output_numpy=True)])
''')["order"]


def test_ms_seed_without_mindspore_dataset_shuffle_is_not_reproducible(run_snippet):
    """A mindspore.dataset source given shuffle=True shuffles in a different order in
    each run seeded with numpy alone; mindspore.set_seed (which seeds mindspore.dataset)
    makes the orders equal."""
    numpy_only = [_shuffled_order(run_snippet, "np.random.seed(1)") for _ in range(2)]
    assert numpy_only[0] != numpy_only[1]
    seeded = [_shuffled_order(run_snippet, "ms.set_seed(1)") for _ in range(2)]
    assert seeded[0] == seeded[1]


def test_ms_accumulation_last_gradient_only_drops_the_other_micro_batches(run_snippet):
    result = run_snippet('''
pynative_mode()
micro = [Tensor(np.random.RandomState(i).randn(4, 4), ms.float32) for i in range(4)]
def run(accumulate):
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    grad_fn = ms.value_and_grad(lambda x: net(x).mean(), None, optimizer.parameters)
    total = None
    for i, x in enumerate(micro):
        loss, grads = grad_fn(x)
        total = grads if total is None else tuple(a + b for a, b in zip(total, grads))
        if (i + 1) % 4 == 0:
            optimizer(tuple(g / 4 for g in total) if accumulate else grads)
    return net.weight.asnumpy().ravel().tolist()
def last_only():
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    optimizer(ms.value_and_grad(lambda x: net(x).mean(), None, optimizer.parameters)(micro[-1])[1])
    return net.weight.asnumpy().ravel().tolist()
report(naive=run(False), fixed=run(True), last_only=last_only())
''')
    assert result["naive"] == pytest.approx(result["last_only"]), result
    assert result["fixed"] != pytest.approx(result["naive"]), result


def test_ms_network_outside_grad_fn_gives_zero_weight_gradients(run_snippet):
    """logits = net(x) computed before, then value_and_grad(loss_of, None, weights)
    (loss_of(logits, y) = loss_fn(logits, y)): the loss is right and every weight
    gradient is 0, in PyNative and GRAPH_MODE; the network called inside the function
    gives the true gradients."""
    result = run_snippet('''
def gradients():
    ms.set_seed(1)
    net = nn.Dense(4, 2)
    loss_fn = nn.MSELoss()
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    def loss_of(logits, y):
        return loss_fn(logits, y)
    def forward(x, y):
        return loss_fn(net(x), y)
    x = Tensor(np.ones((2, 4), np.float32))
    y = Tensor(np.zeros((2, 2), np.float32))
    logits = net(x)
    outside, grads = ms.value_and_grad(loss_of, None, optimizer.parameters)(logits, y)
    inside, fixed = ms.value_and_grad(forward, None, optimizer.parameters)(x, y)
    return [float(outside), float(inside), sum(float(np.abs(g.asnumpy()).sum()) for g in grads),
            sum(float(np.abs(g.asnumpy()).sum()) for g in fixed)]
pynative_mode()
pynative = gradients()
graph_mode()
graph = gradients()
report(pynative=pynative, graph=graph)
''')
    for outside, inside, zero, true in (result["pynative"], result["graph"]):
        assert abs(outside - inside) < 1e-6  # the same loss
        assert zero == 0.0 and true > 0
