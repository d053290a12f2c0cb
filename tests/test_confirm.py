"""Runtime mode with the real MindSpore on CPU (no mock of the compiler).

Findings come from linting fixtures/runtime/ with mslint, exactly as a user
gets them (with the anchors recorded at lint time); ``confirm_findings`` then compiles the flagged code in worker
processes. One worker per module, one MindSpore import per worker: the modules
of a scenario go through one call, and the expensive calls run once per session.
"""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest

from mslint.confirm import COMPILE_ERROR_SYMBOL, STATUSES, confirm_findings
from mslint.report.findings import Finding

pytestmark = pytest.mark.frameworks  # compiles with the real MindSpore

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "fixtures" / "runtime"
PROJECT = RUNTIME / "project"


@pytest.fixture(scope="module")
def linted(mslint_findings) -> list[Finding]:  # noqa: ANN001
    """Every finding in fixtures/runtime/, linted once by mslint (anchors recorded)."""
    return mslint_findings(RUNTIME)


def findings_in(linted: list[Finding], *paths: Path) -> list[Finding]:
    wanted = {str(path.resolve()) for path in paths}
    found = [dataclasses.replace(item) for item in linted if item.path in wanted]
    assert {item.path for item in found} == wanted, "a fixture lost its findings"
    return found


def snapshot(folder: Path) -> dict[str, tuple[int, int]]:
    return {str(path.relative_to(folder)): (path.stat().st_size, path.stat().st_mtime_ns) for path in folder.rglob("*")}


def by_line(findings: list[Finding], name: str) -> dict[tuple[int, str], dict]:
    return {(item.line, item.symbol): item.confirmation for item in findings if Path(item.path).name == name}


@pytest.fixture(scope="module")
def main_run(linted: list[Finding]) -> dict:
    """host_code.py, layers.py, import_fails.py and crashes.py in one call, two
    workers at a time; the fixture tree and the working directory are
    snapshotted around it."""
    paths = [RUNTIME / name for name in ("host_code.py", "layers.py", "import_fails.py", "crashes.py")]
    findings = findings_in(linted, *paths)
    before, cwd_before = snapshot(RUNTIME), sorted(os.listdir(ROOT))
    confirmed, new = confirm_findings(findings, timeout=150, jobs=2, project_root=ROOT, config={}, progress=False)
    return {
        "findings": confirmed,
        "new": new,
        "tree": (before, snapshot(RUNTIME)),
        "cwd": (cwd_before, sorted(os.listdir(ROOT))),
    }


def test_graph_findings_confirmed(main_run: dict) -> None:
    results = by_line(main_run["findings"], "host_code.py")
    for line, symbol in [
        (18, "ms-numpy-on-tensor"),
        (25, "ms-asnumpy-in-graph"),
        (31, "ms-custom-type-on-tensor"),
        (37, "ms-import-in-graph"),
        (42, "ms-numpy-on-tensor"),  # in a helper construct calls, with a dynamic input dimension
        (54, "ms-numpy-on-tensor"),  # in a @jit function
    ]:
        status = results[(line, symbol)]
        assert status["status"] == "confirmed", (line, status)
        assert f"compile error at line {line} under STRICT" in status["detail"]
    # numpy, asnumpy and a custom class compile under LAX, through JIT fallback, and
    # MindSpore cuts the gradient there (measured: the gradient sum is 0)
    for line, symbol in [(18, "ms-numpy-on-tensor"), (25, "ms-asnumpy-in-graph"), (31, "ms-custom-type-on-tensor")]:
        assert "only through JIT fallback" in results[(line, symbol)]["detail"]
        assert "gradient sum 0.0" in results[(line, symbol)]["detail"]
    assert "RuntimeError: Unsupported statement 'Import'" in results[(37, "ms-import-in-graph")]["detail"]
    assert "LAX fails there too" in results[(37, "ms-import-in-graph")]["detail"]


def test_not_reproduced_and_not_run(main_run: dict) -> None:
    results = by_line(main_run["findings"], "host_code.py")
    assert results[(68, "ms-numpy-on-tensor")] == {
        "status": "not reproduced",
        "detail": "NumpyBranchOff.construct compiles under STRICT",
    }
    # no inputs declared: runtime mode guesses them, and says which it used
    assert results[(82, "ms-numpy-on-tensor")]["status"] == "confirmed"
    assert "(NoInputsDeclared.construct with inputs float32[2,3,32,32] (a generic guess))" in results[(82, "ms-numpy-on-tensor")]["detail"]
    assert results[(92, "ms-numpy-on-tensor")]["status"] == "not run"
    assert "no zero-argument constructor and no factory of the module built one" in results[(92, "ms-numpy-on-tensor")]["detail"]


def test_compile_error_no_rule_predicted(main_run: dict) -> None:
    (new,) = main_run["new"]
    assert new.symbol == COMPILE_ERROR_SYMBOL and new.msg_id == "E7801"
    assert (Path(new.path).name, new.line, new.column, new.end_column) == ("host_code.py", 77, 16, 26)
    assert new.message == (
        "MindSpore cannot compile this in GRAPH_MODE (LAX and STRICT): AttributeError: "
        "ClassMember: 'Namespace:host_code..MissingAttribute' object has no attribute 'scale'"
    )
    assert new.confirmation["status"] == "confirmed" and new.fingerprint


def test_layer_findings_confirmed_by_building_the_call(main_run: dict) -> None:
    results = by_line(main_run["findings"], "layers.py")
    expected = {
        (10, "ms-conv-padding-ignored"): "nn.Conv2d(...) raises ValueError: For 'Conv2D', the 'pad' must be zero",
        (11, "ms-conv-implicit-pad-mode"): "gives 16x16 on a 16x16 input; PyTorch's Conv2d with the same arguments gives 14x14 (in_channels taken as 4)",
        (12, "ms-pool-implicit-stride"): "gives 15x15 on a 16x16 input (stride 1); PyTorch's MaxPool2d (stride = kernel_size) gives 8x8",
        (13, "ms-dropout-keep-prob"): "PyTorch's Dropout(0.1) keeps 90%",
        (14, "ms-batchnorm-momentum"): "moves the running mean 90% of the way to the batch mean; PyTorch's momentum=0.1 moves it 10%",
        (15, "ms-torch-positional-args"): "nn.Dense(..., False) builds with every weight at 0 and has_bias=True: the third positional argument went to weight_init",
    }
    for key, text in expected.items():
        assert key in results, f"the linter no longer reports {key}"
        assert results[key]["status"] == "confirmed", (key, results[key])
        assert text in results[key]["detail"], (key, results[key])
    assert "keeps 10." in results[(13, "ms-dropout-keep-prob")]["detail"] or "keeps 9." in results[(13, "ms-dropout-keep-prob")]["detail"]
    # a 1x1 convolution gives the same shape with either padding: nothing to confirm
    pointwise = results.get((16, "ms-conv-implicit-pad-mode"))
    if pointwise is not None:
        assert pointwise["status"] == "not reproduced"


def test_import_failure_and_crash_are_reported(main_run: dict) -> None:
    (failed,) = by_line(main_run["findings"], "import_fails.py").values()
    assert failed == {
        "status": "not run",
        "detail": "import failed at import_fails.py:7: ModuleNotFoundError: No module named 'mslint_no_such_module'; "
                  f"install the project's dependencies into the Python mslint runs in ({sys.executable})",
    }
    (crashed,) = by_line(main_run["findings"], "crashes.py").values()
    assert crashed["status"] == "not run"
    assert crashed["detail"].startswith("worker crashed (signal 11, SIGSEGV) while importing crashes")


def test_nothing_written_beside_the_code(main_run: dict) -> None:
    before, after = main_run["tree"]
    assert before == after
    cwd_before, cwd_after = main_run["cwd"]
    assert cwd_before == cwd_after
    assert not (ROOT / "rank_0").exists()


FINDING_SCHEMA = {
    "type": "object",
    "required": ["path", "line", "column", "end_line", "end_column", "symbol", "msg_id", "message", "category",
                 "fingerprint", "confirmation"],
    "properties": {
        "path": {"type": "string", "pattern": "^/"},
        "line": {"type": "integer", "minimum": 1},
        "column": {"type": "integer", "minimum": 1},
        "end_line": {"type": ["integer", "null"]},
        "end_column": {"type": ["integer", "null"]},
        "symbol": {"type": "string", "pattern": "^ms-"},
        "msg_id": {"type": "string"},
        "message": {"type": "string", "minLength": 1},
        "category": {"type": "string"},
        "fingerprint": {"type": "string"},
        "confirmation": {
            "type": "object",
            "required": ["status", "detail"],
            "additionalProperties": False,
            "properties": {"status": {"enum": list(STATUSES)}, "detail": {"type": "string", "minLength": 1}},
        },
    },
}


def test_output_shape(main_run: dict) -> None:
    """What the CLI renders as text suffixes, JSON fields and SARIF result
    properties: every finding (old and new) is JSON with a confirmation."""
    everything = [{key: value for key, value in vars(item).items() if key not in ("anchor", "fix")} for item in main_run["findings"] + main_run["new"]]
    for item in json.loads(json.dumps(everything)):
        jsonschema.validate(item, FINDING_SCHEMA)
    assert all(len(item["confirmation"]["detail"]) < 400 for item in everything)


def test_real_objects_without_configuration(linted: list[Finding]) -> None:
    """Nothing declared: the module's own factory builds the Cells, the layer
    findings are judged on the layers it built (kernel sizes and groups from a
    config), construct's inputs come from its first layer, and a Cell ported
    with forward() is called."""
    findings = findings_in(linted, RUNTIME / "built_layers.py")
    stats: dict = {}
    confirmed, new = confirm_findings(findings, timeout=150, project_root=ROOT, config={}, progress=False, stats=stats)
    results = by_line(confirmed, "built_layers.py")
    conv = results[(21, "ms-conv-implicit-pad-mode")]
    assert conv["status"] == "confirmed", conv
    assert conv["detail"].endswith("gives 14x14 (built by small_net(pretrained=False): nn.Conv2d(8, 8, kernel_size=3, group=2))")
    pool = results[(22, "ms-pool-implicit-stride")]
    assert pool["status"] == "confirmed" and "gives 5x5 (built by small_net(pretrained=False): nn.MaxPool2d(3))" in pool["detail"]
    head = results[(34, "ms-numpy-on-tensor")]
    assert head["status"] == "confirmed"
    assert "(Head.construct with inputs float32[2,8] (from its first layer, Dense with in_channels=8))" in head["detail"]
    forward = results[(53, "ms-forward-not-construct")]
    assert forward == {
        "status": "confirmed",
        "detail": "calling PortedForward()(float32[2,3,32,32]) raises AttributeError: For 'Cell', the method 'construct' is not defined.",
    }
    method = results[(63, "ms-torch-module-method")]
    assert method == {
        "status": "confirmed",
        "detail": "Frozen() has no parameters(): looking it up raises AttributeError: The 'Frozen' object has no attribute 'parameters'.",
    }
    assert new == []
    assert stats["modules"] == 1 and stats["cells_compiled"] >= 3


def test_graph_rule_fixtures_confirmed_without_declared_inputs(mslint_findings) -> None:  # noqa: ANN001
    """Every graph rule's positive fixture, no inputs declared anywhere: each
    module imports, has findings confirmed, and none is left waiting for inputs."""
    from mslint.knowledge import manifest  # noqa: PLC0415
    from mslint.confirm import rules  # noqa: PLC0415

    paths = sorted({ROOT / spec.fixture for spec in manifest.RULES if spec.symbol in rules.GRAPH_RULES})
    found = [item for item in mslint_findings(*paths) if item.symbol in rules.GRAPH_RULES]
    assert not (RUNTIME / "pyproject.toml").exists()
    confirmed, _ = confirm_findings(found, timeout=200, jobs=2, project_root=ROOT, config={}, progress=False)
    by_file: dict[str, list[dict]] = {}
    for item in confirmed:
        by_file.setdefault(Path(item.path).name, []).append(item.confirmation)
    for name, statuses in by_file.items():
        assert not any("declare example inputs" in status["detail"] for status in statuses), name
        assert any(status["status"] == "confirmed" for status in statuses), (name, statuses)


def test_factory_and_inputs_from_pyproject(linted: list[Finding]) -> None:
    findings = findings_in(linted, PROJECT / "pkg" / "model.py")
    confirmed, new = confirm_findings(findings, timeout=120, project_root=PROJECT, config={}, progress=False)
    statuses = {item.symbol: item.confirmation for item in confirmed}
    assert statuses["ms-asnumpy-in-graph"]["status"] == "confirmed"
    assert "Net.construct" in statuses["ms-asnumpy-in-graph"]["detail"]
    assert "gradient sum 0.0" in statuses["ms-asnumpy-in-graph"]["detail"]
    assert statuses["ms-numpy-on-tensor"]["status"] == "confirmed"
    assert new == []


def test_timeout(linted: list[Finding]) -> None:
    findings = findings_in(linted, RUNTIME / "hangs.py")
    confirmed, _ = confirm_findings(findings, timeout=12, project_root=ROOT, config={}, progress=False)
    (finding,) = confirmed
    assert finding.confirmation["status"] == "not run"
    # "... while compiling Sleeper.construct" (or an earlier step on a machine so
    # loaded that importing MindSpore alone takes 12 s)
    assert finding.confirmation["detail"].startswith("timeout after 12 s while ")


def test_memory_limit(linted: list[Finding], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CONFIRM_MEMORY", "6G")
    confirmed, _ = confirm_findings(
        findings_in(linted, RUNTIME / "exhausts_memory.py"), timeout=120, project_root=ROOT, config={}, progress=False
    )
    (finding,) = confirmed
    assert finding.confirmation == {
        "status": "not run",
        "detail": "import failed: MemoryError (worker address-space limit 6.0 GiB)",
    }


def test_device_unavailable(linted: list[Finding]) -> None:
    confirmed, _ = confirm_findings(
        findings_in(linted, RUNTIME / "import_fails.py"), device="Ascend", project_root=ROOT, config={}, progress=False
    )
    (finding,) = confirmed
    assert finding.confirmation["status"] == "not run"
    assert finding.confirmation["detail"].startswith("device Ascend unavailable: ")


# -- plugin mode ------------------------------------------------------------------
def _pylint(*arguments: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--persistent=n", "--confirm=y",
         "--confirm-timeout=150", *arguments],
        capture_output=True, text=True, cwd=ROOT, check=False,
    )


def test_plugin_mode_text() -> None:
    """Only two rules enabled and ms-graph-compile-error disabled: the findings
    are still confirmed (mslint's load_configuration hook), no new message."""
    completed = _pylint("--disable=all", "--enable=ms-numpy-on-tensor,ms-import-in-graph",
                        "fixtures/runtime/import_fails.py", "fixtures/runtime/host_code.py")
    out = completed.stdout
    assert "mslint runtime confirmation (GRAPH_MODE)" in out
    assert "fixtures/runtime/host_code.py:37: ms-import-in-graph [confirmed: compile error at line 37 under STRICT" in out
    assert "fixtures/runtime/host_code.py:68: ms-numpy-on-tensor [not reproduced: NumpyBranchOff.construct compiles under STRICT]" in out
    assert "fixtures/runtime/import_fails.py:13: ms-numpy-on-tensor [not run: import failed at import_fails.py:7: ModuleNotFoundError" in out
    assert "runtime confirmation: 5 confirmed, 1 not reproduced, 2 not run, 0 new" in out
    assert "E7801" not in out
    # the summary comes after the messages, before pylint's score
    assert out.index("E7202") < out.index("runtime confirmation:") < out.index("Your code has been rated")


def test_plugin_mode_json_with_new_findings() -> None:
    completed = _pylint("--disable=all", "--enable=ms-numpy-on-tensor,ms-graph-compile-error",
                        "--output-format=json2", "fixtures/runtime/host_code.py")
    messages = json.loads(completed.stdout)["messages"]  # stdout stays valid JSON
    by_key = {(message["line"], message["symbol"]): message for message in messages}
    assert by_key[(18, "ms-numpy-on-tensor")]["message"].endswith("(gradient sum 0.0)]")
    assert "[confirmed: compile error at line 18 under STRICT" in by_key[(18, "ms-numpy-on-tensor")]["message"]
    missing = by_key[(77, COMPILE_ERROR_SYMBOL)]
    assert (missing["column"], missing["endColumn"], missing["module"]) == (15, 25, "host_code")
    assert "object has no attribute 'scale'" in missing["message"]
    # asnumpy and the custom class are not enabled here: MindSpore's STRICT errors
    # there are new, with the gradient cut MindSpore reports under LAX
    assert "only through JIT fallback and the gradient is cut here" in by_key[(25, COMPILE_ERROR_SYMBOL)]["message"]
    assert "runtime confirmation: 4 confirmed, 1 not reproduced, 1 not run, 4 new" in completed.stderr


def test_every_cell_compiled_on_request() -> None:
    """--confirm-all-cells: a module without findings has its Cells compiled too,
    and the count says that something ran."""
    stats: dict = {}
    _, new = confirm_findings([], timeout=150, project_root=ROOT, config={}, progress=False,
                              all_cells=[str(RUNTIME / "host_code.py")], stats=stats)
    lines = {(Path(item.path).name, item.line) for item in new}
    assert ("host_code.py", 77) in lines and ("host_code.py", 37) in lines
    assert all(item.symbol == COMPILE_ERROR_SYMBOL for item in new)
    assert stats["modules"] == 1 and stats["cells_compiled"] >= 8


def test_graph_compile_rules_confirmed_by_compiling(mslint_findings) -> None:  # noqa: ANN001
    """Issue 28's compile-error rules (fixtures/graph_compile/): each finding is
    confirmed by MindSpore's own compile error at its line, a bprop's by
    differentiating the Cell; none is 'not reproduced'. The ones left 'not run'
    are later lines of a Cell that stops compiling at its first finding, and a
    function compared by identity that compiles as always False."""
    from mslint.knowledge import manifest  # noqa: PLC0415
    from mslint.confirm import rules  # noqa: PLC0415

    specs = [spec for spec in manifest.RULES if spec.family == "graph_compile" and spec.symbol in rules.GRAPH_RULES]
    paths = sorted({ROOT / spec.fixture for spec in specs})
    found = [item for item in mslint_findings(*paths) if item.symbol in {spec.symbol for spec in specs}]
    confirmed, _ = confirm_findings(found, timeout=300, jobs=2, project_root=ROOT, config={}, progress=False)
    statuses = {(Path(item.path).stem, item.line): item.confirmation["status"] for item in confirmed}
    assert "not reproduced" not in statuses.values(), statuses
    assert {key for key, status in statuses.items() if status == "confirmed"} == {
        *(("ms_bprop_signature", line) for line in (10, 18, 26, 35, 44, 54)),
        *(("ms_branch_type_mismatch", line) for line in (10, 20, 31, 40, 50, 57, 64, 71, 77)),
        ("ms_cell_call_mismatch", 28), ("ms_cell_state_in_graph", 18), ("ms_cell_state_in_graph", 22),
        *(("ms_identity_comparison_in_graph", line) for line in (14, 32, 40, 49)),
        *(("ms_loop_unroll_too_deep", line) for line in (11, 22, 30)),
    }, statuses
