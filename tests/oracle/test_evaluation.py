"""Premises of the evaluation rules (checkers/evaluation.py), proven with the real
MindSpore: ms-evaluate-in-train-mode, ms-metric-not-cleared.
"""

from __future__ import annotations

import pytest

pytestmark = pytest.mark.frameworks

NETWORK = '''
pynative_mode()
ms.set_seed(1)
class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.fc = nn.Dense(4, 8)
        self.bn = nn.BatchNorm1d(8)
        self.drop = nn.Dropout(p=0.5)
        self.head = nn.Dense(8, 2)
    def construct(self, x):
        return self.head(self.drop(self.bn(self.fc(x))))
data = Tensor(np.random.RandomState(0).randn(16, 4), ms.float32)
label = Tensor(np.random.RandomState(1).randn(16, 2), ms.float32)
'''


def test_ms_evaluate_in_train_mode_two_evaluations_differ(run_snippet):
    result = run_snippet(NETWORK + '''
net = Net()
net.set_train()
first, second = net(data).asnumpy(), net(data).asnumpy()
moving = net.bn.moving_mean.asnumpy().copy()
net(data)
moved = float(np.abs(net.bn.moving_mean.asnumpy() - moving).max())
net.set_train(False)
third, fourth = net(data).asnumpy(), net(data).asnumpy()
moving = net.bn.moving_mean.asnumpy().copy()
net(data)
still = float(np.abs(net.bn.moving_mean.asnumpy() - moving).max())
report(naive_gap=float(np.abs(first - second).max()), moved=moved,
       fixed_gap=float(np.abs(third - fourth).max()), still=still)
''')
    assert result["naive_gap"] > 1e-3 and result["moved"] > 1e-4, result
    assert result["fixed_gap"] == 0.0 and result["still"] == 0.0, result


def test_ms_evaluate_in_train_mode_model_switches_itself(run_snippet):
    """Model.train leaves the network in training mode; Model.eval switches it off."""
    result = run_snippet(NETWORK + '''
import mindspore.dataset as ds
net = Net()
def batches():
    yield data.asnumpy(), label.asnumpy()
dataset = ds.GeneratorDataset(batches, ["x", "y"], shuffle=False)
model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.01), metrics={"mse": nn.MSE()})
model.train(1, dataset, dataset_sink_mode=False)
after_train = net.training
model.eval(dataset, dataset_sink_mode=False)
report(after_train=after_train, after_eval=net.training)
''')
    assert result == {"after_train": True, "after_eval": False}


def test_ms_metric_not_cleared_accumulates_over_epochs(run_snippet):
    result = run_snippet('''
pynative_mode()
epochs = [
    (Tensor(np.array([[0.1, 0.9], [0.2, 0.8]]), ms.float32), Tensor(np.array([1, 1]), ms.int32)),  # all right
    (Tensor(np.array([[0.9, 0.1], [0.8, 0.2]]), ms.float32), Tensor(np.array([1, 1]), ms.int32)),  # all wrong
]
def run(clear):
    metric = nn.Accuracy()
    reported = []
    for logits, labels in epochs:
        if clear:
            metric.clear()
        metric.update(logits, labels)
        reported.append(metric.eval())
    return reported
report(naive=run(False), fixed=run(True))
''')
    assert result["naive"] == [1.0, 0.5], result  # the second epoch alone is 0.0
    assert result["fixed"] == [1.0, 0.0], result
