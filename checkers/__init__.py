"""mslint's checkers, one module per family of rules.

Every module here defines ``register(linter)``; :func:`register_all` loads them
all, so a new family of rules is a new module and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pylint.lint import PyLinter


def checker_modules() -> list[str]:
    return sorted(
        name for _, name, is_pkg in pkgutil.iter_modules(__path__) if not is_pkg and not name.startswith("_")
    )


def register_all(linter: PyLinter) -> None:
    for name in checker_modules():
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(linter)
