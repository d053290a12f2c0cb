"""mslint works, and finds exactly the same, where mindspore and torch are not
installed (a pre-commit environment, a CI job without the frameworks).

"Not installed" is simulated faithfully: a Python started with ``-S`` gets a copy
of this environment's site-packages made of links to every entry except
mindspore's and torch's (so neither ``import`` nor astroid can find their
sources), and a meta-path finder that makes ``import mindspore``/``import torch``
raise ImportError. The same files are linted there and here, by the pylint plugin
and by the ``mslint`` command, and the findings compared.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import sysconfig
import textwrap
from pathlib import Path

import pytest

# Compares the findings here (mindspore and torch installed) with those where they
# are not: it needs them installed to mean anything.
pytestmark = pytest.mark.frameworks


def _cases():
    """The tricky module and the aliasing project of test_no_external_inference.py
    (loaded by path: the tests folder is not a package)."""
    import importlib.util  # noqa: PLC0415

    path = Path(__file__).with_name("test_no_external_inference.py")
    spec = importlib.util.spec_from_file_location("_mslint_inference_cases", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.PROJECT, module.TRICKY


PROJECT, TRICKY = _cases()

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FRAMEWORK_ENTRY = re.compile(r"^(mindspore|torch|functorch|torchgen)([-_.].*)?$", re.IGNORECASE)

BOOTSTRAP = r"""
import importlib.abc, importlib.util, site, sys

site.addsitedir(sys.argv.pop(1))

class NoFrameworks(importlib.abc.MetaPathFinder):
    def find_spec(self, fullname, path=None, target=None):
        if fullname.split(".", 1)[0] in ("mindspore", "torch"):
            raise ImportError(f"{fullname} is not installed here")
        return None

sys.meta_path.insert(0, NoFrameworks())
for name in ("mindspore", "torch"):
    try:
        __import__(name)
    except ImportError:
        pass
    else:
        raise SystemExit(f"{name} is importable: the test environment is wrong")
sys.meta_path.remove(sys.meta_path[0])  # now prove astroid cannot find them either
assert importlib.util.find_spec("mindspore") is None and importlib.util.find_spec("torch") is None
sys.meta_path.insert(0, NoFrameworks())
print("FRAMEWORKS-HIDDEN", file=sys.stderr)
tool = sys.argv.pop(1)
if tool == "pylint":
    from pylint import run_pylint
    sys.argv = ["pylint", *sys.argv[1:]]
    run_pylint()
else:
    from mslint.run.cli import main
    sys.exit(main(sys.argv[1:]))
"""

PYLINT_ARGS = [
    "--load-plugins=mslint", "--persistent=n", "--score=n", "--reports=n", "--recursive=y", "--output-format=json2",
]


@pytest.fixture(scope="module")
def shadow_site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """site-packages without the frameworks: links to everything else."""
    shadow = tmp_path_factory.mktemp("site-packages-without-frameworks")
    hidden = []
    for key in ("purelib", "platlib"):
        source = Path(sysconfig.get_paths()[key])
        for entry in source.iterdir():
            if FRAMEWORK_ENTRY.match(entry.name):
                hidden.append(entry.name)
                continue
            link = shadow / entry.name
            if not link.exists():
                link.symlink_to(entry)
    assert any(name.lower().startswith("mindspore") for name in hidden), hidden
    return shadow


@pytest.fixture(scope="module")
def workspace(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("workspace")
    (root / "tricky_spellings.py").write_text(textwrap.dedent(TRICKY), encoding="utf-8")
    for name, source in PROJECT.items():
        (root / name).parent.mkdir(exist_ok=True)
        (root / name).write_text(textwrap.dedent(source), encoding="utf-8")
    return root


def _enable_all() -> str:
    from pylint.lint import PyLinter  # noqa: PLC0415

    import mslint  # noqa: PLC0415

    linter = PyLinter()
    mslint.register(linter)
    symbols = sorted(m.symbol for m in linter.msgs_store.messages if m.checker_name != "main")
    return "--enable=" + ",".join(symbols)


def _targets(workspace: Path) -> list[str]:
    return [str(FIXTURES), "tricky_spellings.py", "proj"]


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def _pylint_findings(stdout: str) -> list[tuple]:
    messages = json.loads(stdout)["messages"]
    return sorted((m["path"], m["line"], m["column"], m["symbol"], m["message"]) for m in messages)


def test_plugin_without_frameworks_finds_the_same(shadow_site: Path, workspace: Path) -> None:
    args = [*PYLINT_ARGS, "--disable=all", _enable_all(), *_targets(workspace)]
    with_frameworks = _run([sys.executable, "-m", "pylint", *args], workspace)
    without = _run([sys.executable, "-S", "-c", BOOTSTRAP, str(shadow_site), "pylint", *args], workspace)
    assert "FRAMEWORKS-HIDDEN" in without.stderr, without.stderr[-3000:]
    expected = _pylint_findings(with_frameworks.stdout)
    assert len(expected) > 50  # the fixtures do raise findings
    assert not [f for f in expected if f[3] in ("fatal", "astroid-error")], expected
    assert _pylint_findings(without.stdout) == expected


def test_command_without_frameworks_finds_the_same(shadow_site: Path, workspace: Path) -> None:
    args = ["--no-cache", "--format=json", "--jobs=1", *_targets(workspace)]

    def findings(done: subprocess.CompletedProcess) -> list[tuple]:
        report = json.loads(done.stdout)
        return sorted((f["path"], f["line"], f["column"], f["symbol"], f.get("message")) for f in report["findings"])

    with_frameworks = _run([sys.executable, "-m", "mslint", *args], workspace)
    without = _run([sys.executable, "-S", "-c", BOOTSTRAP, str(shadow_site), "mslint", *args], workspace)
    assert "FRAMEWORKS-HIDDEN" in without.stderr, without.stderr[-3000:]
    expected = findings(with_frameworks)
    assert len(expected) > 50
    assert findings(without) == expected
