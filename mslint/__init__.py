"""mslint: static analysis for MindSpore graph-mode and PyTorch-migration pitfalls.

Load it into pylint with ``pylint --load-plugins mslint`` or run the ``mslint``
command. Static analysis never imports user code, mindspore or torch.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pylint.lint import PyLinter

try:
    from importlib.metadata import PackageNotFoundError, version as _version

    __version__ = _version("mslint")
except PackageNotFoundError:  # running from a source tree that is not installed
    __version__ = "0.0.0+unknown"


def register(linter: PyLinter) -> None:
    """Pylint plugin entry point: register every mslint checker and reporter."""
    from mslint import checkers  # noqa: PLC0415 - keep `import mslint` cheap

    checkers.register_all(linter)
    try:
        from mslint import sarif  # noqa: PLC0415
    except ImportError:  # the SARIF reporter is optional in a partial checkout
        return
    sarif.register(linter)
