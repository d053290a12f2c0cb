"""mslint's checkers, one module per family of rules, and their shared helpers
(:data:`HELPERS`: message wording, following calls into other modules, the
pylint internals they hook).

Every family module defines ``register(linter)``; :func:`register_all` loads
them all, so a new family of rules is a new module and nothing else.
"""

from __future__ import annotations

import importlib
import pkgutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pylint.lint import PyLinter


# Modules here that are shared helpers of the checkers, not families of rules.
HELPERS = frozenset({"follow", "messages", "pylint_hooks"})


def checker_modules() -> list[str]:
    return sorted(
        name
        for _, name, is_pkg in pkgutil.iter_modules(__path__)
        if not is_pkg and not name.startswith("_") and name not in HELPERS
    )


def register_all(linter: PyLinter) -> None:
    for name in checker_modules():
        module = importlib.import_module(f"{__name__}.{name}")
        module.register(linter)
