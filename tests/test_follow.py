"""Graph code calling code of other modules of the project (mslint.checkers.follow):
the command and the plugin report the same findings, at the calls, with the
callee's place in the message, in SARIF's relatedLocations and in the JSON
output. fixtures/graph/xmod holds the package (its model.py, model_negative.py
and pynative_negative.py are functional fixtures too)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mslint.run import cli
from mslint.analysis.places import place_note
from mslint.report import findings, sarif

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "fixtures" / "graph" / "xmod"
SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
RULES = "ms-numpy-on-tensor,ms-asnumpy-in-graph,ms-frozen-random-in-graph,ms-unsupported-syntax-in-graph"


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A copy of the fixture package, the current directory (the mode is
    inferred: graph assumed, PyNative where a module sets it)."""
    shutil.copytree(PACKAGE, tmp_path / "xmod", ignore=shutil.ignore_patterns("*.rc", "*.txt", "__pycache__"))
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    return tmp_path


def command(capsys: pytest.CaptureFixture, *args: str) -> dict:
    cli.main(["--format=json", f"--select={RULES}", "--fail-on=never", *args])
    return json.loads(capsys.readouterr().out)


def plugin(folder: Path, *args: str) -> str:
    done = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--disable=all", f"--enable={RULES}",
         "--persistent=n", "--score=n", "--recursive=y", *args, "xmod"],
        cwd=folder, capture_output=True, text=True, check=False, timeout=600, env=dict(os.environ),
    )
    assert done.returncode in (0, 2), done.stderr
    return done.stdout


def test_reported_at_the_call_alike_by_the_command_and_the_plugin(package: Path, capsys: pytest.CaptureFixture) -> None:
    report = command(capsys, "xmod")
    found = sorted((item["path"], item["line"], item["symbol"], item["message"]) for item in report["findings"])
    expected = sorted(
        (message["path"], message["line"], message["symbol"], message["message"])
        for message in json.loads(plugin(package, "--output-format=json2"))["messages"]
    )
    assert found == expected
    # every finding of the package is in model.py: the helpers themselves are not graph code
    assert {path for path, *_ in found} == {"xmod/model.py"}
    places = {(line, symbol, message.rsplit(" (in ", 1)[1]) for _, line, symbol, message in found}
    assert all("(assuming graph mode" in message for *_, message in found)
    assert places == {
        (10, "ms-asnumpy-in-graph", "to_host() at utils.py:11, called from graph code here)"),
        (10, "ms-numpy-on-tensor", "to_host() at utils.py:12, called from graph code here)"),
        (11, "ms-asnumpy-in-graph", "to_host() at utils.py:11, called from graph code here)"),
        (11, "ms-numpy-on-tensor", "to_host() at utils.py:12, called from graph code here)"),
        (12, "ms-numpy-on-tensor", "inner() at deep.py:7, reached through chain(), called from graph code here)"),
        (13, "ms-frozen-random-in-graph", "BaseNet.pre() at base.py:11, called from graph code here)"),
        (13, "ms-numpy-on-tensor", "BaseNet.pre() at base.py:12, called from graph code here)"),
        (14, "ms-frozen-random-in-graph", "jitter() at utils.py:24, called from graph code here)"),
        (20, "ms-unsupported-syntax-in-graph", "load() at utils.py:45, called from graph code here)"),
        # squash(x) and squash(x, "log"): each call the branch its arguments take, not sqrt's
        (27, "ms-numpy-on-tensor", "squash() at utils.py:62, called from graph code here)"),
        (27, "ms-numpy-on-tensor", "squash() at utils.py:64, called from graph code here)"),
        (35, "ms-numpy-on-tensor", "scale() at utils.py:16, called from graph code here)"),
        # join_either(): its numpy arm is also taken on the caller's request (``or host``)
        (42, "ms-numpy-on-tensor", "join_either() at joins.py:18, called from graph code here)"),
    }
    # the JSON output names the place in the other module
    related = {(item["line"], item["related"]["path"], item["related"]["line"]) for item in report["findings"]}
    assert (12, "xmod/deep.py", 7) in related and (13, "xmod/base.py", 11) in related


def test_sarif_related_locations(package: Path, capsys: pytest.CaptureFixture) -> None:
    cli.main(["--format=sarif", f"--select={RULES}", "--fail-on=never", "xmod"])
    logs = [json.loads(capsys.readouterr().out), json.loads(plugin(package, "--output-format=sarif"))]
    for log in logs:
        sarif.validate(log, SCHEMA)
        results = log["runs"][0]["results"]
        assert len(results) == 13
        for result in results:
            assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "xmod/model.py"
            (place,) = result["relatedLocations"]
            assert place["physicalLocation"]["artifactLocation"]["uri"] in {"xmod/utils.py", "xmod/deep.py", "xmod/base.py", "xmod/joins.py"}
        chained = next(result for result in results if "inner()" in result["message"]["text"])
        assert chained["relatedLocations"][0]["physicalLocation"]["region"] == {"startLine": 7}
    assert [result["message"] for result in logs[0]["runs"][0]["results"]] == [
        result["message"] for result in sorted(logs[1]["runs"][0]["results"], key=lambda r: (
            r["locations"][0]["physicalLocation"]["region"]["startLine"],
            r["locations"][0]["physicalLocation"]["region"]["startColumn"], r["ruleId"], r["message"]["text"]))
    ]


def test_the_place_is_read_back_from_the_message() -> None:
    note = place_note("Base.pre", "../common/base.py", 12, "differentiated")
    place = findings.related_place("np.exp() on a runtime tensor" + note, "/p/pkg/model.py")
    assert place == findings.Place(os.path.normpath("/p/common/base.py"), 12, "Base.pre", "differentiated")
    note = place_note("inner", "deep.py", 7, "graph", through="chain")
    assert note == " (in inner() at deep.py:7, reached through chain(), called from graph code here)"
    place = findings.related_place("np.exp() on a runtime tensor" + note, "/p/pkg/model.py")
    assert place == findings.Place(os.path.normpath("/p/pkg/deep.py"), 7, "inner", "graph")
    assert findings.related_place("np.exp() on a runtime tensor in graph code", "/p/pkg/model.py") is None


def test_editing_the_callee_rechecks_the_caller(package: Path, capsys: pytest.CaptureFixture) -> None:
    """With the result cache: the key of model.py holds the content of the
    modules it imports, so removing the offending line from utils.py removes the
    finding at the call in model.py, and putting it back brings it back."""
    utils = package / "xmod" / "utils.py"
    original = utils.read_text(encoding="utf-8")

    def jitter_findings() -> tuple[list[int], str]:
        cli.main(["--format=json", f"--select={RULES}", "--fail-on=never", "--verbose", "xmod/model.py"])
        out, err = capsys.readouterr()
        lines = [item["line"] for item in json.loads(out)["findings"] if "jitter()" in item["message"]]
        return lines, err.split(";")[0]

    assert jitter_findings() == ([14], "mslint: 1 file: 1 checked, 0 from the cache")
    assert jitter_findings() == ([14], "mslint: 1 file: 0 checked, 1 from the cache")
    utils.write_text(original.replace("return random.random()", "return 0.5"), encoding="utf-8")
    assert jitter_findings() == ([], "mslint: 1 file: 1 checked, 0 from the cache")
    utils.write_text(original, encoding="utf-8")
    assert jitter_findings()[0] == [14]  # from the cache or checked again: the finding is back
