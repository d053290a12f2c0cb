"""Which findings runtime mode can check, and how.

Graph rules claim a compile error under jit_syntax_level STRICT (FACTS.md): they
are checked by compiling the Cell or @jit function that reaches the line. The
host-code rules among them also claim that under LAX the code compiles through
JIT fallback with the gradient cut there: that is checked by differentiating
the compiled graph. Layer rules are checked by building the flagged call.
"""

from __future__ import annotations

CONFIRMED = "confirmed"
NOT_REPRODUCED = "not reproduced"
NOT_RUN = "not run"
STATUSES = (CONFIRMED, NOT_REPRODUCED, NOT_RUN)

COMPILE_ERROR_SYMBOL = "ms-graph-compile-error"
COMPILE_ERROR_MSGID = "E7801"

# Rules whose claim is a graph compile error (under STRICT at least): a clean
# STRICT compile of the code reaching the line means "not reproduced".
GRAPH_ERROR_RULES: frozenset[str] = frozenset(
    {
        "ms-numpy-on-tensor",
        "ms-asnumpy-in-graph",
        "ms-custom-type-on-tensor",
        "ms-import-in-graph",
        "ms-unsupported-syntax-in-graph",
        "ms-forbidden-api-in-graph",
        "ms-loop-variable-after-loop",
    }
)
# Rules whose claim is a STRICT error in some forms and a silent loss in others
# (``self.items.append(x)`` compiles and is lost): an error confirms them, a
# clean compile proves nothing.
GRAPH_ERROR_OR_SILENT_RULES: frozenset[str] = frozenset({"ms-lost-mutation-in-graph", "ms-tensor-as-python-value"})
GRAPH_RULES = GRAPH_ERROR_RULES | GRAPH_ERROR_OR_SILENT_RULES
# Host code on tensors: under LAX, JIT fallback compiles it and cuts the gradient.
FALLBACK_RULES: frozenset[str] = frozenset({"ms-numpy-on-tensor", "ms-asnumpy-in-graph", "ms-custom-type-on-tensor"})

# Layer rules: confirmed by building the flagged call with its literal arguments.
LAYER_RULES: frozenset[str] = frozenset(
    {
        "ms-conv-padding-ignored",
        "ms-dropout-keep-prob",
        "ms-conv-implicit-pad-mode",
        "ms-pool-implicit-stride",
        "ms-batchnorm-momentum",
        "ms-torch-positional-args",
    }
)
CONFIRMABLE = GRAPH_RULES | LAYER_RULES

# Channel counts do not change what a layer rule checks: a non-literal one is
# replaced by this value (and the detail says so).
SIZE_PARAMETERS: frozenset[str] = frozenset({"in_channels", "out_channels", "num_features"})
SIZE_STAND_IN = 4

NO_CHECK = "no runtime check for this rule (its harm is not a compile error or a layer's construction)"
