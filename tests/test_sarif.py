"""The SARIF 2.1.0 reporter: schema-valid logs (against the vendored official
schema), character columns, stable fingerprints, pylint's own messages, empty
runs, syntax errors, deterministic output; through pylint's --output-format and
through the mslint command."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from mslint.report import catalog, sarif
from mslint.analysis import edits
from mslint.run.plugin import mslint_linter
from mslint.run import cli

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "cli"
SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def validate(log: dict) -> None:
    sarif.validate(log, SCHEMA)
    run = log["runs"][0]
    rules = run["tool"]["driver"]["rules"]
    for result in run["results"]:
        assert rules[result["ruleIndex"]]["id"] == result["ruleId"]
        region = result["locations"][0]["physicalLocation"]["region"]
        assert region["startLine"] >= 1 and region["startColumn"] >= 1
    assert SCHEMA.name and sarif.SRCROOT in run["originalUriBaseIds"]


def mslint_sarif(*args: str, cwd: Path) -> tuple[int, dict]:
    out = cwd / "out.sarif"
    code = cli.main([*args, "--format=sarif", f"--output={out}", "--no-cache"])
    return code, json.loads(out.read_text(encoding="utf-8"))


def pylint_sarif(*args: str, cwd: Path) -> dict:
    done = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--output-format=sarif", "--persistent=n", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert "Traceback" not in done.stderr, done.stderr
    return json.loads(done.stdout)


def test_vendored_schema_is_the_official_one() -> None:
    schema = json.loads(SCHEMA.read_text(encoding="utf-8"))
    assert schema["$schema"] == "http://json-schema.org/draft-04/schema#"
    assert schema["id"].endswith("/sarif-schema-2.1.0.json")
    assert (SCHEMA.parent / "sarif-schema-2.1.0.LICENSE.md").is_file()


def test_pylint_output_format_sarif(project: Path) -> None:
    log = pylint_sarif("--disable=all", "--enable=ms-numpy-on-tensor,ms-cell-in-construct", "bad.py", cwd=project)
    validate(log)
    run = log["runs"][0]
    driver = run["tool"]["driver"]
    assert driver["name"] == "mslint"
    assert driver["version"] == __import__("mslint").__version__
    assert driver["informationUri"].startswith("https://")
    assert log["version"] == "2.1.0" and log["$schema"].endswith("sarif-schema-2.1.0.json")
    results = run["results"]
    assert [(r["ruleId"], r["level"]) for r in results] == [
        ("ms-numpy-on-tensor", "error"),
        ("ms-cell-in-construct", "warning"),
    ]
    location = results[0]["locations"][0]["physicalLocation"]
    assert location["artifactLocation"] == {"uri": "bad.py", "uriBaseId": "%SRCROOT%"}
    assert run["originalUriBaseIds"]["%SRCROOT%"]["uri"] == project.resolve().as_uri() + "/"
    assert all(sarif.FINGERPRINT_KEY in r["partialFingerprints"] for r in results)


def test_every_mslint_rule_is_described() -> None:
    linter = mslint_linter(default_plugins=True)
    rules = catalog.rules_of(linter)
    log = sarif.build_log([], rules, root=str(ROOT))
    validate(log)
    described = {rule["id"]: rule for rule in log["runs"][0]["tool"]["driver"]["rules"]}
    mine = [rule for rule in rules if rule.mslint]
    assert set(described) == {rule.symbol for rule in mine}
    for rule in mine:
        descriptor = described[rule.symbol]
        assert descriptor["properties"]["id"] == rule.msgid
        assert descriptor["helpUri"] == f"{catalog.DOCS_BASE_URL}{rule.symbol}.md"
        assert descriptor["defaultConfiguration"]["level"] == sarif.LEVELS[rule.category]
        assert descriptor["defaultConfiguration"]["enabled"] is rule.default_enabled
        assert descriptor["shortDescription"]["text"] and descriptor["fullDescription"]["text"]
        assert rule.category in descriptor["properties"]["tags"]
        page = catalog.doc_text(rule.symbol)
        assert page is not None, f"docs/rules/{rule.symbol}.md is missing"
        assert descriptor["help"]["markdown"] == sarif.absolute_links(page)  # code scanning shows it away from the repository
        assert descriptor["help"]["text"].startswith(f"{rule.symbol} ({rule.msgid})")


def test_columns_are_characters_not_bytes(project: Path) -> None:
    """bad.py: `label = "größe"; y = np.exp(x)`: astroid's column is a UTF-8 byte
    offset (31), the character column is 30 (1-based)."""
    line_number, text = next((n, line) for n, line in enumerate((project / "bad.py").read_text("utf-8").splitlines(), 1) if "größe" in line and "np.exp" in line)
    expected = text.index("np.exp") + 1
    assert len(text[: text.index("np.exp")].encode("utf-8")) == expected + 1  # two 2-byte characters before it
    for log in (
        pylint_sarif("--disable=all", "--enable=ms-numpy-on-tensor", "bad.py", cwd=project),
        mslint_sarif("--select=ms-numpy-on-tensor", "bad.py", cwd=project)[1],
    ):
        region = log["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["region"]
        assert (region["startLine"], region["startColumn"]) == (line_number, expected)
        assert region["endColumn"] == text.index("np.exp(x)") + len("np.exp(x)") + 1  # exclusive end


def test_char_column_conversion() -> None:
    assert edits.char_column("a = 'é'; b", len("a = 'é'; ".encode())) == len("a = 'é'; ")
    assert edits.char_column("x = '😀' + y", len("x = '😀' + ".encode())) == len("x = '😀' + ")
    assert edits.char_column("", 0) == 0
    assert edits.char_column("abc", 10) == 10  # past the end: kept as is


def test_fingerprints_survive_edits_above(project: Path) -> None:
    _, before = mslint_sarif("bad.py", cwd=project)
    source = (project / "bad.py").read_text(encoding="utf-8")
    (project / "bad.py").write_text("# a new comment\n\nimport os  # another\n" + source, encoding="utf-8")
    _, after = mslint_sarif("bad.py", cwd=project)

    def prints(log: dict) -> list[tuple[str, str, int]]:
        return [
            (r["ruleId"], r["partialFingerprints"][sarif.FINGERPRINT_KEY], r["locations"][0]["physicalLocation"]["region"]["startLine"])
            for r in log["runs"][0]["results"]
        ]

    assert [p[:2] for p in prints(before)] == [p[:2] for p in prints(after)]
    assert [p[2] + 3 for p in prints(before)] == [p[2] for p in prints(after)]
    # two identical findings in one file get different fingerprints
    (project / "twice.py").write_text(
        "import numpy as np\nfrom mindspore import Tensor, nn\n\n\nclass A(nn.Cell):\n    def construct(self, x):\n"
        "        y = x\n        y = y + Tensor(np.exp(x))\n        y = y + Tensor(np.exp(x))\n        return y\n",
        encoding="utf-8",
    )
    _, twice = mslint_sarif("twice.py", cwd=project)
    values = [r["partialFingerprints"][sarif.FINGERPRINT_KEY] for r in twice["runs"][0]["results"]]
    assert len(values) == 2 and len(set(values)) == 2


def test_output_is_deterministic(project: Path) -> None:
    first = mslint_sarif(".", cwd=project)[1]
    second = mslint_sarif("good.py", "bad.py", cwd=project)[1]
    assert first == second
    assert pylint_sarif("--disable=all", "--enable=ms-numpy-on-tensor", "good.py", "bad.py", cwd=project) == pylint_sarif(
        "--disable=all", "--enable=ms-numpy-on-tensor", "bad.py", "good.py", cwd=project
    )


def test_pylint_messages_are_valid_results(project: Path) -> None:
    (project / "extra.py").write_text(
        "import numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n"
        "        unused = 1\n        return np.exp(x)\n",
        encoding="utf-8",
    )
    log = pylint_sarif("--disable=all", "--enable=ms-numpy-on-tensor,unused-variable,missing-class-docstring", "extra.py", cwd=project)
    validate(log)
    run = log["runs"][0]
    ids = {r["ruleId"] for r in run["results"]}
    assert ids == {"ms-numpy-on-tensor", "unused-variable", "missing-class-docstring"}
    rules = {rule["id"]: rule for rule in run["tool"]["driver"]["rules"]}
    assert rules["unused-variable"]["properties"]["id"] == "W0612"
    assert rules["unused-variable"]["helpUri"].startswith("https://pylint.readthedocs.io/")
    assert {r["level"] for r in run["results"] if r["ruleId"] == "missing-class-docstring"} == {"note"}
    # the same through the command, where the user enables pylint messages
    _, log = mslint_sarif("--enable=unused-variable", "extra.py", cwd=project)
    validate(log)
    assert {r["ruleId"] for r in log["runs"][0]["results"]} == {"ms-numpy-on-tensor", "unused-variable"}


def test_empty_runs_and_syntax_errors_give_valid_logs(project: Path) -> None:
    code, log = mslint_sarif("good.py", cwd=project)
    validate(log)
    assert code == 0 and log["runs"][0]["results"] == []
    empty = project / "empty"
    empty.mkdir()
    code, log = mslint_sarif("empty", cwd=project)
    validate(log)
    assert code == 0 and log["runs"][0]["results"] == []
    (project / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    code, log = mslint_sarif("broken.py", cwd=project)
    validate(log)
    assert code == 1
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["syntax-error"]
    log = pylint_sarif("--disable=all", "--enable=ms-numpy-on-tensor", "broken.py", cwd=project)
    validate(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["syntax-error"]
    log = pylint_sarif("--disable=all", "--enable=ms-numpy-on-tensor", "good.py", cwd=project)
    validate(log)
    assert log["runs"][0]["results"] == []


def test_input_errors_are_notifications(project: Path) -> None:
    code, log = mslint_sarif("bad.py", "missing.py", cwd=project)
    validate(log)
    assert code == 2
    invocation = log["runs"][0]["invocations"][0]
    assert invocation["executionSuccessful"] is False
    assert "missing.py" in invocation["toolExecutionNotifications"][0]["message"]["text"]


def test_text_and_sarif_together(project: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--disable=all", "--enable=ms-numpy-on-tensor",
         "--persistent=n", "--output-format=text,sarif:report.sarif", "bad.py"],
        cwd=project, capture_output=True, text=True, check=False, timeout=300,
    )
    assert "ms-numpy-on-tensor" in done.stdout
    log = json.loads((project / "report.sarif").read_text(encoding="utf-8"))
    validate(log)
    assert [r["ruleId"] for r in log["runs"][0]["results"]] == ["ms-numpy-on-tensor"]


def test_paths_with_spaces_and_outside_the_root(project: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    folder = project / "with space"
    folder.mkdir()
    shutil.copy(project / "bad.py", folder / "bad model.py")
    outside = tmp_path_factory.mktemp("elsewhere") / "far.py"
    shutil.copy(project / "bad.py", outside)
    _, log = mslint_sarif("with space", str(outside), cwd=project)
    validate(log)
    uris = {r["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] for r in log["runs"][0]["results"]}
    assert "with%20space/bad%20model.py" in uris
    assert outside.resolve().as_uri() in uris


def test_validate_command(project: Path) -> None:
    mslint_sarif("bad.py", cwd=project)
    done = subprocess.run(
        [sys.executable, "-m", "mslint.report.sarif", "--validate", "out.sarif", "--schema", str(SCHEMA)],
        cwd=project, capture_output=True, text=True, check=False, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    (project / "bad.sarif").write_text('{"version": "2.1.0", "runs": [{}]}', encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "mslint.report.sarif", "--validate", "bad.sarif", "--schema", str(SCHEMA)],
        cwd=project, capture_output=True, text=True, check=False, timeout=120,
    )
    assert done.returncode == 1 and "invalid SARIF" in done.stderr


BASELINE_V1 = Path(__file__).resolve().parent / "data" / "baseline_v1"


@pytest.mark.parametrize("name", ["baseline.json", "baseline.sarif"])
def test_baselines_written_before_typed_findings_still_match(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> None:
    """tests/data/baseline_v1 holds a project and the baselines and JSON report
    mslint wrote for it at fc389bb (dict findings): every finding must still be
    in the old baseline, and the report keep its fields, columns and fingerprints."""
    project = tmp_path / "checkout"
    shutil.copytree(BASELINE_V1 / "project", project)
    (project / ".git").mkdir()  # the repository root: report paths are relative to it
    monkeypatch.chdir(project)
    out = project / "now.json"
    # ms-pool-implicit-stride was on by default at fc389bb; --mode=graph: what mslint
    # took for every module then (no note on an assumed mode)
    # the other port rules were off then; they now turn on where the code shows a port
    enable = "--enable=ms-pool-implicit-stride"
    ignore = "--ignore=ms-layer-default-differs,ms-conv-implicit-pad-mode"
    code = cli.main(["--no-cache", "--mode=graph", enable, ignore, f"--baseline={BASELINE_V1 / name}", "--format=json", f"--output={out}", "."])
    report = json.loads(out.read_text(encoding="utf-8"))
    assert code == 0 and report["findings"] == []
    # 7 at fc389bb; the two np.exp(x) whose results are overwritten unread (model.py
    # lines 15 and 16) are no longer findings: a host value nobody uses loses nothing
    assert report["summary"]["baselined"] == 5
    cli.main(["--no-cache", "--mode=graph", enable, ignore, "--format=json", f"--output={out}", "."])
    now = json.loads(out.read_text(encoding="utf-8"))["findings"]
    old = json.loads((BASELINE_V1 / "report.json").read_text(encoding="utf-8"))["findings"]
    for item in now + old:
        item.pop("absolutePath")
        item.pop("fix", None)  # autofix edits: added after these baselines were written
        # added since: how the program runs the file (mslint.analysis.mode)
        item.pop("mode", None), item.pop("modeBasis", None)
    kept = [item for item in old if (item["path"], item["line"]) not in {("model.py", 15), ("model.py", 16)}]
    for item in kept:
        if (item["path"], item["line"]) == ("model.py", 17):
            # the third of three identical findings then (":2"), the only one now: its
            # fingerprint's content hash is unchanged, its occurrence index is 0
            item["fingerprint"] = item["fingerprint"].rsplit(":", 1)[0] + ":0"
    assert now == kept
