"""The port rules (ms-conv-implicit-pad-mode, ms-pool-implicit-stride,
ms-layer-default-differs) where the code shows it is ported from PyTorch
(mslint.analysis.port, mslint.report.ports): on in a module carrying PyTorch
idioms mslint flags, in one whose PyTorch original the project keeps, everywhere
with --port or [tool.mslint] port-from; elsewhere counted in the summary."""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest

from mslint.run import cli

ROOT = Path(__file__).resolve().parent.parent
PORT_RULES = {"ms-conv-implicit-pad-mode", "ms-pool-implicit-stride", "ms-layer-default-differs"}

NATIVE = """
from mindspore import nn


class Down(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 8, 3, pad_mode="pad", padding=1)
        self.pool = nn.MaxPool2d(2)

    def construct(self, x):
        return self.pool(self.conv(x))
"""

PORTED = """
from mindspore import nn


class Down(nn.Cell):
    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(8, 8, bias=False)
        self.pool = nn.MaxPool2d(2)

    def construct(self, x):
        return self.pool(self.proj(x))


class Native(nn.Cell):
    \"\"\"MindSpore code beside the ported class: its defaults are meant.\"\"\"

    def __init__(self):
        super().__init__()
        self.pool = nn.MaxPool2d(3)

    def construct(self, x):
        return self.pool(x)
"""

TORCH_ORIGINAL = """
import torch.nn as nn


class Down(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(8, 8, 3, padding=1)
        self.pool = nn.MaxPool2d(2)

    def forward(self, x):
        return self.pool(self.conv(x))
"""


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def _report(capsys: pytest.CaptureFixture, *args: str) -> dict:
    cli.main(["--format=json", "--jobs", "1", *args])
    return json.loads(capsys.readouterr().out)


def _symbols(report: dict) -> set[str]:
    return {item["symbol"] for item in report["findings"]}


def _write(folder: Path, name: str, text: str) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / name
    path.write_text(textwrap.dedent(text), encoding="utf-8")
    return path


def test_the_ported_example_gets_its_pad_mode_and_pool_findings_by_default(capsys: pytest.CaptureFixture) -> None:
    report = _report(capsys, str(ROOT / "examples"))
    symbols = _symbols(report)
    assert {"ms-conv-padding-ignored", "ms-pool-implicit-stride"} <= symbols
    assert "ms-layer-default-differs" not in symbols  # its convs feed BatchNorms: a bias changes nothing
    assert "Port rules on in" in report["summary"]["summary"] and "ported_model.py" in report["summary"]["summary"]


def test_native_code_keeps_them_off_and_the_summary_counts_them(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = _write(tmp_path, "native.py", NATIVE)
    report = _report(capsys, str(target))
    assert not _symbols(report) & PORT_RULES
    assert "2 more from port rules: --port" in report["summary"]["summary"]
    forced = _report(capsys, "--port", str(target))
    assert "ms-pool-implicit-stride" in _symbols(forced)
    assert "Port rules on everywhere (--port)" in forced["summary"]["summary"]


def test_a_module_with_pytorch_idioms_turns_them_on(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = _write(tmp_path, "ported.py", PORTED)
    report = _report(capsys, str(target))
    assert {"ms-torch-keyword-args", "ms-pool-implicit-stride"} <= _symbols(report)
    assert "ms-torch-keyword-args" in report["summary"]["summary"]
    # the evidence speaks for its own class: the native class's pool stays off (counted)
    pools = [item["line"] for item in report["findings"] if item["symbol"] == "ms-pool-implicit-stride"]
    assert pools == [9], pools
    assert "1 more from port rules" in report["summary"]["summary"]


def test_a_misspelled_construct_is_no_sign_of_a_port(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """ms-forward-not-construct on ``consturct`` (a typo) turns nothing on; on
    PyTorch's ``forward`` it does."""
    typo = _write(tmp_path / "typo", "typo.py", NATIVE.replace("def construct", "def consturct"))
    report = _report(capsys, str(typo))
    assert "ms-forward-not-construct" in _symbols(report)
    assert not _symbols(report) & PORT_RULES
    forward = _write(tmp_path / "forward", "forward.py", NATIVE.replace("def construct", "def forward"))
    assert "ms-pool-implicit-stride" in _symbols(_report(capsys, str(forward)))


def test_the_pytorch_original_beside_it_turns_them_on(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    _write(tmp_path, "torch_model.py", TORCH_ORIGINAL)
    target = _write(tmp_path, "ms_model.py", NATIVE)
    report = _report(capsys, str(target))
    assert "ms-pool-implicit-stride" in _symbols(report)
    assert "its PyTorch original torch_model.py defines Down" in report["summary"]["summary"]


MIRRORED_ORIGINAL = """
import torch
import torch.nn as nn


class FixedEmbedding(nn.Module):
    def __init__(self, rows, dim):
        super().__init__()
        self.emb = nn.Embedding(rows, dim)
        self.emb.weight = nn.Parameter(torch.zeros(rows, dim), requires_grad=False)


class TokenEmbedding(nn.Module):
    def __init__(self, channels, dim):
        super().__init__()
        self.token_conv = nn.Conv1d(channels, dim, 3, padding=1, bias=False)
        self.head = nn.Conv1d(dim, dim, 1)
"""

MIRRORED_PORT = """
from mindspore import Parameter, nn, ops


class FixedEmbedding(nn.Cell):
    def __init__(self, rows, dim):
        super().__init__()
        self.emb = nn.Embedding(rows, dim)
        self.emb.weight = Parameter(ops.zeros((rows, dim)), requires_grad=False)

    def construct(self, ids):
        return self.emb(ids)


class TokenEmbedding(nn.Cell):
    def __init__(self, channels, dim):
        super().__init__()
        self.token_conv = nn.Conv1d(channels, dim, 3, pad_mode="pad", padding=1)
        self.head = nn.Conv1d(dim, dim, 1)

    def construct(self, x):
        return self.head(self.token_conv(x))
"""


def test_the_original_in_a_mirrored_tree_turns_them_on_and_is_compared(
    tmp_path: Path, capsys: pytest.CaptureFixture,
) -> None:
    """A repository keeping the PyTorch project and its port side by side
    (``model（P）/layers/embed.py``, ``model（M）/layers/embed.py``): the file at the
    same place in the sibling tree is the original. The hints compare with it: its
    conv without a bias and its replaced Embedding table leave nothing to say, its
    conv with PyTorch's default bias does."""
    _write(tmp_path / "model（P）" / "layers", "embed.py", MIRRORED_ORIGINAL)
    target = _write(tmp_path / "model（M）" / "layers", "embed.py", MIRRORED_PORT)
    report = _report(capsys, str(target))
    assert "its PyTorch original ../../model（P）/layers/embed.py defines" in report["summary"]["summary"]
    hints = [item["line"] for item in report["findings"] if item["symbol"] == "ms-layer-default-differs"]
    assert hints == [19], report["findings"]


def test_the_user_chooses(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    target = _write(tmp_path, "native.py", NATIVE)
    ported = _write(tmp_path, "ported.py", PORTED)
    # never contradicting what the user wrote: no has_bias=True hint on bias=False
    assert not any(
        item["symbol"] == "ms-layer-default-differs" and "Dense" in item["message"]
        for item in _report(capsys, "--port", str(ported))["findings"]
    )
    assert not _symbols(_report(capsys, "--ignore", "ms-pool-implicit-stride", str(ported))) & {"ms-pool-implicit-stride"}
    assert _symbols(_report(capsys, "--select", "ms-torch-keyword-args", str(ported))) == {"ms-torch-keyword-args"}
    (tmp_path / "pyproject.toml").write_text('[tool.mslint]\nport-from = "pytorch"\n', encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    report = _report(capsys, str(target))
    assert "ms-pool-implicit-stride" in _symbols(report)
    assert 'port-from = "pytorch"' in report["summary"]["summary"]


def test_withheld_port_findings_are_never_fixed(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = _write(tmp_path, "native.py", NATIVE)
    before = target.read_text(encoding="utf-8")
    cli.main(["--jobs", "1", "--fix", "--unsafe-fixes", str(target)])
    capsys.readouterr()
    assert target.read_text(encoding="utf-8") == before
