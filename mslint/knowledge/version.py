"""mslint's own version, as installed (its package metadata)."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("mslint")
except PackageNotFoundError:  # running from a source tree that is not installed
    VERSION = "0.0.0+unknown"
