"""Many independent readings of files, done by forked processes: the program
model's facts (mslint.analysis.facts) and the result cache's import scans
(mslint.run.cli). Both come before any file is checked, in the command's main
process, so every second spent there is a second of wall time; read in ``jobs``
processes, they take a share of it.

The items to read are inherited by the forked readers, not pickled; only their
indexes and the results cross. Where forking is missing, refused (below) or
fails, the items are read here, in order: the results are the same."""

from __future__ import annotations

import os
import sys
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


def read_all(read: Callable[[Any], Any], items: Sequence[Any], jobs: int = 1) -> list[Any]:
    """``[read(item) for item in items]``, with the cyclic garbage collector paused
    (syntax trees hold no cycles, and in a process that holds other trees, pylint's
    by the sixth project of a run, each collection the reading set off walked all
    of them again: a fifth of the plugin's time on the benchmark); with ``jobs`` > 1
    and many items, by forked processes."""
    import gc  # noqa: PLC0415

    paused = gc.isenabled()
    gc.disable()
    try:
        return _read_all(read, items, jobs)
    finally:
        if paused:
            gc.enable()


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
