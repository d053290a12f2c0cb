"""Runtime mode, the parts that need no MindSpore: input specs and hints, reading
MindSpore's error text, literal arguments, planning (which Cell reaches which
finding) and the verdicts drawn from worker records. The error texts below are
copied from MindSpore 2.10's output (see tests/test_confirm.py for the real runs).
"""

from __future__ import annotations

import dataclasses
import importlib.util
from pathlib import Path

import pytest

import mslint.confirm
from mslint.confirm import RuntimeModeUnavailable, confirm_findings, format_suffix, format_summary, literals, specs
from mslint.confirm.errors import first_useful_line, gradient_cut_locations, locations
from mslint.confirm.plan import load_config, module_names, plan_module
from mslint.confirm.runner import memory_limit
from mslint.confirm.verdict import Span, WorkerEnd, decide_module, new_findings
from mslint.report.findings import Finding

ROOT = Path(__file__).resolve().parent.parent
RUNTIME = ROOT / "fixtures" / "runtime"

NUMPY_ERROR = """When handling script '__call_func_str__(__input_0__,) in graph mode', the inputs should be constant, but found variable '__input_0__' to be nonconstant. Try to set jit_syntax_level to LAX.

----------------------------------------------------
- C++ Call Stack: (For framework developers)
----------------------------------------------------
mindspore/ccsrc/frontend/jit/ps/static_analysis/prim.cc:3098 CheckInterpretInput

----------------------------------------------------
- The Traceback of Net Construct Code:
----------------------------------------------------
# 0 In file /src/m1.py:31, 15~24
        return helper(x) * 2
               ^~~~~~~~~
# 1 In file /src/m1.py:9, 18~27
    return Tensor(np.exp(x), ms.float32)
                  ^~~~~~~~~
 (See file '/tmp/w/rank_0/om/analyze_fail.ir' for more details.)
"""

IMPORT_ERROR = """Unsupported statement 'Import'.
More details please refer to syntax support at https://www.mindspore.cn

----------------------------------------------------
- The Traceback of Net Construct Code:
----------------------------------------------------

# In file /src/m1.py:25~27, 4~20
    def construct(self, x):
    ^

# In file /src/m1.py:26, 8~19
        import math
        ^~~~~~~~~~~
"""

GRADIENT_LOG = (
    "[WARNING] OPTIMIZER(8368,7fe7b03e2b80,python):2026-11-21-05:27:03.692.889 "
    "[mindspore/ccsrc/frontend/optimizer/ad/dfunctor.cc:829] TrySetNeedCut] The gradient will be stopped from "
    "propagating at the PyExecute node created at the location: In file /src/m1.py:13, 22~31\n"
    "    return Tensor(np.exp(x), ms.float32)\n"
    "[WARNING] ME(1:2,MainProcess): unrelated In file /src/other.py:3, 1~2\n"
)


# -- specs and hints ------------------------------------------------------------
def test_input_specs() -> None:
    assert specs.parse_input("float32[2,3,32,32]") == {"kind": "tensor", "dtype": "float32", "dims": [2, 3, 32, 32]}
    assert specs.parse_input("int32[None, 4]") == {"kind": "tensor", "dtype": "int32", "dims": [None, 4]}
    assert specs.parse_input("float16[]") == {"kind": "tensor", "dtype": "float16", "dims": []}
    assert specs.parse_input("True") == {"kind": "literal", "value": True}
    assert specs.parse_input(3) == {"kind": "literal", "value": 3}
    assert specs.parse_input("(2, 3)") == {"kind": "literal", "value": (2, 3)}
    for bad in ("float31[2]", "float32[2,x]", "open('f')"):
        with pytest.raises(specs.SpecError):
            specs.parse_input(bad)


def test_hint_syntax() -> None:
    assert specs.parse_hint("inputs=float32[2,3], int32[2]; factory=make_net") == {
        "inputs": ["float32[2,3]", "int32[2]"],
        "factory": "make_net",
    }
    assert specs.parse_hint("inputs=float32[2,3], int32[2], factory=pkg.mod:make") == {
        "inputs": ["float32[2,3]", "int32[2]"],
        "factory": "pkg.mod:make",
    }
    assert specs.parse_hint("inputs=") == {"inputs": []}
    with pytest.raises(specs.SpecError):
        specs.parse_hint("input=float32[2]")


def test_hint_location() -> None:
    lines = [
        "# mslint: inputs=float32[2,2]",  # 1
        "@decorator",  # 2
        "class Net(nn.Cell):  # mslint: factory=make",  # 3
        "x = 1",  # 4
        "# mslint: inputs=int32[1]",  # 5
        "",  # 6
        "class Far(nn.Cell):",  # 7
    ]
    assert specs.hint_for(lines, 3) == ({"inputs": ["float32[2,2]"], "factory": "make"}, None)
    assert specs.hint_for(lines, 7) == (None, None)  # a blank line separates the comment
    hint, error = specs.hint_for(["# mslint: inputs=float99[1]", "class A:"], 2)
    assert hint is None and "float99" in error


def test_config_entries() -> None:
    assert specs.parse_config_entry("m:Net", {"factory": "m:make", "inputs": ["float32[1]"]}) == {
        "factory": "m:make",
        "inputs": ["float32[1]"],
    }
    with pytest.raises(specs.SpecError):
        specs.parse_config_entry("m:Net", {"factroy": "m:make"})
    with pytest.raises(specs.SpecError):
        specs.parse_config_entry("m:Net", "m:make")


def test_config_is_read_from_pyproject() -> None:
    config = load_config(RUNTIME / "project")
    assert config["pkg.model:Net"]["factory"] == "pkg.model:make_net"
    assert load_config(RUNTIME) == {}


def test_module_names_are_package_aware() -> None:
    project = RUNTIME / "project"
    name, names, sys_path = module_names(project / "pkg" / "model.py", project)
    assert name == "pkg.model"
    assert names == ["pkg.model"]
    assert sys_path == [str(project)]
    name, names, _ = module_names(project / "pkg" / "model.py", ROOT)
    assert names == ["pkg.model", "fixtures.runtime.project.pkg.model"]


# -- MindSpore's text -------------------------------------------------------------
def test_error_locations_and_first_line() -> None:
    found = locations(NUMPY_ERROR)
    assert [(loc.path, loc.line, loc.column, loc.end_column) for loc in found] == [
        ("/src/m1.py", 31, 15, 24),
        ("/src/m1.py", 9, 18, 27),
    ]
    assert first_useful_line(NUMPY_ERROR).endswith("to be nonconstant.")  # the advice is cut
    spans = locations(IMPORT_ERROR)
    assert [(loc.line, loc.end_line) for loc in spans] == [(25, 27), (26, 26)]
    assert first_useful_line(IMPORT_ERROR) == "Unsupported statement 'Import'."
    assert first_useful_line("ClassMember: 'Namespace:m..<Net::140027676230672>' object has no attribute 'x'") == (
        "ClassMember: 'Namespace:m..Net' object has no attribute 'x'"
    )


def test_gradient_cut_locations() -> None:
    assert [(loc.path, loc.line) for loc in gradient_cut_locations(GRADIENT_LOG)] == [("/src/m1.py", 13)]


def test_literals() -> None:
    assert literals.evaluate_source("(3, 3)") == (3, 3)
    assert literals.evaluate_source("1 - 0.9") == pytest.approx(0.1)
    assert literals.evaluate_source("-2") == -2
    for source in ("channels", "k // 2", "f(1)", "self.p", "True + 1"):
        assert not literals.is_literal(source)


# -- verdicts from worker records (the records are what the worker writes) --------
def _target(strict: dict | None, lax: dict | None = None, label: str = "Net.construct") -> dict:
    record = {"type": "target", "id": "t0", "label": label}
    if strict is not None:
        record["strict"] = strict
    if lax is not None:
        record["lax"] = lax
    return record


def _error(line: int, columns=(8, 20), path="/src/m.py", kind="ValueError") -> dict:
    return {"type": kind, "first": "boom", "locations": [[path, line, line, *columns]]}


def _plan_with_check(line: int, symbol: str = "ms-numpy-on-tensor", column=8, end_column=20):
    from mslint.confirm.plan import GraphCheck, ModulePlan

    plan = ModulePlan(path="/src/m.py", module="m", sys_path=[])
    plan.graph_checks.append(GraphCheck(0, symbol, line, ["t0"], column, line, end_column))
    return plan, [Finding("/src/m.py", line, column + 1, line, end_column + 1, symbol, "E7101", "", "error")]


def test_verdicts() -> None:
    done = WorkerEnd("done")
    plan, findings = _plan_with_check(14)
    # the compile error points at the line
    status = decide_module(plan, [_target({"ok": False, "error": _error(14)})], done, findings, "lax")[0]
    assert status["status"] == "confirmed" and "line 14" in status["detail"]
    # same line, other columns: another expression failed
    status = decide_module(plan, [_target({"ok": False, "error": _error(14, (30, 40))})], done, findings, "lax")[0]
    assert status["status"] == "not run" and "stops compiling earlier" in status["detail"]
    # compiled under STRICT
    status = decide_module(plan, [_target({"ok": True})], done, findings, "lax")[0]
    assert status == {"status": "not reproduced", "detail": "Net.construct compiles under STRICT"}
    # STRICT stopped earlier; LAX compiled and MindSpore cut the gradient at the line
    lax = {"ok": True, "grad": {"ran": True, "sum": 0.0}, "gradient_cut": [["/src/m.py", 14, 14, 10, 12]]}
    status = decide_module(plan, [_target({"ok": False, "error": _error(9)}, lax)], done, findings, "lax")[0]
    assert status["status"] == "confirmed" and "JIT fallback" in status["detail"] and "line 9" in status["detail"]
    # nothing came back: the worker timed out
    status = decide_module(plan, [], WorkerEnd("timeout", "timeout after 5 s"), findings, "lax")[0]
    assert status == {"status": "not run", "detail": "timeout after 5 s"}
    # import failed
    fatal = {"type": "fatal", "stage": "import", "detail": "import failed: ImportError: x"}
    assert decide_module(plan, [fatal], done, findings, "lax")[0]["detail"] == "import failed: ImportError: x"


def test_silent_rules_are_not_refuted_by_a_clean_compile() -> None:
    plan, findings = _plan_with_check(14, symbol="ms-lost-mutation-in-graph")
    status = decide_module(plan, [_target({"ok": True})], WorkerEnd("done"), findings, "lax")[0]
    assert status["status"] == "not run"


def test_span_overlap() -> None:
    from mslint.confirm.errors import Location

    span = Span("/a.py", 5, 10, 5, 20)
    assert span.overlaps(Location("/a.py", 5, 5, 12, 14))
    assert not span.overlaps(Location("/a.py", 5, 5, 25, 30))
    assert span.overlaps(Location("/a.py", 5, 9, 0, 4))  # a statement spanning lines: the line decides
    assert not span.overlaps(Location("/a.py", 6, 6, 12, 14))


def test_new_findings_only_where_no_finding_points(tmp_path: Path) -> None:
    from mslint.confirm.plan import ModulePlan

    source = tmp_path / "m.py"
    source.write_text("\n" * 20, encoding="utf-8")
    plan = ModulePlan(path=str(source), module="m", sys_path=[])
    records = [
        _target({"ok": False, "error": _error(3, path=str(source))}, {"ok": False, "error": _error(3, path=str(source))}),
        _target({"ok": False, "error": _error(7, path=str(source))}, {"ok": True, "gradient_cut": []}),
    ]
    found = new_findings(plan, records, {str(source): set()}, tmp_path, "lax")
    # line 3 fails under LAX too: a compile error; line 7 is STRICT-only with no cut gradient: dropped under LAX
    assert [(item.line, item.column, item.end_column) for item in found] == [(3, 9, 21)]
    assert found[0].symbol == "ms-graph-compile-error" and found[0].msg_id == "E7801"
    assert new_findings(plan, records, {str(source): {3}}, tmp_path, "lax") == []
    strict = new_findings(plan, records, {str(source): set()}, tmp_path, "strict")
    assert sorted(item.line for item in strict) == [3, 7]


# -- planning (from the anchors recorded at lint time) --------------------------------
def _at(found: list[Finding], line: int, symbol: str) -> Finding:
    return next(item for item in found if item.line == line and item.symbol == symbol)


def test_plan_maps_findings_to_the_cells_that_reach_them(mslint_findings) -> None:  # noqa: ANN001
    path = RUNTIME / "host_code.py"
    linted = mslint_findings(path)
    findings = [
        _at(linted, 42, "ms-numpy-on-tensor"),  # in host_exp, reached from ThroughHelper
        _at(linted, 54, "ms-numpy-on-tensor"),  # in the @jit function
        dataclasses.replace(_at(linted, 18, "ms-numpy-on-tensor"), symbol="ms-frozen-random-in-graph"),  # no runtime check
    ]
    plan = plan_module(str(path), list(enumerate(findings)), ROOT, {})
    targets = {target.id: target for target in plan.targets}
    by_index = {check.index: [targets[t].name for t in check.targets] for check in plan.graph_checks}
    assert by_index == {0: ["ThroughHelper"], 1: ["jit_numpy"]}
    assert plan.preset[2]["status"] == "not run"
    through = next(target for target in plan.targets if target.name == "ThroughHelper")
    assert through.inputs == ["float32[None,2]"] and through.inputs_from == "hint"
    assert through.required_params == ["x"]
    # every Cell of the module is compiled, to find errors no finding predicted
    assert {"MissingAttribute", "NoInputsDeclared"} <= {target.name for target in plan.targets}


def test_plan_never_parses_the_file(mslint_findings, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    path = RUNTIME / "host_code.py"
    found = [_at(mslint_findings(path), 42, "ms-numpy-on-tensor")]
    import astroid

    def refuse(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("planning parsed the file")

    monkeypatch.setattr(astroid, "parse", refuse)
    monkeypatch.setattr(astroid.MANAGER, "ast_from_file", refuse)
    plan = plan_module(str(path), list(enumerate(found)), ROOT, {})
    assert [check.index for check in plan.graph_checks] == [0]
    # a finding without an anchor (not linted by mslint) is not run, with the reason
    plan = plan_module(str(path), [(0, dataclasses.replace(found[0], anchor=None))], ROOT, {})
    assert plan.preset[0]["status"] == "not run" and "anchor" in plan.preset[0]["detail"]


def test_plan_reads_factory_and_inputs_from_config(mslint_findings) -> None:  # noqa: ANN001
    project = RUNTIME / "project"
    path = project / "pkg" / "model.py"
    found = [_at(mslint_findings(path), 19, "ms-numpy-on-tensor")]
    plan = plan_module(str(path), list(enumerate(found)), project, load_config(project))
    (target,) = plan.targets
    assert (target.factory, target.inputs, target.inputs_from) == (
        "pkg.model:make_net",
        ["float32[None,4]", "int32[2]"],
        "pyproject.toml",
    )


def test_plan_layer_calls(mslint_findings) -> None:  # noqa: ANN001
    path = RUNTIME / "layers.py"
    linted = mslint_findings(path)
    findings = [_at(linted, 10, "ms-conv-padding-ignored"), _at(linted, 11, "ms-conv-implicit-pad-mode")]
    plan = plan_module(str(path), list(enumerate(findings)), ROOT, {})
    assert [(c.qname, c.args, c.kwargs) for c in plan.layer_checks] == [
        ("mindspore.nn.Conv2d", ["3", "8", "3"], {"padding": "1"}),
        ("mindspore.nn.Conv2d", ["channels", "8", "3"], {}),
    ]
    assert not plan.targets  # layer checks never import the module


# -- the interface ------------------------------------------------------------------
def test_unavailable_without_mindspore(monkeypatch: pytest.MonkeyPatch) -> None:
    real = importlib.util.find_spec

    def find_spec(name, *args, **kwargs):  # noqa: ANN001, ANN202
        return None if name == "mindspore" else real(name, *args, **kwargs)

    monkeypatch.setattr(mslint.confirm.importlib.util, "find_spec", find_spec)
    with pytest.raises(RuntimeModeUnavailable) as raised:
        confirm_findings([], project_root=ROOT, config={})
    assert "\n" not in str(raised.value) and "-m pip install" in str(raised.value) and "[runtime]" in str(raised.value)


def test_summary_and_suffix() -> None:
    findings = [
        Finding("/a.py", 3, 1, None, None, "ms-numpy-on-tensor", "E7101", "", "error",
                confirmation={"status": "confirmed", "detail": "compile error at line 3"}),
        Finding("/a.py", 4, 1, None, None, "ms-numpy-on-tensor", "E7101", "", "error",
                confirmation={"status": "not run", "detail": "timeout after 5 s"}),
    ]
    assert format_summary(findings, findings[:1]) == "runtime confirmation: 1 confirmed, 0 not reproduced, 1 not run, 1 new"
    assert format_suffix(findings[0].confirmation) == " [confirmed: compile error at line 3]"


def test_memory_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CONFIRM_MEMORY", "3G")
    assert memory_limit("CPU", 1) == 3 << 30
    monkeypatch.setenv("MSLINT_CONFIRM_MEMORY", "0")
    assert memory_limit("CPU", 1) == 0
    monkeypatch.delenv("MSLINT_CONFIRM_MEMORY")
    assert memory_limit("GPU", 1) == 0
    assert memory_limit("CPU", 64) >= 6 << 30


def test_other_mslint_comments_are_not_hints() -> None:
    assert specs.hint_for(["# mslint: disable=ms-numpy-on-tensor", "class Net(nn.Cell):"], 2) == (None, None)


def test_an_anchor_that_cannot_be_worked_out_leaves_the_finding(mslint_findings, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    from mslint.confirm import anchors

    def fail(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise RecursionError("too deep")

    monkeypatch.setattr(anchors, "_graph_anchor", fail)
    (finding,) = [item for item in mslint_findings(RUNTIME / "host_code.py") if item.line == 42]
    assert finding.symbol == "ms-numpy-on-tensor"
    assert finding.anchor.problem == "mslint could not work out what reaches this line (RecursionError: too deep)"


# -- building without configuration (no MindSpore: stand-in classes) --------------
def test_factories_tried_family_by_family() -> None:
    from mslint.confirm.build import by_family  # noqa: PLC0415

    def named(name: str):  # noqa: ANN202
        def factory() -> None:
            return None

        factory.__name__ = name
        return factory

    names = ["efficientnet_b0", "efficientnet_b1", "efficientnet_v2_s", "efficientnet_v2_m", "resnet18", "resnet34"]
    assert [func.__name__ for func in by_family([named(name) for name in names])] == [
        "efficientnet_b0", "efficientnet_v2_s", "resnet18", "efficientnet_b1", "efficientnet_v2_m", "resnet34",
    ]


def test_factories_are_functions_returning_a_cell(tmp_path: Path) -> None:
    from mslint.confirm.build import factories  # noqa: PLC0415

    source = '''
class Cell:
    pass

class Net(Cell):
    def __init__(self, width):
        self.width = width

def _create(pretrained=False, **kwargs):
    return Net(**kwargs)

def net_small(pretrained: bool = False) -> "Net":
    return _create(pretrained, width=2)

def net_large(pretrained=False):
    model = _create(pretrained, width=8)
    return model

def config():
    return {"width": 2}

def main():
    print("trains for a day")
'''
    (tmp_path / "registry_fixture.py").write_text(source, encoding="utf-8")
    spec = importlib.util.spec_from_file_location("registry_fixture", tmp_path / "registry_fixture.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    assert [func.__name__ for func in factories(module, module.Cell)] == ["_create", "net_small", "net_large"]


def test_inputs_from_the_first_layer() -> None:
    from mslint.confirm.inputs import candidates, input_dependent  # noqa: PLC0415

    class Conv2d:
        in_channels = 3

    class Dense:
        in_channels = 8

    class Net:
        def __init__(self, *layers) -> None:  # noqa: ANN002
            self.layers = layers

        def cells_and_names(self):  # noqa: ANN202
            return [("", self)] + [(str(index), layer) for index, layer in enumerate(self.layers)]

    first = candidates(Net(Conv2d(), Dense()), 1)
    assert first[:3] == [([f"float32[2,3,{size},{size}]"], "from its first layer, Conv2d with in_channels=3") for size in (32, 64, 224)]
    assert candidates(Net(Dense()), 2)[0] == (["float32[2,8]", "float32[2,8]"], "from its first layer, Dense with in_channels=8")
    assert candidates(Net(), 1)[0] == (["float32[2,3,32,32]"], "a generic guess")
    assert input_dependent({"type": "ValueError", "first": "For 'MatMul', the input dimensions must be equal, but got 3 and 8."})
    assert not input_dependent({"type": "RuntimeError", "first": "Unsupported statement 'Try'."})


def test_rules_without_a_check_say_why() -> None:
    from mslint.confirm.rules import no_check  # noqa: PLC0415

    assert no_check("ms-cell-in-construct").startswith("no runtime check for this rule: the code compiles")


def test_plan_call_and_attribute_checks(mslint_findings) -> None:  # noqa: ANN001
    findings = mslint_findings(RUNTIME / "built_layers.py")
    plan = plan_module(str(RUNTIME / "built_layers.py"), list(enumerate(findings)), ROOT, {})
    checks = {(check.symbol, check.name, check.attribute) for check in plan.call_checks}
    assert checks == {("ms-forward-not-construct", "PortedForward", None), ("ms-torch-module-method", "Frozen", "parameters")}
    assert plan.job()["call_checks"] and plan.needs_worker
