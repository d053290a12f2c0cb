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


# ---------------------------------------------------------------------------
# Hostile user code (issue 22, item 16): the real worker, MindSpore imported
# ---------------------------------------------------------------------------

_MODULE = '''
import numpy as np
from mindspore import nn
{hostile}


class Net(nn.Cell):
    def construct(self, x):
        return np.exp(x)
'''


def _confirm(tmp_path: Path, hostile: str, timeout: int = 120) -> tuple[subprocess.Popen, Path]:
    (tmp_path / "hostile.py").write_text(_MODULE.format(hostile=hostile), encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    env = dict(os.environ, TMPDIR=str(temp), MSLINT_CACHE_DIR=str(tmp_path / "cache"))
    process = subprocess.Popen(  # noqa: S603
        [sys.executable, "-m", "mslint", "--confirm", "--no-cache", f"--confirm-timeout={timeout}", "hostile.py"],
        cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    return process, temp


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            return stream.read().rsplit(b")", 1)[1].split()[0] != b"Z"
    except OSError:
        return False


def test_a_process_the_user_code_starts_in_a_new_session_ends_with_the_worker(tmp_path: Path) -> None:
    marker = tmp_path / "sleeper.pid"
    hostile = (
        "import subprocess\n"
        f"_child = subprocess.Popen(['sleep', '600'], start_new_session=True)\n"
        f"open({str(marker)!r}, 'w').write(str(_child.pid))\n"
    )
    process, temp = _confirm(tmp_path, hostile)
    process.communicate(timeout=300)
    pid = int(marker.read_text())
    try:
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and _alive(pid):
            time.sleep(0.2)
        assert not _alive(pid), "the user's setsid child outlived mslint"
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    assert list(temp.iterdir()) == []


def test_a_killed_mslint_ends_a_worker_stuck_in_c_code(tmp_path: Path) -> None:
    """A regular expression that never ends, in C, holding the GIL: a watchdog
    thread in the worker could never run."""
    marker = tmp_path / "stuck"
    hostile = (
        "import re\n"
        f"open({str(marker)!r}, 'w').write('in')\n"
        "re.match(r'(a+)+$', 'a' * 64 + 'b')\n"
    )
    process, temp = _confirm(tmp_path, hostile, timeout=600)
    deadline = time.monotonic() + 180
    while time.monotonic() < deadline and not marker.exists():
        time.sleep(0.2)
    assert marker.exists(), "the worker never imported the module"
    time.sleep(1)
    process.kill()
    process.communicate(timeout=30)
    assert _gone(temp), (_workers_under(temp), list(temp.iterdir()))


def test_user_code_that_stops_mslint_is_reported_and_does_not_stall_it(tmp_path: Path) -> None:
    hostile = (
        "import os, signal\n"
        "_pid = os.getppid()\n"
        "while _pid > 1:  # up the tree to the process running `python -m mslint`\n"
        "    _command = open(f'/proc/{_pid}/cmdline', 'rb').read().split(b'\\0')\n"
        "    if _command[1:3] == [b'-m', b'mslint']:\n"
        "        os.kill(_pid, signal.SIGSTOP)\n"
        "        break\n"
        "    _pid = int(open(f'/proc/{_pid}/stat').read().rsplit(')', 1)[1].split()[1])\n"
    )
    process, _ = _confirm(tmp_path, hostile)
    try:
        out, err = process.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        process.send_signal(signal.SIGCONT)
        process.kill()
        pytest.fail("mslint stayed stopped")
    assert "stopped mslint (SIGSTOP)" in out + err
