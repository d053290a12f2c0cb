"""Where a file sits in its project: the folder pylint puts on ``sys.path`` for
it (above its top package) and its dotted module name."""

from __future__ import annotations

import functools
import hashlib
import os
import stat


@functools.lru_cache(maxsize=4096)
def _package_of(folder: str) -> tuple[str, tuple[str, ...]]:
    """The folder above the top package containing ``folder`` (what pylint puts
    on sys.path) and the package names from there down to ``folder``."""
    parts: list[str] = []
    while os.path.isfile(os.path.join(folder, "__init__.py")):
        parent = os.path.dirname(folder)
        if parent == folder:
            break
        parts.insert(0, os.path.basename(folder))
        folder = parent
    return folder, tuple(parts)


_REAL: dict[str, str] = {}


def real_path(path: str) -> str:
    """``os.path.realpath``, memoized: one lstat per component of the path, asked
    of the same few thousand paths by every rule (4 s of a profiled run on
    mindformers). The files of a run do not move while it lints."""
    if not os.path.isabs(path):
        return os.path.realpath(path)  # (relative: what it names moves with the working folder)
    known = _REAL.get(path)
    if known is None:
        if len(_REAL) > 100_000:
            _REAL.clear()
        known = _REAL[path] = os.path.realpath(path)
    return known


def package_root(path: str) -> str:
    """The folder pylint puts on sys.path for ``path``: above its top package."""
    return _package_of(os.path.dirname(real_path(path)))[0]


def module_name(path: str) -> str:
    real = real_path(path)
    stem = os.path.basename(real).rsplit(".", 1)[0]
    _, packages = _package_of(os.path.dirname(real))
    parts = list(packages) if stem == "__init__" else [*packages, stem]
    return ".".join(parts) or stem


SOURCE_LIMIT = 2_000_000  # bytes: a larger "module" is generated data, not code to read


def read_source(path: str) -> bytes | None:
    """The bytes of a regular file of reasonable size; None for links, pipes, devices
    (a FIFO named x.py would block the run, a link to /dev/zero fill the memory),
    unreadable or oversized files."""
    try:
        info = os.lstat(path)
        if not stat.S_ISREG(info.st_mode) or info.st_size > SOURCE_LIMIT:
            return None
        with open(path, "rb") as stream:
            data = stream.read(SOURCE_LIMIT + 1)
    except OSError:
        return None
    return data if len(data) <= SOURCE_LIMIT else None


def available_cpus() -> int:
    """The CPUs this process may run on (its affinity, else the machine's)."""
    try:
        count = len(os.sched_getaffinity(0))  # type: ignore[attr-defined]
    except (AttributeError, OSError):
        count = os.cpu_count() or 1
    return max(1, count)


def content_hash(data: bytes) -> str:
    """The hash that names a file's content everywhere: the result cache's keys
    (mslint.run.cache.digest is this function), the engine's hash of the bytes
    it checked, the fix loop's check that a file still holds them, the program
    model's facts."""
    return hashlib.blake2b(data, digest_size=16).hexdigest()
