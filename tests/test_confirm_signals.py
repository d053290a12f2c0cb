"""Workers die with mslint: SIGTERM or SIGHUP to ``mslint --confirm`` (or its
death by SIGKILL) ends every confirmation worker and whatever it started, and
removes the workers' temporary folders."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

pytestmark = pytest.mark.frameworks  # the worker imports MindSpore

ROOT = Path(__file__).resolve().parent.parent
HANGS = ROOT / "fixtures" / "runtime" / "hangs.py"


def _workers_under(folder: Path) -> list[int]:
    """Processes whose command line names a file under ``folder`` (the workers'
    job files live in their temporary folders there)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode(errors="replace")
        except OSError:
            continue
        if str(folder) in command and "mslint.confirm.worker" in command:
            found.append(int(entry.name))
    return found


def _start(tmp_path: Path) -> tuple[subprocess.Popen, Path]:
    """``mslint --confirm`` on a Cell whose compilation never ends, once its
    worker is compiling it."""
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), MSLINT_CACHE_DIR=str(tmp_path / "cache"))
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "mslint", "--confirm", "--no-cache", "--confirm-timeout=300", str(HANGS)],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
    )
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline:
        results = list(temp.glob("mslint-confirm-*/results.jsonl"))
        if results and "compiling Sleeper" in results[0].read_text(encoding="utf-8", errors="replace"):
            return process, temp
        if process.poll() is not None:
            break
        time.sleep(0.2)
    process.kill()
    pytest.fail(f"the worker never started compiling: {process.communicate()}")


def _gone(temp: Path, seconds: float = 15) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _workers_under(temp) and not list(temp.iterdir()):
            return True
        time.sleep(0.2)
    return False


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGHUP])
def test_stopping_mslint_stops_its_workers(tmp_path: Path, signum: int) -> None:
    process, temp = _start(tmp_path)
    assert _workers_under(temp)
    process.send_signal(signum)
    process.communicate(timeout=30)
    assert process.returncode == 128 + signum
    assert _gone(temp), (_workers_under(temp), list(temp.iterdir()))


def test_killed_mslint_leaves_no_worker(tmp_path: Path) -> None:
    """SIGKILL runs no handler in mslint: the worker's watchdog pipe ends."""
    process, temp = _start(tmp_path)
    process.kill()
    process.communicate(timeout=30)
    assert _gone(temp), (_workers_under(temp), list(temp.iterdir()))
