"""mslint: static analysis for MindSpore graph-mode and PyTorch-migration pitfalls.

Load it into pylint with ``pylint --load-plugins mslint`` or run the ``mslint``
command. Static analysis never imports user code, mindspore or torch.

This module is the plugin's face, and nothing inside the package imports it.
The package is layered, each layer importing only those below it:
``knowledge`` (facts as data) < ``analysis`` (questions about code, the program
model) < ``checkers`` (pylint checkers) < ``report`` (findings, fixes, SARIF,
the catalogue) < ``confirm`` (runtime mode) < ``run`` (the command, the plugin,
the servers).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from mslint.knowledge.version import VERSION

__version__ = VERSION

if TYPE_CHECKING:
    from pylint.lint import PyLinter


def register(linter: PyLinter) -> None:
    """Pylint plugin entry point: register every mslint checker and reporter."""
    from mslint.run import plugin  # noqa: PLC0415 - keep `import mslint` cheap

    plugin.register(linter)


def load_configuration(linter: PyLinter) -> None:
    """Pylint hook, called once options are read."""
    from mslint.run import plugin  # noqa: PLC0415

    plugin.load_configuration(linter)
