"""Where a file sits in its project: the folder pylint puts on ``sys.path`` for
it (above its top package) and its dotted module name."""

from __future__ import annotations

import functools
import os


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


def package_root(path: str) -> str:
    """The folder pylint puts on sys.path for ``path``: above its top package."""
    return _package_of(os.path.dirname(os.path.realpath(path)))[0]


def module_name(path: str) -> str:
    real = os.path.realpath(path)
    stem = os.path.basename(real).rsplit(".", 1)[0]
    _, packages = _package_of(os.path.dirname(real))
    parts = list(packages) if stem == "__init__" else [*packages, stem]
    return ".".join(parts) or stem
