"""Notebooks (issue 17, item 9): code cells checked, magics and shell lines
skipped, findings at `train.ipynb:cell 3:line 3` in text and at the .ipynb
file's line in SARIF/GitHub, notebooks found in folders, cached."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from mslint.run import cli
from mslint.report import notebooks, sarif

SCHEMA = Path(__file__).resolve().parent / "data" / "sarif-schema-2.1.0.json"
CELLS = [
    {"cell_type": "markdown", "metadata": {}, "source": ["# Training\n"]},
    {"cell_type": "code", "metadata": {}, "execution_count": 1, "outputs": [],
     # a notebook is a program: it compiles its Cell because it selects GRAPH_MODE
     "source": ["%matplotlib inline\n", "!pip install mindspore\n", "files = !ls\n", "import numpy as np\n", "from mindspore import nn\n",
                "import mindspore as ms\n", "ms.set_context(mode=ms.GRAPH_MODE)"]},
    {"cell_type": "code", "metadata": {}, "execution_count": 2, "outputs": [],
     "source": ["class Net(nn.Cell):\n", "    def construct(self, x):\n", "        return np.exp(x)"]},
    {"cell_type": "code", "metadata": {}, "execution_count": 3, "outputs": [], "source": ["%%bash\n", "for x in 1 2; do echo $x; done"]},
    {"cell_type": "code", "metadata": {}, "execution_count": 4, "outputs": [], "source": ["%%time\n", "if True:\n", "    !nvidia-smi\n", "net = Net()"]},
]


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


@pytest.fixture
def notebook_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    (tmp_path / ".git").mkdir()
    (tmp_path / "notebooks").mkdir()
    (tmp_path / "notebooks" / "train.ipynb").write_text(
        json.dumps({"cells": CELLS, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1), encoding="utf-8")
    (tmp_path / "notebooks" / ".ipynb_checkpoints").mkdir()
    (tmp_path / "notebooks" / ".ipynb_checkpoints" / "train-checkpoint.ipynb").write_text(
        (tmp_path / "notebooks" / "train.ipynb").read_text(encoding="utf-8"), encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = cli.main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_the_shadow_module_blanks_magics_and_shell_lines(notebook_project: Path) -> None:
    shadow = notebooks.shadow_of(str(notebook_project / "notebooks" / "train.ipynb"))
    lines = shadow.text.splitlines()
    assert lines[:5] == ["", "", "", "import numpy as np", "from mindspore import nn"]
    assert "for x in" not in shadow.text  # a %%bash cell is not Python
    assert "    pass" in lines and "net = Net()" in lines  # a shell line in a block keeps the block
    compile(shadow.text, "train", "exec")
    assert shadow.origin[lines.index("        return np.exp(x)")] == (3, 3)


def test_a_finding_in_a_notebook_shows_its_cell(notebook_project: Path, capsys: pytest.CaptureFixture) -> None:
    code, out, err = run(capsys, "--verbose", ".")  # found in the folder; checkpoints skipped
    assert code == 1
    assert out.splitlines()[0].startswith("notebooks/train.ipynb:cell 3:line 3:16: E7101 [ms-numpy-on-tensor] np.exp()")
    assert "1 file: 1 checked, 0 from the cache" in err
    _, again, err = run(capsys, "--verbose", ".")
    assert again == out and "1 file: 0 checked, 1 from the cache" in err


def test_sarif_and_github_point_at_the_line_of_the_ipynb_file(notebook_project: Path, capsys: pytest.CaptureFixture) -> None:
    text = (notebook_project / "notebooks" / "train.ipynb").read_text(encoding="utf-8").splitlines()
    line = next(number for number, content in enumerate(text, 1) if "return np.exp(x)" in content)
    column = text[line - 1].index("np.exp") + 1
    _, out, _ = run(capsys, "--format=sarif", "notebooks/train.ipynb")
    log = json.loads(out)
    sarif.validate(log, SCHEMA)
    result = log["runs"][0]["results"][0]
    location = result["locations"][0]["physicalLocation"]
    assert location["artifactLocation"]["uri"] == "notebooks/train.ipynb"
    assert (location["region"]["startLine"], location["region"]["startColumn"]) == (line, column)
    assert (result["properties"]["cell"], result["properties"]["cellLine"]) == (3, 3)
    _, out, _ = run(capsys, "--format=github", "notebooks/train.ipynb")
    assert re.match(rf"::error file=notebooks/train.ipynb,line={line},col={column},.*::cell 3, line 3: np.exp\(\)", out)
    _, out, _ = run(capsys, "--format=json", "notebooks/train.ipynb")
    finding = json.loads(out)["findings"][0]
    assert (finding["line"], finding["cell"], finding["cellLine"], finding["cellColumn"]) == (line, 3, 3, 16)


def test_a_broken_notebook_is_an_input_error(notebook_project: Path, capsys: pytest.CaptureFixture) -> None:
    (notebook_project / "broken.ipynb").write_text("{not json", encoding="utf-8")
    code, _, err = run(capsys, "broken.ipynb", "notebooks")
    assert code == 2
    assert "broken.ipynb: not a readable notebook" in err


FIXABLE_CELLS = [
    {"cell_type": "markdown", "metadata": {"tags": ["intro"]}, "source": ["# Fix me\n"]},
    {"cell_type": "code", "metadata": {"scrolled": True}, "execution_count": 1,
     "outputs": [{"name": "stdout", "output_type": "stream", "text": ["ok\n"]}],
     "source": ["%matplotlib inline\n", "!pip install mindspore\n", "from mindspore import nn"]},
    {"cell_type": "code", "metadata": {}, "execution_count": 2, "outputs": [],
     "source": ["%%time\n", "layer = nn.Dense(16, 4, bias=False)  # é\n", "other = nn.Dense(4, 2)"]},
]


@pytest.mark.parametrize("indent", [1, 2])
def test_fix_rewrites_only_the_cells_code(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, indent: int) -> None:
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    document = {"cells": FIXABLE_CELLS, "metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}
    path = tmp_path / "fix.ipynb"
    original = json.dumps(document, indent=indent, ensure_ascii=False) + "\n"
    path.write_text(original, encoding="utf-8")
    select = ("--select", "ms-torch-keyword-args", "--no-cache")

    code, out, _ = run(capsys, *select, "fix.ipynb")
    assert code == 1 and "cell 3:line 2" in out and path.read_text(encoding="utf-8") == original  # no write without --fix

    code, out, _ = run(capsys, *select, "--diff", "fix.ipynb")
    assert code == 1 and '-' + ' ' * (indent * 4) + '"layer = nn.Dense(16, 4, bias=False)' in out and "has_bias=False" in out
    assert path.read_text(encoding="utf-8") == original and not list(tmp_path.glob(".mslint-diff-*"))

    run(capsys, *select, "--fix", "fix.ipynb")
    expected = json.loads(original)
    expected["cells"][2]["source"][1] = "layer = nn.Dense(16, 4, has_bias=False)  # é\n"
    assert path.read_text(encoding="utf-8") == json.dumps(expected, indent=indent, ensure_ascii=False) + "\n"  # only that line, same style
    assert json.loads(path.read_text(encoding="utf-8"))["cells"][1] == FIXABLE_CELLS[1]  # outputs, metadata, magics untouched
    fixed = path.read_text(encoding="utf-8")
    code, out, _ = run(capsys, *select, "--fix", "fix.ipynb")
    assert code == 0 and path.read_text(encoding="utf-8") == fixed  # idempotent


def test_fix_never_edits_a_magic_line() -> None:
    from mslint.analysis import edits

    raw = json.dumps({"cells": FIXABLE_CELLS, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n"
    on_magic = edits.Patch("x", edits.SAFE, (edits.Edit(1, 2, 1, 5, "zzz"),))  # shadow line 1: %matplotlib
    assert notebooks.fixed_notebook(raw, "n.ipynb", [on_magic]) == (raw, [])
    on_code = edits.Patch("x", edits.SAFE, (edits.Edit(5, 25, 5, 29, "has_bias"),))
    text, taken = notebooks.fixed_notebook(raw, "n.ipynb", [on_code])
    assert taken == [on_code] and json.loads(text)["cells"][2]["source"][1].startswith("layer = nn.Dense(16, 4, has_bias=False)")


def _code_cells(*sources: str) -> str:
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [], "source": source}
             for source in sources]
    return json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1)


def test_a_future_import_opening_a_later_cell_compiles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture) -> None:
    """Jupyter compiles each cell on its own: a ``from __future__`` import that
    opens a cell (after its comments or docstring) is legal there, though the
    shadow module of all the cells together does not compile."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "prep.ipynb").write_text(_code_cells(
        "import json\nrows = []",
        "# build the vocabulary\n\nfrom __future__ import print_function\nprint(len(rows))",
        '"""The reader."""\nfrom __future__ import division\nhalf = len(rows) / 2',
    ), encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", "prep.ipynb")
    assert code == 0 and "syntax-error" not in out


def test_a_cell_that_does_not_compile_is_still_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                       capsys: pytest.CaptureFixture) -> None:
    """Judged cell by cell: a ``__future__`` import late in its own cell stays an
    error, and so does a later cell's error the shadow's first failure hid."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "late.ipynb").write_text(_code_cells(
        "import json", "rows = []\nfrom __future__ import division"), encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", "late.ipynb")
    assert code == 1 and "late.ipynb:cell 2:line 2:1: E0001 [syntax-error] the file does not compile: from __future__ imports" in out
    (tmp_path / "hidden.ipynb").write_text(_code_cells(
        "import json", "from __future__ import division\nrows = []", "print(end='', end='')"), encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", "hidden.ipynb")
    assert code == 1 and "hidden.ipynb:cell 3:line 1:" in out and "keyword argument repeated" in out


def test_a_shell_line_continued_by_backslashes_is_one_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                              capsys: pytest.CaptureFixture) -> None:
    """IPython joins a ``!``/``%`` line ending in a backslash with the lines
    after it into one command: those (indented) lines are not Python; the line
    after the last continuation is, and its errors are still reported."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "bench.ipynb").write_text(_code_cells(
        "# run the benchmark\n!python run.py --fast \\\n        --models a \\\n          b\nimport os",
        "files = !ls \\\n    -la\nif files:\n    %time print(len(files)) \\\n        \n    print(os.sep)",
        "print(os.sep\n",
    ), encoding="utf-8")
    shadow = notebooks.shadow_of(str(tmp_path / "bench.ipynb"))
    lines = shadow.text.splitlines()
    assert lines[:5] == ["# run the benchmark", "", "", "", "import os"]
    assert lines[5:11] == ["", "", "if files:", "    pass", "", "    print(os.sep)"]
    assert not any(shadow.own_text[1:4]) and shadow.own_text[4]
    code, out, _ = run(capsys, "--no-cache", "bench.ipynb")
    assert code == 1 and [line for line in out.splitlines() if "syntax-error" in line] == [
        next(line for line in out.splitlines() if line.startswith("bench.ipynb:cell 3:line 1:"))]


def test_a_one_line_cell_ipython_runs_as_a_magic_is_not_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                capsys: pytest.CaptureFixture) -> None:
    """IPython's automagic runs a one-line cell starting with a line magic's or a
    shell alias's name as that magic (``pip install mindspore`` is ``%pip``), and
    only a one-line cell: two such lines in a cell, or a line that is Python
    (``cd = 3``), stay Python, and a syntax error there is reported."""
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    (tmp_path / "setup.ipynb").write_text(_code_cells(
        "pip install mindspore\n",
        "ls -la data",
        "cd = 3",
        "pip install numpy\npip install mindspore",
    ), encoding="utf-8")
    shadow = notebooks.shadow_of(str(tmp_path / "setup.ipynb"))
    by_cell: dict[int, list[str]] = {}
    for line, (cell, _) in zip(shadow.text.splitlines(), shadow.origin):
        by_cell.setdefault(cell, []).append(line)
    assert [" ".join(by_cell[cell]).strip() for cell in (1, 2, 3, 4)] == [
        "", "", "cd = 3", "pip install numpy pip install mindspore"]
    code, out, _ = run(capsys, "--no-cache", "setup.ipynb")
    errors = [line for line in out.splitlines() if "syntax-error" in line]
    assert code == 1 and len(errors) == 1 and errors[0].startswith("setup.ipynb:cell 4:line 1:")


def test_an_indented_shell_line_opening_a_cell_is_no_indentation_error() -> None:
    # IPython drops the indentation a cell opens with: ``    !pip install x`` runs;
    # inside a block the blanked line keeps the block (``pass``)
    raw = _code_cells(["    !pip install mindspore\n"], ["for step in range(2):\n", "    !echo $step\n"], ["x = 1"])
    shadow = notebooks.shadow_from(raw, "n.ipynb")
    assert [line for line in shadow.text.split("\n") if line][:3] == ["for step in range(2):", "    pass", "x = 1"]
    compile(shadow.text, "n.ipynb", "exec")
