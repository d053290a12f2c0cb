"""Where users meet mslint (issue 27): the conventions of the field
(per-file-ignores, --statistics, --show-source, unknown rules in pragmas and
the configuration, the mslint-fix hook on notebooks) and the command's
defects 5, 6, 7, 8, 10 and 13. Each defect's test failed before its change."""

from __future__ import annotations

import io
import json
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
import yaml

from mslint.run import cli
from mslint.run.plugin import mslint_rules

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "fixtures" / "cli" / "bad.py"
NUMPY_LINE = next(n for n, line in enumerate(BAD.read_text("utf-8").splitlines(), 1) if "np.exp(x)" in line)
CELL_LINE = NUMPY_LINE + 1


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(folder))
    return folder


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def findings_of(capsys: pytest.CaptureFixture, *args: str) -> list[tuple[str, int, str]]:
    _, out, err = run(capsys, "--format=json", *args)
    assert out, err
    return [(item["path"], item["line"], item["symbol"]) for item in json.loads(out)["findings"]]


def write_config(folder: Path, body: str) -> None:
    (folder / "pyproject.toml").write_text("[tool.mslint]\n" + textwrap.dedent(body), encoding="utf-8")


def notebook(cells: list[list[str]]) -> str:
    return json.dumps({
        "cells": [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source} for source in cells],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5,
    }, indent=1) + "\n"


GRAPH_NOTEBOOK = notebook([
    ["import numpy as np\n", "import mindspore as ms\n", "from mindspore import nn\n", "ms.set_context(mode=ms.GRAPH_MODE)"],
    ["class Net(nn.Cell):\n", "    def construct(self, x):\n", "        return np.exp(x)\n", "net = Net()"],
])


@pytest.fixture
def repo(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    return tmp_path


def with_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data), encoding="utf-8"))


# ---------------------------------------------------------------------------
# 5. a notebook on standard input
# ---------------------------------------------------------------------------


def test_a_notebook_on_standard_input_is_checked_as_a_notebook(repo: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    (repo / "explore.ipynb").write_text(GRAPH_NOTEBOOK, encoding="utf-8")
    _, out, _ = run(capsys, "--format=json", "explore.ipynb")
    from_path = json.loads(out)["findings"]
    assert [(item["symbol"], item["cell"], item["cellLine"]) for item in from_path] == [("ms-numpy-on-tensor", 2, 3)]
    (repo / "explore.ipynb").unlink()  # the buffer is what is checked, not the file
    with_stdin(monkeypatch, GRAPH_NOTEBOOK.encode("utf-8"))
    code, out, err = run(capsys, "-", "--stdin-filename", "explore.ipynb", "--format=json")
    assert code == 1, err
    from_stdin = json.loads(out)["findings"]
    keys = ("path", "line", "column", "symbol", "cell", "cellLine", "cellColumn", "message", "mode", "modeBasis")
    assert [{key: item.get(key) for key in keys} for item in from_stdin] == [{key: item.get(key) for key in keys} for item in from_path]


def test_standard_input_that_is_not_a_notebook_is_refused(repo: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    with_stdin(monkeypatch, BAD.read_bytes())  # Python, not a notebook
    code, out, err = run(capsys, "-", "--stdin-filename", "x.ipynb")
    assert code == 2
    assert "x.ipynb: standard input is not a notebook" in err and "not a readable notebook" in err
    assert "No findings" not in out


# ---------------------------------------------------------------------------
# 6. a notebook's mode names the notebook
# ---------------------------------------------------------------------------


def test_a_notebooks_mode_names_the_notebook(repo: Path, capsys: pytest.CaptureFixture) -> None:
    (repo / "explore.ipynb").write_text(GRAPH_NOTEBOOK, encoding="utf-8")
    _, out, _ = run(capsys, "explore.ipynb")
    assert "Mode: explore.ipynb runs in graph mode (explore.ipynb sets GRAPH_MODE)." in out
    assert "explore.py" not in out
    _, out, _ = run(capsys, "--format=json", "explore.ipynb")
    (finding,) = json.loads(out)["findings"]
    assert (finding["mode"], finding["modeBasis"]) == ("graph", "explore.ipynb sets GRAPH_MODE")
    _, out, _ = run(capsys, "--format=sarif", "explore.ipynb")
    (result,) = json.loads(out)["runs"][0]["results"]
    assert result["properties"]["mode"] == {"mode": "graph", "basis": "explore.ipynb sets GRAPH_MODE"}


def test_a_notebook_decides_the_mode_of_the_modules_it_imports(repo: Path, capsys: pytest.CaptureFixture) -> None:
    """The notebook is read where it is: the module beside it that it imports is
    graph code of that program (before, the notebook's imports were looked for
    beside its shadow module, in the cache folder)."""
    (repo / "model.py").write_text(
        "import numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n    def construct(self, x):\n        return np.exp(x)\n",
        encoding="utf-8",
    )
    (repo / "train.ipynb").write_text(
        notebook([["import mindspore as ms\n", "from model import Net\n", "ms.set_context(mode=ms.GRAPH_MODE)\n", "net = Net()"]]),
        encoding="utf-8",
    )
    _, out, _ = run(capsys, "--format=json", ".")
    (finding,) = json.loads(out)["findings"]
    assert (finding["path"], finding["modeBasis"]) == ("model.py", "train.ipynb sets GRAPH_MODE")


# ---------------------------------------------------------------------------
# 7. --select means only these
# ---------------------------------------------------------------------------


CONSTANT_NUMPY = (
    "import numpy as np\nfrom mindspore import nn\n\n\nclass A(nn.Cell):\n    def construct(self, x):\n"
    "        y = nn.Dense(4, 4)(x)\n        return y * np.sqrt(2.0)\n"
)


def test_select_on_the_command_line_means_only_these(repo: Path, capsys: pytest.CaptureFixture) -> None:
    (repo / "constant.py").write_text(CONSTANT_NUMPY, encoding="utf-8")
    write_config(repo, 'enable = ["ms-numpy-in-graph"]\n')
    assert findings_of(capsys, "constant.py") == [("constant.py", 7, "ms-cell-in-construct"), ("constant.py", 8, "ms-numpy-in-graph")]
    assert findings_of(capsys, "--select=ms-cell-in-construct", "constant.py") == [("constant.py", 7, "ms-cell-in-construct")]
    # --enable beside --select on the command line still adds
    assert len(findings_of(capsys, "--select=ms-cell-in-construct", "--enable=ms-numpy-in-graph", "constant.py")) == 2


# ---------------------------------------------------------------------------
# 8. a pragma at the end of a class or def line
# ---------------------------------------------------------------------------


HEADER_PRAGMAS = '''\
import numpy as np
from mindspore import nn


class Silenced(nn.Cell):  # pylint: disable=ms-numpy-on-tensor
    def construct(self, x):
        return np.exp(x)


class MethodSilenced(nn.Cell):
    def construct(self, x):  # pylint: disable=ms-numpy-on-tensor
        return np.exp(x)


class EnabledAgain(nn.Cell):  # pylint: disable=ms-numpy-on-tensor
    def construct(self, x):
        y = np.exp(x)
        # pylint: enable=ms-numpy-on-tensor
        return np.tanh(x) + y


class Other(nn.Cell):  # pylint: disable=ms-cell-in-construct
    def construct(self, x):
        return np.exp(x)


class NotSilenced(nn.Cell):
    def construct(self, x):
        return np.exp(x)
'''


def test_a_pragma_on_a_class_or_def_line_silences_its_block(repo: Path, capsys: pytest.CaptureFixture) -> None:
    (repo / "pragmas.py").write_text(HEADER_PRAGMAS, encoding="utf-8")
    expected = [("pragmas.py", 19, "ms-numpy-on-tensor"), ("pragmas.py", 24, "ms-numpy-on-tensor"), ("pragmas.py", 29, "ms-numpy-on-tensor")]
    assert findings_of(capsys, "--select=ms-numpy-on-tensor", "pragmas.py") == expected
    # the pylint plugin honours it too
    plugin = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--disable=all", "--enable=ms-numpy-on-tensor",
         "--persistent=n", "--score=n", "--output-format=json2", "pragmas.py"],
        cwd=repo, capture_output=True, text=True, check=False, timeout=300,
    )
    messages = json.loads(plugin.stdout)["messages"]
    assert sorted((m["path"], m["line"], m["symbol"]) for m in messages if m["symbol"] == "ms-numpy-on-tensor") == expected


# ---------------------------------------------------------------------------
# 10. and item 3: --statistics counts findings per rule; --verbose the run
# ---------------------------------------------------------------------------


def test_statistics_prints_findings_per_rule(repo: Path, capsys: pytest.CaptureFixture) -> None:
    shutil.copy(BAD, repo / "bad.py")
    shutil.copy(BAD, repo / "bad2.py")
    code, out, _ = run(capsys, "--statistics", ".")
    assert code == 1
    lines = out.splitlines()
    assert lines[:2] == ["2\tE7101\tms-numpy-on-tensor", "2\tW7301\tms-cell-in-construct"]  # as ruff: no marker when none is fixable
    assert lines[2] == "Found 4 findings (2 errors, 2 warnings) in 2 files."
    assert "bad.py:" not in out  # the counts instead of each finding
    code, out, _ = run(capsys, "--statistics", "--unsafe-fixes", ".")
    assert out.splitlines()[:2] == ["2\tE7101\t[*] ms-numpy-on-tensor", "2\tW7301\t[ ] ms-cell-in-construct"]  # --fix --unsafe-fixes would fix them
    code, out, _ = run(capsys, "--statistics", "--format=json", ".")
    assert code == 1
    assert json.loads(out) == [
        {"code": "E7101", "name": "ms-numpy-on-tensor", "count": 2, "fixable": False},
        {"code": "W7301", "name": "ms-cell-in-construct", "count": 2, "fixable": False},
    ]
    code, _, err = run(capsys, "--statistics", "--format=sarif", ".")
    assert code == 2 and "--statistics" in err


def test_verbose_counts_files_and_the_rules_really_enabled(repo: Path, capsys: pytest.CaptureFixture) -> None:
    shutil.copy(BAD, repo / "bad.py")
    rules = mslint_rules()
    from mslint.knowledge.manifest import PORT_RULES  # noqa: PLC0415

    # the default rules, and the port rules, on where the code reads as a port
    on = sum(rule.default_enabled or rule.symbol in PORT_RULES for rule in rules)
    _, _, err = run(capsys, "--verbose", "bad.py")
    assert f"mslint: 1 file: 1 checked, 0 from the cache; {on} rules enabled" in err
    _, _, err = run(capsys, "--verbose", "--select=all", "bad.py")
    assert f"1 file: 1 checked, 0 from the cache; {len(rules)} rules enabled" in err  # other rules: checked again
    _, _, err = run(capsys, "--verbose", "--select=ms-cell-in-construct,ms-numpy-on-tensor", "bad.py")
    assert "; 2 rules enabled" in err
    _, _, err = run(capsys, "bad.py")
    assert "checked" not in err


# ---------------------------------------------------------------------------
# Item 3: --show-source
# ---------------------------------------------------------------------------


def test_show_source_prints_the_line_and_a_caret_under_the_span(repo: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    shutil.copy(BAD, repo / "bad.py")
    code, out, _ = run(capsys, "--show-source", "--select=ms-numpy-on-tensor", "bad.py")
    assert code == 1
    source = BAD.read_text(encoding="utf-8").splitlines()[NUMPY_LINE - 1]
    column = source.index("np.exp(x)")
    lines = out.splitlines()
    assert lines[0].startswith(f"bad.py:{NUMPY_LINE}:{column + 1}: E7101 [ms-numpy-on-tensor]")
    assert lines[1:4] == [
        "   |",
        f"{NUMPY_LINE} | {source}",
        "   | " + " " * column + "^" * len("np.exp(x)"),
    ]
    # a notebook shows the cell's line, standard input the buffer's
    (repo / "explore.ipynb").write_text(GRAPH_NOTEBOOK, encoding="utf-8")
    _, out, _ = run(capsys, "--show-source", "explore.ipynb")
    assert "3 |         return np.exp(x)\n  |                ^^^^^^^^^\n" in out
    with_stdin(monkeypatch, BAD.read_bytes())
    _, out, _ = run(capsys, "--show-source", "--select=ms-numpy-on-tensor", "-", "--stdin-filename=other.py")
    assert f"{NUMPY_LINE} | {source}" in out


# ---------------------------------------------------------------------------
# Item 3: per-file-ignores
# ---------------------------------------------------------------------------


def test_per_file_ignores(repo: Path, capsys: pytest.CaptureFixture) -> None:
    for name in ("bad.py", "tests/test_model.py", "tests/unit/test_deep.py", "legacy/old.py", "src/model.py"):
        (repo / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(BAD, repo / name)
    write_config(repo, """\
        [tool.mslint.per-file-ignores]
        "tests/**" = ["ms-cell-in-construct"]
        "old.py" = ["E7101", "ms-cell-in-construct"]
        "!src/**" = ["ms-numpy-on-tensor"]
        "bad.py" = ["all"]
    """)
    assert findings_of(capsys, ".") == [
        ("src/model.py", NUMPY_LINE, "ms-numpy-on-tensor"),
        ("src/model.py", CELL_LINE, "ms-cell-in-construct"),
    ]
    # with --fix: what is ignored in a file is not fixed there either
    (repo / "legacy" / "fixable.py").write_text("from mindspore import nn\n\nlayer = nn.Dense(4, 4, bias=False)\n", encoding="utf-8")
    write_config(repo, '[tool.mslint.per-file-ignores]\n"legacy/*" = ["ms-torch-keyword-args"]\n')
    run(capsys, "--fix", "legacy/fixable.py")
    assert "bias=False" in (repo / "legacy" / "fixable.py").read_text(encoding="utf-8")


@pytest.mark.parametrize(
    ("body", "expected"),
    [
        ('[tool.mslint.per-file-ignores]\n"tests/*" = ["ms-cell-in-constuct"]\n',
         "per-file-ignores \"tests/*\": unknown rule 'ms-cell-in-constuct'; did you mean 'ms-cell-in-construct'?"),
        ('per-file-ignores = ["tests/*"]\n', "per-file-ignores must be a table"),
        ('[tool.mslint.per-file-ignores]\n"tests/*" = "ms-cell-in-construct"\n', "must be a list of rules"),
    ],
)
def test_per_file_ignores_errors(repo: Path, capsys: pytest.CaptureFixture, body: str, expected: str) -> None:
    shutil.copy(BAD, repo / "bad.py")
    write_config(repo, body)
    code, out, err = run(capsys, "bad.py")
    assert code == 2 and out == ""
    assert expected in err


# ---------------------------------------------------------------------------
# Item 3: unknown rules in pragmas and in the configuration
# ---------------------------------------------------------------------------


def test_an_unknown_rule_in_a_pragma_is_reported(repo: Path, capsys: pytest.CaptureFixture) -> None:
    (repo / "clean.py").write_text(
        "import numpy as np  # pylint: disable=ms-numpy-on-tensr\nimport os  # pylint: disable=unused-import,not-a-rule-at-all\n"
        "from os import path  # pylint: disable=g-importing-member\n",
        encoding="utf-8",
    )
    for _ in range(2):  # the second run takes the file from the cache, and still says so
        code, out, err = run(capsys, "clean.py")
        assert code == 0  # a warning, not a finding: the exit status is unchanged
        assert "No findings in 1 file." in out
        assert (
            "mslint: clean.py:1: warning: `# pylint: disable=ms-numpy-on-tensr` names no rule mslint or pylint knows, so it "
            "silences nothing; did you mean 'ms-numpy-on-tensor'?" in err
        )
        assert "clean.py:2: warning: `# pylint: disable=not-a-rule-at-all` names no rule" in err
        assert "unused-import`" not in err
        # another tool's name (Google's pylint) is no typo of an mslint rule: no suggestion
        assert "clean.py:3: warning: `# pylint: disable=g-importing-member` names no rule mslint or pylint knows, so it silences nothing\n" in err


def test_an_unknown_rule_in_the_configuration_is_reported_by_the_plugin(repo: Path) -> None:
    shutil.copy(BAD, repo / "bad.py")
    write_config(repo, 'ignore = ["ms-numpy-on-tensr"]\nenable = ["ms-numpy-in-grph"]\n')
    done = subprocess.run(
        [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--persistent=n", "--score=n", "bad.py"],
        cwd=repo, capture_output=True, text=True, check=False, timeout=300,
    )
    assert "Traceback" not in done.stderr
    assert "[tool.mslint] ignore: unknown rule 'ms-numpy-on-tensr'; did you mean 'ms-numpy-on-tensor'?" in done.stderr
    assert "[tool.mslint] enable: unknown rule 'ms-numpy-in-grph'; did you mean 'ms-numpy-in-graph'?" in done.stderr
    assert "ms-cell-in-construct" in done.stdout  # the rest of the table applies


# ---------------------------------------------------------------------------
# Item 3: the mslint-fix hook takes notebooks
# ---------------------------------------------------------------------------


def test_the_fix_hook_takes_notebooks() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(hook for hook in hooks if hook["id"] == "mslint-fix")
    assert hook["types_or"] == ["python", "jupyter"] and "types" not in hook
    assert hook["entry"] == "mslint --fix" and hook["require_serial"] is True


# ---------------------------------------------------------------------------
# 13. wording
# ---------------------------------------------------------------------------


def test_explain_an_unknown_rule_says_it_once_and_suggests(capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(capsys, "explain", "ms-numpy-on-tensr")
    assert code == 2 and out == ""
    assert err == "mslint explain: unknown rule 'ms-numpy-on-tensr'; did you mean 'ms-numpy-on-tensor'? (`mslint rules` lists them)\n"
    for name, close in [("numpy", "'ms-numpy-on-tensor' or 'ms-numpy-in-graph'"), ("dropout", "'ms-dropout-keep-prob'"), ("E7011", "'E7101'")]:
        code, _, err = run(capsys, "explain", name)
        assert code == 2 and f"did you mean {close}?" in err, err
    code, out, _ = run(capsys, "explain", "MS-NUMPY-ON-TENSOR")  # any case
    assert code == 0 and out.startswith("# ms-numpy-on-tensor")


def test_the_fixable_note_says_more_only_after_something(repo: Path, capsys: pytest.CaptureFixture) -> None:
    (repo / "unsafe.py").write_text("from mindspore import nn\n\nlayer = nn.Dropout(0.1)\n", encoding="utf-8")
    _, out, _ = run(capsys, "unsafe.py")
    assert "1 fixable with `mslint --fix --unsafe-fixes`." in out and "more" not in out
    code, out, err = run(capsys, "--fix", "unsafe.py")  # nothing fixed
    assert "fixed" not in err and "more" not in out and "1 fixable with `mslint --fix --unsafe-fixes`." in out
    (repo / "both.py").write_text("from mindspore import nn\n\nlayer = nn.Dropout(0.1)\nother = nn.Dense(4, 4, bias=False)\n", encoding="utf-8")
    _, out, _ = run(capsys, "both.py")
    assert "[*] 1 fixable with `mslint --fix`; 1 more with `mslint --fix --unsafe-fixes`." in out
    _, out, _ = run(capsys, "--unsafe-fixes", "both.py")
    assert "[*] 2 fixable with `mslint --fix --unsafe-fixes`." in out


def test_no_mode_for_a_file_that_does_not_parse(repo: Path, capsys: pytest.CaptureFixture) -> None:
    (repo / "broken.py").write_text("def f(:\n    pass\n", encoding="utf-8")
    code, out, _ = run(capsys, "broken.py")
    assert code == 1 and "syntax-error" in out and "Mode:" not in out
    _, out, _ = run(capsys, "--format=json", "broken.py")
    assert "mode" not in json.loads(out)["findings"][0]


def test_plurals_in_the_summary() -> None:
    report = {"findings": [], "problems": [], "files": 1, "confirmation": {"cells_compiled": 1, "modules": 1, "new": 1}}
    assert cli.summary_line(report).splitlines()[1] == (
        "Runtime confirmation: 0 confirmed, 0 not reproduced, 0 not run, 1 new compile error; 1 Cell compiled in 1 module."
    )


def test_the_plugin_and_the_command_share_the_confirm_timeout() -> None:
    from mslint.confirm import checker, rules

    option = dict(checker.RuntimeConfirmationChecker.options)["confirm-timeout"]
    assert option["default"] == cli.CONFIRM_TIMEOUT == rules.DEFAULT_TIMEOUT == 120.0
    assert "120" in option["help"]


@pytest.mark.parametrize(
    ("direct_url", "expected"),
    [
        (None, "-m pip install 'mslint[runtime]'"),
        ({"url": "file:///src/mslint", "dir_info": {"editable": True}}, "-m pip install -e '/src/mslint[runtime]'"),
        ({"url": "file:///src/mslint", "dir_info": {}}, "-m pip install '/src/mslint[runtime]'"),
        ({"url": "https://github.com/mslint/mslint", "vcs_info": {"vcs": "git", "commit_id": "abc"}},
         "-m pip install 'mslint[runtime] @ git+https://github.com/mslint/mslint'"),
    ],
)
def test_the_install_hint_follows_how_mslint_was_installed(monkeypatch: pytest.MonkeyPatch, direct_url: dict | None, expected: str) -> None:
    from mslint.knowledge import version

    monkeypatch.setattr(version, "_direct_url", lambda: direct_url)
    hint = version.install_hint("runtime")
    assert hint.endswith(expected) and hint.startswith(sys.executable)


def test_the_runtime_hint_here_names_this_clone(monkeypatch: pytest.MonkeyPatch) -> None:
    """This checkout is installed editable (the README's way): the hint is the
    command that works for it, not a PyPI install."""
    import importlib.util

    from mslint import confirm

    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec", lambda name, *args: None if name == "mindspore" else real(name, *args))
    with pytest.raises(confirm.RuntimeModeUnavailable) as raised:
        confirm.check_available()
    assert f"-m pip install -e '{ROOT}[runtime]'" in str(raised.value)
