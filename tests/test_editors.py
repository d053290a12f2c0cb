"""Editors (issue 17, items 10 and 13; issue 27, item 4): `mslint -` with
--stdin-filename, the command line and problem matcher docs/editors.md gives
VS Code, and the server set-ups it gives."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BAD = ROOT / "fixtures" / "cli" / "bad.py"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def mslint(*args: str, cwd: Path, stdin: bytes | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mslint", *args], cwd=cwd, input=stdin, capture_output=True, timeout=300, check=False)


def test_standard_input_is_checked_under_its_given_name(tmp_path: Path) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "model.py").write_text("# the saved file differs from the buffer\n", encoding="utf-8")
    done = mslint("-", "--stdin-filename", "pkg/model.py", "--format=json", cwd=tmp_path, stdin=BAD.read_bytes())
    assert done.returncode == 1, done.stderr
    report = json.loads(done.stdout)
    assert {(item["path"], item["symbol"]) for item in report["findings"]} == {
        ("pkg/model.py", "ms-numpy-on-tensor"), ("pkg/model.py", "ms-cell-in-construct")}
    assert report["summary"]["files"] == 1
    assert not list(tmp_path.rglob("*.py"))[1:], "nothing written beside the sources"


def test_standard_input_follows_the_configuration_of_its_name(tmp_path: Path) -> None:
    (tmp_path / "pyproject.toml").write_text('[tool.mslint]\nexclude = ["legacy/"]\nignore = ["ms-cell-in-construct"]\n', encoding="utf-8")
    done = mslint("-", "--stdin-filename=model.py", cwd=tmp_path, stdin=BAD.read_bytes())
    assert done.returncode == 1 and b"ms-cell-in-construct" not in done.stdout and b"model.py:" in done.stdout
    done = mslint("-", "--stdin-filename=legacy/model.py", cwd=tmp_path, stdin=BAD.read_bytes())
    assert done.returncode == 0 and b"No findings in 0 files." in done.stdout


def test_stdin_filename_needs_the_dash(tmp_path: Path) -> None:
    shutil.copy(BAD, tmp_path / "bad.py")
    done = mslint("--stdin-filename=x.py", "bad.py", cwd=tmp_path)
    assert done.returncode == 2 and b"--stdin-filename goes with the path -" in done.stderr


def _vscode_task() -> dict:
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    for block in re.findall(r"```json\n(.*?)```", text, re.S):
        document = json.loads(block)
        if "tasks" in document:
            return document["tasks"][0]
    raise AssertionError("docs/editors.md has no VS Code task")


# bad.py and a layer whose finding has a safe fix: its report line carries the [*] marker
FIXABLE = BAD.read_text(encoding="utf-8") + """

class Block(nn.Cell):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(4, 4, 3, padding=1)

    def construct(self, x):
        return self.conv(x)
"""


def test_the_documented_vscode_task_runs_and_its_pattern_matches(tmp_path: Path) -> None:
    """Every finding reaches the Problems panel, those with a fix too (issue 27,
    item 4: the pattern once required the symbol right after the id, and the
    fixable findings, `E7501 [*] [ms-conv-padding-ignored]`, were dropped)."""
    task = _vscode_task()
    assert task["command"] == "mslint"
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "model.py").write_text(FIXABLE, encoding="utf-8")
    values = {"${file}": str(tmp_path / "src" / "model.py"), "${workspaceFolder}": str(tmp_path)}
    args = [values.get(arg, arg) for arg in task["args"]]
    script = Path(sys.executable).with_name("mslint")
    done = subprocess.run([str(script), *args], cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False)
    assert done.returncode == 1, done.stderr
    assert " [*] [ms-conv-padding-ignored] " in done.stdout
    reported = int(re.search(r"^Found (\d+) findings", done.stdout, re.M)[1])
    matcher = task["problemMatcher"]
    assert matcher["fileLocation"] == ["relative", "${workspaceFolder}"]
    pattern = matcher["pattern"]
    matches = [re.match(pattern["regexp"], line) for line in done.stdout.splitlines()]
    found = [(m[pattern["file"]], int(m[pattern["line"]]), m[pattern["code"]], m[pattern["message"]]) for m in matches if m]
    # 4: the port rule ms-layer-default-differs is on in this module (it carries a
    # PyTorch idiom mslint flags, padding without pad_mode)
    assert len(found) == reported == 4
    assert all(path == os.path.join("src", "model.py") and (tmp_path / path).is_file() for path, _, _, _ in found)
    assert {code for _, _, code, _ in found} == {"ms-numpy-on-tensor", "ms-cell-in-construct", "ms-conv-padding-ignored", "ms-layer-default-differs"}
    assert all(not message.startswith("[") for _, _, _, message in found)


def _documented_blocks(language: str) -> list[str]:
    text = (ROOT / "docs" / "editors.md").read_text(encoding="utf-8")
    return re.findall(rf"```{language}\n(.*?)```", text, re.S)


def test_the_documented_server_setups_start_the_servers() -> None:
    """docs/editors.md starts `mslint server` (VS Code, Neovim) and `mslint mcp`
    (agents) with the arguments the command takes (tests/test_servers.py drives them)."""
    documents = [json.loads(block) for block in _documented_blocks("json")]
    vscode = next(document for document in documents if "glspc.server.command" in document)
    assert vscode["glspc.server.command"].endswith("mslint") and vscode["glspc.server.commandArguments"] == ["server"]
    assert vscode["glspc.server.languageId"] == ["python"]
    assert "source.fixAll.mslint" in vscode["editor.codeActionsOnSave"]
    agents = [document.get("mcpServers", document.get("servers", {})).get("mslint") for document in documents]
    agents = [agent for agent in agents if agent]
    assert len(agents) == 2 and all(agent["command"] == "mslint" and agent["args"] == ["mcp"] for agent in agents)
    lua = _documented_blocks("lua")
    assert len(lua) == 2 and all('cmd = { "mslint", "server" }' in block for block in lua)
    for argv in (["server", "--help"], ["server", "--stdio", "--help"], ["mcp", "--help"]):
        done = subprocess.run([sys.executable, "-m", "mslint", *argv], capture_output=True, text=True, timeout=120, check=False)
        assert done.returncode == 0 and "usage: mslint " + argv[0] in done.stdout
