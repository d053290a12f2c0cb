"""The plugin as pylint loads it (``pylint --load-plugins mslint``; the face,
mslint/__init__.py, hands over to here): every checker, the runtime-mode
checker and the SARIF reporter registered on a linter, and the configuration
hook. Also the rule catalogue of such a linter (mslint.report.catalog reads
rules from whatever linter it is given), and the command that regenerates the
rule index: ``python -m mslint.run.plugin --write``.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from mslint.report import catalog

if TYPE_CHECKING:
    from pylint.lint import PyLinter


def register(linter: PyLinter) -> None:
    """Register every mslint checker and reporter."""
    from mslint.checkers import register_all  # noqa: PLC0415 - keep `import mslint` cheap
    from mslint.report import sarif  # noqa: PLC0415

    from mslint.checkers import pylint_hooks  # noqa: PLC0415
    from mslint.knowledge.manifest import RULES  # noqa: PLC0415

    _allow_deep_expressions()
    register_all(linter)
    pylint_hooks.honour_pragmas_on_headers(rule.msgid for rule in RULES)
    pylint_hooks.fresh_import_errors()
    pylint_hooks.confidence_from_reach(linter)
    pylint_hooks.models_before_trees(linter)
    sarif.register(linter)
    try:
        from mslint.confirm import checker as runtime  # noqa: PLC0415
    except ImportError:  # an installation without runtime mode
        return
    runtime.register(linter)


def _allow_deep_expressions() -> None:
    """astroid builds and pylint walks trees recursively: with Python's default
    limit of 1000 frames a 2,000-term expression (``a + a + ... + a``, generated
    code) crashes pylint with an astroid-error. From 3.11 on, Python-to-Python
    calls do not use the C stack, so 10,000 frames are safe (checked: a
    50,000-term expression ends in a RecursionError, not a crash); before 3.11
    every frame costs C stack, so stay lower there."""
    limit = 10_000 if sys.version_info >= (3, 11) else 4_000
    if sys.getrecursionlimit() < limit:
        sys.setrecursionlimit(limit)


def load_configuration(linter: PyLinter) -> None:
    """Once options are read: ``[tool.mslint]`` applies as it does to the
    ``mslint`` command; ``--confirm=y`` (runtime mode) needs its checker to run
    even when its own message is disabled."""
    from mslint.analysis import programs  # noqa: PLC0415
    from mslint.run.config import apply_to_pylint  # noqa: PLC0415

    config = apply_to_pylint(linter)
    # ``--mindspore-mode`` (else ``[tool.mslint] mode``) sets how mslint.analysis.programs decides
    setting = getattr(linter.config, "mindspore_mode", "auto")
    if setting == "auto" and config is not None and config.source is not None:
        setting = config.mode
    programs.use_plugin_option(setting)
    try:
        from mslint.confirm import checker as runtime  # noqa: PLC0415
    except ImportError:  # an installation without runtime mode
        return
    runtime.load_configuration(linter)


def mslint_linter(default_plugins: bool = False) -> PyLinter:
    """A bare PyLinter with mslint registered (and pylint's checkers if asked)."""
    from pylint.lint import PyLinter  # noqa: PLC0415

    linter = PyLinter()
    if default_plugins:
        linter.load_default_plugins()
    register(linter)
    return linter


def mslint_rules() -> list[catalog.Rule]:
    """mslint's own rules, sorted by message number."""
    return [rule for rule in catalog.rules_of(mslint_linter()) if rule.mslint]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.run.plugin", description="Print or regenerate the rule index (docs/rules.md) and README.md's rule table.")
    parser.add_argument(
        "--write", nargs="?", const="", metavar="FILE",
        help="regenerate docs/rules.md and README.md's rule table of this checkout; with FILE, write only the index there",
    )
    args = parser.parse_args(argv)
    rules = mslint_rules()
    if args.write:
        Path(args.write).write_text(catalog.index_markdown(rules), encoding="utf-8")
    elif args.write == "":
        for path in catalog.write_generated(rules):
            print(f"wrote {path}")
    else:
        sys.stdout.write(catalog.index_markdown(rules))
    return 0


if __name__ == "__main__":
    sys.exit(main())
