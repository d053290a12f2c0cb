"""The pre-commit hook: `pre-commit try-repo` on this checkout fails on a bad
file and passes on a good one, in the environment pre-commit builds from the
hook's declaration alone (pylint and astroid: no mindspore, no torch).

try-repo clones the repository at HEAD and carries over only changes to files
git already tracks, so the checkout (tracked and untracked, not ignored files)
is first copied into a temporary repository and committed there."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

try:
    import tomllib
except ImportError:  # pragma: no cover - Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]

import yaml

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures" / "cli"
GIT = ["git", "-c", "user.name=mslint tests", "-c", "user.email=tests@mslint.invalid", "-c", "commit.gpgsign=false"]


def _git(*args: str, cwd: Path) -> None:
    subprocess.run([*GIT, *args], cwd=cwd, check=True, capture_output=True, timeout=120)


@pytest.fixture(scope="module")
def hook_repo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    repo = tmp_path_factory.mktemp("hook-repo")
    listed = subprocess.run(
        ["git", "ls-files", "--cached", "--others", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True, check=True
    ).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file() and not source.is_symlink():
            (repo / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, repo / name)
    _git("init", "-q", cwd=repo)
    _git("add", "-A", cwd=repo)
    _git("commit", "-q", "-m", "checkout under test", cwd=repo)
    return repo


@pytest.fixture
def user_project(tmp_path: Path) -> Path:
    project = tmp_path / "project"
    project.mkdir()
    _git("init", "-q", cwd=project)
    shutil.copy(FIXTURES / "bad.py", project / "bad_model.py")
    shutil.copy(FIXTURES / "good.py", project / "good_model.py")
    _git("add", "-A", cwd=project)
    return project


def try_repo(hook_repo: Path, project: Path, *files: str, hook: str = "mslint") -> subprocess.CompletedProcess:
    env = dict(os.environ)
    env["PRE_COMMIT_HOME"] = str(project.parent / "pre-commit-home")
    env["MSLINT_CACHE_DIR"] = str(project.parent / "mslint-cache")
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    return subprocess.run(
        [sys.executable, "-m", "pre_commit", "try-repo", str(hook_repo), hook, "--verbose", "--files", *files],
        cwd=project,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=1200,
    )


def test_hook_declaration() -> None:
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(hook for hook in hooks if hook["id"] == "mslint")
    assert hook["language"] == "python"
    assert hook["types_or"] == ["python", "jupyter"]  # notebooks too
    assert hook["require_serial"] is True
    assert hook["entry"] == "mslint"
    assert not hook.get("additional_dependencies")
    # what pre-commit installs: the package and its core dependencies only
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = " ".join(project["dependencies"]).lower()
    assert "mindspore" not in core and "torch" not in core
    assert project["scripts"]["mslint"] == "mslint.run.cli:main"


def test_try_repo_fails_on_a_bad_file_and_passes_on_a_good_one(hook_repo: Path, user_project: Path) -> None:
    bad = try_repo(hook_repo, user_project, "bad_model.py")
    output = bad.stdout + bad.stderr
    assert bad.returncode == 1, output
    assert "mslint" in output and "Failed" in output
    assert "bad_model.py" in output and "ms-numpy-on-tensor" in output and "ms-cell-in-construct" in output
    assert "Traceback" not in output

    good = try_repo(hook_repo, user_project, "good_model.py")
    output = good.stdout + good.stderr
    assert good.returncode == 0, output
    assert "Passed" in output


def test_hook_environment_has_neither_mindspore_nor_torch(hook_repo: Path, user_project: Path) -> None:
    """The same hook through `pre-commit run` with a kept store, to look inside
    the environment pre-commit built for it."""
    sha = subprocess.run(["git", "rev-parse", "HEAD"], cwd=hook_repo, capture_output=True, text=True, check=True).stdout.strip()
    config = user_project / ".pre-commit-config.yaml"
    config.write_text(
        yaml.safe_dump({"repos": [{"repo": str(hook_repo), "rev": sha, "hooks": [{"id": "mslint"}]}]}), encoding="utf-8"
    )
    home = user_project.parent / "kept-home"
    env = dict(os.environ, PRE_COMMIT_HOME=str(home), MSLINT_CACHE_DIR=str(user_project.parent / "mslint-cache"))
    env.pop("PYTHONPATH", None)
    env.pop("VIRTUAL_ENV", None)
    done = subprocess.run(
        [sys.executable, "-m", "pre_commit", "run", "--files", "good_model.py", "bad_model.py"],
        cwd=user_project, capture_output=True, text=True, env=env, check=False, timeout=1200,
    )
    assert done.returncode == 1, done.stdout + done.stderr
    interpreters = sorted(home.glob("*/py_env-*/bin/python"))
    assert interpreters, list(home.rglob("py_env-*"))
    probe = "import importlib.util as u; print(u.find_spec('mindspore') is None, u.find_spec('torch') is None, u.find_spec('mslint') is not None)"
    for python in interpreters:
        shown = subprocess.run([str(python), "-c", probe], capture_output=True, text=True, check=True, env=env).stdout.split()
        assert shown == ["True", "True", "True"], python


def test_the_fix_hook_fixes_a_notebook(hook_repo: Path, tmp_path: Path) -> None:
    """mslint-fix takes notebooks (issue 27): a staged .ipynb is fixed in its
    code cells, and pre-commit fails the commit because the hook changed it."""
    project = tmp_path / "project"
    project.mkdir()
    _git("init", "-q", cwd=project)
    cells = [{"cell_type": "code", "metadata": {}, "execution_count": None, "outputs": [],
              "source": ["from mindspore import nn\n", "layer = nn.Dense(16, 4, bias=False)"]}]
    notebook = project / "explore.ipynb"
    notebook.write_text(json.dumps({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, indent=1) + "\n", encoding="utf-8")
    _git("add", "-A", cwd=project)
    done = try_repo(hook_repo, project, "explore.ipynb", hook="mslint-fix")
    output = done.stdout + done.stderr
    assert done.returncode == 1, output
    assert "files were modified by this hook" in output and "Traceback" not in output
    assert json.loads(notebook.read_text(encoding="utf-8"))["cells"][0]["source"][1] == "layer = nn.Dense(16, 4, has_bias=False)"
