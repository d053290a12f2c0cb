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

    _allow_deep_expressions()
    checkers.register_all(linter)
    try:
        from mslint import sarif  # noqa: PLC0415
    except ImportError:  # the SARIF reporter is optional in a partial checkout
        return
    sarif.register(linter)


def _allow_deep_expressions() -> None:
    """astroid builds and pylint walks trees recursively: with Python's default
    limit of 1000 frames a 2,000-term expression (``a + a + ... + a``, generated
    code) crashes pylint with an astroid-error. From 3.11 on, Python-to-Python
    calls do not use the C stack, so 10,000 frames are safe (checked: a
    50,000-term expression ends in a RecursionError, not a crash); before 3.11
    every frame costs C stack, so stay lower there."""
    import sys  # noqa: PLC0415

    limit = 10_000 if sys.version_info >= (3, 11) else 4_000
    if sys.getrecursionlimit() < limit:
        sys.setrecursionlimit(limit)


def load_configuration(linter: PyLinter) -> None:
    """Pylint hook, called once options are read: ``[tool.mslint]`` applies as
    it does to the ``mslint`` command; ``--confirm=y`` (runtime mode) needs its
    checker to run even when its own message is disabled."""
    from mslint import mode  # noqa: PLC0415
    from mslint.config import apply_to_pylint  # noqa: PLC0415

    config = apply_to_pylint(linter)
    # ``--mindspore-mode`` (else ``[tool.mslint] mode``) sets how mslint.mode decides
    setting = getattr(linter.config, "mindspore_mode", "auto")
    if setting == "auto" and config is not None and config.source is not None:
        setting = config.mode
    mode.use_plugin_option(setting)
    try:
        from mslint.checkers import runtime  # noqa: PLC0415
    except ImportError:  # a partial checkout without runtime mode
        return
    runtime.load_configuration(linter)
