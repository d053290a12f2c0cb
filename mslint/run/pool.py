"""How the ``mslint`` command shares files out: in-process for a few files,
else a pool of forked worker processes, each with one :class:`Engine`, taking
batches of neighbouring files; and the memory budget they share (each process
drops astroid's trees when its share is used, see Engine.after_file). A worker
whose share is spent ends and a fresh fork of the main process goes on: what
the files alone decide is worked out in the main process before the first fork
(the project indexes, sites.read_indexes) or carried back from the worker that
ends (mslint.analysis.forked.carried), so that no worker works it out again. The
findings do not depend on the number of processes or the order of files.
"""

from __future__ import annotations

import collections
import gc
import os
import signal
import sys
from collections.abc import Callable
from typing import Any

from mslint.run import compat
from mslint.analysis import forked, programs, sites
from mslint.analysis.forked import resident_bytes
from mslint.analysis.project import available_cpus
from mslint.run.engine import Engine, Settings, source_size
from mslint.report.findings import Finding

# Memory for all processes together; each worker drops astroid's caches when its
# share is used up (see Engine.after_file), whatever the size of the corpus. The
# trees are counted, not the whole process: a worker's resident size runs about
# 100 MiB over its share (measured on the benchmark's 3,297 files: 720 keeps the
# run's peak, main process and two workers, under 1 GiB; 900 took it to 1.1 GiB).
BUDGET_VARIABLE = "MSLINT_MEMORY_BUDGET_MB"


def _budget_from_environment() -> tuple[int, str | None]:
    """The budget in bytes and, when the variable is not a number of MiB, the
    error the command reports (exit 2) instead of a traceback at import."""
    text = os.environ.get(BUDGET_VARIABLE, "720")
    try:
        mib = float(text)
    except ValueError:
        mib = -1.0
    if not mib > 0 or mib == float("inf"):
        return 720 * 2**20, f"{BUDGET_VARIABLE} must be a positive number of MiB (like 1500), not {text!r}"
    return int(mib * 2**20), None


MEMORY_BUDGET, MEMORY_BUDGET_ERROR = _budget_from_environment()
MIN_WORKER_MEMORY = 100 * 2**20  # a worker needs about 50 MiB before any tree
# What the main process keeps while workers run (measured: 40 MiB without the
# result cache, 75 MiB with it, after _release_freed_memory); the rest is shared
# among the workers.
MAIN_PROCESS_MEMORY = 100 * 2**20
FILES_PER_WORKER = 4  # fewer files to check than this per worker: check in-process
BATCHES_AT_LEAST = 64  # per worker: no batch is smaller than 1/64 of a worker's share of the work (see batches())

# What CI runners and `timeout` send; the command handles them as Ctrl-C (cli.main).
TERMINATING_SIGNALS = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))

_WORKER: Engine | None = None
_LINTED_HERE: list[bool] = []  # lint() ran in this process before


def _worker_start(settings: Settings, parent: int | None = None) -> None:
    global _WORKER  # noqa: PLW0603 - one engine per worker process
    for number in TERMINATING_SIGNALS:  # the parent's handlers are inherited through fork: the parent ends us
        signal.signal(number, signal.SIG_DFL)
    if parent is not None:
        forked.die_with_parent(parent)
    stars = settings.adjusted_astroid().__enter__()  # for the worker's lifetime
    _WORKER = Engine(settings, stars, inherited=True)
    forked.mark_start()  # what it adds to the carried tables goes back when it ends


def batches(tasks: list[tuple[str, str, str | None]], workers: int) -> list[list[tuple[str, str, str | None]]]:
    """Neighbouring files in batches, one batch at a time per worker. Files of one
    package import the same modules, whose trees a worker then builds once and
    reuses (sorted by size instead, a worker rebuilt them for nearly every file:
    twice the work in all). Batches shrink as the work left does (guided
    scheduling, weighed in source bytes): long runs of neighbours first, small
    batches at the end so that the workers finish together."""
    ordered = sorted(tasks, key=lambda task: task[0])
    sizes = [max(1, source_size(task[0])) for task in ordered]
    left = sum(sizes)
    smallest = left // (workers * BATCHES_AT_LEAST) + 1
    found: list[list[tuple[str, str, str | None]]] = []
    batch: list[tuple[str, str, str | None]] = []
    weight = 0
    for task, size in zip(ordered, sizes):
        batch.append(task)
        weight += size
        if weight >= max(smallest, left // (workers * 2)):
            found.append(batch)
            left -= weight
            batch, weight = [], 0
    if batch:
        found.append(batch)
    return found


def _release_freed_memory() -> None:
    """Give memory this process no longer uses back to the system: free what
    only cycles hold, then ask glibc to return its free pages."""
    gc.collect()
    if not sys.platform.startswith("linux"):
        return
    try:
        import ctypes  # noqa: PLC0415

        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc (musl): nothing to trim
        pass


def default_jobs(limit: int = 8) -> int:
    return max(1, min(available_cpus(), limit))


def lint(
    tasks: list[tuple[str, str, str | None]], settings: Settings, jobs: int, progress: Callable[[int], None] | None = None
) -> dict[str, tuple[list[Finding], str | None]]:
    """Lint ``tasks`` (path, module name, expected content hash) with up to
    ``jobs`` processes; the same findings whatever ``jobs`` is. ``progress``
    is called with the number of files just finished."""
    progress = progress or (lambda _done: None)
    results: dict[str, tuple[list[Finding], str | None]] = {}
    if not tasks:
        return results
    compat.check_signatures()  # here, not in a worker: IncompatibleVersions reaches the caller
    if _LINTED_HERE:
        compat.fresh_astroid()  # trees cached by an earlier run in this process may be stale
    _LINTED_HERE.append(True)
    workers = min(jobs, max(1, len(tasks) // FILES_PER_WORKER))
    if workers <= 1:
        settings.memory_limit = max(MIN_WORKER_MEMORY, MEMORY_BUDGET)
        import astroid  # noqa: PLC0415

        before = set(astroid.MANAGER.astroid_cache)
        saved_path = list(sys.path)
        try:
            with settings.adjusted_astroid() as stars:
                engine = Engine(settings, stars)
                for path, modname, expected in tasks:
                    results[path] = engine.check(path, modname, expected)
                    progress(1)
        finally:
            sys.path[:] = saved_path
            compat.forget_run(before)
            programs.release()  # the run's mode decisions are not the next run's
        return results
    settings.memory_limit = max(MIN_WORKER_MEMORY, (MEMORY_BUDGET - MAIN_PROCESS_MEMORY) // workers)
    if sys.platform.startswith("linux"):
        # every worker is a fork of this process: the project indexes read here
        # once, not by each worker (the rules ask them of most projects)
        sites.read_indexes([path for path, _, _ in tasks], workers)
    _release_freed_memory()  # each forked worker would hold a copy of it
    left = _lint_in_workers(batches(tasks, workers), settings, workers, results, progress)
    if left:  # a worker died (killed: out of memory?): its batch is finished here
        results.update(lint(left, settings, 1, progress))
    return results


class _Worker:
    """A worker process and the main process's end of its pipe."""

    def __init__(self, context, settings: Settings) -> None:  # noqa: ANN001
        self.connection, theirs = context.Pipe()
        self.process = context.Process(target=_worker_main, args=(theirs, settings, os.getpid()), daemon=True)
        self.process.start()
        theirs.close()
        self.batch: list[tuple[str, str, str | None]] = []

    def give(self, batch: list[tuple[str, str, str | None]]) -> None:
        self.batch = batch
        self.connection.send(batch)

    def end(self, kill: bool = False) -> None:
        if kill and self.process.is_alive():
            self.process.kill()
        self.connection.close()
        self.process.join(5)


def _lint_in_workers(
    todo: list[list[tuple[str, str, str | None]]], settings: Settings, workers: int,
    results: dict[str, tuple[list[Finding], str | None]], progress: Callable[[int], None],
) -> list[tuple[str, str, str | None]]:
    """Check the batches in ``workers`` processes, each forked with one Engine; a
    worker whose trees reach its share of the memory budget hands back what is
    left of its batch and ends, and a fresh one takes it up. Ending is what frees
    the trees: dropping them in the process instead (a collection of 1.7 million
    objects spread over its memory) took 2.5 s each time, a sixth of a worker's
    time on the benchmark. Returns the tasks left unchecked by workers that died.
    A dead worker is not replaced (what killed it, a file that takes all memory,
    may kill the next); the others go on with the batches left."""
    import multiprocessing  # noqa: PLC0415
    from multiprocessing.connection import wait  # noqa: PLC0415

    context = multiprocessing.get_context("fork" if sys.platform.startswith("linux") else "spawn")
    queue = collections.deque(todo)
    running: dict[Any, _Worker] = {}
    died: list[tuple[str, str, str | None]] = []
    try:
        while queue and len(running) < workers:
            worker = _Worker(context, settings)
            worker.give(queue.popleft())
            running[worker.connection] = worker
        while running:
            for connection in wait(list(running)):
                worker = running.pop(connection)
                try:
                    checked, rest, learned = connection.recv()
                except (EOFError, OSError):  # it died in its batch
                    died.extend(task for task in worker.batch if task[0] not in results)
                    worker.end(kill=True)
                    continue
                for path, found, content_hash in checked:
                    results[path] = (found, content_hash)
                progress(len(checked))
                if rest is not None:  # spent: it ends, a fresh worker goes on with the rest
                    worker.end()
                    forked.take(learned)  # the next fork inherits what it worked out
                    if rest:
                        queue.appendleft(rest)
                    if not queue:
                        continue
                    worker = _Worker(context, settings)
                elif not queue:
                    worker.connection.send(None)
                    worker.end()
                    continue
                worker.give(queue.popleft())
                running[worker.connection] = worker
    except BaseException:  # interrupted or terminated: no worker outlives the command
        for worker in running.values():
            worker.end(kill=True)
        raise
    # every worker died: what none took up is finished here too
    died.extend(task for batch in queue for task in batch)
    return died


def _worker_main(connection, settings: Settings, parent: int) -> None:  # noqa: ANN001
    """A worker's life: batches in, results out, until told to stop (None) or
    until its engine has spent its share of memory: then it sends, with what it
    checked, the rest of its batch, and ends."""
    _worker_start(settings, parent)
    assert _WORKER is not None
    # a fresh worker is a fork of the main process where there is fork (Linux): cheap;
    # elsewhere it is spawned, importing everything again, and drops its trees itself
    _WORKER.replaceable = sys.platform.startswith("linux")
    if _WORKER.replaceable:
        # It ends when its share is spent, and ending frees everything at once. The
        # collector's passes over the trees it builds (9 s of the cold run's 121 s of
        # CPU on the benchmark) would free a few percent of what it allocates; the
        # engine ends it as well if that garbage grows (Engine.after_file).
        gc.disable()
        _WORKER.resident_at_start = resident_bytes()
    try:
        while True:
            batch = connection.recv()
            if batch is None:
                return
            checked = []
            rest = None
            for index, (path, modname, expected) in enumerate(batch):
                found, content_hash = _WORKER.check(path, modname, expected)
                checked.append((path, found, content_hash))
                if _WORKER.spent:
                    rest = batch[index + 1 :]
                    break
            # an ending worker sends what it worked out from the files (forked.carried)
            connection.send((checked, rest, forked.added_since_start() if rest is not None else None))
            if rest is not None:
                return
    except (EOFError, OSError, KeyboardInterrupt):  # the command is gone or going
        return
    finally:
        connection.close()
