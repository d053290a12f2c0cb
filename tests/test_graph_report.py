"""``mslint --graph-report``: per compiled Cell or @jit function, its findings
counted (compile errors, graph breaks, recompile triggers, dynamic shapes),
read from each finding's compiled units (mslint.analysis.compiled). Static."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.report.findings import Finding
from mslint.report.graph_report import format_graph_report, units_of
from mslint.run import cli

ROOT = Path(__file__).resolve().parent.parent
PROGRAM = ROOT / "fixtures" / "graph_report"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def test_graph_report_counts_each_compiled_unit(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(PROGRAM)
    code = cli.main(["--graph-report", "--no-cache", "model.py"])
    out = capsys.readouterr().out
    assert code == 1, out  # findings: the exit code is the usual one
    rows = {line.split()[5]: [int(count) for count in line.split()[:5]] for line in out.splitlines()
            if line[:6].strip().isdigit()}
    #                 errors breaks recompiles dynamic other
    assert rows == {"Broken": [2, 0, 0, 0, 0], "noisy": [0, 2, 0, 0, 0], "train_step": [0, 0, 1, 0, 0],
                    "Masked": [0, 0, 0, 1, 0]}, out
    assert out.index("Broken") < out.index("noisy") < out.index("train_step") < out.index("Masked"), out  # worst first
    assert "line 17 ms-cell-state-in-graph:" in out and "ms-branch-type-mismatch" in out, out
    assert "total: 2 compile errors, 2 graph breaks, 1 recompile triggers, 1 dynamic-shape ops, 0 other warnings" in out
    assert len(out.splitlines()) < 40  # one screen


def test_graph_report_without_findings(capsys: pytest.CaptureFixture, tmp_path: Path) -> None:
    (tmp_path / "clean.py").write_text("from mindspore import nn\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
                                       "        return x * 2\n", encoding="utf-8")
    code = cli.main(["--graph-report", "--no-cache", str(tmp_path)])
    out = capsys.readouterr().out
    assert code == 0 and out.startswith("mslint graph report: no compile error"), out


def test_units_come_with_the_findings_and_the_cache(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The units are recorded when a finding is made and survive the result cache."""
    monkeypatch.chdir(PROGRAM)
    cli.main(["--graph-report", "model.py"])
    first = capsys.readouterr().out
    cli.main(["--graph-report", "model.py"])  # from the cache
    assert capsys.readouterr().out == first


def test_a_finding_in_code_two_units_compile_counts_for_both() -> None:
    shared = Finding("/p/m.py", 9, 1, None, None, "ms-cell-state-in-graph", "E8307", "msg", "error",
                     units=("/p/m.py:1:A", "/p/m.py:5:B"))
    other = Finding("/p/m.py", 20, 1, None, None, "ms-graph-break", "W8404", "msg", "warning", units=("/p/m.py:5:B",))
    units = units_of([shared, other])
    assert [(unit.name, unit.counts["errors"], unit.counts["breaks"]) for unit in units] == [("B", 1, 1), ("A", 1, 0)]
    assert "B  m.py:5" in format_graph_report([shared, other], "/p")
