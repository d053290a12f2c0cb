"""The benchmark's floor: a pylint plugin whose checker does nothing.

``pylint --disable=all`` alone skips every file (no checker wants it), so it
measures nothing. This checker has one enabled message and an empty
``visit_module``: pylint parses every module into an astroid tree and walks it,
and does nothing else. mslint's cost is measured against this.

    pylint --load-plugins floor_plugin --disable=all --enable=benchmark-floor FILES

With ``BENCHMARK_FLOOR_FROZEN=1`` in the environment it also applies the
collector policy the mslint plugin applies while pylint checks
(mslint.checkers.pylint_hooks.survivors_frozen): the floor that mslint's own
work is measured against, apart from what that policy saves pylint itself.
"""

from __future__ import annotations

import os
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker

if TYPE_CHECKING:
    from pylint.lint import PyLinter


class FloorChecker(BaseChecker):
    name = "benchmark-floor"
    msgs = {
        "W9901": (
            "never emitted",
            "benchmark-floor",
            "The benchmark's do-nothing checker: it makes pylint parse and walk every module.",
        ),
    }

    def visit_module(self, node: nodes.Module) -> None:
        pass


def register(linter: PyLinter) -> None:
    linter.register_checker(FloorChecker(linter))
    if os.environ.get("BENCHMARK_FLOOR_FROZEN"):
        from mslint.checkers.pylint_hooks import survivors_frozen  # noqa: PLC0415

        check = linter.check

        def check_frozen(files_or_modules):  # noqa: ANN001, ANN202
            with survivors_frozen():
                return check(files_or_modules)

        linter.check = check_frozen
