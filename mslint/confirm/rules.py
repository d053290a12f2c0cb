"""Which findings runtime mode can check, and how.

Graph rules claim a compile error under jit_syntax_level STRICT (FACTS.md): they
are checked by compiling the Cell or @jit function that reaches the line. The
host-code rules among them also claim that under LAX the code compiles through
JIT fallback with the gradient cut there: that is checked by differentiating
the compiled graph. Layer rules are checked by building the flagged call.
"""

from __future__ import annotations

from mslint.knowledge import manifest

CONFIRMED = "confirmed"
NOT_REPRODUCED = "not reproduced"
NOT_RUN = "not run"
STATUSES = (CONFIRMED, NOT_REPRODUCED, NOT_RUN)

# seconds per module (a worker: importing MindSpore and the module, every build and
# compile), the same for `mslint --confirm-timeout` and the plugin's --confirm-timeout
DEFAULT_TIMEOUT = 120.0

COMPILE_ERROR_SYMBOL = "ms-graph-compile-error"
COMPILE_ERROR_MSGID = manifest.BY_SYMBOL[COMPILE_ERROR_SYMBOL].msgid

# Which rule is checked how is written in the rule manifest (mslint/knowledge/manifest.py,
# where each kind is explained); these sets are read from it.
GRAPH_ERROR_RULES: frozenset[str] = manifest.confirmed_by(manifest.GRAPH_ERROR)
GRAPH_ERROR_OR_SILENT_RULES: frozenset[str] = manifest.confirmed_by(manifest.GRAPH_ERROR_OR_SILENT)
GRAPH_RULES = GRAPH_ERROR_RULES | GRAPH_ERROR_OR_SILENT_RULES
FALLBACK_RULES: frozenset[str] = manifest.confirmed_by(manifest.FALLBACK)
LAYER_RULES: frozenset[str] = manifest.confirmed_by(manifest.LAYER)
CALL_RULES: frozenset[str] = manifest.confirmed_by(manifest.CALL)
ATTRIBUTE_RULES: frozenset[str] = manifest.confirmed_by(manifest.ATTRIBUTE)
CONFIRMABLE = GRAPH_RULES | LAYER_RULES | CALL_RULES | ATTRIBUTE_RULES

# Channel counts do not change what a layer rule checks: a non-literal one is
# replaced by this value (and the detail says so).
SIZE_PARAMETERS: frozenset[str] = frozenset({"in_channels", "out_channels", "num_features"})
SIZE_STAND_IN = 4

NO_CHECK = "no runtime check for this rule (its harm is not a compile error or a layer's construction)"


def no_check(symbol: str) -> str:
    """Why runtime mode has no check for the rule (the manifest says)."""
    spec = manifest.BY_SYMBOL.get(symbol)
    if spec is None or not spec.unconfirmed:
        return NO_CHECK if spec is not None else "not an mslint rule: runtime mode has no check for it"
    return f"no runtime check for this rule: {spec.unconfirmed}"
