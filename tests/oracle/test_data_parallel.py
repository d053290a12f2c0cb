"""Premises of the data-parallel rules (checkers/data_parallel.py), proven on two CPU
ranks launched with ``msrun --worker_num=2``: ms-data-parallel-gradient-sum,
ms-data-parallel-without-reducer, ms-data-parallel-without-seed,
ms-data-parallel-unsharded-dataset. Each test runs the naive program and its fix on
both ranks and compares what the ranks computed.
"""

from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

pytestmark = pytest.mark.frameworks

# Each rank runs this before the snippet: the CPU device, the collective group, and
# report(...), which prints the rank's results as one JSON line in its log.
RANK_PRELUDE = '''
import json, sys
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter
from mindspore.communication import init, get_rank, get_group_size
import mindspore.dataset as ds

ms.set_device("CPU")
init()
RANK = get_rank()

def report(**results):
    print("ORACLE-RESULT " + json.dumps({"rank": RANK, **results}, default=str), flush=True)
'''

_MSRUN_TIMEOUT = 240  # seconds for the whole two-rank job (about 20 s on two cores)


def _free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def _msrun(folder: Path, script: Path) -> subprocess.CompletedProcess:
    """``msrun --worker_num=2`` on ``script`` in ``folder``, in a process group of its own
    so that a timeout ends the scheduler and both workers, not only msrun."""
    bin_dir = str(Path(sys.executable).parent)
    env = {**os.environ, "PATH": bin_dir + os.pathsep + os.environ.get("PATH", ""), "GLOG_v": "2"}
    command = [
        os.path.join(bin_dir, "msrun"), "--worker_num=2", "--local_worker_num=2",
        f"--master_port={_free_port()}", "--log_dir=logs", "--join=True", "--cluster_time_out=120",
        str(script),
    ]
    process = subprocess.Popen(
        command, cwd=folder, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
        start_new_session=True,
    )
    try:
        output, _ = process.communicate(timeout=_MSRUN_TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        output, _ = process.communicate()
        raise AssertionError(f"msrun took longer than {_MSRUN_TIMEOUT} s\n{output[-3000:]}") from None
    return subprocess.CompletedProcess(command, process.returncode, output, "")


@pytest.fixture
def run_ranks(tmp_path: Path):
    """Run a snippet (RANK_PRELUDE prepended) on two CPU ranks; return each rank's
    ``report(...)``, by rank. A port taken between choosing and binding it is retried once."""

    def run(code: str) -> dict[int, dict]:
        script = tmp_path / "snippet.py"
        script.write_text(RANK_PRELUDE + textwrap.dedent(code), encoding="utf-8")
        logs = ""
        for _ in range(2):
            completed = _msrun(tmp_path, script)
            results: dict[int, dict] = {}
            logs = completed.stdout
            for log in sorted((tmp_path / "logs").glob("worker_*.log")):
                text = log.read_text(encoding="utf-8", errors="replace")
                logs += f"\n== {log.name}\n{text[-3000:]}"
                for line in text.splitlines():
                    if line.startswith("ORACLE-RESULT "):
                        found = json.loads(line[len("ORACLE-RESULT "):])
                        results[found["rank"]] = found
            if completed.returncode == 0 and len(results) == 2:
                return results
            if "address already in use" not in logs.lower():
                break
        raise AssertionError(f"the two ranks did not both report (exit {completed.returncode})\n{logs[-6000:]}")

    return run


# ---------------------------------------------------------------------------
# ms-data-parallel-gradient-sum
# ---------------------------------------------------------------------------
def test_ms_data_parallel_gradient_sum_reducer_sums_unless_gradients_mean(run_ranks):
    results = run_ranks('''
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL)
x = Tensor(np.full((1, 2), RANK + 1.0), ms.float32)

def one_step_move(lr=0.1):
    """How far TrainOneStepCell moves a weight in one SGD step (it builds its reducer
    from the context when it is constructed)."""
    net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
    step = nn.TrainOneStepCell(nn.WithLossCell(net, lambda out, y: out.sum()), nn.SGD(net.trainable_params(), lr))
    step(x, x)
    return float(1.0 - net.weight.asnumpy()[0, 0])

net = nn.Dense(2, 1, weight_init="ones", bias_init="zeros")
grads = ms.grad(lambda x: net(x).sum(), None, net.trainable_params())(x)
default_reducer = nn.DistributedGradReducer(net.trainable_params())(grads)  # mean=None reads the context
default_step = one_step_move()
ms.set_auto_parallel_context(gradients_mean=True)
mean_reducer = nn.DistributedGradReducer(net.trainable_params())(grads)
mean_step = one_step_move()
report(
    local=float(grads[0].asnumpy()[0, 0]),
    default_reducer=float(default_reducer[0].asnumpy()[0, 0]),
    mean_reducer=float(mean_reducer[0].asnumpy()[0, 0]),
    default_step=default_step,
    mean_step=mean_step,
)
''')
    local = [results[rank]["local"] for rank in (0, 1)]
    assert local == [1.0, 2.0], results  # each rank's own gradient
    for rank in (0, 1):
        # without gradients_mean the ranks' gradients are summed: twice the mean on two ranks
        assert results[rank]["default_reducer"] == pytest.approx(sum(local)), results
        assert results[rank]["mean_reducer"] == pytest.approx(sum(local) / 2), results
        # TrainOneStepCell's SGD step is as large as the learning rate times the device count
        assert results[rank]["default_step"] == pytest.approx(0.1 * sum(local)), results
        assert results[rank]["mean_step"] == pytest.approx(0.1 * sum(local) / 2), results


# ---------------------------------------------------------------------------
# ms-data-parallel-without-reducer
# ---------------------------------------------------------------------------
def test_ms_data_parallel_without_reducer_replicas_diverge(run_ranks):
    results = run_ranks('''
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
ms.set_seed(1)
data = Tensor(np.random.RandomState(RANK).randn(8, 4), ms.float32)
label = Tensor(np.random.RandomState(10 + RANK).randn(8, 1), ms.float32)

def train(reduce, compiled=False):
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    loss_fn = nn.MSELoss()
    def forward_fn(x, y):
        return loss_fn(net(x), y)
    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    reducer = nn.DistributedGradReducer(optimizer.parameters)
    def naive_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    def reduced_step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(reducer(grads))
        return loss
    step = reduced_step if reduce else naive_step
    step = ms.jit(step) if compiled else step
    for _ in range(3):
        step(data, label)
    return net.weight.asnumpy().ravel().tolist()

def train_model():
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    def batches():
        for i in range(3):
            yield data.asnumpy(), label.asnumpy()
    dataset = ds.GeneratorDataset(batches, ["x", "y"], shuffle=False)
    model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.1))
    model.train(1, dataset, dataset_sink_mode=False)
    return net.weight.asnumpy().ravel().tolist()

class TrainStep(nn.Cell):
    """A hand-written TrainOneStepCell (GradOperation, then the optimizer), compiled."""
    def __init__(self, network, optimizer, reduce):
        super().__init__(auto_prefix=False)
        self.network, self.optimizer, self.weights = network, optimizer, optimizer.parameters
        self.grad = ops.GradOperation(get_by_list=True)
        self.reducer = nn.DistributedGradReducer(optimizer.parameters) if reduce else None
    def construct(self, x, y):
        grads = self.grad(self.network, self.weights)(x, y)
        if self.reducer is not None:
            grads = self.reducer(grads)
        self.optimizer(grads)
        return grads[0]

def train_cell(reduce):
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    step = TrainStep(nn.WithLossCell(net, nn.MSELoss()), nn.SGD(net.trainable_params(), 0.1), reduce)
    for _ in range(3):
        step(data, label)
    return net.weight.asnumpy().ravel().tolist()

results = dict(naive=train(False), naive_jit=train(False, True), reduced=train(True), reduced_jit=train(True, True),
               model=train_model())
ms.set_context(mode=ms.GRAPH_MODE)
report(naive_cell=train_cell(False), reduced_cell=train_cell(True), **results)
''')
    for key in ("naive", "naive_jit", "naive_cell"):
        gap = max(abs(a - b) for a, b in zip(results[0][key], results[1][key]))
        assert gap > 1e-2, (key, results)  # each rank followed its own gradients
    for key in ("reduced", "reduced_jit", "reduced_cell", "model"):
        assert results[0][key] == pytest.approx(results[1][key], abs=1e-6), (key, results)


# ---------------------------------------------------------------------------
# ms-data-parallel-without-seed
# ---------------------------------------------------------------------------
def test_ms_data_parallel_without_seed_ranks_start_from_different_weights(run_ranks):
    results = run_ranks('''
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
unseeded = nn.Dense(4, 4).weight.asnumpy().ravel().tolist()
broadcast_default = ms.get_auto_parallel_context("parameter_broadcast")
ms.set_seed(1)
seeded = nn.Dense(4, 4).weight.asnumpy().ravel().tolist()
report(unseeded=unseeded, seeded=seeded, broadcast_default=broadcast_default)
''')
    assert results[0]["unseeded"] != results[1]["unseeded"], results
    assert results[0]["seeded"] == results[1]["seeded"], results
    assert results[0]["broadcast_default"] is False, results


@pytest.mark.parametrize("broadcast", [False, True])
def test_ms_data_parallel_without_seed_only_broadcast_makes_model_train_equal(run_ranks, broadcast):
    """Model.train (GRAPH_MODE) leaves the ranks' different initial weights apart unless
    parameter_broadcast=True (the learning rate is 0: only a broadcast can move them)."""
    results = run_ranks(f'''
ms.set_context(mode=ms.GRAPH_MODE)
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True,
                             parameter_broadcast={broadcast})
net = nn.Dense(4, 4)
before = net.weight.asnumpy().ravel().tolist()
def batches():
    for _ in range(1):
        yield np.ones((2, 4), np.float32), np.ones((2, 4), np.float32)
dataset = ds.GeneratorDataset(batches, ["x", "y"], shuffle=False)
model = ms.Model(net, nn.MSELoss(), nn.SGD(net.trainable_params(), 0.0))
model.train(1, dataset, dataset_sink_mode=False)
report(before=before, after=net.weight.asnumpy().ravel().tolist())
''')
    assert results[0]["before"] != results[1]["before"], results
    if broadcast:
        assert results[0]["after"] == pytest.approx(results[1]["after"]), results
    else:
        assert results[0]["after"] != pytest.approx(results[1]["after"]), results


# ---------------------------------------------------------------------------
# ms-data-parallel-unsharded-dataset
# ---------------------------------------------------------------------------
def test_ms_data_parallel_unsharded_dataset_every_rank_reads_the_same_batches(run_ranks):
    results = run_ranks('''
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
samples = np.arange(8, dtype=np.float32).reshape(8, 1)
def read(**sharding):
    order = {} if "sampler" in sharding else {"shuffle": False}
    dataset = ds.NumpySlicesDataset({"x": samples}, **order, **sharding).batch(2)
    return [batch["x"].ravel().tolist() for batch in dataset.create_dict_iterator(output_numpy=True)]
report(unsharded=read(), sharded=read(num_shards=get_group_size(), shard_id=RANK),
       sampler=read(sampler=ds.DistributedSampler(get_group_size(), RANK, shuffle=False)),
       one_shard=read(num_shards=1, shard_id=0), fixed_shard=read(num_shards=get_group_size(), shard_id=0))
''')
    assert results[0]["unsharded"] == results[1]["unsharded"] and len(results[0]["unsharded"]) == 4, results
    # num_shards=1 (a device_num never read from the group after init()): the whole dataset on every rank
    assert results[0]["one_shard"] == results[1]["one_shard"] == results[0]["unsharded"], results
    # shard_id=0 on every rank (a rank_id never passed to the helper): the same half on both
    assert results[0]["fixed_shard"] == results[1]["fixed_shard"] and len(results[0]["fixed_shard"]) == 2, results
    for key in ("sharded", "sampler"):
        first, second = results[0][key], results[1][key]
        assert len(first) == len(second) == 2, results
        assert not {x for batch in first for x in batch} & {x for batch in second for x in batch}, results


def test_ms_data_parallel_gradient_sum_harms_sgd_not_adam(run_snippet):
    """A summed gradient is the mean times the device count: 20 steps on twice the loss
    move SGD and Momentum elsewhere and Adam-like optimizers nowhere else (the rule
    flags only the first, guide.SCALE_SENSITIVE_OPTIMIZERS)."""
    from mslint.knowledge import guide

    names = sorted(qname.rsplit(".", 1)[-1] for qname in guide.SCALE_SENSITIVE_OPTIMIZERS | guide.SCALE_INVARIANT_OPTIMIZERS
                   if qname.startswith("mindspore.nn."))
    result = run_snippet(f'''
pynative_mode()
data = Tensor(np.random.RandomState(0).randn(16, 4), ms.float32)
label = Tensor(np.random.RandomState(1).randn(16, 1), ms.float32)
def weights_after(name, scale):
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    cls = getattr(nn, name)
    arguments = {{"Momentum": (0.01, 0.9), "AdaFactor": ()}}.get(name, (0.01,))
    optimizer = cls(net.trainable_params(), *arguments)
    loss_fn = nn.MSELoss()
    grad_fn = ms.value_and_grad(lambda x, y: loss_fn(net(x), y) * scale, None, optimizer.parameters)
    for _ in range(20):
        optimizer(grad_fn(data, label)[1])
    return net.weight.asnumpy()
report(**{{name: attempt(lambda: float(np.abs(weights_after(name, 2.0) - weights_after(name, 1.0)).max()))
          for name in {names!r}}})
''')
    # some optimizers have no CPU kernel (AdamOffload, LazyAdam's sparse path...): the
    # common ones must run, and every one that runs must be where the table puts it
    assert all(result[name][0] == "ok" for name in ("SGD", "Momentum", "Adam", "AdamWeightDecay")), result
    for qname in guide.SCALE_SENSITIVE_OPTIMIZERS | guide.SCALE_INVARIANT_OPTIMIZERS:
        package, name = qname.rsplit(".", 1)
        if package != "mindspore.nn" or result[name][0] != "ok":
            continue
        if qname in guide.SCALE_SENSITIVE_OPTIMIZERS:
            assert result[name][1] > 0.05, (name, result)
        else:
            assert result[name][1] < 1e-4, (name, result)


def test_ms_data_parallel_without_reducer_one_process_without_init_trains_as_stand_alone(run_snippet):
    """The silence of ms-data-parallel-without-reducer in a project that never imports
    mindspore.communication: DATA_PARALLEL set without ``init()`` runs one process, whose
    hand-written step (no reducer) trains exactly as the stand-alone program does, in
    PyNative and under jit: there is no other replica to part from."""
    result = run_snippet('''
data = Tensor(np.random.RandomState(0).randn(8, 4), ms.float32)
label = Tensor(np.random.RandomState(1).randn(8, 1), ms.float32)

def train(compiled):
    net = nn.Dense(4, 1, weight_init="ones", bias_init="zeros")
    optimizer = nn.SGD(net.trainable_params(), 0.1)
    loss_fn = nn.MSELoss()
    def forward_fn(x, y):
        return loss_fn(net(x), y)
    grad_fn = ms.value_and_grad(forward_fn, None, optimizer.parameters)
    def step(x, y):
        loss, grads = grad_fn(x, y)
        optimizer(grads)
        return loss
    step = ms.jit(step) if compiled else step
    for _ in range(3):
        step(data, label)
    return net.weight.asnumpy().ravel().tolist()

pynative_mode()
alone = dict(eager=train(False), jit=train(True))
ms.set_auto_parallel_context(parallel_mode=ms.ParallelMode.DATA_PARALLEL, gradients_mean=True)
parallel = dict(eager=train(False), jit=train(True))
report(alone=alone, parallel=parallel, mode=str(ms.get_auto_parallel_context("parallel_mode")))
''')
    assert result["mode"] == "data_parallel", result  # the setting took
    for key in ("eager", "jit"):
        assert result["parallel"][key] == pytest.approx(result["alone"][key], abs=1e-6), (key, result)
        assert result["alone"][key] != pytest.approx([1.0] * 4), result  # it trained
