"""The mslint command as new users meet it (issue 17): signals, CI paths,
internal errors, bad input, baselines with repeated lines, output paths and
the small things. Each test reproduced its defect first."""

from __future__ import annotations

import json
import os
import shutil
import signal
import sqlite3
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from mslint.run import cache, cli
from mslint.run.plugin import mslint_rules

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(folder))
    return folder


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def write_config(folder: Path, body: str) -> None:
    (folder / "pyproject.toml").write_text("[tool.mslint]\n" + textwrap.dedent(body), encoding="utf-8")


# ---------------------------------------------------------------------------
# 1. SIGTERM / SIGHUP end the pool's workers
# ---------------------------------------------------------------------------

_HANGING_CHECKER = """
import sys
from mslint.run import cli
from mslint.checkers import graph_host_code

def hang(self, node):
    if node.root().name.startswith("slow"):
        while True:
            pass

graph_host_code.GraphHostCodeChecker.visit_call = hang
sys.exit(cli.main(sys.argv[1:]))
"""


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        text = (task / "children").read_text()
        found.update(int(word) for word in text.split())
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    state = next(line for line in status.splitlines() if line.startswith("State:"))
    return "Z" not in state.split()[1]


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="reads /proc")
@pytest.mark.parametrize("name", ["SIGTERM", "SIGHUP"])
def test_a_terminated_run_ends_its_workers(project: Path, name: str) -> None:
    for index in range(8):  # both workers stuck in a file
        shutil.copy(project / "bad.py", project / f"slow{index}.py")
    command = [sys.executable, "-c", _HANGING_CHECKER, "--jobs=2", "--timeout=0", "--no-cache", "."]
    process = subprocess.Popen(command, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        deadline = time.monotonic() + 60
        workers: set[int] = set()
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.5)
            workers = _children(process.pid)
        assert len(workers) >= 2, "the pool did not start"
        time.sleep(2)  # the workers are in the endless file now
        process.send_signal(getattr(signal, name))
        _, err = process.communicate(timeout=30)
    finally:
        if process.poll() is None:
            process.kill()
    assert process.returncode == 128 + getattr(signal, name)
    assert "Traceback" not in err
    assert f"stopped by {name}" in err
    time.sleep(0.5)
    assert not [pid for pid in workers if _alive(pid)]


# ---------------------------------------------------------------------------
# 2. --format github: repository-relative paths
# ---------------------------------------------------------------------------


def test_github_paths_are_relative_to_the_repository(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    (project / ".git").mkdir()
    sub = project / "pkg" / "sub"
    sub.mkdir(parents=True)
    shutil.move(project / "bad.py", sub / "model.py")
    monkeypatch.chdir(sub)
    code, out, _ = run(capsys, "--format=github", "model.py")
    assert code == 1
    assert "file=pkg/sub/model.py," in out
    _, out, _ = run(capsys, "--format=sarif", "model.py")
    assert json.loads(out)["runs"][0]["results"][0]["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "pkg/sub/model.py"


# ---------------------------------------------------------------------------
# 3. Internal errors: one line, a saved traceback, exit 3
# ---------------------------------------------------------------------------


def test_an_internal_error_has_its_own_exit_code(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, _private_cache: Path) -> None:
    def crash(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202, ARG001
        raise RuntimeError("injected")

    monkeypatch.setattr(cli, "check_files", crash)
    code, out, err = run(capsys, "bad.py")
    assert code == cli.EXIT_INTERNAL == 3
    assert out == ""
    assert len(err.strip().splitlines()) == 1 and "Traceback" not in err
    assert "internal error (RuntimeError: injected)" in err
    saved = Path(err.strip().rsplit(" ", 1)[1])
    assert saved.parent == _private_cache
    assert "Traceback" in saved.read_text() and "injected" in saved.read_text()


# ---------------------------------------------------------------------------
# 4. Bad input: one line, exit 2 (or a warning and a cold run, for the cache)
# ---------------------------------------------------------------------------


def test_write_baseline_into_a_missing_folder(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "check_files", lambda *a, **k: pytest.fail("checked before the output path"))  # noqa: ARG005
    code, _, err = run(capsys, "--write-baseline", "nodir/base.sarif", "bad.py")
    assert code == 2
    assert err.strip() == "mslint: cannot write --write-baseline nodir/base.sarif: the folder nodir does not exist"


@pytest.mark.parametrize("body", ['{"runs": [1]}', '{"runs": [{"results": 3}]}', '{"findings": ["x"]}', '{"runs": {"a": 1}}'])
def test_a_baseline_of_the_wrong_shape(project: Path, capsys: pytest.CaptureFixture, body: str) -> None:
    (project / "base.json").write_text(body, encoding="utf-8")
    code, _, err = run(capsys, "--baseline", "base.json", "bad.py")
    assert code == 2
    assert err.strip() == "mslint: base.json is neither a SARIF log nor an mslint JSON report"


def test_clean_cache_when_the_folder_is_a_file(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "file").write_text("x")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "file"))
    code, _, err = run(capsys, "clean-cache")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "cannot remove the result cache" in err and "Traceback" not in err


def test_clean_cache_when_the_folder_is_read_only(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "cache"
    folder.mkdir()
    (folder / cache.DB_NAME).write_text("x")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(folder))

    def refuse(self, missing_ok=False):  # noqa: ANN001, ANN202, ARG001 - as a read-only folder does (root ignores modes)
        raise PermissionError(13, "Permission denied", str(self))

    monkeypatch.setattr(Path, "unlink", refuse)
    code, _, err = run(capsys, "clean-cache")
    assert code == 2 and len(err.strip().splitlines()) == 1
    assert "cannot remove the result cache" in err and "Permission denied" in err


def test_clean_cache_says_when_nothing_was_there(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "empty"))
    code, _, err = run(capsys, "clean-cache")
    assert code == 0 and "nothing to remove" in err and "removed" not in err


def test_a_memory_budget_that_is_not_a_number(project: Path) -> None:
    env = dict(os.environ, MSLINT_MEMORY_BUDGET_MB="1.5G")
    done = subprocess.run([sys.executable, "-m", "mslint", "--no-cache", "bad.py"], cwd=project, env=env,
                          capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 2, done.stderr
    assert done.stderr.strip() == "mslint: MSLINT_MEMORY_BUDGET_MB must be a positive number of MiB (like 1500), not '1.5G'"


@pytest.mark.parametrize("row", ["{}", "[{}]", '"x"', "3", '[{"line": "a"}]'])
def test_cache_rows_of_the_wrong_shape_are_misses(project: Path, capsys: pytest.CaptureFixture, _private_cache: Path, row: str) -> None:
    code, first, _ = run(capsys, "--format=json", "bad.py")
    assert code == 1
    database = sqlite3.connect(str(_private_cache / cache.DB_NAME))
    with database:
        database.execute("UPDATE results SET findings=?", (row,))
        database.execute("UPDATE imports SET imports=?", ('[[1]]',))
    database.close()
    code, again, _ = run(capsys, "--format=json", "--verbose", "bad.py")
    assert code == 1
    assert json.loads(again)["findings"] == json.loads(first)["findings"]


# ---------------------------------------------------------------------------
# 5. A baselined line copied above itself: the original keeps its match
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("suffix", [".sarif", ".json"])
def test_a_copied_baselined_line_is_the_new_one(project: Path, capsys: pytest.CaptureFixture, suffix: str) -> None:
    source = (project / "bad.py").read_text(encoding="utf-8")
    run(capsys, f"--write-baseline=base{suffix}", "bad.py")
    flagged = next(line for line in source.splitlines() if "np.exp(x)" in line)
    # the same line again, first in another Cell above, then right above itself
    copied = source.replace("class Net(nn.Cell):", f"class Other(nn.Cell):\n    def construct(self, x):\n{flagged}\n        return y\n\n\nclass Net(nn.Cell):")
    (project / "bad.py").write_text(copied, encoding="utf-8")
    code, out, _ = run(capsys, f"--baseline=base{suffix}", "--format=json", "bad.py")
    report = json.loads(out)
    copy_line = next(number for number, line in enumerate(copied.splitlines(), 1) if line == flagged)
    assert [(item["line"], item["symbol"]) for item in report["findings"]] == [(copy_line, "ms-numpy-on-tensor")]
    assert report["summary"]["baselined"] == 2 and code == 1
    # (the copy's value is used, so that it is a finding: an np.exp(x) overwritten
    # unread loses nothing and is not one)
    pasted = source.replace(flagged, f"{flagged}\n        x = x + y\n{flagged}")
    (project / "bad.py").write_text(pasted, encoding="utf-8")
    _, out, _ = run(capsys, f"--baseline=base{suffix}", "--format=json", "bad.py")
    copy_line = next(number for number, line in enumerate(pasted.splitlines(), 1) if line == flagged)
    assert [(item["line"], item["symbol"]) for item in json.loads(out)["findings"]] == [(copy_line, "ms-numpy-on-tensor")]


# ---------------------------------------------------------------------------
# 6. [tool.mslint.confirm] mistakes are configuration errors
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('"bad:Nett" = { inputs = ["float32[2,4]"] }', "[tool.mslint.confirm] 'bad:Nett': bad.py defines no 'Nett'; did you mean bad:Net?"),
        ('"bad:Net" = { input = ["float32[2,4]"] }', "[tool.mslint.confirm] 'bad:Net': unknown key 'input'; did you mean 'inputs'?"),
        ('"bad:Net" = { inputs = ["floot32[2,4]"] }', "unknown dtype 'floot32'"),
        ('"bad:Net" = { factory = 3 }', "factory must be a string"),
        ('"bad:Net" = "float32[2,4]"', "must be a table with 'factory' and/or 'inputs'"),
        ('"bad.Net" = { inputs = [] }', "'bad.Net' is not a target \"module:Class\""),
    ],
)
def test_confirm_table_mistakes_are_configuration_errors(project: Path, capsys: pytest.CaptureFixture, body: str, expected: str) -> None:
    write_config(project, f"[tool.mslint.confirm]\n{body}\n")
    code, out, err = run(capsys, "bad.py")
    assert code == 2 and out == ""
    assert expected in err and len(err.strip().splitlines()) == 1


def test_a_correct_confirm_table_is_accepted(project: Path, capsys: pytest.CaptureFixture) -> None:
    write_config(project, '[tool.mslint.confirm]\n"bad:Net" = { inputs = ["float32[2,4]"] }\n"installed.module:Thing" = { factory = "x:y" }\n')
    code, _, _ = run(capsys, "bad.py")
    assert code == 1


# ---------------------------------------------------------------------------
# 8. Small things
# ---------------------------------------------------------------------------


def _long_expression(folder: Path, terms: int) -> Path:
    path = folder / f"long{terms}.py"
    body = " + ".join(["np.exp(x)"] * terms)
    path.write_text(
        f"import numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n        return {body}\n",
        encoding="utf-8",
    )
    return path


def test_a_long_expression_takes_linear_work(project: Path, capsys: pytest.CaptureFixture) -> None:
    """4000 `np.exp(x)` terms took 23 s: every call in the chain of BinOps walked
    up (frame, scope) and down (nodes_of_class, through nested generators) the
    whole chain. Counted in tree steps, not timed."""
    from mslint.run.compat import ParentWalks

    steps = {}
    for terms in (300, 1200):
        path = _long_expression(project, terms)
        ParentWalks.HOPS[0] = 0
        code, out, _ = run(capsys, "--no-cache", "--jobs=1", "--format=json", str(path))
        assert code == 1 and len(json.loads(out)["findings"]) == terms
        steps[terms] = ParentWalks.HOPS[0]
    assert steps[300] > 300
    assert steps[1200] < 5 * steps[300]  # quadratic: 16 times


def test_an_empty_folder_is_said_on_stderr(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("x")
    monkeypatch.chdir(tmp_path)
    code, out, err = run(capsys, "empty")
    assert code == 0
    assert err.strip() == "mslint: no Python files in empty; nothing checked"
    assert out.strip() == "No findings in 0 files."


def test_an_empty_select_is_an_error(project: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(capsys, "--select", "", "bad.py")
    assert code == 2 and out == ""
    assert "--select names no rule" in err


def test_explain_all_prints_every_page(capsys: pytest.CaptureFixture) -> None:

    code, out, _ = run(capsys, "explain", "all")
    assert code == 0
    for rule in mslint_rules():
        assert f"# {rule.symbol}" in out or f"({rule.msgid})" in out


def test_statistics_counts_one_file(project: Path, capsys: pytest.CaptureFixture) -> None:
    _, _, err = run(capsys, "--verbose", "bad.py")
    assert "mslint: 1 file: 1 checked" in err


def test_sarif_help_links_are_absolute(project: Path, capsys: pytest.CaptureFixture) -> None:
    import re

    _, out, _ = run(capsys, "--format=sarif", "bad.py")
    rules = {rule["id"]: rule for rule in json.loads(out)["runs"][0]["tool"]["driver"]["rules"]}
    markdown = rules["ms-graph-compile-error"]["help"]["markdown"]
    assert "(https://github.com/mslint/mslint/blob/main/docs/runtime.md)" in markdown
    for rule in rules.values():
        for target in re.findall(r"\]\(([^)\s]+)\)", rule["help"]["markdown"]):
            assert target.startswith(("https://", "http://", "#")), (rule["id"], target)


def test_device_and_confirm_timeout_need_confirm(project: Path, capsys: pytest.CaptureFixture) -> None:
    for option in ("--device=GPU", "--confirm-timeout=10"):
        code, out, err = run(capsys, option, "bad.py")
        assert code == 2 and out == ""
        assert err.strip() == "mslint: --device and --confirm-timeout apply only with --confirm"


def test_confirm_timeout_zero_means_no_limit_as_timeout(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    seen = []
    monkeypatch.setattr(cli, "run_confirmation", lambda found, options: (seen.append(options), (found, []))[1])
    run(capsys, "--confirm", "--confirm-timeout=0", "bad.py")
    run(capsys, "--confirm", "bad.py")
    assert seen[0]["timeout"] is None  # no limit, as --timeout 0
    assert seen[1]["timeout"] == cli.CONFIRM_TIMEOUT and seen[1]["device"] == "CPU"


def test_output_that_is_an_input_is_refused(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    before = (project / "bad.py").read_text(encoding="utf-8")
    code, _, err = run(capsys, "-o", "bad.py", ".")
    assert code == 2
    assert err.strip().endswith("--output bad.py is one of the files being checked; refusing to overwrite it")
    assert (project / "bad.py").read_text(encoding="utf-8") == before
    monkeypatch.setattr(cli, "check_files", lambda *a, **k: pytest.fail("checked before the output path"))  # noqa: ARG005
    code, _, err = run(capsys, "-o", "missing/report.txt", "bad.py")
    assert code == 2 and "the folder missing does not exist" in err


# ---------------------------------------------------------------------------
# 11. The plugin honours [tool.mslint]
# ---------------------------------------------------------------------------


def test_the_plugin_and_the_command_agree_on_a_configured_project(project: Path) -> None:

    write_config(project, 'jit-syntax-level = "strict"\nignore = ["ms-cell-in-construct"]\nenable = ["ms-layer-default-differs"]\n')
    (project / "layers.py").write_text("from mindspore import nn\n\nact = nn.LeakyReLU()\ndrop = nn.Dropout(0.1)\n", encoding="utf-8")
    defaults = ",".join(rule.symbol for rule in mslint_rules() if rule.default_enabled)
    plugin = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--disable=all", f"--enable={defaults}", "--persistent=n",
         "--score=n", "--output-format=json2", "bad.py", "layers.py"],
        cwd=project, capture_output=True, text=True, check=False, timeout=300,
    )
    command = subprocess.run([sys.executable, "-m", "mslint", "--no-cache", "--format=json", "bad.py", "layers.py"],
                             cwd=project, capture_output=True, text=True, check=False, timeout=300)
    expected = sorted((m["path"], m["line"], m["symbol"], m["message"]) for m in json.loads(plugin.stdout)["messages"])
    found = sorted((f["path"], f["line"], f["symbol"], f["message"]) for f in json.loads(command.stdout)["findings"])
    assert found == expected
    symbols = {item[2] for item in found}
    assert "ms-cell-in-construct" not in symbols and {"ms-numpy-on-tensor", "ms-layer-default-differs"} <= symbols
    assert any("STRICT" in item[3] for item in found)


# ---------------------------------------------------------------------------
# 12. A progress line on a terminal only
# ---------------------------------------------------------------------------


class _Terminal:
    def __init__(self) -> None:
        self.text = ""

    def isatty(self) -> bool:
        return True

    def write(self, text: str) -> int:
        self.text += text
        return len(text)

    def flush(self) -> None:
        pass


def test_progress_on_a_terminal_only(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli.Progress, "DELAY", 0.0)
    _, _, err = run(capsys, "--no-cache", "--jobs=1", "bad.py", "good.py")
    assert "files/s" not in err  # not a terminal: nothing
    terminal = _Terminal()
    monkeypatch.setattr(sys, "stderr", terminal)
    cli.main(["--no-cache", "--jobs=1", "bad.py", "good.py"])
    assert "\rmslint: 2/2 files (" in terminal.text and "files/s)" in terminal.text
    assert terminal.text.split("\r")[-1] == ""  # erased at the end: the summary line starts clean


def test_a_project_module_named_like_the_standard_library_is_not_imported(tmp_path: Path) -> None:
    """``python -m mslint`` in a folder holding its own logging.py (a model zoo's
    logger): Python puts the folder first on sys.path, and mslint used to import that
    file instead of the standard library's and crash (AttributeError: getLogger)."""
    (tmp_path / "logging.py").write_text("def info(*args):\n    pass\n", encoding="utf-8")
    (tmp_path / "train.py").write_text(
        "import logging\nimport numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n"
        "    def construct(self, x):\n        logging.info('x')\n        return np.exp(x)\n",
        encoding="utf-8",
    )
    completed = subprocess.run(  # noqa: S603
        [sys.executable, "-m", "mslint", "--no-cache", "train.py"],
        cwd=tmp_path, capture_output=True, text=True, timeout=120, check=False,
    )
    assert completed.returncode == cli.EXIT_FINDINGS, completed.stderr
    assert "train.py:9:16: E7101 [ms-numpy-on-tensor]" in completed.stdout
