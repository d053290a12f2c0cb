"""mslint.analysis.compiled: the questions about how graph code compiles that
the 83xx/84xx rules share (what a host call compiles, how many times a loop is
unrolled), and which programs may run on Ascend (mslint.analysis.devices, read
by the program model). Static."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import astroid
import pytest

from mslint.analysis import compiled, scope
from mslint.run import cli

MODEL = '''
import mindspore as ms
from mindspore import nn, ops


class Positives(nn.Cell):
    def construct(self, x):
        return ops.masked_select(x, x > 0).sum()
'''


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _project(folder: Path, device: str, options: str = "") -> Path:
    folder.mkdir()
    (folder / "model.py").write_text(MODEL, encoding="utf-8")
    (folder / "train.py").write_text(textwrap.dedent(f'''
        import argparse
        import mindspore as ms
        from model import Positives

        parser = argparse.ArgumentParser()
        {options}
        args = parser.parse_args()

        if __name__ == "__main__":
            ms.set_context(mode=ms.GRAPH_MODE, device_target={device})
            Positives()(ms.ops.ones((2, 2), ms.float32))
    '''), encoding="utf-8")
    return folder


@pytest.mark.parametrize(("device", "options", "expected"), [
    ('"CPU"', "", 0),
    ('"GPU"', "", 0),
    ('"Ascend"', "", 1),
    ('"ascend".capitalize()', "", 1),
    ("args.device_target", "", 0),  # an option nothing in sight gives a value: unsure, silent
    ("args.device_target", 'parser.add_argument("--device_target", default="Ascend")', 1),
    ("args.device_target", 'parser.add_argument("--device_target", default="GPU")', 0),
    ("args.device_target", 'parser.add_argument("--device_target", default="GPU", choices=["Ascend", "GPU"])', 1),
    ("args.device", 'parser.add_argument("--device", default="CPU")', 0),
    ('os.getenv("DEVICE", "Ascend")', "import os", 1),
])
def test_dynamic_shapes_are_reported_only_where_a_program_may_run_on_ascend(
    tmp_path: Path, capsys: pytest.CaptureFixture, device: str, options: str, expected: int
) -> None:
    project = _project(tmp_path / "project", device, options)
    cli.main(["--no-cache", "--select", "ms-dynamic-shape-in-graph", "--format", "json", str(project)])
    out = capsys.readouterr().out
    found = [item for item in json.loads(out)["findings"] if item["symbol"] == "ms-dynamic-shape-in-graph"]
    assert len(found) == expected, out


def test_the_device_comes_from_a_configuration_file(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    for value, expected in (("CPU", 0), ("Ascend", 1)):
        project = _project(tmp_path / value, "config.device_target")
        (project / "default_config.yaml").write_text(f"device_target: '{value}'\nbatch_size: 2\n", encoding="utf-8")
        cli.main(["--no-cache", "--select", "ms-dynamic-shape-in-graph", "--format", "json", str(project)])
        found = [item for item in json.loads(capsys.readouterr().out)["findings"]]
        assert len(found) == expected, value


def _module(source: str, tmp_path: Path) -> astroid.nodes.Module:
    path = tmp_path / "unit.py"
    path.write_text(textwrap.dedent(source), encoding="utf-8")
    return astroid.MANAGER.ast_from_file(str(path), "unit", source=True)


def test_unrolled_iterations_multiply_nested_counted_loops(tmp_path: Path) -> None:
    module = _module('''
        from mindspore import nn
        STEPS = 30

        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.size = 4

            def construct(self, x):
                for i in range(STEPS):
                    for j in range(0, 40, 2):
                        x = x + j
                    for k in range(self.size):
                        x = x - k
                for n in range(x.shape[0]):
                    x = x * n
                return x
    ''', tmp_path)
    analysis = scope.analysis(module)
    outer, unknown = list(module.nodes_of_class(astroid.nodes.For))[0], list(module.nodes_of_class(astroid.nodes.For))[-1]
    assert compiled.unrolled_iterations(outer, analysis) == 30 * (20 + 4)
    assert compiled.unrolled_iterations(unknown, analysis) is None


def test_compiled_callee_and_units(tmp_path: Path) -> None:
    module = _module('''
        import mindspore as ms
        from mindspore import nn

        @ms.jit
        def step(x, n):
            return x * n

        @ms.jit(capture_mode="bytecode")
        def traced(x, n):
            return x * n

        def plain(x, n):
            return x * n

        jitted = ms.jit(plain)

        class Net(nn.Cell):
            def construct(self, x):
                return helper(x)

        def helper(x):
            return x * 2

        def train(x):
            net = Net()
            step(x, 1)
            traced(x, 1)
            plain(x, 1)
            jitted(x, 1)
            net(x)
    ''', tmp_path)
    calls = {call.func.name: call for call in module["train"].nodes_of_class(astroid.nodes.Call)}
    callees = {name: compiled.compiled_callee(call) for name, call in calls.items()}
    assert {name: callee.name if callee else None for name, callee in callees.items()} == {
        "Net": None, "step": "step", "traced": None, "plain": None, "jitted": "plain", "net": "construct",
    }
    inside_helper = next(module["helper"].nodes_of_class(astroid.nodes.BinOp))
    assert [label.rsplit(":", 2)[1:] for label in compiled.compiled_units(inside_helper)] == [["18", "Net"]]
    assert compiled.compiled_units(calls["step"])[0].endswith(":5:step")


def test_a_commented_out_device_setting_does_not_count(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    project = _project(tmp_path / "project", '"CPU"')
    train = project / "train.py"
    train.write_text(train.read_text(encoding="utf-8").replace(
        "    ms.set_context(", '    # ms.set_context(mode=ms.PYNATIVE_MODE, device_target="Ascend", device_id=5)\n    ms.set_context('),
        encoding="utf-8")
    assert "Ascend" in train.read_text(encoding="utf-8")
    cli.main(["--no-cache", "--select", "ms-dynamic-shape-in-graph", "--format", "json", str(project)])
    assert json.loads(capsys.readouterr().out)["findings"] == []
