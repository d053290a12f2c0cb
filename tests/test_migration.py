"""``mslint migration``: the scanner (mslint/analysis/migration.py), the judgement
of each API from the shipped mapping data, the four formats
(mslint/report/migration.py) with the JSON contract of issue 26, notebooks, and
the command, which needs neither framework and never imports the code it reads.
"""

from __future__ import annotations

import csv
import io
import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mslint.analysis import migration
from mslint.analysis.migration import Call
from mslint.report import migration as migration_report
from mslint.run.cli import main

MODEL = textwrap.dedent('''\
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    from torch.utils.data import DataLoader
    from torch import optim
    import numpy as np

    Conv = nn.Conv2d

    class Net(nn.Module):
        def __init__(self):
            super().__init__()
            self.conv = Conv(3, 8, 3, padding=1, bias=False)
            self.fc = nn.Linear(8, 10)
            self.drop = nn.Dropout(0.1)

        def forward(self, x: torch.Tensor) -> torch.Tensor:
            y = self.conv(x)
            y = F.relu(y)
            z = y.view(y.size(0), -1).mean(dim=1)
            w = torch.zeros(3).unsqueeze(0)
            return self.fc(self.drop(z)) + w.sum()

    def train(net, data, **options):
        loader = DataLoader(data, batch_size=4)
        opt = optim.SGD(net.parameters(), lr=0.1)
        for x, y in loader:
            loss = F.cross_entropy(net(x), y)
            loss.backward()
        scores = np.zeros(3)
        scores.sum()
        torch.nn.init.zeros_(net.fc.weight)
        return torch.cuda.is_available(), nn.TripletMarginLoss(0.3, **options)
''')


def _uses(source: str = MODEL) -> list[migration.Use]:
    return migration.scan(source, "model.py")


def _apis(uses) -> list[tuple[int, str, str]]:
    return [(use.line, use.api, use.how) for use in uses]


# ---------------------------------------------------------------------------
# Scanning
# ---------------------------------------------------------------------------
def test_names_resolve_through_imports_and_aliases():
    found = _apis(_uses())
    assert (8, "torch.nn.Conv2d", "reference") in found  # Conv = nn.Conv2d
    assert (13, "torch.nn.Conv2d", "call") in found  # Conv(...)
    assert (10, "torch.nn.Module", "base") in found
    assert (19, "torch.nn.functional.relu", "call") in found
    assert (25, "torch.utils.data.DataLoader", "call") in found
    assert (26, "torch.optim.SGD", "call") in found
    assert (32, "torch.nn.init.zeros_", "call") in found
    assert (33, "torch.cuda.is_available", "call") in found


def test_tensor_methods_only_on_values_known_to_be_tensors():
    found = _apis(_uses())
    # x is annotated Tensor, y the output of a torch.nn layer, w of torch.zeros, loss of F.cross_entropy
    for line, api in ((20, "torch.Tensor.view"), (20, "torch.Tensor.size"), (20, "torch.Tensor.mean"),
                      (21, "torch.Tensor.unsqueeze"), (22, "torch.Tensor.sum"), (29, "torch.Tensor.backward")):
        assert (line, api, "call") in found, api
    # numpy's sum, and methods of values nothing says are tensors (net.parameters()), are not PyTorch's
    assert not [use for use in found if use[0] in (26, 31)  and use[1].startswith("torch.Tensor")]
    # modules are not APIs
    assert not [use for use in found if use[1] in ("torch", "torch.nn", "torch.nn.functional", "torch.nn.init")]


def test_calls_record_how_they_pass_arguments():
    by_line = {(use.line, use.api): use for use in _uses()}
    assert by_line[(13, "torch.nn.Conv2d")].call == Call(3, ("padding", "bias"))
    assert by_line[(33, "torch.nn.TripletMarginLoss")].call.unknown  # **options hides arguments


def test_names_bound_to_something_else_are_not_pytorch():
    source = "from mindspore import nn\nimport torch.nn as tnn\nx = nn.Dense(2, 2)\ny = tnn.Linear(2, 2)\n"
    assert _apis(_uses(source)) == [(4, "torch.nn.Linear", "call")]
    source = "import torch\nfrom mymodels import nn\nnn.Conv2d(1, 1, 1)\ntorch.relu\n"
    assert _apis(_uses(source)) == [(4, "torch.relu", "reference")]


def test_a_file_without_pytorch_is_skipped_cheaply():
    assert not migration.uses_torch("import numpy as np\nnp.zeros(3)\n")
    assert migration.scan("import numpy as np\nnp.zeros(3)\n") == []


# ---------------------------------------------------------------------------
# Judging
# ---------------------------------------------------------------------------
def _report(source: str = MODEL) -> dict[str, migration.ApiReport]:
    return {r.api: r for r in migration.judge(_uses(source))}


def test_status_and_counterpart_come_from_the_data():
    reports = _report()
    assert reports["torch.nn.Conv2d"].status == "same"
    assert reports["torch.nn.Conv2d"].counterpart == "mindspore.mint.nn.Conv2d"
    assert reports["torch.cuda.is_available"].status == "missing"
    assert reports["torch.cuda.is_available"].counterpart is None
    assert reports["torch.nn.Module"].counterpart == "mindspore.nn.Cell"
    assert "ms-forward-not-construct" in reports["torch.nn.Module"].rules


def test_only_differences_that_matter_for_the_arguments_passed():
    dense = {"kind": "renamed", "torch": "bias", "mindspore": "has_bias"}
    params = [["in_features", "pk", None], ["out_features", "pk", None], ["bias", "pk", "True"]]
    assert migration.matters(dense, Call(2, ("bias",)), params)
    assert not migration.matters(dense, Call(3, ()), params)  # positional: the name does not matter
    moved = {"kind": "position", "torch": "margin", "mindspore": "margin", "index": 0}
    assert migration.matters(moved, Call(1, ()), params) and not migration.matters(moved, Call(0, ("margin",)), params)
    default = {"kind": "default", "torch": "bias", "mindspore": "has_bias"}
    assert migration.matters(default, Call(2, ()), params) and not migration.matters(default, Call(3, ()), params)
    missing = {"kind": "missing", "torch": "bias"}
    assert migration.matters(missing, Call(3, ()), params) and not migration.matters(missing, Call(2, ()), params)
    assert migration.matters(missing, Call(0, (), unknown=True), params)  # **kwargs: cannot tell
    assert not migration.matters(missing, None, params)  # not a call
    assert migration.matters({"kind": "extra", "mindspore": "source"}, None, params)


def test_triplet_margin_loss_positional_difference_and_its_rule():
    source = "from torch import nn\nloss = nn.TripletMarginLoss(0.3)\n"
    report = _report(source)["torch.nn.TripletMarginLoss"]
    assert report.status == "differs" and report.counterpart == "mindspore.nn.TripletMarginLoss"
    assert any("positional argument 1 is PyTorch's margin, MindSpore's p (ms-torch-positional-args)" == d
               for d in report.differences), report.differences
    keyword = _report("from torch import nn\nloss = nn.TripletMarginLoss(margin=0.3)\n")["torch.nn.TripletMarginLoss"]
    assert not [d for d in keyword.differences if d.startswith("positional")]


def test_alternatives_say_what_porting_to_mindspore_nn_means():
    report = _report("import torch\nd = torch.nn.Dropout(0.1)\n")["torch.nn.Dropout"]
    assert report.status == "same" and report.counterpart == "mindspore.mint.nn.Dropout"
    nn_dropout = next(a for a in report.alternatives if a["counterpart"] == "mindspore.nn.Dropout")
    assert "positional argument 1 is PyTorch's p, MindSpore's keep_prob (ms-dropout-keep-prob)" in nn_dropout["differences"]
    assert "ms-dropout-keep-prob" in report.rules


# ---------------------------------------------------------------------------
# The formats and the JSON contract
# ---------------------------------------------------------------------------
@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "model.py").write_text(MODEL, encoding="utf-8")
    (tmp_path / "plain.py").write_text("import os\nprint(os.sep)\n", encoding="utf-8")
    notebook = {
        "cells": [
            {"cell_type": "markdown", "metadata": {}, "source": ["# notes"]},
            {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
             "source": ["%matplotlib inline\n", "import torch\n", "x = torch.ones(2)\n", "x.add_(1)"]},
        ],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }
    (tmp_path / "explore.ipynb").write_text(json.dumps(notebook, indent=1), encoding="utf-8")
    return tmp_path


def _run(project: Path, *options: str, capsys) -> tuple[int, str]:
    code = main(["migration", str(project), *options])
    return code, capsys.readouterr().out


def test_json_contract(project: Path, capsys, monkeypatch):
    monkeypatch.chdir(project)
    code, out = _run(project, "--format", "json", capsys=capsys)
    assert code == 0
    doc = json.loads(out)
    assert doc["tool"] == "mslint" and doc["mindspore"] == "2.10.0" and doc["torch"] == "2.13.0"
    assert {"files", "uses", "apis"} <= set(doc["summary"])
    assert doc["summary"]["files"] == 2 and doc["summary"]["filesScanned"] == 3
    assert doc["summary"]["uses"] == sum(len(a["uses"]) for a in doc["apis"])
    assert doc["summary"]["apis"] == len(doc["apis"])
    for api in doc["apis"]:
        assert {"api", "uses", "status", "counterpart", "differences", "rules"} <= set(api)
        assert api["status"] in ("same", "differs", "missing")
        assert (api["counterpart"] is None) == (api["status"] == "missing")
        assert all({"path", "line", "column"} <= set(use) for use in api["uses"])
        assert isinstance(api["differences"], list) and isinstance(api["rules"], list)
    conv = next(a for a in doc["apis"] if a["api"] == "torch.nn.Conv2d")
    assert conv["counterpart"] == "mindspore.mint.nn.Conv2d"
    assert {"path": "model.py", "line": 13, "column": 20} in conv["uses"]
    statuses = doc["summary"]["byStatus"]
    assert sum(s["uses"] for s in statuses.values()) == doc["summary"]["uses"]
    assert doc["summary"]["missing"][0]["api"] in {a["api"] for a in doc["apis"] if a["status"] == "missing"}


def test_notebook_uses_are_placed_in_their_cell(project: Path, capsys, monkeypatch):
    monkeypatch.chdir(project)
    _, out = _run(project, "--format", "json", capsys=capsys)
    add = next(a for a in json.loads(out)["apis"] if a["api"] == "torch.Tensor.add_")
    (use,) = add["uses"]
    assert use["path"] == "explore.ipynb" and (use["cell"], use["cellLine"]) == (2, 4)


def test_text_report_opens_with_the_summary(project: Path, capsys, monkeypatch):
    monkeypatch.chdir(project)
    code, out = _run(project, capsys=capsys)
    lines = out.splitlines()
    assert code == 0 and lines[0].startswith("PyTorch in 2 of 3 files: ")
    assert lines[1].lstrip().startswith("same:") and lines[3].lstrip().startswith("missing:")
    assert "Missing in MindSpore, by uses:" in out and "torch.cuda.is_available" in out
    assert "MindSpore 2.10.0" in out and "r2.4.10" in out
    sections = [line for line in lines if line.split(" (")[0] in ("missing", "differs", "same") and line.endswith("APIs)")]
    assert [s.split()[0] for s in sections] == ["missing", "differs", "same"]


def test_csv_has_one_row_per_api(project: Path, capsys, monkeypatch):
    monkeypatch.chdir(project)
    _, out = _run(project, "--format", "csv", capsys=capsys)
    rows = list(csv.DictReader(io.StringIO(out)))
    assert tuple(rows[0]) == migration_report.CSV_COLUMNS
    assert len(rows) == len({row["api"] for row in rows})
    _, out_json = _run(project, "--format", "json", capsys=capsys)
    assert len(rows) == json.loads(out_json)["summary"]["apis"]


def test_markdown_is_a_report_for_an_issue(project: Path, capsys, monkeypatch):
    monkeypatch.chdir(project)
    _, out = _run(project, "--format", "markdown", capsys=capsys)
    assert out.startswith("## PyTorch to MindSpore: migration analysis")
    assert "| status | APIs | uses | share of uses |" in out
    assert "### No MindSpore counterpart" in out and "### Same parameters" in out
    assert "| `torch.nn.Conv2d` | `mindspore.mint.nn.Conv2d` |" in out


def test_output_file_and_summary_on_stderr(project: Path, capsys, monkeypatch, tmp_path_factory):
    monkeypatch.chdir(project)
    target = tmp_path_factory.mktemp("out") / "report.json"
    code = main(["migration", str(project), "--format", "json", "--output", str(target)])
    captured = capsys.readouterr()
    assert code == 0 and captured.out == "" and captured.err.startswith("PyTorch in 2 of 3 files")
    assert json.loads(target.read_text(encoding="utf-8"))["tool"] == "mslint"


def test_a_file_that_does_not_parse_is_a_problem(project: Path, capsys, monkeypatch):
    monkeypatch.chdir(project)
    (project / "broken.py").write_text("import torch\ndef f(:\n", encoding="utf-8")
    code, out = _run(project, "--format", "json", capsys=capsys)
    assert code == 2
    assert json.loads(out)["problems"][0]["message"].startswith("does not parse")


def test_needs_no_framework_and_runs_no_user_code(project: Path):
    (project / "side_effect.py").write_text(
        "import torch\nopen('RAN', 'w').write('imported')\nx = torch.ones(2)\n", encoding="utf-8")
    script = textwrap.dedent('''
        import importlib.abc, sys
        class NoFrameworks(importlib.abc.MetaPathFinder):
            def find_spec(self, fullname, path=None, target=None):
                if fullname.split(".", 1)[0] in ("mindspore", "torch", "torchvision"):
                    raise ImportError(fullname + " is not installed here")
        sys.meta_path.insert(0, NoFrameworks())
        from mslint.run.cli import main
        sys.exit(main(["migration", ".", "--format", "json"]))
    ''')
    completed = subprocess.run([sys.executable, "-c", script], cwd=project, capture_output=True, text=True,
                               timeout=120, check=False)
    assert completed.returncode == 0, completed.stderr
    assert json.loads(completed.stdout)["summary"]["files"] == 3
    assert not (project / "RAN").exists()


def test_names_of_pytorch_private_modules_are_their_public_api():
    # ``from torch.utils.data.dataloader import DataLoader`` (minGPT's trainer): the
    # DataLoader the pages list, not an API MindSpore lacks
    source = ("from torch.utils.data.dataloader import DataLoader\n"
              "from torch.nn.modules.linear import Linear\n"
              "from torch.optim.adamw import AdamW\n"
              "from torch.optim.lr_scheduler import StepLR\n"
              "DataLoader([1, 2], batch_size=1)\nLinear(2, 2)\nAdamW\nStepLR\n")
    found = _apis(_uses(source))
    assert found == [(5, "torch.utils.data.DataLoader", "call"), (6, "torch.nn.Linear", "call"),
                     (7, "torch.optim.AdamW", "reference"), (8, "torch.optim.lr_scheduler.StepLR", "reference")]
    reports = _report(source)
    assert reports["torch.utils.data.DataLoader"].status == "differs"
    assert reports["torch.utils.data.DataLoader"].counterpart == "mindspore.dataset.GeneratorDataset"
    # a name with no public home stays as written
    assert _apis(_uses("import torch.nn.modules.foo as m\nm.Bar()\n")) == [(2, "torch.nn.modules.foo.Bar", "call")]


def test_fields_of_named_tuples_are_not_tensor_methods():
    # vit-pytorch's ``sim.max(dim=-1).indices``: torch.return_types.max's field, which
    # MindSpore's tuple lacks; not torch.Tensor.indices (a sparse tensor's method)
    source = ("import torch\n"
              "def f(x: torch.Tensor):\n"
              "    a = x.max(dim=-1).indices\n"
              "    b = torch.topk(x, 2).values\n"
              "    return x.indices(), a, b\n")
    found = _apis(_uses(source))
    assert (3, "torch.return_types.max.indices", "reference") in found
    assert (4, "torch.return_types.topk.values", "reference") in found
    assert (5, "torch.Tensor.indices", "call") in found
    assert not [use for use in found if use[0] in (3, 4) and use[1] in ("torch.Tensor.indices", "torch.Tensor.values")]
    assert _report(source)["torch.return_types.max.indices"].status == "missing"
