"""Many independent readings of files, done by forked processes: the program
model's facts (mslint.analysis.facts) and the result cache's import scans
(mslint.run.cli). Both come before any file is checked, in the command's main
process, so every second spent there is a second of wall time; read in ``jobs``
processes, they take a share of it.

The items to read are inherited by the forked readers, not pickled; only their
indexes and the results cross. Where forking is missing, refused (below) or
fails, the items are read here, in order: the results are the same.

Also here: the tables a replaced worker hands to the next one (carried), and
work done meanwhile by a child at the lowest priority (Background)."""

from __future__ import annotations

import contextlib
import gc
import os
import sys
from collections.abc import Iterator
from typing import Any, Callable, Sequence

# Below this many items, forking readers costs more than it saves.
PARALLEL_AT_LEAST = 48
FORK_AT_MOST = 512 * 2**20  # resident bytes: a larger process reads the items itself
_PENDING: list[Any] = []  # what forked readers read (inherited, not pickled)
_READ: list[Callable[[Any], Any]] = []  # the function they read each item with


def _read_pending(index: int) -> Any:
    return _READ[0](_PENDING[index])


def _reader_start() -> None:
    """A forked reader ends on SIGTERM and SIGHUP: the command's handlers, inherited
    through fork, would raise in it instead, possibly while it holds the pool's
    queue lock, which hung the command once."""
    import signal  # noqa: PLC0415

    for name in ("SIGTERM", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_DFL)


def resident_bytes() -> int:
    """This process's resident size (Linux /proc; 0 where unknown)."""
    try:
        with open("/proc/self/statm", encoding="ascii") as stream:
            return int(stream.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")
    except (OSError, ValueError, IndexError):
        return 0


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for the block: for building Python
    syntax trees (``ast``), which hold no cycles and are freed without it. In a
    process that holds other trees (pylint's, by the sixth project of a run), each
    collection the building set off walked all of them again: measured, parsing
    the 40 largest files of mindone beside 6 million live objects took 2.4 s with
    the collector on and 0.9 s with it paused."""
    paused = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if paused:
            gc.enable()


def read_all(read: Callable[[Any], Any], items: Sequence[Any], jobs: int = 1) -> list[Any]:
    """``[read(item) for item in items]``, with the cyclic garbage collector paused
    (collector_paused: a fifth of the plugin's time on the benchmark went to the
    collections the reading set off); with ``jobs`` > 1 and many items, by forked
    processes."""
    with collector_paused():
        return _read_all(read, items, jobs)


def _may_fork() -> bool:
    """Whether this process may fork a helper: on Linux, not one that runs other
    threads (an editor's server hosting pylint: the child could wait forever on a
    lock one of them held), nor one already large (pylint holding the trees of
    projects it checked before: each child would count its pages again, for a few
    seconds of work)."""
    import threading  # noqa: PLC0415

    return sys.platform.startswith("linux") and threading.active_count() <= 1 and resident_bytes() <= FORK_AT_MOST


def _read_all(read: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> list[Any]:
    if jobs <= 1 or len(items) < PARALLEL_AT_LEAST or not _may_fork():
        return [read(item) for item in items]
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    _PENDING[:] = items
    _READ[:] = [read]
    try:
        with ProcessPoolExecutor(max_workers=jobs, mp_context=multiprocessing.get_context("fork"),
                                 initializer=_reader_start) as pool:
            return list(pool.map(_read_pending, range(len(items)), chunksize=max(1, len(items) // (jobs * 8))))
    except (OSError, RuntimeError, BrokenProcessPool):
        return [read(item) for item in items]
    finally:
        _PENDING.clear()
        _READ.clear()


def apart(work: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> list[Any] | None:
    """``[work(item) for item in items]``, each item in a forked process, ``jobs``
    at a time (the collector left as it is: each is a long piece of work, not a
    stream of small readings); None where this process may not fork or a
    process failed (the caller does the work itself)."""
    if jobs <= 1 or len(items) < 2 or not _may_fork():
        return None
    import multiprocessing  # noqa: PLC0415
    from concurrent.futures import ProcessPoolExecutor  # noqa: PLC0415
    from concurrent.futures.process import BrokenProcessPool  # noqa: PLC0415

    _PENDING[:] = items
    _READ[:] = [work]
    try:
        with ProcessPoolExecutor(max_workers=min(jobs, len(items)), mp_context=multiprocessing.get_context("fork"),
                                 initializer=_reader_start) as pool:
            return list(pool.map(_read_pending, range(len(items))))
    except (OSError, RuntimeError, BrokenProcessPool):
        return None
    finally:
        _PENDING.clear()
        _READ.clear()


# ---------------------------------------------------------------------------
# What a forked worker learned, carried back to the process that forks the next
# ---------------------------------------------------------------------------
#
# The command's workers end when their share of memory is spent, and a fresh one
# is forked from the main process: whatever the ended one had worked out was lost
# and worked out again (on mindone, eight workers each scanned its 1,729 files for
# the same dropout values, 1 to 9 s each). A memo table whose entries depend only
# on the files of the run (never on syntax trees, which stay in their process) is
# registered here; a worker that ends sends the entries it added, and the main
# process adds them to its own table, which the next fork inherits.

_CARRIED: dict[str, dict] = {}  # name -> the memo table
_AT_START: dict[str, set] = {}  # name -> the keys a worker's table held when it started


def carried(name: str, table: dict) -> dict:
    """Register ``table`` (picklable keys and values, depending only on file
    contents) under ``name``; returns it."""
    _CARRIED[name] = table
    return table


def mark_start() -> None:
    """In a fresh worker: remember what its tables hold, to send only what it adds."""
    _AT_START.clear()
    _AT_START.update((name, set(table)) for name, table in _CARRIED.items())


def added_since_start() -> dict[str, dict]:
    """The entries this worker's tables gained since mark_start."""
    return {
        name: {key: value for key, value in table.items() if key not in _AT_START.get(name, ())}
        for name, table in _CARRIED.items()
    }


def take(entries: Any) -> None:
    """Add what a worker sent (added_since_start) to this process's tables;
    anything of another shape is ignored."""
    if not isinstance(entries, dict):
        return
    for name, added in entries.items():
        table = _CARRIED.get(name)
        if table is not None and isinstance(added, dict):
            table.update(added)


# ---------------------------------------------------------------------------
# Work done in the background, on the CPU time nothing else wants
# ---------------------------------------------------------------------------
#
# While the command's main process builds the program model, one of the two
# cores of the benchmark's machine idles about half the time (the model's own
# steps run in the main process alone; only its reading of facts is shared out):
# 14 core-seconds of the cold run. What the run will ask later of the files' text
# alone (the project indexes, the port view's originals, the torch classes) is read by a
# forked child at the lowest priority, which the scheduler runs only where a core
# would idle.

LOWEST_PRIORITY = 19  # os.nice


class Background:
    """``work()`` computed by a forked child at the lowest CPU priority while this
    process goes on; :meth:`result` waits for it. None as the result when no child
    could be forked (not Linux, threads running, a large process) or the child
    failed: the caller works it out itself then, as without a background."""

    def __init__(self, work: Callable[[], Any]) -> None:
        self._pid: int | None = None
        self._pipe: int | None = None
        self._done = False
        self._value: Any = None

        def write(stream: Any) -> None:
            stream.write(_pickled(work()))

        forked = _fork_writer(write, lowest_priority=True)
        if forked is None:
            self._done = True
            return
        self._pid, self._pipe = forked

    def result(self) -> Any:
        """The value ``work()`` returned in the child (waiting for it), or None."""
        if self._done:
            return self._value
        self._done = True
        chunks = []
        try:
            with os.fdopen(self._pipe, "rb") as stream:  # type: ignore[arg-type]
                self._pipe = None
                while chunk := stream.read(1 << 20):
                    chunks.append(chunk)
            _, status = os.waitpid(self._pid, 0)  # type: ignore[arg-type]
            self._pid = None
            if status == 0 and chunks:
                self._value = _unpickled(b"".join(chunks))
        except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, MemoryError, IndexError):
            self._value = None
        except BaseException:
            self.cancel()
            raise
        return self._value

    def cancel(self) -> None:
        """Stop the child, if it still runs, and forget its work."""
        self._done = True
        self._value = None
        if self._pipe is not None:
            with contextlib.suppress(OSError):
                os.close(self._pipe)
            self._pipe = None
        if self._pid is not None:
            _stop(self._pid)
            self._pid = None


def _fork_writer(write: Callable[[Any], None], lowest_priority: bool = False) -> tuple[int, int] | None:
    """A forked child that runs ``write(stream)`` on the write end of a pipe and ends
    (status 0 when ``write`` returned): (its pid, the read end) here; None where no
    child may be forked (_may_fork) or the fork failed. ``lowest_priority``: the
    child runs at nice 19, its collector off (a short life: what it allocates goes
    with it)."""
    if not _may_fork():
        return None
    read_end, write_end = os.pipe()
    parent = os.getpid()
    try:
        pid = os.fork()
    except OSError:
        os.close(read_end)
        os.close(write_end)
        return None
    if pid == 0:  # the child: writes, ends
        os.close(read_end)
        code = 1
        try:
            _reader_start()
            die_with_parent(parent)
            if lowest_priority:
                os.nice(LOWEST_PRIORITY)
                gc.disable()
            with os.fdopen(write_end, "wb") as stream:
                write(stream)
            code = 0
        except BaseException:  # noqa: BLE001, S110 - the parent works it out itself
            pass
        os._exit(code)
    os.close(write_end)
    return pid, read_end


def _pickled(value: Any) -> bytes:
    import pickle  # noqa: PLC0415

    return pickle.dumps(value, protocol=pickle.HIGHEST_PROTOCOL)


def _unpickled(data: bytes) -> Any:
    import pickle  # noqa: PLC0415

    with collector_paused():
        return pickle.loads(data)  # noqa: S301 - our own child's output


def _stop(pid: int) -> None:
    """Kill the child ``pid`` and reap it."""
    import signal  # noqa: PLC0415

    with contextlib.suppress(OSError):
        os.kill(pid, signal.SIGKILL)
    with contextlib.suppress(OSError):
        os.waitpid(pid, 0)


# ---------------------------------------------------------------------------
# Work done in a child so that its garbage never lives in this process
# ---------------------------------------------------------------------------
#
# Building the program model allocates half a million small objects, most freed at
# once; Python's allocator keeps the arenas they leave half used (measured on the
# benchmark's corpus: the command's main process held 144 MiB when it forked its
# workers, 30 MiB of it live). Every worker inherits those pages, and the
# benchmark counts them in each process: built in a child, the model leaves the
# main process at its 50 MiB, and the workers share a larger memory budget.

_BUILDING, _RESULT = b"B", b"R"


def in_child(work: Callable[[Callable[[], None]], Any], started: Callable[[], None] | None = None) -> tuple[bool, Any]:
    """``work(announce)`` run by a forked child while this process waits: (True, the
    value it returned) or (False, None) when no child could be forked or the child
    failed (the caller works it out itself then). The child may call ``announce()``
    once; this process then calls ``started()`` while the child goes on (a cold
    model build: the command starts its background reading)."""

    def write(stream: Any) -> None:
        announced = []

        def announce() -> None:
            if not announced:
                announced.append(True)
                stream.write(_BUILDING)
                stream.flush()

        data = _pickled(work(announce))
        stream.write(_RESULT)
        stream.write(data)

    forked = _fork_writer(write)
    if forked is None:
        return False, None
    pid, read_end = forked
    chunks: list[bytes] = []
    try:
        with os.fdopen(read_end, "rb") as stream:
            head = stream.read(1)
            if head == _BUILDING:
                if started is not None:
                    started()
                head = stream.read(1)
            if head == _RESULT:
                while chunk := stream.read(1 << 20):
                    chunks.append(chunk)
        _, status = os.waitpid(pid, 0)
        pid = 0
        if status != 0 or head != _RESULT:
            return False, None
        return True, _unpickled(b"".join(chunks))
    except (OSError, EOFError, ValueError, TypeError, AttributeError, ImportError, MemoryError, IndexError):
        return False, None
    finally:
        if pid:  # interrupted (Ctrl-C, SIGTERM): the child goes with us
            _stop(pid)


PR_SET_PDEATHSIG = 1  # linux/prctl.h


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (a pid) dies, however it dies (SIGKILL runs
    no handler of the parent's): the kernel sends us SIGKILL then (Linux
    ``PR_SET_PDEATHSIG``); elsewhere a thread looks every half second. A child
    left behind would hold the command's output open (a CI step reading it
    hangs) and its memory."""
    import signal  # noqa: PLC0415

    if sys.platform.startswith("linux"):
        try:
            import ctypes  # noqa: PLC0415

            libc = ctypes.CDLL(None, use_errno=True)
            if libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0:
                if os.getppid() != parent:  # died before the request was made
                    os._exit(1)
                return
        except (OSError, AttributeError):
            pass
    import threading  # noqa: PLC0415
    import time  # noqa: PLC0415

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="mslint-parent-watch", daemon=True).start()
