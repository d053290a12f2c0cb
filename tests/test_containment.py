"""Runtime mode contains the user's code (issue 22, item 16): a worker's whole
process tree ends with it and with mslint, whatever the code does (a new
session, C code holding the GIL, SIGSTOP sent to mslint). These tests run the
real watchdog and runner with a stand-in worker (no MindSpore needed): a module
that does what hostile user code does. tests/test_confirm_signals.py does the
same with the real worker and MindSpore."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from mslint.confirm import nanny, runner

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the subreaper and /proc are Linux's")

STAND_IN = '''
import json, os, re, signal, subprocess, sys, time
job = json.load(open(sys.argv[1]))
results = sys.argv[2]

def say(record):
    with open(results, "a") as stream:
        stream.write(json.dumps(record) + "\\n")

what = job["what"]
if what == "new-session":  # a child in a session of its own, the worker then exits
    child = subprocess.Popen(["sleep", "300"], start_new_session=True)
    say({"type": "pid", "pid": child.pid})
elif what == "daemon":  # a double fork: the grandchild is orphaned at once
    if os.fork() == 0:
        os.setsid()
        if os.fork() == 0:
            say({"type": "pid", "pid": os.getpid()})
            time.sleep(300)
        os._exit(0)
    time.sleep(1)
elif what == "gil":  # C code that never releases the GIL (a catastrophic regular expression)
    say({"type": "pid", "pid": os.getpid()})
    re.match(r"(a+)+$", "a" * 64 + "b")
elif what == "stop-mslint":  # stop the process that runs mslint, found up the tree
    pid = os.getppid()
    while pid > 1:
        if b"mslint-driver" in open(f"/proc/{pid}/cmdline", "rb").read():
            os.kill(pid, signal.SIGSTOP)
            break
        pid = int(open(f"/proc/{pid}/stat").read().rsplit(")", 1)[1].split()[1])
    say({"type": "done"})
'''

DRIVER = '''
import json, sys
sys.argv[0] = "mslint-driver"
from mslint.confirm import runner
runner.WORKER_MODULE = "stand_in_worker"

class Plan:
    def job(self):
        return {"what": sys.argv[1]}

records, end = runner.run_worker(Plan(), "CPU", float(sys.argv[2]), 0)
print(json.dumps({"records": records, "kind": end.kind, "detail": end.detail, "signalled": end.signalled}))
'''


@pytest.fixture
def stand_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The stand-in worker on PYTHONPATH, temporary folders under tmp/."""
    (tmp_path / "stand_in_worker.py").write_text(STAND_IN, encoding="utf-8")
    temp = tmp_path / "tmp"
    temp.mkdir()
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(filter(None, [str(tmp_path), os.environ.get("PYTHONPATH", "")])))
    monkeypatch.setenv("TMPDIR", str(temp))
    monkeypatch.setattr("tempfile.tempdir", None)
    monkeypatch.setattr(runner, "WORKER_MODULE", "stand_in_worker")
    return temp


class _Plan:
    def __init__(self, what: str) -> None:
        self.what = what

    def job(self) -> dict:
        return {"what": self.what}


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            state = stream.read().rsplit(b")", 1)[1].split()[0]
    except OSError:
        return False
    return state != b"Z"


def _gone(pid: int, seconds: float = 10) -> bool:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if not _alive(pid):
            return True
        time.sleep(0.1)
    return False


def _pid(records: list[dict]) -> int:
    return next(record["pid"] for record in records if record.get("type") == "pid")


@pytest.mark.parametrize("what", ["new-session", "daemon"])
def test_what_the_user_code_starts_in_a_new_session_ends_with_the_worker(stand_in: Path, what: str) -> None:
    records, _ = runner.run_worker(_Plan(what), "CPU", 60, 0)
    pid = _pid(records)
    try:
        assert _gone(pid, 5), f"{what}: process {pid} outlived its worker"
    finally:
        if _alive(pid):
            os.kill(pid, signal.SIGKILL)
    assert list(stand_in.iterdir()) == []  # the worker's folder is removed


def _start_driver(tmp_path: Path, stand_in: Path, what: str, timeout: float) -> subprocess.Popen:
    env = dict(os.environ, TMPDIR=str(stand_in))
    return subprocess.Popen(  # noqa: S603
        [sys.executable, "-c", DRIVER, what, str(timeout)], cwd=tmp_path, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )


def _wait_for_pid(stand_in: Path, seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        for results in stand_in.glob("mslint-confirm-*/results.jsonl"):
            for line in results.read_text(encoding="utf-8").splitlines():
                record = json.loads(line)
                if record.get("type") == "pid":
                    return record["pid"]
        time.sleep(0.1)
    pytest.fail("the stand-in worker never started")


def test_a_killed_mslint_takes_down_a_worker_stuck_holding_the_gil(tmp_path: Path, stand_in: Path) -> None:
    """The old watchdog was a thread of the worker: it cannot run while C code
    holds the GIL, so SIGKILL of mslint left the worker and its folder."""
    driver = _start_driver(tmp_path, stand_in, "gil", 300)
    worker = _wait_for_pid(stand_in)
    try:
        time.sleep(0.5)  # in the regular expression now
        driver.kill()
        driver.communicate(timeout=30)
        assert _gone(worker, 10), "the worker outlived mslint"
        deadline = time.monotonic() + 10
        while time.monotonic() < deadline and list(stand_in.iterdir()):
            time.sleep(0.1)
        assert list(stand_in.iterdir()) == [], "the worker's folder outlived mslint"
    finally:
        if _alive(worker):
            os.kill(worker, signal.SIGKILL)


def test_user_code_that_stops_mslint_does_not_stall_it_and_is_reported(tmp_path: Path, stand_in: Path) -> None:
    driver = _start_driver(tmp_path, stand_in, "stop-mslint", 120)
    try:
        out, err = driver.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        os.kill(driver.pid, signal.SIGCONT)
        driver.kill()
        pytest.fail("mslint stayed stopped")
    assert driver.returncode == 0, err
    result = json.loads(out)
    assert result["signalled"] and "stopped mslint (SIGSTOP)" in result["signalled"]


def test_the_time_limit_holds_without_mslint(stand_in: Path) -> None:
    """The watchdog ends a worker at its time limit itself (mslint may be stopped)."""
    results = stand_in / "results.jsonl"
    results.touch()
    watch_read, watch_write = os.pipe()  # held open here: "mslint" is alive
    started = time.monotonic()
    try:
        code = subprocess.run(  # noqa: S603
            [sys.executable, "-m", "mslint.confirm.nanny", str(watch_read), "1", str(results), str(stand_in / "none"), "--", "sleep", "30"],
            pass_fds=(watch_read,), timeout=20, check=False,
        ).returncode
    finally:
        os.close(watch_read)
        os.close(watch_write)
    assert code == nanny.TIMED_OUT and time.monotonic() - started < 10


def test_job_control_stops_are_left_alone() -> None:
    """Ctrl-Z stops mslint and gives the terminal back to the shell: that stop
    is the user's, the watchdog must not undo it; a stop with no terminal is not."""
    assert nanny.stopped_by_someone(os.getpid()) is False  # running
    sleeper = subprocess.Popen(["sleep", "30"], start_new_session=True)  # noqa: S603, S607 - no terminal
    try:
        os.kill(sleeper.pid, signal.SIGSTOP)
        deadline = time.monotonic() + 5
        while time.monotonic() < deadline and not nanny.stopped_by_someone(sleeper.pid):
            time.sleep(0.05)
        assert nanny.stopped_by_someone(sleeper.pid)
    finally:
        sleeper.kill()
        sleeper.wait()
