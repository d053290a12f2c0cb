"""Many independent readings of files, done by forked processes: the program
model's facts (mslint.analysis.facts) and the result cache's import scans
(mslint.run.cli). Both come before any file is checked, in the command's main
process, so every second spent there is a second of wall time; read in ``jobs``
processes, they take a share of it.

The items to read are inherited by the forked readers, not pickled; only their
indexes and the results cross. Where forking is missing, refused (below) or
fails, the items are read here, in order: the results are the same."""

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


def _read_all(read: Callable[[Any], Any], items: Sequence[Any], jobs: int) -> list[Any]:
    import threading  # noqa: PLC0415

    # no fork of a process that runs other threads (an editor's server hosting
    # pylint): the child could wait forever on a lock one of them held; nor of one
    # already large (pylint holding the trees of projects it checked before): each
    # child would count its pages again, for a few seconds of work
    if jobs <= 1 or len(items) < PARALLEL_AT_LEAST or not sys.platform.startswith("linux") \
            or threading.active_count() > 1 or resident_bytes() > FORK_AT_MOST:
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
