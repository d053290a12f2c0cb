"""The value analysis is linear in chains of names (issue 22, item 17): a
``construct`` of n lines ``x = np.exp(x)`` took about n^2.5 (63 s at n = 250,
past the default time limit). Counted in the analysis' own steps, not timed."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from mslint.analysis import values
from mslint.run import cli


def _chain(folder: Path, length: int) -> Path:
    path = folder / f"chain{length}.py"
    body = "".join("        x = np.exp(x)\n" for _ in range(length))
    path.write_text(
        f"import numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n{body}        return x\n",
        encoding="utf-8",
    )
    return path


def _findings(capsys: pytest.CaptureFixture, path: Path) -> list[dict]:
    code = cli.main(["--no-cache", "--jobs=1", "--format=json", "--select=ms-numpy-on-tensor", str(path)])
    out, err = capsys.readouterr()
    assert code == cli.EXIT_FINDINGS, err
    return json.loads(out)["findings"]


def test_a_chain_of_names_takes_linear_work(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    steps = {"uses": 0, "assigned": 0}
    uses, assigned = values.FunctionValues._uses, values.FunctionValues._assigned_value  # noqa: SLF001

    def counted_uses(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        steps["uses"] += 1
        return uses(self, *args, **kwargs)

    def counted_assigned(self, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        steps["assigned"] += 1
        return assigned(self, *args, **kwargs)

    monkeypatch.setattr(values.FunctionValues, "_uses", counted_uses)
    monkeypatch.setattr(values.FunctionValues, "_assigned_value", counted_assigned)
    counts = {}
    for length in (100, 400):
        steps.update(uses=0, assigned=0)
        found = _findings(capsys, _chain(tmp_path, length))
        assert len(found) == length  # every np.exp(x) on the tensor: its gradient is cut
        counts[length] = dict(steps)
    for kind in ("uses", "assigned"):
        assert counts[100][kind] >= 100
        assert counts[400][kind] < 5 * counts[100][kind], counts  # quadratic: 16 times, n^2.5: 32 times


def test_a_chain_longer_than_the_recursion_limit_is_checked(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Following each name into the next one recursed along the whole chain:
    past about 1,500 lines the file was "not checked" (RecursionError)."""
    found = _findings(capsys, _chain(tmp_path, 3000))
    assert len(found) == 3000 and {item["symbol"] for item in found} == {"ms-numpy-on-tensor"}


def test_the_findings_of_a_chain_do_not_depend_on_its_length(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """The first and the last call of a long chain get the message they get in a short one."""
    short = _findings(capsys, _chain(tmp_path, 3))
    long = _findings(capsys, _chain(tmp_path, 300))
    assert long[0]["message"] == short[0]["message"] and long[-1]["message"] == short[-1]["message"]
