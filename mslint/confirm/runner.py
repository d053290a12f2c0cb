"""Parent side: run one worker process per module, safely.

Each worker gets a fresh temporary directory as its working directory, TMPDIR,
MindSpore compile cache (MS_COMPILER_CACHE_PATH), log directory (GLOG_log_dir)
and graph dump directory, so ``rank_0/om/analyze_fail.ir`` and every other file
MindSpore writes land there; the directory is removed afterwards. Python writes
no bytecode (PYTHONDONTWRITEBYTECODE), so nothing appears beside the user's
code. Its address space is limited (RLIMIT_AS) on CPU.

The worker's whole process tree is contained: mslint starts a watchdog process
(:mod:`mslint.confirm.nanny`) in a session of its own, which starts the worker
and adopts whatever the user's code orphans (a subreaper), even processes
that start a new session; when the worker ends, or its time is up, nothing
below the watchdog survives. On timeout mslint also kills the watchdog's tree.

Workers die with mslint: while confirmation runs, SIGTERM and SIGHUP to mslint
kill every worker's tree at once and remove the temporary folders before
mslint exits with 128 + the signal (:func:`workers_die_with_us`); and each
watchdog holds the read end of a pipe whose write end only mslint holds: when
mslint dies in any way, even SIGKILL, the watchdog (a process: it runs even
when the worker is stuck in C code holding its GIL) sees the end of that pipe,
kills the tree and removes the worker's folder. User code that stops mslint
(SIGSTOP) does not stall it: the watchdog continues it, and the report says so.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

from mslint.confirm import nanny
from mslint.confirm.plan import ModulePlan
from mslint.confirm.verdict import WorkerEnd, describe_exit
from mslint.confirm.worker import MEMORY_ENV, WATCHDOG_ENV

MEMORY_SETTING = "MSLINT_CONFIRM_MEMORY"  # user-facing: "8G", "512M", "0" (no limit)
WORKER_MODULE = "mslint.confirm.worker"  # what the watchdog runs (tests run a stand-in)
WATCHDOG_GRACE = 10.0  # seconds past the time limit before mslint kills a watchdog that did not end the worker
_GIB = 1 << 30


def memory_limit(device: str, jobs: int) -> int:
    """Bytes of address space per worker (0: no limit).

    Default on CPU: 80% of the physical memory shared among the parallel
    workers, at least 6 GiB (importing MindSpore maps about 2.3 GiB, more with
    more cores: a thread stack each). No default
    on GPU/Ascend: their drivers reserve far more address space than they use.
    """
    setting = os.environ.get(MEMORY_SETTING, "").strip()
    if setting:
        match = re.fullmatch(r"(\d+(?:\.\d+)?)\s*([KMGT]?)i?B?", setting, re.IGNORECASE)
        if match:
            scale = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": _GIB, "T": 1 << 40}[match[2].upper()]
            return int(float(match[1]) * scale)
    if device != "CPU":
        return 0
    try:
        total = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    except (ValueError, OSError, AttributeError):
        return 0
    return max(6 * _GIB, int(total * 0.8) // max(jobs, 1))


def worker_env(folder: Path, limit: int) -> dict[str, str]:
    env = dict(os.environ)
    package_parent = str(Path(__file__).resolve().parents[2])  # the folder holding mslint/
    env["PYTHONPATH"] = os.pathsep.join(p for p in (package_parent, env.get("PYTHONPATH", "")) if p)
    env["PYTHONDONTWRITEBYTECODE"] = "1"
    env["PYTHONUNBUFFERED"] = "1"
    env["TMPDIR"] = str(folder / "tmp")
    env["MS_COMPILER_CACHE_PATH"] = str(folder / "cache")
    env["MS_DEV_SAVE_GRAPHS_PATH"] = str(folder / "graphs")
    env["GLOG_log_dir"] = str(folder / "log")
    env["GLOG_logtostderr"] = "1"
    env["GLOG_v"] = "2"  # warnings: where MindSpore cuts gradients (JIT fallback)
    env[MEMORY_ENV] = str(limit)
    for name in ("tmp", "cache", "graphs", "log"):
        (folder / name).mkdir(exist_ok=True)
    return env


def run_worker(plan: ModulePlan, device: str, timeout: float, limit: int) -> tuple[list[dict], WorkerEnd]:
    folder = Path(tempfile.mkdtemp(prefix="mslint-confirm-"))
    try:
        job = plan.job()
        job["device"] = device
        job["build_budget"] = max(10.0, timeout * 0.4) if timeout else 300.0  # seconds for building the module's Cells (no limit: 5 min)
        job_path, results_path, log_path = folder / "job.json", folder / "results.jsonl", folder / "worker.log"
        job_path.write_text(json.dumps(job), encoding="utf-8")
        results_path.touch()
        env = worker_env(folder, limit)
        started = time.monotonic()
        watch_read, watch_write = os.pipe()  # the watchdog's: EOF when mslint is gone
        env.pop(WATCHDOG_ENV, None)
        worker = [sys.executable, "-m", WORKER_MODULE, str(job_path), str(results_path)]
        with open(log_path, "wb") as log:
            try:
                with _LOCK:  # no worker starts once mslint is being stopped
                    if _STOPPING:
                        raise WorkersStopped
                    process = subprocess.Popen(  # noqa: S603 - our own interpreter and module
                        [sys.executable, "-m", "mslint.confirm.nanny", str(watch_read), str(timeout or 0), str(results_path),
                         str(folder), "--", *worker],
                        cwd=folder,
                        env=env,
                        stdin=subprocess.DEVNULL,
                        stdout=log,
                        stderr=subprocess.STDOUT,
                        start_new_session=True,
                        pass_fds=(watch_read,),
                    )
                    _RUNNING.add(process.pid)
            except BaseException:
                os.close(watch_write)
                raise
            finally:
                os.close(watch_read)
            timed_out = False
            try:
                # the watchdog ends the worker at ``timeout`` itself; this is in case it cannot (stopped)
                returncode = process.wait(timeout=timeout + WATCHDOG_GRACE if timeout else None)
                timed_out = returncode == nanny.TIMED_OUT
            except subprocess.TimeoutExpired:
                timed_out = True
                _kill_group(process.pid)
                returncode = process.wait()
            except BaseException:  # Ctrl-C, SIGTERM: take the worker down with us
                _kill_group(process.pid)
                process.wait()
                raise
            finally:
                with _LOCK:
                    _RUNNING.discard(process.pid)
                _kill_group(process.pid)  # whatever the user's code left running
                os.close(watch_write)
        records = _read_records(results_path)
        elapsed = time.monotonic() - started
        if timed_out:
            end = WorkerEnd("timeout", f"timeout after {timeout:g} s")
        elif returncode == 0 and any(record.get("type") == "done" for record in records):
            end = WorkerEnd("done", f"finished in {elapsed:.1f} s")
        else:
            end = describe_exit(returncode, _tail(log_path))
        doing = _last_step(records)
        if end.kind != "done" and doing:
            end.detail += f" while {doing}"
        end.signalled = "; ".join(record.get("detail", "") for record in records if record.get("type") == "signalled") or None
        return records, end
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _last_step(records: list[dict]) -> str | None:
    """What the worker was doing when it stopped (its last 'begin' record)."""
    for record in reversed(records):
        if record.get("type") == "begin":
            return record.get("what")
        if record.get("type") in ("target", "layer", "fatal", "done"):
            return None
    return None


_RUNNING: set[int] = set()
_LOCK = threading.Lock()
_STOPPING: list[int] = []  # non-empty once mslint is being stopped: no new worker starts


class WorkersStopped(Exception):
    """mslint is stopping: the worker was not started."""


def kill_all() -> None:
    """Kill every running worker's process group (mslint is being stopped);
    no worker starts afterwards. Their folders are removed by run_worker as
    each one returns. The hook mslint's command calls from its own signal
    handling (a pool of lint workers stopped on SIGTERM, say)."""
    with _LOCK:
        _STOPPING.append(1)
        running = list(_RUNNING)
    for pid in running:
        _kill_group(pid)


STOP_SIGNALS = ("SIGTERM", "SIGHUP")


@contextlib.contextmanager
def workers_die_with_us():
    """While the block runs (confirmation), SIGTERM and SIGHUP kill every
    worker at once, then unwind the main thread through the handler that was
    there before (mslint.run.cli's), else SystemExit(128 + signal), so that every
    ``finally`` (the temporary folders) runs on the way out. Only in
    the main thread (where Python runs signal handlers); elsewhere it does
    nothing, the watchdog pipes still take the workers down with mslint."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum, frame) -> None:
        kill_all()
        previous = saved.get(signum)
        if callable(previous):  # the command's own handling (mslint.run.cli: Terminated, exit 128 + signal)
            previous(signum, frame)
        raise SystemExit(128 + signum)

    saved = {}
    for name in STOP_SIGNALS:
        number = getattr(signal, name, None)
        if number is None:
            continue
        previous = signal.getsignal(number)
        if previous is signal.SIG_IGN:  # nohup: SIGHUP stays ignored
            continue
        saved[number] = previous
        signal.signal(number, stop)
    try:
        yield
    finally:
        for number, previous in saved.items():
            signal.signal(number, previous)
        with _LOCK:
            _STOPPING.clear()


def _kill_group(pid: int) -> None:
    """Kill a watchdog (``pid``, its session's process group) and every process
    below it: the worker's own group, what the user's code started."""
    nanny.kill_tree(pid, group=pid)


def _read_records(path: Path) -> list[dict]:
    records = []
    for line in path.read_text(encoding="utf-8", errors="replace").splitlines():
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            continue  # a line cut short by a crash
    return records


def _tail(path: Path, size: int = 4000) -> str:
    try:
        with open(path, "rb") as stream:
            stream.seek(0, os.SEEK_END)
            stream.seek(max(0, stream.tell() - size))
            return stream.read().decode("utf-8", errors="replace")
    except OSError:
        return ""


class Progress:
    """One line per module on stderr as its worker ends, only on a terminal:
    ``mslint --confirm [3/8] pkg.model: 4 Cells built, 2 compiled, 1/2 findings confirmed (6.1 s)``."""

    def __init__(self, total: int, enabled: bool | None) -> None:
        if enabled is None:
            enabled = hasattr(sys.stderr, "isatty") and sys.stderr.isatty()
        self.enabled = bool(enabled) and total > 0
        self.total = total
        self.done = 0
        self.started = time.monotonic()
        self._lock = threading.Lock()

    def advance(self, module: str = "", counts: dict | None = None, end: WorkerEnd | None = None) -> None:
        with self._lock:
            self.done += 1
            if not self.enabled:
                return
            counts = counts or {}
            built, findings = counts.get("built", 0), counts.get("findings", 0)
            text = (
                f"mslint --confirm [{self.done}/{self.total}] {module}: {built} Cell{'s' * (built != 1)} built, "
                f"{counts.get('compiled', 0)} compiled, {counts.get('confirmed', 0)}/{findings} finding{'s' * (findings != 1)} confirmed"
            )
            if end is not None and end.kind not in ("done", "skipped"):
                text += f" ({end.detail[:80]})"
            sys.stderr.write(f"{text} ({time.monotonic() - self.started:.0f} s)\n")
            sys.stderr.flush()

    def close(self) -> None:
        """Nothing to clear: each line is final."""
