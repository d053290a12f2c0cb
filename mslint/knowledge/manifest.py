"""The rule manifest: one entry per mslint rule, saying everything about it that
is not the checker's code.

Each :class:`RuleSpec` gives the rule's symbol, message id, checker and default
(on/off), how runtime mode confirms it, its autofix (none yet), and its family,
from which the paths of its fixtures and oracle tests follow by convention:

- positive fixture ``fixtures/<family>/ms_foo_bar.py`` (+ ``.rc``, ``.txt``);
- negative fixture ``fixtures/<family>/ms_foo_bar_negative.py`` (+ ``.rc``);
- oracle tests: functions named ``test_ms_foo_bar_<what>`` in
  ``tests/oracle/test_<family>.py``;
- documentation page ``docs/rules/ms-foo-bar.md``.

What reads it: ``mslint/confirm/rules.py`` builds its confirmation sets from it;
``tests/test_manifest.py`` fails when an entry and the checker's ``msgs`` table
disagree (symbol, id, default, checker: exactly), when a rule lacks one of the
files above, or when the README rule table or ``docs/rules.md`` is stale. The
checkers keep pylint's own ``msgs`` tables (message text and description live
next to the code that fills them in); this module is the one other place their
ids and defaults are written, and the test holds the two equal.

How to add a rule ``ms-foo-bar``:

1. Add a ``RuleSpec`` to :data:`RULES` below (keep message-number order).
   ``confirm=`` the ways runtime mode can check it, or ``unconfirmed=`` why it
   cannot; ``no_oracle=`` only when no real-framework test can prove it, saying why.
2. Add the message to the checker's ``msgs`` table with the same id, symbol and
   default (``{"default_enabled": False}`` for an off rule).
3. Write ``fixtures/<family>/ms_foo_bar.py`` with its ``.rc`` (``load-plugins=mslint``,
   ``disable=all``, ``enable=ms-foo-bar``) and generate its ``.txt``:
   ``MSLINT_UPDATE_FIXTURES=1 .venv/bin/python -m pytest tests/test_functional.py -k ms_foo_bar``;
   then ``ms_foo_bar_negative.py`` + ``.rc``: correct code that must raise nothing.
4. Write the oracle test ``test_ms_foo_bar_<what>`` in ``tests/oracle/test_<family>.py``.
5. Write ``docs/rules/ms-foo-bar.md`` (sections as in the other pages), then run
   ``python -m mslint.run.plugin --write`` to regenerate ``docs/rules.md`` and the
   README rule table.
6. ``.venv/bin/python -m pytest tests/test_manifest.py tests/test_docs.py`` says what is missing.

This module imports nothing from pylint or the frameworks: runtime-mode workers
import it.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

# -- how runtime mode (``mslint --confirm``) checks a finding ----------------
# The claim is a graph compile error (under STRICT at least): a clean STRICT
# compile of the code reaching the line means "not reproduced".
GRAPH_ERROR = "graph-error"
# A STRICT error in some forms and a silent loss in others: an error confirms
# the finding, a clean compile proves nothing.
GRAPH_ERROR_OR_SILENT = "graph-error-or-silent"
# Host code on tensors: under LAX, JIT fallback compiles it and cuts the
# gradient there, which differentiating the compiled graph shows.
FALLBACK = "fallback"
# Confirmed by judging the layer the program builds at the flagged line (with
# the values it computed), else the call rebuilt from its literal arguments.
LAYER = "layer"
# Confirmed by calling a Cell of the flagged class (built as the program builds
# it): the call raises.
CALL = "call"
# Confirmed by looking the flagged method up on a Cell of the class (built as
# the program builds it; the call's receiver is ``self``): AttributeError.
ATTRIBUTE = "attribute"
CONFIRMATIONS = (GRAPH_ERROR, GRAPH_ERROR_OR_SILENT, FALLBACK, LAYER, CALL, ATTRIBUTE)


@dataclass(frozen=True)
class Fix:
    """A rule's automatic fix (``mslint --fix``; the checker offers the exact
    edits through mslint.report.fixes): what it rewrites, and whether the rewrite keeps
    behaviour or the code as written cannot run ("safe", applied by ``--fix``) or
    changes what the code computes toward what the author meant ("unsafe",
    applied with ``--unsafe-fixes`` only)."""

    description: str
    applicability: Literal["safe", "unsafe"]


@dataclass(frozen=True)
class RuleSpec:
    symbol: str  # ms-foo-bar
    msgid: str  # E7101: category letter and number, as in the checker's msgs table
    checker: str  # the pylint checker's name
    family: str  # fixtures/<family>/ and tests/oracle/test_<family>.py
    default_enabled: bool = True
    confirm: tuple[str, ...] = ()  # from CONFIRMATIONS
    unconfirmed: str = ""  # why runtime mode cannot check it (when confirm is empty)
    fix: Fix | None = None
    no_fixtures: str = ""  # why static fixtures cannot show it (a runtime-only rule)
    no_oracle: str = ""  # why no oracle test can prove it
    # a port rule: off by default, turned on by the ``mslint`` command where the code
    # shows it is ported from PyTorch (mslint.analysis.port, mslint.report.ports)
    port: bool = False

    @property
    def stem(self) -> str:
        """``ms_foo_bar``: the name of its fixtures and the prefix of its tests."""
        return self.symbol.replace("-", "_")

    @property
    def fixture(self) -> str:
        return f"fixtures/{self.family}/{self.stem}.py"

    @property
    def negative_fixture(self) -> str:
        return f"fixtures/{self.family}/{self.stem}_negative.py"

    @property
    def oracle_module(self) -> str:
        return f"tests/oracle/test_{self.family}.py"

    @property
    def oracle(self) -> str:
        """Node-id prefix of its oracle tests."""
        return f"{self.oracle_module}::test_{self.stem}_"

    @property
    def doc(self) -> str:
        return f"docs/rules/{self.symbol}.md"


_HOST_CODE = "mindspore-graph-host-code"
_PYTHON = "mindspore-graph-python"
_CELLS = "mindspore-graph-cells"
_SYNTAX = "mindspore-graph-syntax"
_SEMANTICS = "mindspore-graph-semantics"
_LAYERS = "mindspore-layers"
_TRAINING = "mindspore-training"
_TORCH = "mindspore-torch-idioms"
_RUNTIME = "mslint-runtime"
_TRAINING_LOOP = "mindspore-training-loop"
_COMPILE = "mindspore-graph-compile"
_PERFORMANCE = "mindspore-graph-performance"
# -- issue 25, the migration guide's training chapters (ids 81xx, 82xx) --
_DATA_PARALLEL = "mindspore-data-parallel"
_CHECKPOINTS = "mindspore-checkpoints"
_TRAINING_STEPS = "mindspore-training-steps"
_EVALUATION = "mindspore-evaluation"
_MIGRATION_API = "mindspore-migration-api"
_LOUD = "the call fails when it runs (TypeError, AttributeError, ImportError): running it is the confirmation"
_DISTRIBUTED = (
    "a distributed-training rule: the harm shows across ranks launched together (msrun), "
    "not in compiling or calling one module"
)

_COMPILES = "the code compiles; the harm shows only when it runs"
_TRAINING_SETUP = (
    "a training-setup rule: the harm shows in a training run (dtypes, forward passes, "
    "parameter names), not in compiling one Cell or building one layer"
)

RULES: tuple[RuleSpec, ...] = (
    RuleSpec("ms-numpy-on-tensor", "E7101", _HOST_CODE, "graph", confirm=(GRAPH_ERROR, FALLBACK),
             fix=Fix("np.exp(x) becomes ops.exp(x) for the elementwise functions with the same arguments, "
                     "adding `from mindspore import ops` when the file has no name for it", "unsafe")),
    RuleSpec(
        "ms-numpy-in-graph", "C7102", _HOST_CODE, "graph", default_enabled=False,
        unconfirmed="a convention: numpy on constants is folded at compile time, there is no harm to reproduce",
    ),
    RuleSpec("ms-asnumpy-in-graph", "E7103", _HOST_CODE, "graph", confirm=(GRAPH_ERROR, FALLBACK)),
    RuleSpec("ms-custom-type-on-tensor", "E7201", _PYTHON, "graph", confirm=(GRAPH_ERROR, FALLBACK)),
    RuleSpec("ms-import-in-graph", "E7202", _PYTHON, "graph", confirm=(GRAPH_ERROR,)),
    RuleSpec(
        "ms-concurrency-in-graph", "W7203", _PYTHON, "graph",
        unconfirmed=f"{_COMPILES}: the call runs once while compiling and never again",
    ),
    RuleSpec(
        "ms-cell-in-construct", "W7301", _CELLS, "graph",
        unconfirmed=f"{_COMPILES}: the Cell's weights are constants that training never updates",
    ),
    RuleSpec(
        "ms-parameter-init-in-construct", "E7302", _CELLS, "graph",
        unconfirmed="not wired into runtime mode yet, though it fails to compile at every level (a graph-error candidate)",
    ),
    RuleSpec("ms-unsupported-syntax-in-graph", "E7401", _SYNTAX, "graph_syntax", confirm=(GRAPH_ERROR,)),
    RuleSpec("ms-forbidden-api-in-graph", "E7402", _SYNTAX, "graph_syntax", confirm=(GRAPH_ERROR,)),
    RuleSpec("ms-loop-variable-after-loop", "E7403", _SYNTAX, "graph_syntax", confirm=(GRAPH_ERROR,)),
    RuleSpec("ms-conv-padding-ignored", "E7501", _LAYERS, "layers", confirm=(LAYER,),
             fix=Fix('adds pad_mode="pad" (PyTorch\'s padding="same"/"valid" becomes pad_mode=; a Conv\'s per-dimension padding tuple becomes per-side; a pool\'s arguments stay as they are)', "safe")),
    RuleSpec("ms-conv-implicit-pad-mode", "W7502", _LAYERS, "layers", default_enabled=False, port=True, confirm=(LAYER,),
             fix=Fix('adds pad_mode="valid" (PyTorch\'s padding), or pad_mode="pad" beside a padding', "unsafe")),
    RuleSpec("ms-pool-implicit-stride", "W7503", _LAYERS, "layers", default_enabled=False, port=True, confirm=(LAYER,),
             fix=Fix("adds stride=kernel_size (PyTorch's default), for a literal or named kernel size", "unsafe")),
    RuleSpec("ms-dropout-keep-prob", "W7504", _LAYERS, "layers", confirm=(LAYER,),
             fix=Fix("passes the drop rate as p= (PyTorch's meaning) instead of keep_prob", "unsafe")),
    RuleSpec("ms-batchnorm-momentum", "W7505", _LAYERS, "layers", confirm=(LAYER,),
             fix=Fix("writes the literal momentum m as 1 - m (0.1 becomes 0.9)", "unsafe")),
    RuleSpec("ms-torch-positional-args", "E7506", _LAYERS, "layers", confirm=(LAYER,),
             fix=Fix("names the PyTorch positional arguments with MindSpore's keywords (padding p becomes pad_mode=\"pad\", padding=p)", "safe")),
    RuleSpec(
        "ms-layer-default-differs", "C7507", _LAYERS, "layers", default_enabled=False, port=True,
        unconfirmed="a migration hint: the layer builds and runs as documented, only PyTorch's default differs",
    ),
    RuleSpec("ms-torch-argument-type", "E7508", _LAYERS, "layers", confirm=(LAYER,),
             fix=Fix("wraps PyTorch's int in a tuple: nn.LayerNorm(d_model) becomes nn.LayerNorm((d_model,))", "safe")),
    RuleSpec("ms-batchnorm-set-after-build", "W7509", _LAYERS, "layers",
             unconfirmed="the attribute is set on a built layer in a program's run, not when one layer is built"),
    RuleSpec("ms-amp-overrides-to-float", "W7601", _TRAINING, "training", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-bprop-without-set-grad", "W7602", _TRAINING, "training", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-auto-prefix", "W7603", _TRAINING, "training", unconfirmed=_TRAINING_SETUP,
             fix=Fix("passes auto_prefix=False to the super().__init__() of a wrapper defined in the same file "
                     "(removes it from a backbone whose sub-cells collide)", "unsafe")),
    RuleSpec("ms-forward-not-construct", "E7604", _TRAINING, "training", confirm=(CALL,),
             fix=Fix("adds construct = forward to the class (callers of .forward() keep working)", "safe")),
    RuleSpec("ms-torch-train-override", "W7605", _TRAINING, "training", unconfirmed=_TRAINING_SETUP),
    RuleSpec(
        "ms-torch-in-cell", "E7701", _TORCH, "torch_idioms",
        fix=Fix("x.size(d) becomes x.shape[d] and x.size() x.shape (the other PyTorch idioms have no exact rewrite)", "unsafe"),
        unconfirmed="PyTorch idioms fail or do nothing in PyNative code, not as graph compile errors or layer construction",
    ),
    RuleSpec(
        "ms-graph-compile-error", "E7801", _RUNTIME, "runtime",
        unconfirmed="it is runtime mode's own finding: MindSpore's compile error itself",
        no_fixtures="runtime-only: static analysis never raises it; tests/test_confirm.py compiles fixtures/runtime/",
        no_oracle="runtime-only: the finding is the compile error MindSpore reports, so there is no claim to prove "
        "beside it; tests/test_confirm.py::test_compile_error_no_rule_predicted covers it",
    ),
    RuleSpec(
        "ms-frozen-random-in-graph", "E7901", _SEMANTICS, "graph_syntax",
        unconfirmed=f"{_COMPILES}: the value is drawn once at compile time and frozen",
    ),
    RuleSpec("ms-lost-mutation-in-graph", "E7902", _SEMANTICS, "graph_syntax", confirm=(GRAPH_ERROR_OR_SILENT,)),
    RuleSpec("ms-tensor-as-python-value", "E7903", _SEMANTICS, "graph_syntax", confirm=(GRAPH_ERROR_OR_SILENT,)),
    RuleSpec(
        "ms-torch-keyword-args", "E8001", _TRAINING_LOOP, "training_loop",
        unconfirmed="the call raises TypeError/KeyError when the layer is built, in PyNative as in graph mode",
        fix=Fix("renames the keyword to MindSpore's (bias= -> has_bias=, eps= -> epsilon=, dim= -> axis=, lr= -> "
                "learning_rate=, ...) or deletes inplace=; none for keywords without a counterpart", "safe"),
    ),
    RuleSpec("ms-grad-without-has-aux", "E8002", _TRAINING_LOOP, "training_loop", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-loss-without-reduction", "W8003", _TRAINING_LOOP, "training_loop", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-missing-set-train", "W8004", _TRAINING_LOOP, "training_loop", unconfirmed=_TRAINING_SETUP),
    RuleSpec(
        "ms-stop-gradient-discarded", "W8005", _TRAINING_LOOP, "training_loop",
        unconfirmed=f"{_COMPILES}: the discarded result changes no gradient",
    ),
    RuleSpec("ms-torch-module-method", "E8006", _TRAINING_LOOP, "training_loop", confirm=(ATTRIBUTE,),
             fix=Fix("eval() -> set_train(False), train() -> set_train(), parameters() -> get_parameters() "
                     "(trainable_params() where an optimizer or a grad function's weights take it), "
                     "named_parameters() -> parameters_and_names() (no fix where an optimizer takes it), "
                     "children() -> cells(), .cpu() deleted", "safe")),
    RuleSpec("ms-loss-scale-without-unscale", "W8007", _TRAINING_LOOP, "training_loop", unconfirmed=_TRAINING_SETUP),
    RuleSpec(
        "ms-unknown-context-keyword", "E8008", _TRAINING_LOOP, "training_loop",
        unconfirmed="the context call raises ValueError when it runs, before any network is built",
        fix=Fix("renames the misspelled keyword to the one keyword MindSpore knows that it resembles "
                "(radients_mean= -> gradients_mean=); none when two resemble it", "safe"),
    ),
    RuleSpec("ms-optimizer-loss-scale-unmatched", "W8009", _TRAINING_LOOP, "training_loop",
             unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-clip-result-discarded", "W8010", _TRAINING_LOOP, "training_loop",
             unconfirmed=f"{_COMPILES}: the discarded result clips nothing"),
    # -- issue 25: training steps, checkpoints, data parallel, metrics, seeds (81xx) --
    RuleSpec("ms-aux-before-loss", "E8101", _TRAINING_STEPS, "training_steps", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-data-parallel-gradient-sum", "W8102", _DATA_PARALLEL, "data_parallel", unconfirmed=_DISTRIBUTED),
    RuleSpec("ms-data-parallel-without-reducer", "E8103", _DATA_PARALLEL, "data_parallel", unconfirmed=_DISTRIBUTED),
    RuleSpec("ms-data-parallel-without-seed", "W8104", _DATA_PARALLEL, "data_parallel", unconfirmed=_DISTRIBUTED),
    RuleSpec("ms-data-parallel-unsharded-dataset", "W8105", _DATA_PARALLEL, "data_parallel",
             unconfirmed=_DISTRIBUTED),
    RuleSpec("ms-weight-decay-on-all-parameters", "W8106", _TRAINING_STEPS, "training_steps",
             unconfirmed=_TRAINING_SETUP,
             fix=Fix("net.get_parameters() / net.parameters_dict().values() becomes net.trainable_params()", "unsafe")),
    RuleSpec("ms-evaluate-in-train-mode", "W8107", _EVALUATION, "evaluation", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-load-checkpoint-discarded", "E8108", _CHECKPOINTS, "checkpoints",
             unconfirmed="the call runs and returns a dict; that nothing is loaded shows only in the weights"),
    RuleSpec("ms-torch-names-not-mapped", "E8109", _CHECKPOINTS, "checkpoints",
             unconfirmed="it needs the PyTorch weights file the conversion reads"),
    RuleSpec("ms-load-result-ignored", "W8110", _CHECKPOINTS, "checkpoints",
             unconfirmed="it needs the PyTorch weights file the conversion reads"),
    RuleSpec("ms-seed-without-mindspore", "W8111", _TRAINING_STEPS, "training_steps",
             unconfirmed="the harm is a difference between two runs of the whole program"),
    RuleSpec("ms-metric-not-cleared", "W8112", _EVALUATION, "evaluation", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-grad-of-network-output", "E8113", _TRAINING_STEPS, "training_steps", unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-accumulation-last-gradient-only", "E8114", _TRAINING_STEPS, "training_steps",
             unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-network-outside-grad-fn", "E8115", _TRAINING_STEPS, "training_steps",
             unconfirmed=_TRAINING_SETUP),
    RuleSpec("ms-load-result-always-true", "W8116", _CHECKPOINTS, "checkpoints",
             unconfirmed="the harm is a branch the program takes after loading its checkpoint"),
    RuleSpec("ms-load-param-given-path", "E8117", _CHECKPOINTS, "checkpoints", unconfirmed=_LOUD),
    # -- issue 25: PyTorch names that fail in MindSpore (82xx) --
    RuleSpec("ms-torch-class-name", "E8201", _MIGRATION_API, "migration_api", unconfirmed=_LOUD,
             fix=Fix("nn.Module -> nn.Cell, nn.Sequential -> nn.SequentialCell, nn.ModuleList -> nn.CellList, "
                     "nn.ModuleDict -> nn.CellDict, ms_function -> jit (a bare use; imports as `Cell as Module`)",
                     "safe")),
    RuleSpec("ms-torch-optimizer-api", "E8203", _MIGRATION_API, "migration_api", unconfirmed=_LOUD),
    RuleSpec("ms-transpose-torch-args", "E8204", _MIGRATION_API, "migration_api", unconfirmed=_LOUD,
             fix=Fix("ops.transpose(x, a, b) becomes ops.swapaxes(x, a, b)", "safe")),
    RuleSpec("ms-dataloader-keyword-args", "E8205", _MIGRATION_API, "migration_api", unconfirmed=_LOUD,
             fix=Fix("num_workers= -> num_parallel_workers=, batch(drop_last=) -> batch(drop_remainder=), "
                     "pin_memory= deleted; none for batch_size=", "safe")),
    RuleSpec("ms-softmax-ce-index-labels", "E8206", _MIGRATION_API, "migration_api", unconfirmed=_LOUD),
    RuleSpec("ms-torch-init-on-parameter", "E8207", _MIGRATION_API, "migration_api", unconfirmed=_LOUD),
    RuleSpec("ms-set-context-device-target", "C8208", _MIGRATION_API, "migration_api", default_enabled=False,
             unconfirmed="a deprecation: the call works and warns, there is no failure to reproduce",
             fix=Fix("set_context(device_target=t[, device_id=i]) alone becomes set_device(t[, i])", "safe")),
    RuleSpec("ms-primitive-given-inputs", "E8209", _MIGRATION_API, "migration_api", unconfirmed=_LOUD),
    # -- graph code that fails to compile (issue 28; checkers/graph_compile.py) ----------
    RuleSpec("ms-branch-type-mismatch", "E8301", _COMPILE, "graph_compile", confirm=(GRAPH_ERROR,)),
    RuleSpec("ms-identity-comparison-in-graph", "E8302", _COMPILE, "graph_compile", confirm=(GRAPH_ERROR_OR_SILENT,)),
    RuleSpec(
        "ms-tensor-membership-in-graph", "E8303", _COMPILE, "graph_compile",
        unconfirmed=f"{_COMPILES}: the test is silently False at every level (only `v in tensor` under STRICT "
        "fails to compile)",
    ),
    RuleSpec("ms-cell-call-mismatch", "E8304", _COMPILE, "graph_compile", confirm=(GRAPH_ERROR,)),
    RuleSpec("ms-bprop-signature", "E8305", _COMPILE, "graph_compile", confirm=(GRAPH_ERROR,),
             fix=Fix("inserts the missing `out` before dout when only it is missing", "safe")),
    RuleSpec(
        "ms-duplicate-parameter-name", "E8306", _COMPILE, "graph_compile",
        unconfirmed="the Cell builds, compiles and runs; the harm shows when an optimizer is built over its "
        "parameters or a checkpoint is saved",
    ),
    RuleSpec("ms-cell-state-in-graph", "E8307", _COMPILE, "graph_compile", confirm=(GRAPH_ERROR,)),
    RuleSpec("ms-loop-unroll-too-deep", "E8308", _COMPILE, "graph_compile", confirm=(GRAPH_ERROR,)),
    # -- graph code that compiles slowly, again, or in pieces (checkers/graph_performance.py)
    RuleSpec(
        "ms-slow-unrolled-loop", "W8401", _PERFORMANCE, "graph_performance",
        unconfirmed=f"{_COMPILES}: the cost is compile time, which a single compile does not tell from a slow machine",
    ),
    RuleSpec(
        "ms-dynamic-shape-in-graph", "W8402", _PERFORMANCE, "graph_performance",
        unconfirmed="it compiles and runs on CPU (measured); the cost the docs name is on Ascend",
    ),
    RuleSpec(
        "ms-recompile-python-argument", "W8403", _PERFORMANCE, "graph_performance",
        unconfirmed=f"{_COMPILES}: the cost is one compile per value, at the call site in host code",
    ),
    RuleSpec(
        "ms-graph-break", "W8404", _PERFORMANCE, "graph_performance",
        unconfirmed=f"{_COMPILES}: bytecode capture runs the line as Python between two graphs",
    ),
)

BY_SYMBOL: dict[str, RuleSpec] = {rule.symbol: rule for rule in RULES}

# The port rules, and the rules whose findings show that a module is ported from
# PyTorch (PyTorch keywords, positional signatures, forward, torch idioms, PyTorch's
# padding, drop rate and momentum): where one of these reports, the port rules
# are turned on (mslint.report.ports).
PORT_RULES: tuple[str, ...] = tuple(rule.symbol for rule in RULES if rule.port)
PORT_EVIDENCE: tuple[str, ...] = (
    "ms-torch-keyword-args", "ms-torch-positional-args", "ms-forward-not-construct", "ms-torch-in-cell",
    "ms-torch-module-method", "ms-conv-padding-ignored", "ms-dropout-keep-prob", "ms-batchnorm-momentum",
)


def confirmed_by(kind: str) -> frozenset[str]:
    """The symbols runtime mode checks in this way (one of CONFIRMATIONS)."""
    return frozenset(rule.symbol for rule in RULES if kind in rule.confirm)
