"""Options shared by all mslint checkers (no messages of its own)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from pylint.checkers import BaseChecker

if TYPE_CHECKING:
    from pylint.lint import PyLinter


class MindSporeOptionsChecker(BaseChecker):
    """Holds mslint's settings so every checker reads them from ``linter.config``."""

    name = "mslint"
    msgs: dict = {}
    options = (
        (
            "jit-syntax-level",
            {
                "default": "lax",
                "type": "choice",
                "choices": ["lax", "strict"],
                "metavar": "<lax|strict>",
                "help": "The jit_syntax_level the project compiles with. Under lax (MindSpore's "
                "default) host code on tensors compiles through JIT fallback and cuts the "
                "gradient; under strict it fails to compile. Graph messages say which.",
            },
        ),
        (
            "mindspore-mode",
            {
                "default": "auto",
                "type": "choice",
                "choices": ["auto", "graph", "pynative"],
                "metavar": "<auto|graph|pynative>",
                "help": "How the program runs. auto: read from the programs of the linted module's project "
                "(what each builds, the mode each selects; mslint --explain shows them): a Cell is graph code "
                "when a GRAPH_MODE program builds it; with no program in sight code is assumed to be compiled "
                "and the messages say so. graph / pynative: every Cell runs so (@jit code is compiled in both).",
            },
        ),
    )


def register(linter: PyLinter) -> None:
    linter.register_checker(MindSporeOptionsChecker(linter))
