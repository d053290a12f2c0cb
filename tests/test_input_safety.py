"""Hostile input to the mslint command (issue 22, items 11 to 15; issue 27,
item 9): odd files and file names, runaway worker counts, workers that outlive
a killed run, broken configuration, closed output. Each test reproduced its
defect first. Tests whose defect was a hang or a memory runaway run mslint in
a child process under a time and memory limit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mslint.run import cli

ROOT = Path(__file__).resolve().parent.parent
FINDING = "from mindspore import nn\nd = nn.Dense(4, 2, bias=False)\n"


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(folder))
    return folder


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = cli.main(["--jobs", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


def run_limited(folder: Path, *args: str, memory: int = 3 << 30, timeout: float = 120, shell_suffix: str = "") -> subprocess.CompletedProcess:
    """mslint in a child process with at most ``memory`` bytes of address space."""
    script = (
        "import resource, sys\n"
        f"resource.setrlimit(resource.RLIMIT_AS, ({memory}, {memory}))\n"
        "from mslint.run import cli\n"
        "sys.exit(cli.main(sys.argv[1:]))\n"
    )
    command = [sys.executable, "-c", script, *args]
    if shell_suffix:
        command = ["sh", "-c", " ".join(f"'{part}'" for part in command) + " " + shell_suffix]
    return subprocess.run(command, cwd=folder, capture_output=True, text=True, timeout=timeout, check=False)  # noqa: S603


# ---------------------------------------------------------------------------
# 11. file names and files that are not files
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("fmt", ["text", "json", "sarif", "github"])
def test_a_file_name_that_is_not_utf8_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, fmt: str) -> None:
    (tmp_path / ".git").mkdir()
    Path(os.fsdecode(bytes(tmp_path) + b"/mod\xff.py")).write_text(FINDING, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    output = tmp_path / "report.out"
    code = cli.main(["--jobs", "1", "--format", fmt, "--output", str(output), "."])
    _, err = capsys.readouterr()
    assert code == cli.EXIT_FINDINGS, err
    text = output.read_bytes().decode("utf-8")  # valid UTF-8 whatever the name
    if fmt == "json":
        assert os.fsencode(json.loads(text)["findings"][0]["path"]) == b"mod\xff.py"  # the name's own bytes, escaped
    elif fmt == "sarif":
        result = json.loads(text)["runs"][0]["results"][0]
        assert result["locations"][0]["physicalLocation"]["artifactLocation"]["uri"] == "mod%FF.py"
    else:
        assert "mod\\xff.py" in text


def test_fifos_devices_and_huge_files_are_skipped_and_said(tmp_path: Path) -> None:
    """A FIFO named *.py used to block the run forever, a link to /dev/zero to
    read until memory ran out."""
    (tmp_path / "good.py").write_text(FINDING, encoding="utf-8")
    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    result = run_limited(tmp_path, "--no-cache", ".", timeout=120)
    assert result.returncode == cli.EXIT_ERROR, result.stderr
    assert "pipe.py: not a regular file (a FIFO); skipped" in result.stderr
    assert "zero.py: not a regular file (a character device); skipped" in result.stderr
    assert "good.py:2:20: E8001" in result.stdout
    named = run_limited(tmp_path, "--no-cache", "pipe.py", "zero.py", timeout=120)
    assert named.returncode == cli.EXIT_ERROR and "not a regular file" in named.stderr


def test_a_file_over_the_size_limit_is_skipped_and_said(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cli, "MAX_SOURCE_BYTES", 200)
    (tmp_path / "small.py").write_text(FINDING, encoding="utf-8")
    (tmp_path / "large.py").write_text(FINDING + "#" * 300 + "\n", encoding="utf-8")
    code, out, err = run(capsys, str(tmp_path))
    assert "large.py: larger than 0 MiB (0 MiB); skipped" in err
    assert "small.py:2:20" in out and "large.py:" not in out
    assert code == cli.EXIT_ERROR


# ---------------------------------------------------------------------------
# 12, 13. workers: as many as CPUs, and they die with the command
# ---------------------------------------------------------------------------


@pytest.mark.parametrize("setting", [("--jobs", "1000"), ("config", "99999999999999999999")])
def test_workers_are_capped_at_the_cpus(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, setting: tuple[str, str]) -> None:
    asked: list[int] = []
    monkeypatch.setattr(cli, "lint", lambda tasks, settings, jobs, progress=None: asked.append(jobs) or {})
    (tmp_path / "a.py").write_text(FINDING, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    if setting[0] == "config":
        (tmp_path / "pyproject.toml").write_text(f"[tool.mslint]\njobs = {setting[1]}\n", encoding="utf-8")
        cli.main(["--no-cache", "a.py"])
    else:
        cli.main(["--no-cache", *setting, "a.py"])
    capsys.readouterr()
    assert asked and 1 <= asked[0] <= len(os.sched_getaffinity(0))


_HANGING = """
import sys
from mslint.run import cli, pool
from mslint.checkers import graph_host_code

def hang(self, node):
    if node.root().name.startswith("slow"):
        while True:
            pass

graph_host_code.GraphHostCodeChecker.visit_call = hang
cli.available_cpus = lambda: 2  # two workers even on a one-CPU machine
sys.exit(cli.main(sys.argv[1:]))
"""


def _children(pid: int) -> set[int]:
    found: set[int] = set()
    for task in Path(f"/proc/{pid}/task").iterdir():
        found.update(int(word) for word in (task / "children").read_text().split())
    return found


def _alive(pid: int) -> bool:
    try:
        status = Path(f"/proc/{pid}/status").read_text()
    except OSError:
        return False
    state = next(line for line in status.splitlines() if line.startswith("State:"))
    return "Z" not in state.split()[1]


def test_sigkill_of_a_static_run_leaves_no_worker(tmp_path: Path) -> None:
    """SIGKILL runs no handler in mslint: its workers used to live on,
    reparented, holding its standard output open."""
    for index in range(8):
        (tmp_path / f"slow{index}.py").write_text(FINDING, encoding="utf-8")
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-c", _HANGING, "--jobs=2", "--timeout=0", "--no-cache", "."],
        cwd=tmp_path, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    workers: set[int] = set()
    try:
        deadline = time.monotonic() + 90
        while time.monotonic() < deadline and len(workers) < 2:
            time.sleep(0.3)
            workers = _children(process.pid)
        assert len(workers) >= 2, "the pool did not start"
        time.sleep(1)
        process.kill()
        process.wait(timeout=30)
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and any(_alive(pid) for pid in workers):
            time.sleep(0.2)
        survivors = [pid for pid in workers if _alive(pid)]
        assert not survivors
        assert process.stdout.read() is not None  # the pipe ends: nothing holds it open
    finally:
        for pid in workers:
            if _alive(pid):
                os.kill(pid, signal.SIGKILL)
        if process.poll() is None:
            process.kill()


# ---------------------------------------------------------------------------
# 14. configuration and output errors: exit 2 with a clear message
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("body", "said"),
    [
        ("timeout = nan\n", "timeout must be a finite number of seconds"),
        ("timeout = inf\n", "timeout must be a finite number of seconds"),
        ("select = []\n", "select names no rule"),
        ("enable = " + "[" * 200000 + "]" * 200000 + "\n", "nests too deeply"),
    ],
)
def test_configuration_mistakes_are_clear_errors(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, body: str, said: str) -> None:
    (tmp_path / "pyproject.toml").write_text("[tool.mslint]\n" + body, encoding="utf-8")
    (tmp_path / "a.py").write_text(FINDING, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "a.py")
    assert code == cli.EXIT_ERROR
    assert said in err and "internal error" not in err


@pytest.mark.parametrize("option", ["--timeout=nan", "--confirm-timeout=nan"])
def test_a_timeout_that_is_not_a_number_is_refused(tmp_path: Path, capsys: pytest.CaptureFixture, option: str) -> None:
    (tmp_path / "a.py").write_text(FINDING, encoding="utf-8")
    extra = ["--confirm"] if "confirm" in option else []
    code, _, err = run(capsys, option, *extra, str(tmp_path / "a.py"))
    assert code == cli.EXIT_ERROR and "finite number of seconds" in err


def test_an_unreadable_pyproject_is_an_error_not_ignored(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """Its [tool.mslint] (excludes, rules) would silently not apply."""
    (tmp_path / "pyproject.toml").write_bytes(b"[tool.mslint]\nexclude = ['caf\xe9/']\n")  # Latin-1, not UTF-8
    (tmp_path / "a.py").write_text(FINDING, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    code, _, err = run(capsys, "a.py")
    assert code == cli.EXIT_ERROR
    assert "cannot read" in err and "pyproject.toml" in err and "--config" in err


def test_a_baseline_nested_too_deeply_is_an_error(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    (tmp_path / "a.py").write_text(FINDING, encoding="utf-8")
    baseline = tmp_path / "baseline.json"
    baseline.write_text('{"findings": ' + "[" * 100000 + "]" * 100000 + "}", encoding="utf-8")
    code, _, err = run(capsys, "--baseline", str(baseline), str(tmp_path / "a.py"))
    assert code == cli.EXIT_ERROR and "nests too deeply" in err


def test_a_baseline_that_is_a_device_is_refused(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(FINDING, encoding="utf-8")
    result = run_limited(tmp_path, "--no-cache", "--baseline", "/dev/zero", "a.py", memory=2 << 30, timeout=120)
    assert result.returncode == cli.EXIT_ERROR, result.stderr[-500:]
    assert "cannot read the baseline /dev/zero: not a regular file" in result.stderr


def test_a_closed_standard_output_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text(FINDING, encoding="utf-8")
    result = run_limited(tmp_path, "--no-cache", "a.py", shell_suffix=">&-")
    assert result.returncode == cli.EXIT_ERROR, result.stderr[-800:]
    assert "standard output is closed" in result.stderr and "Traceback" not in result.stderr
    written = run_limited(tmp_path, "--no-cache", "--output", "report.txt", "a.py", shell_suffix=">&-")
    assert written.returncode == cli.EXIT_FINDINGS and "E8001" in (tmp_path / "report.txt").read_text(encoding="utf-8")


def test_unsafe_fixes_without_fix_says_what_it_does(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "a.py"
    target.write_text("from mindspore import nn\nd = nn.Dropout(0.1)\n", encoding="utf-8")
    code, out, err = run(capsys, "--unsafe-fixes", str(target))
    assert "--unsafe-fixes changes nothing without --fix or --diff" in err
    assert target.read_text(encoding="utf-8") == "from mindspore import nn\nd = nn.Dropout(0.1)\n"
    assert code == cli.EXIT_FINDINGS and "[*]" in out


# ---------------------------------------------------------------------------
# 15. file names cannot forge CI log lines
# ---------------------------------------------------------------------------


def test_a_newline_in_a_file_name_cannot_forge_a_workflow_command(tmp_path: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    name = "x\n::error file=setup.py,line=1::forged by a pull request\n\x1b[2Ka.py"
    (tmp_path / name).write_text(FINDING, encoding="utf-8")
    (tmp_path / "broken\n::warning::too.py").write_bytes(b"\xff\xfe not python")
    monkeypatch.chdir(tmp_path)
    for fmt in ("text", "github"):
        code, out, err = run(capsys, "--format", fmt, ".")
        lines = (out + err).splitlines()
        assert not [line for line in lines if line.startswith(("::error file=setup.py", "::warning::too"))], out + err
        assert not [line for line in lines if "\x1b" in line]
    code, out, err = run(capsys, ".")
    assert "x\\n::error file=setup.py,line=1::forged by a pull request\\n\\x1b[2Ka.py:2:20: E8001" in out


def test_control_characters_in_messages_are_escaped_too() -> None:
    assert cli.printable("a\rb\x1b[31m\u202ec") == "a\\rb\\x1b[31m\\u202ec"
    assert cli.printable("caf\udce9.py") == "caf\\xe9.py"
    assert cli.printable("plain é ü 中文") == "plain é ü 中文"


def test_the_program_model_reads_no_fifo_device_or_huge_file_in_sight(tmp_path: Path) -> None:
    """A FIFO named like a module beside the checked file blocked the program model's
    read of the files in sight, and a link to /dev/zero filled the memory (22 GB,
    killed): only regular files of reasonable size are read."""
    from mslint.analysis.project import read_source  # noqa: PLC0415

    os.mkfifo(tmp_path / "pipe.py")
    (tmp_path / "zero.py").symlink_to("/dev/zero")
    (tmp_path / "big.py").write_bytes(b"x = 1\n" * 1_000_000)
    (tmp_path / "model.py").write_text("x = 1\n", encoding="utf-8")
    assert read_source(str(tmp_path / "pipe.py")) is None
    assert read_source(str(tmp_path / "zero.py")) is None
    assert read_source(str(tmp_path / "big.py")) is None
    assert read_source(str(tmp_path / "model.py")) == b"x = 1\n"
