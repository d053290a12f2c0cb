"""The watchdog of one runtime-mode worker: ``python -m mslint.confirm.nanny
WATCH_FD SECONDS RESULTS FOLDER -- COMMAND...``.

mslint (:mod:`mslint.confirm.runner`) starts this small process in a session of
its own; it starts the worker (COMMAND) and stays its parent, so that the
worker's whole process tree is contained whatever the user's code does:

- It is a *subreaper* (Linux ``PR_SET_CHILD_SUBREAPER``): a process the user's
  code starts and orphans, even in a new session (``setsid``,
  ``start_new_session=True``), becomes its child instead of init's, so it can
  still be found and killed. When the worker ends, every process left below
  it is killed (elsewhere: the worker's process group).
- It watches mslint from a process, not a thread: the read end of a pipe whose
  write end only mslint holds. When mslint dies in any way (SIGKILL included)
  the pipe ends, and it kills the tree and removes the worker's folder, even
  when the worker is stuck in C code holding its GIL (a watchdog thread in the
  worker could not run then).
- It enforces the time limit itself (a stopped mslint cannot), and when mslint
  is stopped while the user's code runs (SIGSTOP sent to it), other than by the
  terminal's job control (Ctrl-Z), it continues mslint and records that user
  code signalled it (a ``signalled`` record in RESULTS), which the report says.

The worker dies with it (``PR_SET_PDEATHSIG``), should anything kill it. Its
exit status is the worker's (a signal as the same signal).
"""

from __future__ import annotations

import contextlib
import json
import os
import select
import shutil
import signal
import subprocess
import sys
import time

PR_SET_PDEATHSIG = 1  # linux/prctl.h
PR_SET_CHILD_SUBREAPER = 36
TIMED_OUT = 124  # the exit status when the time limit ended the worker (as timeout(1))


def _prctl(option: int, value: int) -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        import ctypes  # noqa: PLC0415

        return ctypes.CDLL(None, use_errno=True).prctl(option, value, 0, 0, 0) == 0
    except (OSError, AttributeError):
        return False


def descendants(root: int) -> list[int]:
    """Every live process below ``root`` (read from /proc: each process's parent)."""
    children: dict[int, list[int]] = {}
    try:
        entries = os.listdir("/proc")
    except OSError:
        return []
    for entry in entries:
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat", "rb") as stream:
                fields = stream.read().rsplit(b")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if fields and fields[0] != b"Z":  # a zombie is dead already
            children.setdefault(int(fields[1]), []).append(int(entry))
    found, todo = [], [root]
    while todo:
        for child in children.get(todo.pop(), ()):
            found.append(child)
            todo.append(child)
    return found


def kill_tree(root: int, group: int | None = None, reap: bool = False) -> None:
    """Kill every process below ``root`` (and the process group ``group``),
    again until none is left. Each round stops them all first, so that none
    forks or hands its children on meanwhile, then kills them (a stopped
    process dies of SIGKILL). ``reap``: collect their exit status (only a
    process whose every child is its own to collect: the watchdog)."""
    for _ in range(100):
        found = descendants(root)
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        found = sorted(set(found) | set(descendants(root)))  # forked before they stopped
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGSTOP)
        if group is not None:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(group, signal.SIGKILL)
        for pid in found:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.kill(pid, signal.SIGKILL)
        if reap:
            _reap()
        if not found:
            return
        time.sleep(0.01)


def _reap() -> None:
    """Collect the exit status of dead children (adopted ones included)."""
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return


def stopped_by_someone(pid: int) -> bool:
    """Whether ``pid`` is stopped other than by its terminal's job control: it
    has no terminal, or it is still the terminal's foreground process group
    (after Ctrl-Z the shell takes the terminal back)."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stream:
            fields = stream.read().rsplit(b")", 1)[1].split()
    except (OSError, IndexError):
        return False
    state, group, terminal, foreground = fields[0], int(fields[2]), int(fields[4]), int(fields[5])
    return state == b"T" and (terminal == 0 or foreground == group)


def _continue_if_stopped(mslint: int, results: str) -> bool:
    """Continue mslint when the user's code stopped it (recorded for the report)."""
    if not stopped_by_someone(mslint):
        return False
    with contextlib.suppress(ProcessLookupError, PermissionError):
        os.kill(mslint, signal.SIGCONT)
    _record(results, {"type": "signalled", "signal": "SIGSTOP",
                      "detail": "the user's code stopped mslint (SIGSTOP); mslint's watchdog continued it"})
    return True


def _record(results: str, record: dict) -> None:
    with contextlib.suppress(OSError), open(results, "a", encoding="utf-8") as stream:
        stream.write(json.dumps(record) + "\n")


def _start_worker(command: list[str]) -> subprocess.Popen:
    def prepare() -> None:  # in the worker, before it runs anything
        os.setpgid(0, 0)  # a process group of its own: killed as one, the watchdog apart
        _prctl(PR_SET_PDEATHSIG, signal.SIGKILL)

    return subprocess.Popen(command, preexec_fn=prepare)  # noqa: PLW1509, S603 - the watchdog has no thread


def main(argv: list[str] | None = None) -> int:  # noqa: C901
    argv = list(sys.argv[1:] if argv is None else argv)
    split = argv.index("--")
    watch_fd, seconds, results, folder = int(argv[0]), float(argv[1]), argv[2], argv[3]
    command = argv[split + 1 :]
    mslint = os.getppid()
    _prctl(PR_SET_CHILD_SUBREAPER, 1)  # where it cannot be one: the worker's group and /proc's tree
    for number in (signal.SIGINT, signal.SIGTERM, signal.SIGHUP):
        signal.signal(number, signal.SIG_IGN)  # mslint ends us with SIGKILL (its process group)
    me = os.getpid()
    worker = _start_worker(command)
    deadline = time.monotonic() + seconds if seconds > 0 else None
    told = False
    status: int | None = None
    timed_out = False
    while status is None:
        try:
            readable, _, _ = select.select([watch_fd], [], [], 0.1)
        except InterruptedError:
            readable = []
        if readable:
            try:
                data = os.read(watch_fd, 1)
            except OSError:
                data = b""
            if not data:  # mslint is gone (even by SIGKILL): nothing may outlive it
                kill_tree(me, worker.pid, reap=True)
                shutil.rmtree(folder, ignore_errors=True)
                os._exit(1)
        with contextlib.suppress(ChildProcessError):
            pid, raw = os.waitpid(worker.pid, os.WNOHANG)
            if pid:
                status = raw
                break
        told = told or _continue_if_stopped(mslint, results)
        if deadline is not None and time.monotonic() > deadline:
            timed_out = True
            kill_tree(me, worker.pid, reap=False)
            with contextlib.suppress(ChildProcessError):
                _, status = os.waitpid(worker.pid, 0)
            break
    kill_tree(me, worker.pid, reap=True)  # what the worker left running (its group, and orphans adopted here)
    _reap()
    # the user's code may have stopped mslint just before the worker ended: with
    # every process of it gone now, a stop of mslint seen meanwhile was its doing
    settle = time.monotonic() + 0.3
    while not told and time.monotonic() < settle:
        told = _continue_if_stopped(mslint, results)
        time.sleep(0.02)
    if timed_out:
        return TIMED_OUT
    if status is None:
        return 1
    if os.WIFSIGNALED(status):
        number = os.WTERMSIG(status)
        with contextlib.suppress(OSError, ValueError):
            signal.signal(number, signal.SIG_DFL)
            os.kill(os.getpid(), number)
        return 128 + number
    return os.WEXITSTATUS(status) if os.WIFEXITED(status) else 1


if __name__ == "__main__":
    sys.exit(main())
