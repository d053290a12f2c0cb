"""The mslint command: entry points, [tool.mslint], formats, exit codes,
--fail-on, baselines, `mslint rules` / `mslint explain`, bad input, and the
runtime-mode hook (--confirm)."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
import zipfile
from pathlib import Path

import pytest

import mslint
from mslint.report import catalog, sarif
from mslint.run.plugin import mslint_rules
from mslint.run import cli
from mslint.report.findings import Finding

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "cli"
SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
NUMPY_LINE = next(n for n, line in enumerate((FIXTURES / "bad.py").read_text("utf-8").splitlines(), 1) if "np.exp(x)" in line)
CELL_LINE = NUMPY_LINE + 1


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def findings_of(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, list[tuple[str, int, str]]]:
    code, out, _ = run(capsys, "--format=json", *args)
    report = json.loads(out)
    return code, [(item["path"], item["line"], item["symbol"]) for item in report["findings"]]


def write_config(folder: Path, body: str) -> None:
    (folder / "pyproject.toml").write_text("[tool.mslint]\n" + textwrap.dedent(body), encoding="utf-8")


# ---------------------------------------------------------------------------
# Entry points
# ---------------------------------------------------------------------------


def test_console_script_and_module_agree(project: Path) -> None:
    script = Path(sys.executable).with_name("mslint")
    assert script.exists(), "the console script declared in pyproject.toml is not installed"
    env = dict(os.environ)
    outputs = []
    for command in ([str(script)], [sys.executable, "-m", "mslint"]):
        done = subprocess.run([*command, "--no-cache", "bad.py", "good.py"], cwd=project, capture_output=True, text=True, env=env, check=False, timeout=300)
        assert done.returncode == 1, done.stderr
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1]
    assert f"bad.py:{NUMPY_LINE}:30: E7101 [ms-numpy-on-tensor]" in outputs[0]
    assert "Found 2 findings (1 error, 1 warning) in 2 files." in outputs[0]


def test_only_mslint_rules_by_default(project: Path, capsys: pytest.CaptureFixture) -> None:
    code, found = findings_of(capsys, "bad.py", "good.py")
    assert code == 1
    assert found == [("bad.py", NUMPY_LINE, "ms-numpy-on-tensor"), ("bad.py", CELL_LINE, "ms-cell-in-construct")]
    # pylint's own messages only when asked for
    _, found = findings_of(capsys, "--enable=missing-class-docstring", "bad.py")
    assert ("bad.py", 11, "missing-class-docstring") in found


def test_the_command_finds_what_the_plugin_finds(tmp_path: Path) -> None:
    """`mslint --select=all` and `pylint --load-plugins=mslint` with every mslint
    rule enabled report the same findings on all fixtures (lines, rules, texts;
    the command's columns are 1-based characters, pylint's 0-based bytes)."""
    symbols = ",".join(rule.symbol for rule in mslint_rules())
    env = dict(os.environ, MSLINT_CACHE_DIR=str(tmp_path))
    plugin = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--disable=all", f"--enable={symbols}", "--persistent=n",
         "--score=n", "--recursive=y", "--output-format=json2", "fixtures"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600, env=env,
    )
    command = subprocess.run(
        [sys.executable, "-m", "mslint", "--no-cache", "--select=all", "--format=json", "fixtures"],
        cwd=ROOT, capture_output=True, text=True, check=False, timeout=600, env=env,
    )
    expected = sorted((m["path"], m["line"], m["symbol"], m["message"]) for m in json.loads(plugin.stdout)["messages"])
    found = sorted((f["path"], f["line"], f["symbol"], f["message"]) for f in json.loads(command.stdout)["findings"])
    assert len(expected) > 100
    assert found == expected


def test_version(capsys: pytest.CaptureFixture) -> None:
    with pytest.raises(SystemExit) as stop:
        cli.main(["--version"])
    assert stop.value.code == 0
    assert capsys.readouterr().out.strip() == f"mslint {mslint.__version__}"


# ---------------------------------------------------------------------------
# Configuration
# ---------------------------------------------------------------------------


def test_select_ignore_enable_from_config(project: Path, capsys: pytest.CaptureFixture) -> None:
    write_config(project, 'select = ["ms-cell-in-construct"]\n')
    assert findings_of(capsys, "bad.py")[1] == [("bad.py", CELL_LINE, "ms-cell-in-construct")]
    write_config(project, 'ignore = ["E7101"]\n')  # ids work too
    assert findings_of(capsys, "bad.py")[1] == [("bad.py", CELL_LINE, "ms-cell-in-construct")]
    (project / "constant.py").write_text(
        "import numpy as np\nfrom mindspore import nn\n\n\nclass A(nn.Cell):\n    def construct(self, x):\n"
        "        return x * np.sqrt(2.0)\n",
        encoding="utf-8",
    )
    write_config(project, "")
    assert findings_of(capsys, "constant.py")[1] == []  # ms-numpy-in-graph is off by default
    write_config(project, 'enable = ["ms-numpy-in-graph"]\n')
    assert findings_of(capsys, "constant.py")[1] == [("constant.py", 7, "ms-numpy-in-graph")]
    # the command line: --select replaces the configured select, --ignore adds
    write_config(project, 'select = ["ms-cell-in-construct"]\n')
    assert findings_of(capsys, "--select=ms-numpy-on-tensor", "bad.py", "constant.py")[1] == [("bad.py", NUMPY_LINE, "ms-numpy-on-tensor")]
    write_config(project, 'enable = ["ms-numpy-in-graph"]\n')
    assert findings_of(capsys, "--ignore=ms-numpy-on-tensor,ms-numpy-in-graph", "bad.py", "constant.py")[1] == [
        ("bad.py", CELL_LINE, "ms-cell-in-construct")
    ]


def test_jit_syntax_level_and_format_from_config(project: Path, capsys: pytest.CaptureFixture) -> None:
    _, out, _ = run(capsys, "bad.py")
    assert "under the default LAX level" in out
    write_config(project, 'jit-syntax-level = "strict"\nformat = "json"\n')
    code, out, _ = run(capsys, "bad.py")
    report = json.loads(out)  # the configured format
    assert code == 1
    assert "fails to compile under jit_syntax_level STRICT" in report["findings"][0]["message"]
    code, out, _ = run(capsys, "--jit-syntax-level=lax", "--format=text", "bad.py")
    assert "under the default LAX level" in out


def test_exclude(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "legacy").mkdir()
    shutil.copy(project / "bad.py", project / "legacy" / "old.py")
    (project / ".venv" / "lib").mkdir(parents=True)
    shutil.copy(project / "bad.py", project / ".venv" / "lib" / "site.py")
    (project / ".history" / "pkg").mkdir(parents=True)  # VS Code Local History's copies
    shutil.copy(project / "bad.py", project / ".history" / "pkg" / "bad_20240101.py")
    found = {path for path, _, _ in findings_of(capsys, ".")[1]}
    assert found == {"bad.py", "legacy/old.py"}  # .venv and .history are never walked into
    write_config(project, 'exclude = ["legacy/"]\n')
    assert {path for path, _, _ in findings_of(capsys, ".")[1]} == {"bad.py"}
    # an excluded file named on the command line (as pre-commit does) is skipped too
    assert findings_of(capsys, "legacy/old.py", "good.py")[1] == []
    write_config(project, 'exclude = ["bad.py"]\n')
    assert {path for path, _, _ in findings_of(capsys, ".")[1]} == {"legacy/old.py"}
    assert findings_of(capsys, "--exclude=old.py", ".")[1] == []


def test_folders_above_the_one_searched_never_exclude(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """A clone under a folder named like a skipped one (Travis CI checks out into
    /home/travis/build/OWNER/REPO) is searched: only folders below the one named
    are skipped (the walk once matched every component of the absolute path, and
    found nothing in subfolders there)."""
    project = tmp_path / "build" / "owner" / "project"
    (project / "pkg").mkdir(parents=True)
    (project / "pkg" / "build").mkdir()
    shutil.copy(FIXTURES / "bad.py", project / "pkg" / "model.py")
    shutil.copy(FIXTURES / "bad.py", project / "pkg" / "build" / "model.py")
    monkeypatch.chdir(project)
    assert {path for path, _, _ in findings_of(capsys, ".")[1]} == {"pkg/model.py"}


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('select = ["ms-numpy-on-tensr"]\n', "unknown rule 'ms-numpy-on-tensr'; did you mean 'ms-numpy-on-tensor'?"),
        ('jit-syntax-level = "medium"\n', "jit-syntax-level must be one of lax, strict"),
        ('selct = ["x"]\n', "unknown key 'selct'"),
        ("select = [\n", "invalid TOML"),
        ('format = "xml"\n', "format must be one of"),
    ],
)
def test_configuration_errors_exit_2(project: Path, capsys: pytest.CaptureFixture, body: str, expected: str) -> None:
    write_config(project, body)
    code, out, err = run(capsys, "bad.py")
    assert code == 2
    assert out == ""
    assert expected in err
    assert len(err.strip().splitlines()) == 1


def test_usage_errors_exit_2(project: Path, capsys: pytest.CaptureFixture) -> None:
    assert run(capsys, "--select=nonsense", "bad.py")[0] == 2
    with pytest.raises(SystemExit) as stop:
        cli.main(["--format=xml", "bad.py"])
    assert stop.value.code == 2
    assert run(capsys, "--baseline=nowhere.sarif", "bad.py")[0] == 2


# ---------------------------------------------------------------------------
# Formats and exit codes
# ---------------------------------------------------------------------------


def test_formats(project: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "--format=text", "bad.py")
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"bad.py:{NUMPY_LINE}:30: E7101 [ms-numpy-on-tensor] np.exp() on a runtime tensor")
    assert lines[-1] == "Found 2 findings (1 error, 1 warning) in 1 file."

    _, out, _ = run(capsys, "--format=json", "bad.py")
    report = json.loads(out)
    first = report["findings"][0]
    assert {key: first[key] for key in ("path", "line", "column", "symbol", "msgId", "category")} == {
        "path": "bad.py", "line": NUMPY_LINE, "column": 30, "symbol": "ms-numpy-on-tensor", "msgId": "E7101", "category": "error",
    }
    assert first["absolutePath"] == str(project / "bad.py")
    assert first["fingerprint"] and report["summary"]["findings"] == 2

    _, out, _ = run(capsys, "--format=github", "bad.py")
    annotation = out.splitlines()[0]
    assert annotation.startswith(f"::error file=bad.py,line={NUMPY_LINE},col=30,endLine={NUMPY_LINE},endColumn=39,title=ms-numpy-on-tensor (E7101)::np.exp() on")
    assert out.splitlines()[1].startswith("::warning file=bad.py")

    code, out, err = run(capsys, "--format=sarif", "--output=report.sarif", "bad.py")
    assert code == 1 and out == ""
    assert "Found 2 findings" in err
    sarif.validate(json.loads((project / "report.sarif").read_text(encoding="utf-8")), SCHEMA)

    code, out, _ = run(capsys, "--output=report.txt", "bad.py")
    assert out == "" and "ms-cell-in-construct" in (project / "report.txt").read_text(encoding="utf-8")


def test_github_escapes_workflow_command_characters() -> None:
    report = {
        "findings": [
            Finding(path=os.path.abspath("a,b:c.py"), line=1, column=1, end_line=None, end_column=None, symbol="s",
                    msg_id="E7101", message="50% of\nit", category="error", fingerprint="x")
        ],
        "problems": [],
        "files": 1,
    }
    line = cli.format_github(report).splitlines()[0]
    assert line == "::error file=a%2Cb%3Ac.py,line=1,col=1,title=s (E7101)::50%25 of%0Ait"


def test_fail_on(project: Path, capsys: pytest.CaptureFixture) -> None:
    assert run(capsys, "good.py")[0] == 0
    assert run(capsys, "bad.py")[0] == 1
    assert run(capsys, "--fail-on=error", "bad.py")[0] == 1
    assert run(capsys, "--fail-on=error", "--select=ms-cell-in-construct", "bad.py")[0] == 0  # a warning only
    assert run(capsys, "--fail-on=warning", "--select=ms-cell-in-construct", "bad.py")[0] == 1
    assert run(capsys, "--fail-on=never", "bad.py")[0] == 0
    write_config(project, 'fail-on = "error"\nselect = ["ms-cell-in-construct"]\n')
    assert run(capsys, "bad.py")[0] == 0
    assert run(capsys, "--fail-on=convention", "bad.py")[0] == 1


# ---------------------------------------------------------------------------
# Baselines
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".sarif", ".json"])
def test_baseline_reports_only_new_findings(project: Path, capsys: pytest.CaptureFixture, suffix: str) -> None:
    baseline = f"mslint-baseline{suffix}"
    code, _, err = run(capsys, f"--write-baseline={baseline}", ".")
    assert code == 0 and "wrote 2 findings" in err
    if suffix == ".sarif":
        sarif.validate(json.loads((project / baseline).read_text(encoding="utf-8")), SCHEMA)
    code, out, _ = run(capsys, f"--baseline={baseline}", ".")
    assert code == 0
    assert out.splitlines()[-1] == "No findings in 2 files; 2 in the baseline not shown."
    # unrelated edits above the findings keep them in the baseline ...
    source = (project / "bad.py").read_text(encoding="utf-8")
    (project / "bad.py").write_text("import os\n\n\n" + source, encoding="utf-8")
    assert run(capsys, f"--baseline={baseline}", ".")[0] == 0
    # ... a new finding is reported, and only it
    (project / "good.py").write_text(
        (project / "good.py").read_text(encoding="utf-8").replace("return ops.relu(self.dense(x)) / self.scale", "return ops.relu(self.dense(x)) / np.sqrt(x)"),
        encoding="utf-8",
    )
    code, found = findings_of(capsys, f"--baseline={baseline}", ".")
    assert code == 1
    assert found == [("good.py", 17, "ms-numpy-on-tensor")]
    # from [tool.mslint] too
    write_config(project, f'baseline = "{baseline}"\n')
    assert findings_of(capsys, ".")[1] == [("good.py", 17, "ms-numpy-on-tensor")]


def test_baseline_must_be_a_log(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "other.json").write_text('{"something": 1}', encoding="utf-8")
    code, _, err = run(capsys, "--baseline=other.json", "bad.py")
    assert code == 2 and "neither a SARIF log nor an mslint JSON report" in err


# ---------------------------------------------------------------------------
# mslint rules / mslint explain
# ---------------------------------------------------------------------------


def test_rules_lists_every_rule(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "rules")
    assert code == 0
    rules = mslint_rules()
    lines = out.splitlines()[1:]
    assert len(lines) == len(rules)
    for line, rule in zip(lines, rules):
        symbol, msgid, default, fix, summary = line.split(None, 4)
        assert (symbol, msgid, default) == (rule.symbol, rule.msgid, "on" if rule.default_enabled else "off")
        assert fix == (catalog.fix_applicability(rule.symbol) or "-")
        assert summary == rule.summary
    code, out, _ = run(capsys, "rules", "--format=json")
    assert [item["symbol"] for item in json.loads(out)] == [rule.symbol for rule in rules]


def test_explain_prints_the_rule_page(capsys: pytest.CaptureFixture) -> None:
    code, out, _ = run(capsys, "explain", "ms-numpy-on-tensor")
    assert code == 0
    assert out == (ROOT / "docs" / "rules" / "ms-numpy-on-tensor.md").read_text(encoding="utf-8")
    assert run(capsys, "explain", "E7101")[1] == out
    code, out, err = run(capsys, "explain", "ms-numpy-on-tensr")
    assert code == 2 and out == "" and "did you mean 'ms-numpy-on-tensor'?" in err


def test_wheel_carries_the_rule_pages(tmp_path: Path) -> None:
    """`pip install .` (not editable): the rule pages are package data, so
    `mslint explain` works from an installed wheel."""
    source = tmp_path / "src"
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        if (ROOT / name).is_file():
            (source / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, source / name)
    subprocess.run(
        [sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q", "-w", str(tmp_path / "dist"), str(source)],
        check=True, capture_output=True, timeout=600,
    )
    wheel = next((tmp_path / "dist").glob("mslint-*.whl"))
    names = zipfile.ZipFile(wheel).namelist()
    for rule in mslint_rules():
        assert f"mslint/rules_docs/{rule.symbol}.md" in names
    # the PyTorch-to-MindSpore data (mslint migration, ms-torch-keyword-args) is package data too
    assert {"mslint/knowledge/mapping/torch_to_mindspore.json", "mslint/knowledge/mapping/linter_tables.json"} <= set(names)
    target = tmp_path / "installed"
    subprocess.run([sys.executable, "-m", "pip", "install", "--no-deps", "-q", "--target", str(target), str(wheel)], check=True, capture_output=True, timeout=600)
    done = subprocess.run(
        [sys.executable, "-c", "import sys, mslint; from mslint.run import cli; print(mslint.__file__); sys.exit(cli.main(['explain', 'ms-numpy-on-tensor']))"],
        cwd=tmp_path, env=dict(os.environ, PYTHONPATH=str(target)), capture_output=True, text=True, check=False, timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith(str(target))
    assert "# ms-numpy-on-tensor (E7101)" in done.stdout


# ---------------------------------------------------------------------------
# Bad input
# ---------------------------------------------------------------------------


def test_bad_input_is_reported_and_the_run_goes_on(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    (project / "latin.py").write_bytes(b"x = '\xe9t\xe9'\n")
    (project / "declared.py").write_bytes(b"# -*- coding: latin-1 -*-\nx = '\xe9t\xe9'\n")
    (project / "notes.txt").write_text("not python\n", encoding="utf-8")
    (project / "nul.py").write_bytes(b"x = 1\x00\n")
    os.symlink("loop_b", project / "loop_a.py")
    os.symlink("loop_a.py", project / "loop_b")
    code, out, err = run(
        capsys, "--format=json", "bad.py", "missing.py", "notes.txt", "broken.py", "latin.py", "declared.py", "nul.py", "loop_b"
    )
    assert code == 2  # input errors win over findings
    assert "mslint: missing.py: no such file or directory" in err
    assert "mslint: notes.txt: not a Python file" in err
    assert "mslint: loop_b: symbolic link loop; skipped" in err
    assert "Traceback" not in err
    report = json.loads(out)
    assert {problem["path"] for problem in report["problems"]} == {"missing.py", "notes.txt", "loop_b"}
    by_path = {(item["path"], item["symbol"]): item for item in report["findings"]}
    assert ("bad.py", "ms-numpy-on-tensor") in by_path  # the good input was checked
    assert ("broken.py", "syntax-error") in by_path
    assert "cannot decode the file as utf-8 (byte 0xe9 on line 1)" in by_path[("latin.py", "syntax-error")]["message"]
    assert ("nul.py", "syntax-error") in by_path
    assert not [key for key in by_path if key[0] == "declared.py"]  # a declared encoding is fine
    # a symlink loop met while walking a folder
    code, out, err = run(capsys, "--format=json", ".")
    assert code == 2 and "loop_a.py: symbolic link loop; skipped" in err
    # syntax errors alone are findings (exit 1), not input errors
    assert run(capsys, "broken.py")[0] == 1


def test_symlinked_folders_do_not_loop(project: Path, capsys: pytest.CaptureFixture) -> None:
    (project / "sub").mkdir()
    os.symlink("..", project / "sub" / "up")
    code, found = findings_of(capsys, ".")
    assert code == 1
    assert sorted({path for path, _, _ in found}) == ["bad.py"]


def test_a_crashing_checker_does_not_stop_the_run(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    from mslint.checkers import graph_host_code

    def explode(self, node):  # noqa: ANN001, ARG001
        if node.root().name == "bad":
            raise ValueError("boom")

    monkeypatch.setattr(graph_host_code.GraphHostCodeChecker, "visit_call", explode)
    (project / "other.py").write_text((project / "bad.py").read_text(encoding="utf-8"), encoding="utf-8")
    code, out, err = run(capsys, "--no-cache", "--jobs=1", "--format=json", "bad.py", "other.py")
    assert "Traceback" not in err
    found = {(item["path"], item["symbol"]): item["message"] for item in json.loads(out)["findings"]}
    assert "ValueError: boom" in found[("bad.py", "astroid-error")]
    assert ("other.py", "ms-cell-in-construct") in found
    assert code == 1


_HANGING_CHECKER = """
import sys
from mslint.run import cli
from mslint.checkers import graph_host_code

def hang(self, node):
    if node.root().name == "bad":
        while True:
            pass

graph_host_code.GraphHostCodeChecker.visit_call = hang
sys.exit(cli.main(sys.argv[1:]))
"""


@pytest.mark.parametrize("jobs", ["1", "2"])
def test_a_file_over_the_time_limit_is_reported_and_the_run_goes_on(project: Path, jobs: str) -> None:
    # a subprocess: the limit is a timer signal, which needs the main thread
    for index in range(4):  # enough files for two workers
        shutil.copy(project / "bad.py", project / f"other{index}.py")
    command = [sys.executable, "-c", _HANGING_CHECKER, f"--jobs={jobs}", "--timeout=2", "--format=json", "--verbose", "."]
    for run_number in (1, 2):
        result = subprocess.run(command, cwd=project, capture_output=True, text=True, timeout=120, check=False)
        assert "Traceback" not in result.stderr
        found = {(item["path"], item["symbol"]): item["message"] for item in json.loads(result.stdout)["findings"]}
        assert "took longer than 2 s" in found[("bad.py", "astroid-error")]
        assert all((f"other{index}.py", "ms-cell-in-construct") in found for index in range(4))
        assert result.returncode == 1
    # the second run took the finished files (good.py too) from the cache and tried the slow one again
    assert "6 files: 1 checked, 5 from the cache" in result.stderr


# ---------------------------------------------------------------------------
# --confirm
# ---------------------------------------------------------------------------


def test_confirm_without_runtime_mode_exits_2(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "mslint.confirm", None)  # as if the subpackage were absent
    code, out, err = run(capsys, "--confirm", "bad.py")
    assert code == 2 and out == ""
    assert err.strip() == "mslint: --confirm needs mslint's runtime mode (mslint.confirm), which this installation lacks"


def test_confirm_results_in_every_format(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The CLI's side of the runtime mode: what it hands to confirm_findings and
    how it shows what comes back (mslint.confirm itself is tested elsewhere)."""
    import mslint.confirm

    calls = []

    def fake_confirm(findings, options):  # noqa: ANN001, ANN202
        calls.append((list(findings), options))
        statuses = iter([("confirmed", "compile error at line 17"), ("not reproduced", "trained fine")])
        for finding in findings:
            status, detail = next(statuses)
            finding.confirmation = {"status": status, "detail": detail}
        new = [
            Finding(path=str(project / "good.py"), line=13, column=9, end_line=None, end_column=None,
                    symbol="ms-graph-compile-error", msg_id="E7801", message="MindSpore refuses this line", category="error",
                    confirmation={"status": "confirmed", "detail": "reported by the compiler"})
        ]
        return findings, new

    monkeypatch.setattr(mslint.confirm, "confirm_findings", fake_confirm)
    code, out, _ = run(capsys, "--confirm", "--device=GPU", "--confirm-timeout=30", "bad.py", "good.py")
    findings, options = calls[0]
    assert [type(f) for f in findings] == [Finding] * 2 and all(f.fingerprint for f in findings)
    # what runtime mode compiles was recorded at lint time
    assert [f.anchor.entries[0].name for f in findings if f.symbol == "ms-numpy-on-tensor"] == ["Net"]
    assert findings[0].path == str(project / "bad.py") and os.path.isabs(findings[0].path)
    assert options["device"] == "GPU" and options["timeout"] == 30.0 and options["project_root"] == str(project)
    assert options["config"] == {} and options["jobs"] >= 1
    lines = out.splitlines()
    assert lines[0].endswith("[confirmed: compile error at line 17]")
    assert lines[1].endswith("[not reproduced: trained fine]")
    assert "good.py:13:9: E7801 [ms-graph-compile-error] MindSpore refuses this line [confirmed: reported by the compiler]" in out
    assert lines[-1] == "Runtime confirmation: 1 confirmed, 1 not reproduced, 0 not run, 1 new compile error."
    assert code == 1

    _, out, _ = run(capsys, "--confirm", "--format=json", "bad.py", "good.py")
    report = json.loads(out)
    assert [f["confirmation"]["status"] for f in report["findings"]] == ["confirmed", "not reproduced", "confirmed"]
    assert report["summary"]["confirmation"] == {"confirmed": 1, "not reproduced": 1, "not run": 0, "new": 1}

    _, out, _ = run(capsys, "--confirm", "--format=sarif", "bad.py", "good.py")
    log = json.loads(out)
    sarif.validate(log, SCHEMA)
    results = log["runs"][0]["results"]
    assert [r["properties"]["confirmation"]["status"] for r in results] == ["confirmed", "not reproduced", "confirmed"]
    assert log["runs"][0]["properties"]["confirmation"]["new"] == 1
    assert results[2]["ruleId"] == "ms-graph-compile-error"

    write_config(project, '[tool.mslint.confirm]\n"bad:Net" = { factory = "make_net" }\n')
    run(capsys, "--confirm", "bad.py")
    assert calls[-1][1]["config"] == {"bad:Net": {"factory": "make_net"}}


def test_projects_beside_the_one_linted_do_not_change_its_findings(
    tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An unmarked project (no .git, no pyproject) whose module imports relatively from a
    folder that is no package sits beside another project that imports mindnlp (~/code/a
    beside ~/code/b): the neighbour is never read as the library this module was copied
    out of, so its Dropout finding stays (round 24: mindcv_rexnet beside a BART script)."""
    project, other = tmp_path / "rexnet", tmp_path / "bart"
    project.mkdir()
    other.mkdir()
    (project / "net.py").write_text(textwrap.dedent('''\
        from mindspore import nn
        from .layers import helper


        class Head(nn.Cell):
            def __init__(self, ratio=0.2):
                super().__init__()
                self.drop = nn.Dropout(ratio)

            def construct(self, x):
                return helper(self.drop(x))
    '''), encoding="utf-8")
    (other / "finetune.py").write_text("from mindnlp.transformers import AutoModel\n", encoding="utf-8")
    monkeypatch.chdir(project)
    code, out, _ = run(capsys, "--no-cache", "--format", "json", "--select", "ms-dropout-keep-prob", ".")
    assert code == 1
    assert [finding["symbol"] for finding in json.loads(out)["findings"]] == ["ms-dropout-keep-prob"]
