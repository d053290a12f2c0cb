"""Runtime mode says why nothing ran (issue 27, defects 11 and 12): a module
that fails to import names the import and how to fix it, layer findings there
are never "confirmed" from literals without saying the module was not built, a
"not run" reason never reads like an internal detail, and --confirm-all-cells
reports only the compile errors its guessed inputs cannot cause, naming them.

The first tests are the parent's decisions on recorded worker results (no
MindSpore); those marked ``frameworks`` run the real MindSpore through the
command, as a user does."""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

from mslint.confirm import plan as planning
from mslint.confirm import verdict
from mslint.report.findings import Finding
from mslint.run import cli


def finding(symbol: str, line: int, path: str = "/p/model.py") -> Finding:
    return Finding(path=path, line=line, column=1, end_line=line, end_column=5, symbol=symbol, msg_id="W0000",
                   message="m", category="warning")


IMPORT_FAILED = (
    "import failed at model.py:5: ModuleNotFoundError: No module named 'missing_dep'; "
    "install the project's dependencies into the Python mslint runs in (/usr/bin/python3)"
)


def test_an_import_failure_is_the_reason_everywhere_in_its_module() -> None:
    found = [finding("ms-dropout-keep-prob", 12), finding("ms-conv-implicit-pad-mode", 13), finding("ms-numpy-on-tensor", 16),
             finding("ms-forward-not-construct", 20)]
    plan = planning.ModulePlan(path="/p/model.py", module="model", sys_path=["/p"])
    plan.layer_checks = [planning.LayerCheck(0, "ms-dropout-keep-prob", 12, "mindspore.nn.Dropout", ["0.1"], {}),
                         planning.LayerCheck(1, "ms-conv-implicit-pad-mode", 13, "mindspore.nn.Conv2d", ["3", "8"], {"kernel_size": "cnf.kernel_size"})]
    plan.graph_checks = [planning.GraphCheck(2, "ms-numpy-on-tensor", 16, ["t0"])]
    plan.call_checks = [planning.CallCheck(3, "ms-forward-not-construct", 20, "Ported")]
    records = [  # the literal pass runs before the import; then the import fails
        {"type": "layer", "index": 0, "status": "confirmed", "detail": "nn.Dropout(0.1) keeps 10.1% of activations in training (measured)"},
        {"type": "layer", "index": 1, "status": "not run", "detail": "argument kernel_size=cnf.kernel_size is not a literal"},
        {"type": "fatal", "stage": "import", "detail": IMPORT_FAILED},
        {"type": "done"},
    ]
    decided = verdict.decide_module(plan, records, verdict.WorkerEnd("done", "finished in 2.9 s"), found, "lax")
    assert decided[0]["status"] == "confirmed"
    assert decided[0]["detail"] == (
        "nn.Dropout(0.1) keeps 10.1% of activations in training (measured), judged on the call's literal arguments only: "
        f"the module was not built ({IMPORT_FAILED})"
    )
    assert decided[1] == {"status": "not run", "detail": f"{IMPORT_FAILED}; and the call alone cannot stand in: argument kernel_size=cnf.kernel_size is not a literal"}
    assert decided[2] == {"status": "not run", "detail": IMPORT_FAILED}
    assert decided[3] == {"status": "not run", "detail": IMPORT_FAILED}  # not "finished in 2.9 s"
    assert all("finished in" not in item["detail"] for item in decided.values())


def test_a_worker_that_ended_without_a_result_never_gives_its_time_as_the_reason() -> None:
    plan = planning.ModulePlan(path="/p/model.py", module="model", sys_path=["/p"])
    plan.call_checks = [planning.CallCheck(0, "ms-forward-not-construct", 20, "Ported")]
    decided = verdict.decide_module(plan, [{"type": "done"}], verdict.WorkerEnd("done", "finished in 2.9 s"),
                                    [finding("ms-forward-not-construct", 20)], "lax")
    assert "finished in" not in decided[0]["detail"] and decided[0]["status"] == "not run"


def test_a_worker_exit_names_the_useful_log_line() -> None:
    """MindSpore's C++ log lines start with a level, a process and a timestamp:
    the reason is the message, not a line cut in the middle of the timestamp."""
    tail = (
        "Traceback (most recent call last):\n"
        "[ERROR] ME(31337,7f0c1b2c3740,python):2026-11-23-10:11:12.345.678 [mindspore/ccsrc/runtime/device/loader.cc:88] Load] "
        "Failed to load libmindspore_gpu.so: libcudart.so.11.0: cannot open shared object file: No such file or directory\n"
        "[WARNING] ME(31337,7f0c1b2c3740,python):2026-11-23-10:11:12.3"
    )
    end = verdict.describe_exit(1, tail)
    assert end.detail == (
        "worker exited with status 1: Failed to load libmindspore_gpu.so: libcudart.so.11.0: cannot open shared object file: "
        "No such file or directory"
    )
    assert verdict.describe_exit(1, "boom\nRuntimeError: the device is gone\n").detail == "worker exited with status 1: RuntimeError: the device is gone"
    assert verdict.describe_exit(3, "").detail == "worker exited with status 3"


def test_new_compile_errors_under_guessed_inputs_need_the_same_error_with_another_rank(tmp_path: Path) -> None:
    module = tmp_path / "nets.py"
    module.write_text("\n" * 40, encoding="utf-8")
    plan = planning.ModulePlan(path=str(module), module="nets", sys_path=[str(tmp_path)])
    shape_error = {"type": "IndexError", "first": "TupleGetItem evaluator index should be in range[-2, 2), but got 2.",
                   "locations": [[str(module), 21, 21, 8, 25]]}
    missing = {"type": "AttributeError", "first": "'Broken' object has no attribute 'scale'", "locations": [[str(module), 31, 31, 15, 25]]}
    guessed = {"inputs": ["float32[2,64]"], "inputs_source": "from its first layer, Dense with in_channels=64", "tried": ["float32[2,64]"]}
    records = [
        {"type": "target", "id": "a0", "label": "Seq.construct", "strict": {"ok": False, "error": shape_error, **guessed},
         "lax": {"ok": False, "error": shape_error},
         "recheck": {"inputs": ["float32[2,3,32,32]"], "inputs_source": "a generic guess", "strict": False, "lax": False}},
        {"type": "target", "id": "a1", "label": "Broken.construct", "strict": {"ok": False, "error": missing, **guessed},
         "lax": {"ok": False, "error": missing},
         "recheck": {"inputs": ["float32[2,3,32,32]"], "inputs_source": "a generic guess", "strict": True, "lax": True, "same_rank": False}},
        {"type": "target", "id": "a3", "label": "Conv.construct", "strict": {"ok": False, "error": shape_error, **guessed},
         "lax": {"ok": False, "error": shape_error},  # the same unpacking error at another size of the same rank: not reported
         "recheck": {"inputs": ["float32[2,64,64,64]"], "inputs_source": "x", "strict": True, "lax": True, "same_rank": True}},
        {"type": "target", "id": "a2", "label": "Old.construct", "strict": {"ok": False, "error": missing, **guessed},
         "lax": {"ok": False, "error": missing}},  # a worker without the second opinion: nothing reported
    ]
    (new,) = verdict.new_findings(plan, records, {}, tmp_path, "lax")
    assert new.line == 31
    assert new.confirmation == {
        "status": "confirmed",
        "detail": "reported by MindSpore's graph compiler (Broken.construct with inputs float32[2,64] (from its first layer, "
                  "Dense with in_channels=64); the same error with float32[2,3,32,32] (a generic guess))",
    }


def test_new_compile_errors_name_declared_inputs(tmp_path: Path) -> None:
    module = tmp_path / "nets.py"
    module.write_text("\n" * 40, encoding="utf-8")
    plan = planning.ModulePlan(path=str(module), module="nets", sys_path=[str(tmp_path)])
    missing = {"type": "AttributeError", "first": "no attribute 'scale'", "locations": [[str(module), 31, 31, 15, 25]]}
    records = [{"type": "target", "id": "t0", "label": "Net.construct",
                "strict": {"ok": False, "error": missing, "inputs": ["float32[2,2]"], "inputs_declared": "from a hint"},
                "lax": {"ok": False, "error": missing}}]
    (new,) = verdict.new_findings(plan, records, {}, tmp_path, "lax")
    assert new.confirmation["detail"] == "reported by MindSpore's graph compiler (Net.construct with inputs float32[2,2] (from a hint))"


def test_the_progress_line_counts_in_the_singular(capsys: pytest.CaptureFixture) -> None:
    from mslint.confirm import runner

    progress = runner.Progress(1, True)
    progress.advance("model", {"built": 1, "compiled": 1, "confirmed": 1, "findings": 1}, verdict.WorkerEnd("done", "finished"))
    assert "model: 1 Cell built, 1 compiled, 1/1 finding confirmed (" in capsys.readouterr().err


# ---------------------------------------------------------------------------
# With the real MindSpore, through the command
# ---------------------------------------------------------------------------


IMPORTS_A_MISSING_DEPENDENCY = '''\
import numpy as np
import mindspore as ms
from mindspore import Tensor, nn

from missing_dep import cnf


class Net(nn.Cell):
    def __init__(self):
        super().__init__()
        self.drop = nn.Dropout(0.1)
        self.conv = nn.Conv2d(3, 8, kernel_size=cnf.kernel_size)

    def construct(self, x):
        return Tensor(np.exp(self.drop(self.conv(x))), ms.float32)


class Ported(nn.Cell):
    def forward(self, x):
        return x
'''


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def confirm(capsys: pytest.CaptureFixture, *args: str) -> tuple[dict[tuple[int, str], dict], dict]:
    cli.main(["--confirm", "--confirm-timeout=300", "--no-cache", "--format=json", *args])
    out, err = capsys.readouterr()
    assert out, err
    report = json.loads(out)
    return {(item["line"], item["symbol"]): item.get("confirmation") for item in report["findings"]}, report


@pytest.mark.frameworks
def test_a_module_that_fails_to_import_says_which_import_and_how_to_fix_it(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "model.py").write_text(IMPORTS_A_MISSING_DEPENDENCY, encoding="utf-8")
    results, report = confirm(capsys, "--select=all", "model.py")
    why = (
        "import failed at model.py:5: ModuleNotFoundError: No module named 'missing_dep'; install the project's dependencies "
        f"into the Python mslint runs in ({sys.executable})"
    )
    assert results[(15, "ms-numpy-on-tensor")] == {"status": "not run", "detail": why}
    assert results[(19, "ms-forward-not-construct")] == {"status": "not run", "detail": why}
    conv = results[(12, "ms-conv-implicit-pad-mode")]
    assert conv["status"] == "not run" and conv["detail"].startswith(why + "; and the call alone cannot stand in: argument kernel_size")
    dropout = results[(11, "ms-dropout-keep-prob")]
    assert dropout["status"] == "confirmed" and dropout["detail"].endswith(f"judged on the call's literal arguments only: the module was not built ({why})")
    summary = report["summary"]["summary"]
    assert f"0 Cells compiled in 1 module; 1 module could not be checked (model: {why})." in summary


GUESSED_INPUTS = '''\
from mindspore import nn, ops


class Seq(nn.Cell):
    """Takes (batch, tokens, channels): a 2-D guess fails at the unpacking."""

    def __init__(self):
        super().__init__()
        self.proj = nn.Dense(64, 64)

    def construct(self, x):
        b, n, c = x.shape
        return self.proj(x).reshape(b, n * c)


class Attn(nn.Cell):
    def __init__(self):
        super().__init__()
        self.qkv = nn.Dense(32, 96)

    def construct(self, x):
        b, n, c = x.shape
        qkv = self.qkv(x).reshape(b, n, 3, c).transpose(2, 0, 1, 3)
        return ops.matmul(qkv[0], qkv[1].swapaxes(-1, -2))


class Broken(nn.Cell):
    """No input makes this compile."""

    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(16, 4)

    def construct(self, x):
        return self.dense(x) * self.scale
'''


@pytest.mark.frameworks
def test_confirm_all_cells_reports_only_what_guessed_inputs_cannot_cause(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "nets.py").write_text(GUESSED_INPUTS, encoding="utf-8")
    results, report = confirm(capsys, "--confirm-all-cells", "nets.py")
    assert list(results) == [(35, "ms-graph-compile-error")]  # not Seq's or Attn's unpacking of a guessed 2-D input
    detail = results[(35, "ms-graph-compile-error")]["detail"]
    assert detail == (
        "reported by MindSpore's graph compiler (Broken.construct with inputs float32[2,16] (from its first layer, Dense with in_channels=16); "
        "the same error with float32[2,8,16] (another shape for its first layer, Dense with in_channels=16))"
    )
    assert "3 Cells compiled in 1 module" in report["summary"]["summary"]
