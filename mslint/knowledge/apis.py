"""The knowledge: facts about MindSpore, numpy and PyTorch APIs, as data.

Every rule reads this table instead of hard-coding API names, so a new MindSpore
version is a table edit. Names are canonical qualified names as produced by
:func:`mslint.analysis.resolve.canonical` (``mindspore.nn.Conv2d``, ``numpy.exp``).

The facts behind the entries are measured on MindSpore 2.10 and PyTorch 2.13
(see the oracle tests in ``tests/oracle``), not copied from documentation.
"""

from __future__ import annotations

# The MindSpore whose APIs the tables below describe (measured). Code a version
# check runs only on an older MindSpore (mslint.analysis.versions) is not judged by them.
MEASURED_MINDSPORE = "2.10.0"

# --------------------------------------------------------------------------
# Name canonicalisation: internal module paths -> the public spelling.
# Longest prefix wins; the remainder of the name is kept.
# --------------------------------------------------------------------------
MODULE_ALIASES: dict[str, str] = {
    "mindspore.common.api": "mindspore",
    "mindspore.common.tensor": "mindspore",
    "mindspore.common.parameter": "mindspore",
    "mindspore.common.dtype": "mindspore",
    "mindspore.common.jit_config": "mindspore",
    "mindspore.common.initializer": "mindspore.common.initializer",
    "mindspore.ops.functional": "mindspore.ops",
    "mindspore.ops.function": "mindspore.ops",
    "mindspore.ops.composite": "mindspore.ops",
    "mindspore.ops.operations": "mindspore.ops",
    "mindspore.nn.cell": "mindspore.nn",
    "mindspore.nn.wrap": "mindspore.nn",
    "mindspore.nn.layer": "mindspore.nn",
    "mindspore.nn.loss": "mindspore.nn",
    "mindspore.nn.optim": "mindspore.nn",
    "mindspore.mint.nn.layer": "mindspore.mint.nn",
    "mindspore.train.model": "mindspore.train",
    "mindspore.context": "mindspore",
}
# Sub-packages whose members are re-exported one level up (after the prefix
# above was applied): ``mindspore.nn.conv.Conv2d`` -> ``mindspore.nn.Conv2d``.
FLATTENED_PACKAGES: tuple[str, ...] = ("mindspore.nn", "mindspore.mint.nn", "mindspore.ops")

# --------------------------------------------------------------------------
# Frameworks whose sources mslint never parses or infers into (speed, and the
# findings must not depend on whether they are installed): never the project.
# Every other package (mindcv, mindnlp, mindformers...) is the project when it
# is linted and external when it is installed: resolve decides by its location.
# --------------------------------------------------------------------------
EXTERNAL_PACKAGES: frozenset[str] = frozenset(
    {
        "mindspore", "torch", "numpy", "scipy", "tensorflow", "jax", "cv2", "PIL",
        "sklearn", "pandas", "skimage", "transformers", "torchvision",
    }
)

# What ``from <module> import *`` binds for the framework modules mslint knows it
# for: the module's ``__all__`` in the measured MindSpore (mapping/star_exports.json,
# checked by tests/oracle/test_star_exports.py). ``from mindspore import *`` binds
# ``Tensor`` and ``set_context`` but not ``nn`` (in 2.10 the statement itself raises
# ModuleNotFoundError: its ``__all__`` holds the characters of the version string;
# the table keeps the names it has, what the statement binds where it works);
# ``from mindspore.ops import *`` binds ``max``, ``sum``, ``range``... over the
# builtins. Other modules: unknown (None).
STAR_EXPORTS_FILE = "star_exports.json"


def star_exports(module: str) -> frozenset[str] | None:
    """The names ``from <module> import *`` binds, or None when not known."""
    return _star_exports().get(module)


def _star_exports() -> dict[str, frozenset[str]]:
    global _STAR_EXPORTS  # noqa: PLW0603 - read once, on first use
    if _STAR_EXPORTS is None:
        import json  # noqa: PLC0415
        from pathlib import Path  # noqa: PLC0415

        path = Path(__file__).resolve().parent / "mapping" / STAR_EXPORTS_FILE
        data = json.loads(path.read_text(encoding="utf-8"))
        _STAR_EXPORTS = {module: frozenset(names) for module, names in data["modules"].items()}
    return _STAR_EXPORTS


_STAR_EXPORTS: dict[str, frozenset[str]] | None = None

# --------------------------------------------------------------------------
# Graph mode: what graph code is.
# --------------------------------------------------------------------------
JIT_DECORATORS: frozenset[str] = frozenset(
    {"mindspore.jit", "mindspore.ms_function", "mindspore.jit_function"}
)
JIT_CLASS_DECORATORS: frozenset[str] = frozenset({"mindspore.jit_class"})
# ``@constexpr``: graph code calling the function runs its body as Python while the
# graph compiles (type inference), never parsing it as graph syntax (measured,
# tests/oracle/test_graph_syntax.py): its values are frozen at compile time, but the
# graph syntax and API rules do not apply there.
CONSTEXPR_DECORATORS: frozenset[str] = frozenset(
    {"mindspore.constexpr", "mindspore.ops.constexpr", "mindspore.ops.primitive.constexpr"}
)
CELL_METHODS_COMPILED: frozenset[str] = frozenset({"construct"})

# Calls that differentiate their first argument (a function or a Cell).
GRAD_FUNCTIONS: frozenset[str] = frozenset(
    {
        "mindspore.grad",
        "mindspore.value_and_grad",
        "mindspore.ops.grad",
        "mindspore.ops.value_and_grad",
        "mindspore.ops.vjp",
        "mindspore.ops.jvp",
        "mindspore.vjp",
        "mindspore.jvp",
    }
)
# ``ops.GradOperation(...)`` returns a callable that differentiates its argument.
GRAD_OPERATION_FACTORIES: frozenset[str] = frozenset({"mindspore.ops.GradOperation"})
# Wrapper Cells that differentiate the network given as first argument.
GRAD_WRAPPER_CELLS: frozenset[str] = frozenset(
    {
        "mindspore.nn.TrainOneStepCell",
        "mindspore.nn.TrainOneStepWithLossScaleCell",
        "mindspore.nn.WithLossCell",
        "mindspore.nn.WithGradCell",
        "mindspore.nn.ForwardValueAndGrad",
    }
)

# Model(network, loss_fn, optimizer): given an optimizer, Model.train wraps the network
# in WithLossCell and TrainOneStepCell and differentiates it with respect to the
# weights, as those wrappers do. (position, keyword) of the optimizer.
TRAINING_MODEL_CLASSES: frozenset[str] = frozenset({"mindspore.Model", "mindspore.train.Model"})
TRAINING_MODEL_OPTIMIZER = (2, "optimizer")

# Cell base classes: anything exported by these packages with a capitalised name
# is an nn.Cell, except the classes below.
# (mindnlp.injection.nn: the layers mindnlp's injection puts in mindspore.nn's
# place, mslint.analysis.resolve; all are Cells)
CELL_PACKAGES: tuple[str, ...] = ("mindspore.nn", "mindspore.mint.nn", "mindnlp.injection.nn")
NON_CELL_CLASSES: frozenset[str] = frozenset(
    "mindspore.nn." + name
    for name in (
        "Metric", "Accuracy", "MAE", "MSE", "Precision", "Recall", "F1", "Fbeta",
        "Loss", "Top1CategoricalAccuracy", "Top5CategoricalAccuracy",
        "TopKCategoricalAccuracy", "ConfusionMatrix", "ConfusionMatrixMetric", "Dice",
        "HausdorffDistance", "MeanSurfaceDistance", "RootMeanSquareDistance",
        "BleuScore", "CosineSimilarity", "OcclusionSensitivity", "Perplexity", "ROC",
    )
)

# --------------------------------------------------------------------------
# Tensor dependence.
# --------------------------------------------------------------------------
# Attributes of a tensor that are compile-time constants in graph mode.
STATIC_TENSOR_ATTRIBUTES: frozenset[str] = frozenset(
    {"shape", "dtype", "ndim", "size", "itemsize", "nbytes", "strides"}
)
# Calls whose result never depends on tensor data (shapes, types, predicates).
CONSTANT_RESULT_CALLS: frozenset[str] = frozenset(
    {
        "len", "isinstance", "issubclass", "type", "id", "hasattr", "callable",
        "mindspore.ops.shape", "mindspore.ops.rank", "mindspore.ops.dtype",
        "mindspore.ops.size", "mindspore.ops.Shape", "mindspore.ops.DType",
        "mindspore.ops.Rank", "mindspore.ops.Size", "mindspore.ops.dyn_shape",
        "mindspore.ops.is_tensor",
        # measured (2.10): a Python int in PyNative; in GRAPH_MODE a constant, so
        # ``nn.Dense(mnp.size(x, axis=1), 2)`` builds (tests/oracle/test_graph.py)
        "mindspore.numpy.size",
    }
)
# Constructors whose result, assigned to ``self.x`` in ``__init__``, is a tensor
# at run time (a Parameter is trained; a Tensor attribute is graph data).
TENSOR_CONSTRUCTORS: frozenset[str] = frozenset(
    {
        "mindspore.Parameter",
        "mindspore.ParameterTuple",
        "mindspore.Tensor",
        "mindspore.common.initializer.initializer",
    }
)
# Packages whose calls return tensors (used for ``self.x = ops.ones(...)``).
TENSOR_PACKAGES: tuple[str, ...] = ("mindspore.ops", "mindspore.numpy", "mindspore.mint")

# Python-scalar annotations: a construct parameter so annotated is a constant.
CONSTANT_ANNOTATIONS: frozenset[str] = frozenset({"int", "float", "bool", "str", "bytes"})

# --------------------------------------------------------------------------
# Host libraries applied to tensors (ms-numpy-on-tensor / ms-numpy-in-graph).
# --------------------------------------------------------------------------
# Top-level packages whose functions run on the host, outside the graph.
# Host array types: ``isinstance(x, np.ndarray)`` is False for a tensor, so graph
# code never runs such a branch for one (mslint.checkers.follow).
HOST_ARRAY_TYPES: frozenset[str] = frozenset({"numpy.ndarray", "numpy.generic", "numpy.number"})
# ``isinstance(x, T)`` on a runtime tensor is folded while compiling, and only the
# branch taken is compiled (tests/oracle/test_graph.py): True for these...
TENSOR_TYPES: frozenset[str] = frozenset({"mindspore.Tensor"})
# ...and False for these (Python's own containers and scalars, host arrays)
NON_TENSOR_TYPES: frozenset[str] = HOST_ARRAY_TYPES | frozenset(
    {"list", "tuple", "dict", "set", "frozenset", "int", "float", "bool", "complex", "str", "bytes"}
)

HOST_ARRAY_PACKAGES: frozenset[str] = frozenset(
    {"numpy", "scipy", "cv2", "PIL", "sklearn", "pandas", "skimage", "numba"}
)
# numpy callables that build arrays from shapes and Python numbers, or describe
# types: the result is a compile-time constant, whatever the arguments are.
HOST_CONSTANT_CALLS: frozenset[str] = frozenset(
    "numpy." + name
    for name in (
        "zeros", "ones", "empty", "full", "eye", "identity", "arange", "linspace",
        "logspace", "geomspace", "tri", "finfo", "iinfo", "dtype",
        "float16", "float32", "float64", "int8", "int16", "int32", "int64",
        "uint8", "bool_", "promote_types", "result_type",
    )
)
# Only the type constructors among HOST_CONSTANT_CALLS convert their argument:
# ``np.float32(t)`` on a tensor is a conversion of tensor data.
HOST_TYPE_CONVERSIONS: frozenset[str] = frozenset(
    "numpy." + name
    for name in ("float16", "float32", "float64", "int8", "int16", "int32", "int64", "uint8", "bool_")
)
# Random number generation is ms-frozen-random-in-graph's business.
HOST_RANDOM_PREFIXES: tuple[str, ...] = ("numpy.random",)
# Random integer draws whose integer arguments are bounds: given a size or a count
# (``np.random.randint(0, data.num_nodes, (1,))``), they return a random index,
# which carries no gradient (ms-numpy-on-tensor stays silent; the value is frozen
# at compile time, ms-frozen-random-in-graph's business).
HOST_RANDOM_INDEX_DRAWS: frozenset[str] = frozenset(
    "numpy.random." + name for name in ("randint", "random_integers", "choice", "permutation")
)
# Attributes that hold a size or a count, not tensor data: ``x.shape[0]``,
# ``x.size``, ``x.ndim``, ``data.num_nodes``.
SIZE_ATTRIBUTES: frozenset[str] = frozenset({"shape", "size", "ndim"})
COUNT_ATTRIBUTE_PREFIXES: tuple[str, ...] = ("num_", "n_")

# The MindSpore op to write instead of a numpy function.
NUMPY_TO_MINDSPORE: dict[str, str] = {
    "numpy." + np_name: ms_name
    for np_name, ms_name in {
        "abs": "ops.abs", "absolute": "ops.abs", "exp": "ops.exp", "log": "ops.log",
        "log1p": "ops.log1p", "log2": "ops.log2", "sqrt": "ops.sqrt", "square": "ops.square",
        "power": "ops.pow", "sin": "ops.sin", "cos": "ops.cos", "tan": "ops.tan",
        "tanh": "ops.tanh", "arctan": "ops.atan", "sign": "ops.sign", "floor": "ops.floor",
        "ceil": "ops.ceil", "round": "ops.round", "clip": "ops.clamp",
        "maximum": "ops.maximum", "minimum": "ops.minimum", "max": "ops.amax",
        "min": "ops.amin", "amax": "ops.amax", "amin": "ops.amin", "sum": "ops.sum",
        "mean": "ops.mean", "std": "ops.std", "var": "ops.var", "prod": "ops.prod",
        "cumsum": "ops.cumsum", "argmax": "ops.argmax", "argmin": "ops.argmin",
        "argsort": "ops.sort", "sort": "ops.sort", "matmul": "ops.matmul",
        "dot": "ops.matmul", "einsum": "ops.einsum", "concatenate": "ops.cat",
        "stack": "ops.stack", "split": "ops.split", "reshape": "ops.reshape",
        "transpose": "ops.transpose", "expand_dims": "ops.expand_dims",
        "squeeze": "ops.squeeze", "where": "ops.where", "tile": "ops.tile",
        "repeat": "ops.repeat_interleave", "flip": "ops.flip", "pad": "ops.pad",
        "zeros_like": "ops.zeros_like", "ones_like": "ops.ones_like",
        "array": "the tensor itself", "asarray": "the tensor itself",
        "isnan": "ops.isnan", "isinf": "ops.isinf", "logical_and": "ops.logical_and",
        "logical_or": "ops.logical_or", "logical_not": "ops.logical_not",
        "equal": "ops.equal", "greater": "ops.gt", "less": "ops.lt",
        "topk": "ops.topk", "linalg.norm": "ops.norm", "outer": "ops.outer",
        "tril": "ops.tril", "triu": "ops.triu", "diag": "ops.diag", "unique": "ops.unique",
        "float32": "ops.cast(x, ms.float32)", "float16": "ops.cast(x, ms.float16)",
        "int32": "ops.cast(x, ms.int32)", "int64": "ops.cast(x, ms.int64)",
    }.items()
}
# ms-numpy-on-tensor's autofix: numpy functions whose mindspore.ops counterpart
# takes the same positional arguments (called with positional arguments only, the
# call is rewritten to it). Reductions and shape functions are left out: their
# keywords differ (axis/dim, keepdims/keepdim).
NUMPY_EXACT_OPS: dict[str, str] = {
    "numpy." + np_name: op for np_name, op in {
        "abs": "abs", "absolute": "abs", "exp": "exp", "log": "log", "log1p": "log1p", "log2": "log2",
        "sqrt": "sqrt", "square": "square", "sin": "sin", "cos": "cos", "tan": "tan", "tanh": "tanh",
        "arctan": "atan", "sign": "sign", "floor": "floor", "ceil": "ceil", "isnan": "isnan", "isinf": "isinf",
        "maximum": "maximum", "minimum": "minimum", "power": "pow", "matmul": "matmul",
        "logical_and": "logical_and", "logical_or": "logical_or", "logical_not": "logical_not",
        "zeros_like": "zeros_like", "ones_like": "ones_like",
    }.items()
}
OPS_MODULE = "mindspore.ops"

SCIPY_TO_MINDSPORE: dict[str, str] = {
    "scipy.special.expit": "ops.sigmoid",
    "scipy.special.softmax": "ops.softmax",
    "scipy.special.log_softmax": "ops.log_softmax",
    "scipy.special.erf": "ops.erf",
    "scipy.special.logsumexp": "ops.logsumexp",
}

# Tensor methods that copy data to the host (ms-asnumpy-in-graph):
# name -> (flagged whatever the receiver, compiles under STRICT).
# ``asnumpy`` exists only on MindSpore tensors, so it is flagged whatever the
# receiver; the others only on values that depend on a runtime tensor. Measured
# on 2.10: ``.asnumpy()``, ``.numpy()``, ``.tolist()`` compile under LAX with a
# zero gradient and fail under STRICT; ``.item()`` compiles at both levels and
# the gradient through it is cut (the scalar is a constant for autodiff).
HOST_COPY_METHODS: dict[str, tuple[bool, bool]] = {
    "asnumpy": (True, False),
    "numpy": (False, False),
    "tolist": (False, False),
    "item": (False, True),
}
# In GRAPH_MODE, value_and_grad(fn, None, weights) compiles fn; a host copy of an
# input there fails to compile at both levels (FACTS.md, measured for asnumpy).
GRAPH_GRAD_COPY_FAILS: frozenset[str] = frozenset({"asnumpy"})
GRAPH_GRAD_COPY_HARM = (
    "GRAPH_MODE compiles the function given to value_and_grad, and a host copy there fails to compile "
    "at every jit_syntax_level"
)
# ``self.w.asnumpy()`` on a Parameter in construct fails to compile in GRAPH_MODE at
# every level, trainable or not (measured on 2.10: "the 'Parameter' object's method
# 'asnumpy' is not supported in 'construct'").
PARAMETER_COPY_FAILS: frozenset[str] = frozenset({"asnumpy"})
PARAMETER_COPY_HARM = (
    "a Parameter's asnumpy() fails to compile in GRAPH_MODE at every jit_syntax_level"
)

# What a host copy loses under LAX (ms-asnumpy-in-graph, ms-numpy-on-tensor): the
# gradient of the copied value. An integer or boolean value has none, nor has the
# result of a step function, and a copy used only as a shape, a count, an index,
# in a comparison or in a log is a Python constant for autodiff anyway: the
# weights' gradients stay right (tests/oracle/test_graph.py).
# Integer and boolean dtypes (``ms.int32``, ``"int64"``, ``mstype.bool_``).
INTEGER_DTYPES: frozenset[str] = frozenset(
    {"int8", "int16", "int32", "int64", "uint8", "uint16", "uint32", "uint64", "bool_", "bool", "int", "long"}
)
# Casts, by the last name of the function, op class or tensor method, with the
# position and keyword of their dtype (for an op class: of the call on the data,
# ``ops.Cast()(x, ms.int32)``).
CAST_OPS: dict[str, tuple[int, str]] = {
    "cast": (1, "dtype"), "Cast": (1, "dtype"), "astype": (0, "dtype"), "to": (0, "dtype"),
}
# Tensor methods converting to an integer or boolean dtype (``mask.int()``).
INTEGER_CAST_METHODS: frozenset[str] = frozenset({"int", "long", "short", "byte", "bool"})
# Host-library functions whose result is an index, a boolean or a step function's:
# a host copy feeding them loses no gradient (np.digitize is a bucketize).
HOST_NO_GRADIENT_FUNCTIONS: frozenset[str] = frozenset(
    "numpy." + name
    for name in (
        "argmax", "argmin", "argsort", "argwhere", "nonzero", "flatnonzero", "digitize",
        "searchsorted", "count_nonzero", "bincount", "isnan", "isinf", "isfinite", "isclose",
        "allclose", "array_equal", "equal", "not_equal", "greater", "greater_equal", "less",
        "less_equal", "logical_and", "logical_or", "logical_not", "logical_xor", "sign",
        "floor", "ceil", "round", "around", "rint", "trunc", "fix", "any", "all",
    )
)
# Where a value is only a size, a count or a shape (a Python constant for
# autodiff): MindSpore op functions, by last name, with the positions and
# keywords of those arguments. Every argument of an op class's constructor
# (``ops.BroadcastTo(shape)``, ``ops.Conv2D(out_channel=n)``) is such an attribute.
SHAPE_ARGUMENTS: dict[str, frozenset[int | str]] = {
    "broadcast_to": frozenset({1, "shape", "size"}), "reshape": frozenset({1, "shape"}),
    "zeros": frozenset({0, "size", "shape"}), "ones": frozenset({0, "shape", "size"}),
    "full": frozenset({0, "size"}), "fill": frozenset({1, "shape"}),
    "tile": frozenset({1, "dims", "multiples"}), "repeat_interleave": frozenset({1, "repeats"}),
    "arange": frozenset({0, 1, 2, "start", "end", "step"}), "range": frozenset({0, 1, 2}),
    "narrow": frozenset({1, 2, 3}), "split": frozenset({1, "split_size_or_sections"}),
    "Reshape": frozenset({1}), "Tile": frozenset({1}), "Zeros": frozenset({0}), "Ones": frozenset({0}),
    "Fill": frozenset({1}), "BroadcastTo": frozenset({0}),
}
# Tensor methods all of whose arguments are sizes or shapes (``x.reshape(b, n)``).
SHAPE_METHODS: frozenset[str] = frozenset(
    {"reshape", "view", "expand", "broadcast_to", "tile", "repeat", "resize", "new_zeros",
     "new_ones", "new_empty", "narrow", "expand_as", "split", "chunk"}
)
# Python builtins a number passes through (``float(a)``, ``max(a, 1)``), and those
# that keep only an integer of it (no gradient through them).
NUMBER_BUILTINS: frozenset[str] = frozenset({"int", "float", "round", "max", "min", "abs", "sum"})
TRUNCATING_BUILTINS: frozenset[str] = frozenset({"int", "round"})
# Builtins whose result is a Python bool or string: the value ends there.
VALUE_ENDING_BUILTINS: frozenset[str] = frozenset({"bool", "str", "repr", "print", "format"})
# Builtins taking a count: ``range(n)``.
STRUCTURE_BUILTINS: frozenset[str] = frozenset({"range"})
# Methods that only record a value (logging, a metrics dict): it goes no further.
RECORDING_METHODS: frozenset[str] = frozenset(
    {"info", "debug", "warning", "warn", "error", "exception", "critical", "log", "update",
     "add_scalar", "add_scalars", "write", "format", "set_description", "set_postfix"}
)
# Attributes that say whether a Cell is training: ``if not self.training:`` holds
# inference code (NMS, boxes to numpy), never differentiated.
TRAINING_FLAGS: frozenset[str] = frozenset({"training", "is_training"})

# --------------------------------------------------------------------------
# Python features that do not belong in graph code.
# --------------------------------------------------------------------------
CONCURRENCY_PACKAGES: frozenset[str] = frozenset(
    {"threading", "multiprocessing", "concurrent", "_thread", "queue"}
)
# Calls that (re)initialise parameter data: host-side, not graph ops.
PARAMETER_INIT_METHODS: frozenset[str] = frozenset({"set_data", "init_data"})
PARAMETER_INIT_CALLS: frozenset[str] = frozenset({"mindspore.common.initializer.initializer"})

# --------------------------------------------------------------------------
# Layer migration (checkers/layers.py, ids 75xx): per layer API, its MindSpore
# 2.10 signature and defaults and its PyTorch counterpart's, as read with
# ``inspect.signature`` on the installed packages (tests/oracle/test_layers.py
# checks every entry against them). ``mindspore.mint.nn`` layers follow
# PyTorch's argument meanings: they are marked ``follows_torch`` and no rule
# flags PyTorch-style arguments on them.
# --------------------------------------------------------------------------
from dataclasses import dataclass, field, replace  # noqa: E402 - section-local import


@dataclass(frozen=True)
class PositionalTrap:
    """A positional slot whose MindSpore parameter is not PyTorch's.

    ``looks_like`` says which PyTorch-style values are recognised there:
    "padding" (an int, integer arithmetic such as ``k // 2``, a list or tuple
    display of anything: nothing a pad_mode string can be),
    "bool" (``True``/``False``, or a name containing ``bias`` but not ``init``), "float" (a
    float literal), "int" (an int literal, not a bool), "fraction" (a float literal
    that is not a whole number), "str" (a string literal). ``consequence`` is what
    MindSpore does with such a value (measured), keyed by the literal's repr
    or "*" for any.
    """

    index: int
    ms_param: str
    torch_param: str
    looks_like: str
    consequence: dict[str, str]
    # measured to fail where the call runs (a safe fix); False for the traps the
    # generated mapping data adds, whose calls may build and run (an unsafe fix)
    fails: bool = True


@dataclass(frozen=True)
class DefaultDiff:
    """A default that silently differs from PyTorch's (ms-layer-default-differs)."""

    ms_param: str
    ms_default: str  # as written in Python
    torch_param: str
    torch_default: str
    torch_equivalent: str  # the MindSpore argument that gives PyTorch's behaviour
    effect: str
    # a bias that a following per-channel normalisation (apis.MEAN_REMOVING_NORMS)
    # subtracts again: the difference cannot change the output there
    removed_by_norm: bool = False
    # MindSpore's default as a value, and PyTorch's values of the parameter as
    # MindSpore's (None: the same value), to compare with what a PyTorch original
    # passes; ms_value None where the PyTorch side is no argument (an initial draw)
    ms_value: object = None
    torch_values: dict[object, object] | None = None
    # the effect against another value the original passes (``{value}``)
    effect_against: str | None = None
    # the difference acts only while the layer is trained (an initial draw that
    # loaded or trained weights replace; affine parameters that start as the
    # identity): silent where no program in sight trains the layer
    training_only: bool = False


@dataclass(frozen=True)
class ArgumentType:
    """A value of a type PyTorch's layer takes and MindSpore's refuses at
    construction (ms-torch-argument-type): ``nn.LayerNorm(d_model)``, PyTorch's int
    normalized_shape, raises TypeError in MindSpore 2.10, which wants a tuple."""

    param: str
    position: int
    refused: str  # the kind of value refused: "int"
    wants: str  # what MindSpore takes there, as the message says it
    error: str  # what the construction raises


@dataclass(frozen=True)
class LayerApi:
    # "conv", "conv_transpose", "pool", "dropout", "batchnorm", "dense",
    # "layernorm", "leakyrelu", "instancenorm", "embedding", "gelu",
    # "batchnorm_block" (a block holding a BatchNorm: judged for momentum only)
    family: str
    params: tuple[str, ...]  # positional order (MindSpore 2.10)
    defaults: dict[str, object]  # literal defaults (MindSpore 2.10)
    torch: str  # the PyTorch counterpart
    torch_params: tuple[str, ...]  # its positional order (PyTorch 2.13)
    torch_defaults: dict[str, object]
    # PyTorch keyword -> MindSpore keyword with the same meaning (None: no counterpart)
    torch_to_ms: dict[str, str | None] = field(default_factory=dict)
    follows_torch: bool = False  # mindspore.mint.nn: PyTorch's meanings
    spatial_dims: int = 0  # conv and pool: 1, 2 or 3
    # "running": MindSpore's momentum, the weight of the running average;
    # "batch": PyTorch's, the weight of the new batch (= 1 - MindSpore's).
    momentum_meaning: str | None = None
    # a bool parameter without which the layer builds no BatchNorm, so momentum is
    # unused (nn.Conv2dBnAct's has_bn, default False)
    momentum_needs: str | None = None
    positional_traps: tuple[PositionalTrap, ...] = ()
    default_differs: tuple[DefaultDiff, ...] = ()
    argument_types: tuple[ArgumentType, ...] = ()
    # pools: the parameters MindSpore refuses at other values than these unless
    # pad_mode="pad" (ValueError at construction; PyTorch has no pad_mode)
    pad_mode_only: dict[str, object] = field(default_factory=dict)


# PyTorch's padding written positionally where MindSpore expects pad_mode.
_PAD_MODE_CONSEQUENCE = {"*": "construction fails (pad_mode must be a string)"}

_CONV_TORCH_TO_MS = {
    "in_channels": "in_channels", "out_channels": "out_channels", "kernel_size": "kernel_size",
    "stride": "stride", "padding": "padding", "output_padding": "output_padding",
    "dilation": "dilation", "groups": "group", "bias": "has_bias", "padding_mode": None,
    "device": None, "dtype": None,
}
_CONV_BIAS = DefaultDiff(
    "has_bias", "False", "bias", "True", "has_bias=True",
    "no bias parameter, where PyTorch's layer has one", removed_by_norm=True, ms_value=False,
)


def _conv(dims: int, transpose: bool) -> LayerApi:
    if transpose:
        tail = {
            1: ("padding", "dilation", "group", "has_bias", "weight_init", "bias_init", "dtype"),
            2: ("padding", "output_padding", "dilation", "group", "has_bias", "weight_init", "bias_init", "dtype"),
            3: ("padding", "dilation", "group", "output_padding", "has_bias", "weight_init", "bias_init",
                "data_format", "dtype"),
        }[dims]
        torch_params = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "output_padding",
                        "groups", "bias", "dilation", "padding_mode", "device", "dtype")
        torch_name = f"torch.nn.ConvTranspose{dims}d"
    else:
        tail = ("padding", "dilation", "group", "has_bias", "weight_init", "bias_init") + (
            ("data_format", "dtype") if dims > 1 else ("dtype",)
        )
        torch_params = ("in_channels", "out_channels", "kernel_size", "stride", "padding", "dilation",
                        "groups", "bias", "padding_mode", "device", "dtype")
        torch_name = f"torch.nn.Conv{dims}d"
    torch_to_ms = {name: ms_name for name, ms_name in _CONV_TORCH_TO_MS.items() if name in torch_params}
    if transpose and dims == 1:
        torch_to_ms["output_padding"] = None
    return LayerApi(
        family="conv_transpose" if transpose else "conv",
        params=("in_channels", "out_channels", "kernel_size", "stride", "pad_mode") + tail,
        defaults={"stride": 1, "pad_mode": "same", "padding": 0, "dilation": 1, "group": 1, "has_bias": False},
        torch=torch_name,
        torch_params=torch_params,
        torch_defaults={"stride": 1, "padding": 0, "dilation": 1, "groups": 1, "bias": True, "padding_mode": "zeros"},
        torch_to_ms=torch_to_ms,
        spatial_dims=dims,
        positional_traps=(PositionalTrap(4, "pad_mode", "padding", "padding", _PAD_MODE_CONSEQUENCE),),
        default_differs=(_CONV_BIAS,),
    )


def _pool(kind: str, dims: int) -> LayerApi:
    if kind == "Max":
        params = ("kernel_size", "stride", "pad_mode", "padding", "dilation", "return_indices", "ceil_mode")
        torch_params = ("kernel_size", "stride", "padding", "dilation", "return_indices", "ceil_mode")
    else:
        params = ("kernel_size", "stride", "pad_mode", "padding", "ceil_mode", "count_include_pad")
        torch_params = ("kernel_size", "stride", "padding", "ceil_mode", "count_include_pad")
        if dims > 1:
            params += ("divisor_override",)
            torch_params += ("divisor_override",)
    if dims == 2:
        params += ("data_format",)
    # measured (MindSpore 2.10, tests/oracle/test_layers.py): without pad_mode="pad",
    # MaxPool1d/2d/3d raise ValueError for padding other than 0, ceil_mode=True (PyTorch's
    # SSD/VGG ports), dilation other than 1 and return_indices=True; AvgPool for padding
    # only (its ceil_mode builds); pad_mode="pad" then gives PyTorch's result
    pad_mode_only: dict[str, object] = {"padding": 0}
    if kind == "Max":
        pad_mode_only.update(dilation=1, return_indices=False, ceil_mode=False)
    return LayerApi(
        family="pool",
        params=params,
        defaults={"kernel_size": 1, "stride": 1, "pad_mode": "valid", "padding": 0},
        torch=f"torch.nn.{kind}Pool{dims}d",
        torch_params=torch_params,
        torch_defaults={"stride": None, "padding": 0},  # stride None means kernel_size
        torch_to_ms={name: name for name in torch_params},
        spatial_dims=dims,
        positional_traps=(PositionalTrap(2, "pad_mode", "padding", "padding", _PAD_MODE_CONSEQUENCE),),
        pad_mode_only=pad_mode_only,
    )


def _batchnorm(name: str, mint: bool) -> LayerApi:
    sync = name == "SyncBatchNorm"
    if mint:
        params = ("num_features", "eps", "momentum", "affine", "track_running_stats") + (
            ("process_group", "dtype") if sync else ("dtype",)
        )
    else:
        params = ("num_features", "eps", "momentum", "affine", "gamma_init", "beta_init", "moving_mean_init",
                  "moving_var_init", "use_batch_statistics") + (
            ("process_groups", "dtype") if sync else ("dtype",) if name == "BatchNorm3d" else ("data_format", "dtype")
        )
    return LayerApi(
        family="batchnorm",
        params=params,
        defaults={"eps": 1e-5, "momentum": 0.1 if mint else 0.9, "affine": True},
        torch=f"torch.nn.{name}",
        torch_params=("num_features", "eps", "momentum", "affine", "track_running_stats")
        + (("process_group",) if sync else ()) + ("device", "dtype"),
        torch_defaults={"eps": 1e-5, "momentum": 0.1, "affine": True},
        follows_torch=mint,
        momentum_meaning="batch" if mint else "running",
    )


# mindspore.ops' functional average pools: stride defaults to 1 (MindSpore 2.10's
# signatures; tests/oracle/test_layers.py), where PyTorch's functional pool strides by
# kernel_size (stride=None): ops.avg_pool2d(x, 2) on 32x32 gives 31x31, F.avg_pool2d
# 16x16. ops.max_pool2d/max_pool3d and mint's functional pools default to kernel_size,
# as PyTorch's do. MindSpore function -> the PyTorch function it is written for.
FUNCTIONAL_POOLS_STRIDE_ONE: dict[str, str] = {
    f"mindspore.ops.avg_pool{_dims}d": f"torch.nn.functional.avg_pool{_dims}d" for _dims in (1, 2, 3)
}

LAYER_APIS: dict[str, LayerApi] = {}
for _dims in (1, 2, 3):
    LAYER_APIS[f"mindspore.nn.Conv{_dims}d"] = _conv(_dims, transpose=False)
    LAYER_APIS[f"mindspore.nn.Conv{_dims}dTranspose"] = _conv(_dims, transpose=True)
    for _kind in ("Max", "Avg"):
        LAYER_APIS[f"mindspore.nn.{_kind}Pool{_dims}d"] = _pool(_kind, _dims)
for _name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm"):
    LAYER_APIS[f"mindspore.nn.{_name}"] = _batchnorm(_name, mint=False)
    LAYER_APIS[f"mindspore.mint.nn.{_name}"] = _batchnorm(_name, mint=True)
# ms-batchnorm-set-after-build: mindspore.nn's BatchNorm layers hand these to their
# operator when they are built (measured: tests/oracle/test_layers.py), so setting the
# attribute afterwards changes nothing; attribute -> what the layer stores in it.
BATCHNORM_BUILT_ATTRIBUTES: dict[str, str] = {"momentum": "1 - momentum", "eps": "eps"}
# The classes that build such an operator (and their private base, which ports test with isinstance).
BATCHNORM_OPERATOR_CLASSES: frozenset[str] = frozenset(
    {name for name, api in LAYER_APIS.items() if api.family == "batchnorm" and not api.follows_torch}
    | {"mindspore.nn.layer.normalization._BatchNorm", "mindspore.nn.normalization._BatchNorm"}
)
# Blocks that build an nn.BatchNorm2d / BatchNorm1d when has_bn=True and hand it their
# momentum, with its meaning (tests/oracle/test_layers.py): ms-batchnorm-momentum only.
_TORCH_BATCHNORM_PARAMS = ("num_features", "eps", "momentum", "affine", "track_running_stats", "device", "dtype")
LAYER_APIS["mindspore.nn.Conv2dBnAct"] = LayerApi(
    family="batchnorm_block",
    params=("in_channels", "out_channels", "kernel_size", "stride", "pad_mode", "padding", "dilation", "group",
            "has_bias", "weight_init", "bias_init", "has_bn", "momentum", "eps", "activation", "alpha", "after_fake"),
    defaults={"has_bn": False, "momentum": 0.997, "eps": 1e-5},
    torch="torch.nn.BatchNorm2d",
    torch_params=_TORCH_BATCHNORM_PARAMS,
    torch_defaults={"momentum": 0.1},
    momentum_meaning="running",
    momentum_needs="has_bn",
)
LAYER_APIS["mindspore.nn.DenseBnAct"] = LayerApi(
    family="batchnorm_block",
    params=("in_channels", "out_channels", "weight_init", "bias_init", "has_bias", "has_bn", "momentum", "eps",
            "activation", "alpha", "after_fake"),
    defaults={"has_bn": False, "momentum": 0.9, "eps": 1e-5},
    torch="torch.nn.BatchNorm1d",
    torch_params=_TORCH_BATCHNORM_PARAMS,
    torch_defaults={"momentum": 0.1},
    momentum_meaning="running",
    momentum_needs="has_bn",
)

LAYER_APIS["mindspore.nn.Dropout"] = LayerApi(
    family="dropout",
    params=("keep_prob", "p", "dtype"),
    defaults={"keep_prob": 0.5, "p": None},  # p, when given, overrides keep_prob
    torch="torch.nn.Dropout",
    torch_params=("p", "inplace"),
    torch_defaults={"p": 0.5},
    torch_to_ms={"p": "p", "inplace": None},
    # PyTorch's inplace flag, second by position, lands in p (measured: TypeError,
    # tests/oracle/test_layers.py::test_ms_torch_positional_args_dropout_inplace_flag_raises)
    positional_traps=(
        PositionalTrap(1, "p", "inplace", "bool",
                       {"*": "construction fails with TypeError (p must be a float or an int, not a bool)"}),
    ),
)
for _name in ("Dropout1d", "Dropout2d", "Dropout3d"):
    LAYER_APIS[f"mindspore.nn.{_name}"] = LayerApi(
        family="dropout", params=("p",), defaults={"p": 0.5}, torch=f"torch.nn.{_name}",
        torch_params=("p", "inplace"), torch_defaults={"p": 0.5}, follows_torch=True,
    )
LAYER_APIS["mindspore.mint.nn.Dropout"] = LayerApi(
    family="dropout", params=("p", "inplace"), defaults={"p": 0.5, "inplace": False}, torch="torch.nn.Dropout",
    torch_params=("p", "inplace"), torch_defaults={"p": 0.5}, follows_torch=True,
)
LAYER_APIS["mindspore.nn.Dense"] = LayerApi(
    family="dense",
    params=("in_channels", "out_channels", "weight_init", "bias_init", "has_bias", "activation", "dtype"),
    defaults={"weight_init": None, "bias_init": None, "has_bias": True, "activation": None},
    torch="torch.nn.Linear",
    torch_params=("in_features", "out_features", "bias", "device", "dtype"),
    torch_defaults={"bias": True},
    torch_to_ms={"in_features": "in_channels", "out_features": "out_channels", "bias": "has_bias",
                 "device": None, "dtype": None},
    positional_traps=(
        PositionalTrap(2, "weight_init", "bias", "bool", {
            "False": "every weight starts at 0 and the bias stays",
            "True": "every weight starts at 1 and the bias stays",
            "*": "the weights are initialised from that bool (all 0 or all 1) and the bias stays",
        }),
    ),
)
LAYER_APIS["mindspore.nn.LayerNorm"] = LayerApi(
    family="layernorm",
    params=("normalized_shape", "begin_norm_axis", "begin_params_axis", "gamma_init", "beta_init", "epsilon",
            "dtype"),
    defaults={"begin_norm_axis": -1, "begin_params_axis": -1, "epsilon": 1e-7},
    torch="torch.nn.LayerNorm",
    torch_params=("normalized_shape", "eps", "elementwise_affine", "bias", "device", "dtype"),
    torch_defaults={"eps": 1e-5, "elementwise_affine": True},
    torch_to_ms={"normalized_shape": "normalized_shape", "eps": "epsilon", "elementwise_affine": None,
                 "bias": None, "device": None, "dtype": None},
    positional_traps=(
        PositionalTrap(1, "begin_norm_axis", "eps", "float",
                       {"*": "the first forward call fails with TypeError (begin_norm_axis must be an int)"}),
    ),
    default_differs=(
        DefaultDiff("epsilon", "1e-7", "eps", "1e-5", "epsilon=1e-5",
                    "a different result wherever the variance is small", ms_value=1e-7),
    ),
    # measured: nn.LayerNorm(16) raises TypeError ("the type of 'normalized_shape'
    # must be tuple[int] or list[int]"); (16,) and [16] build
    argument_types=(ArgumentType("normalized_shape", 0, "int", "a tuple or list of ints", "TypeError"),),
)
LAYER_APIS["mindspore.nn.LeakyReLU"] = LayerApi(
    family="leakyrelu",
    params=("alpha",),
    defaults={"alpha": 0.2},
    torch="torch.nn.LeakyReLU",
    torch_params=("negative_slope", "inplace"),
    torch_defaults={"negative_slope": 0.01},
    torch_to_ms={"negative_slope": "alpha", "inplace": None},
    default_differs=(
        DefaultDiff("alpha", "0.2", "negative_slope", "0.01", "alpha=0.01",
                    "negative inputs scaled by 0.2 instead of 0.01", ms_value=0.2,
                    effect_against="negative inputs scaled by 0.2 instead of {value}"),
    ),
)
for _dims in (1, 2, 3):
    LAYER_APIS[f"mindspore.nn.InstanceNorm{_dims}d"] = LayerApi(
        family="instancenorm",
        params=("num_features", "eps", "momentum", "affine", "gamma_init", "beta_init", "dtype"),
        defaults={"eps": 1e-5, "momentum": 0.1, "affine": True},
        torch=f"torch.nn.InstanceNorm{_dims}d",
        torch_params=("num_features", "eps", "momentum", "affine", "track_running_stats", "device", "dtype"),
        torch_defaults={"eps": 1e-5, "momentum": 0.1, "affine": False},
        default_differs=(
            DefaultDiff("affine", "True", "affine", "False", "affine=False",
                        "trainable gamma and beta, where PyTorch's layer has no parameters", ms_value=True,
                        training_only=True),
        ),
    )
LAYER_APIS["mindspore.nn.Embedding"] = LayerApi(
    family="embedding",
    params=("vocab_size", "embedding_size", "use_one_hot", "embedding_table", "dtype", "padding_idx"),
    defaults={"use_one_hot": False, "embedding_table": "normal", "padding_idx": None},
    torch="torch.nn.Embedding",
    torch_params=("num_embeddings", "embedding_dim", "padding_idx", "max_norm", "norm_type",
                  "scale_grad_by_freq", "sparse", "_weight", "_freeze", "device", "dtype"),
    torch_defaults={"padding_idx": None},
    torch_to_ms={"num_embeddings": "vocab_size", "embedding_dim": "embedding_size", "padding_idx": "padding_idx"},
    positional_traps=(
        PositionalTrap(2, "use_one_hot", "padding_idx", "int",
                       {"*": "construction fails with TypeError (use_one_hot must be a bool)"}),
    ),
    default_differs=(
        DefaultDiff("embedding_table", '"normal"', "weight", "normal(0, 1)", "embedding_table=Normal(1.0)",
                    "a table drawn with standard deviation 0.01, where PyTorch draws with 1.0", training_only=True),
    ),
)
LAYER_APIS["mindspore.nn.GELU"] = LayerApi(
    family="gelu",
    params=("approximate",),
    defaults={"approximate": True},
    torch="torch.nn.GELU",
    torch_params=("approximate",),
    torch_defaults={"approximate": "none"},
    default_differs=(
        DefaultDiff("approximate", "True", "approximate", '"none"', "approximate=False",
                    "the tanh approximation, where PyTorch computes the exact erf form", ms_value=True,
                    torch_values={"none": False, "tanh": True}),
    ),
)


# --------------------------------------------------------------------------
# Training setup (checkers/training.py: ms-amp-overrides-to-float,
# ms-bprop-without-set-grad, ms-auto-prefix, ms-forward-not-construct) and
# PyTorch idioms (checkers/torch_idioms.py: ms-torch-in-cell).
# Measured on MindSpore 2.10 (tests/oracle/test_training.py, test_torch_idioms.py).
# --------------------------------------------------------------------------
class AmpApi:
    """Where an automatic-mixed-precision entry point takes its network and level.

    ``level_default`` is the signature's default (inspect, MindSpore 2.10): every
    entry point defaults to "O0", which leaves ``to_float`` alone.
    """

    __slots__ = ("name", "network", "level", "level_default", "dtype", "dtype_default")

    def __init__(self, name, network, level, level_default, dtype=None, dtype_default="float16"):
        self.name = name  # as the message spells it
        self.network = network  # (position, keyword)
        self.level = level  # (position, keyword)
        self.level_default = level_default
        self.dtype = dtype  # (position, keyword) of the low-precision dtype, when it is an argument
        self.dtype_default = dtype_default  # Model and build_train_network always use float16


_MODEL_API = AmpApi("Model", (0, "network"), (6, "amp_level"), "O0")
_BUILD_TRAIN_NETWORK_API = AmpApi("build_train_network", (0, "network"), (3, "level"), "O0")
_AUTO_MIXED_PRECISION_API = AmpApi("auto_mixed_precision", (0, "network"), (1, "amp_level"), "O0", (2, "dtype"))
AMP_APIS: dict[str, AmpApi] = {
    "mindspore.Model": _MODEL_API,
    "mindspore.train.Model": _MODEL_API,
    "mindspore.build_train_network": _BUILD_TRAIN_NETWORK_API,
    "mindspore.train.build_train_network": _BUILD_TRAIN_NETWORK_API,
    "mindspore.amp.build_train_network": _BUILD_TRAIN_NETWORK_API,
    "mindspore.train.amp.build_train_network": _BUILD_TRAIN_NETWORK_API,
    "mindspore.amp.auto_mixed_precision": _AUTO_MIXED_PRECISION_API,
    "mindspore.train.amp.auto_mixed_precision": _AUTO_MIXED_PRECISION_API,
}
# Levels that call network.to_float(low precision) on the whole network and so
# overwrite a custom to_float (measured: "O2", "O3"). "O0" does nothing; "O1" and
# "auto" insert casts per operator and keep a Cell's to_float (measured too).
AMP_LEVELS_OVERRIDING_TO_FLOAT: frozenset[str] = frozenset({"O2", "O3"})
AMP_LEVELS_KEEPING_TO_FLOAT: tuple[str, ...] = ("O0", "O1", "auto")
# Cells that level "O2" puts back to float32 after casting (amp.AMP_BLACK_LIST):
# their own to_float(float32) survives "O2", not "O3".
AMP_O2_FLOAT32_CELLS: frozenset[str] = frozenset(
    {"mindspore.nn.BatchNorm1d", "mindspore.nn.BatchNorm2d", "mindspore.nn.BatchNorm3d", "mindspore.nn.LayerNorm"}
)
TO_FLOAT_METHOD = "to_float"
# MindSpore float dtypes as written (``ms.float32``, ``mstype.float16``): the last
# part of a qualified name under one of these modules.
MINDSPORE_DTYPE_MODULES: tuple[str, ...] = ("mindspore", "mindspore.dtype", "mindspore.common.dtype", "mindspore.common.mstype")
MINDSPORE_FLOAT_DTYPES: dict[str, str] = {
    "float16": "float16", "half": "float16", "float32": "float32", "single": "float32",
    "float64": "float64", "double": "float64", "bfloat16": "bfloat16",
}

# A Cell with a custom bprop, called and then differentiated on the same inputs in
# PyNative: the forward runs twice unless set_grad() was called before the call.
BPROP_METHOD = "bprop"
SET_GRAD_METHOD = "set_grad"
# Calls that differentiate their first argument as ``f(net)(inputs)`` (the forward
# is re-run on ``inputs``).
BPROP_DIFFERENTIATORS: frozenset[str] = frozenset(
    {"mindspore.grad", "mindspore.value_and_grad", "mindspore.ops.grad", "mindspore.ops.value_and_grad"}
)
# Wrappers that call set_grad() on the network they are given.
SET_GRAD_WRAPPERS: frozenset[str] = frozenset(
    {
        "mindspore.nn.TrainOneStepCell", "mindspore.nn.TrainOneStepWithLossScaleCell",
        "mindspore.nn.WithLossCell", "mindspore.nn.WithGradCell", "mindspore.nn.ForwardValueAndGrad",
        "mindspore.Model", "mindspore.train.Model",
    }
)
SET_CONTEXT_CALLS: frozenset[str] = frozenset({"mindspore.set_context"})
PYNATIVE_MODE_NAMES: frozenset[str] = frozenset({"mindspore.PYNATIVE_MODE"})
PYNATIVE_MODE_VALUE = 1  # ms.PYNATIVE_MODE == 1, ms.GRAPH_MODE == 0

# auto_prefix: Cell.__init__(self, auto_prefix=True, flags=None).
CELL_INIT_AUTO_PREFIX = (0, "auto_prefix")
# The Cell base whose __init__ a wrapper reaches with super().__init__(); classes
# that derive from anything else (TrainOneStepCell, WithLossCell, an optimizer...)
# are left alone: MindSpore's wrappers already pass auto_prefix=False.
# (mindspore.mint.nn.Cell is the same class: tests/oracle/test_training.py)
CELL_ROOT_CLASSES: frozenset[str] = frozenset({"mindspore.nn.Cell", "mindspore.mint.nn.Cell"})
# Optimizers: a wrapper that stores one renames the parameters it holds.
OPTIMIZER_CLASSES: frozenset[str] = frozenset(
    {"mindspore.nn." + name for name in (
        "Optimizer", "ASGD", "AdaFactor", "AdaMax", "Adadelta", "Adagrad", "Adam", "AdamOffload",
        "AdamWeightDecay", "FTRL", "LARS", "Lamb", "LazyAdam", "Momentum", "ProximalAdagrad",
        "RMSProp", "Rprop", "SGD",
    )}
    | {"mindspore.experimental.optim." + name for name in (
        "Optimizer", "ASGD", "Adadelta", "Adagrad", "Adam", "AdamW", "Adamax", "NAdam", "RAdam",
        "RMSprop", "Rprop", "SGD",
    )}
    | {"mindspore.mint.optim." + name for name in ("Adam", "AdamW", "FusedAdamW", "SGD")}
)
# __init__ parameter names that are an optimizer whatever the class does with them,
# and short names (``opt`` is often argparse options in ported code) that count only
# when the class uses them as an optimizer (calls it, or reads ``.parameters``).
OPTIMIZER_PARAM_PATTERN = r"optimi[sz]er"
OPTIMIZER_SHORT_PARAM_PATTERN = r"^(opt|optim)(_\w+)?$|_(opt|optim)\d*$"
OPTIMIZER_USE_ATTRIBUTES: frozenset[str] = frozenset({"parameters"})
# Parameter names of common layers (measured; used to tell that two sub-cells of
# an auto_prefix=False Cell collide, e.g. Dense and Conv2d both own "weight").
LAYER_PARAMETER_NAMES: dict[str, frozenset[str]] = {
    "mindspore.nn.Dense": frozenset({"weight", "bias"}),
    "mindspore.nn.Conv1d": frozenset({"weight"}),
    "mindspore.nn.Conv2d": frozenset({"weight"}),
    "mindspore.nn.Conv3d": frozenset({"weight"}),
    "mindspore.nn.Conv1dTranspose": frozenset({"weight"}),
    "mindspore.nn.Conv2dTranspose": frozenset({"weight"}),
    "mindspore.nn.Conv3dTranspose": frozenset({"weight"}),
    "mindspore.nn.Embedding": frozenset({"embedding_table"}),
    "mindspore.nn.BatchNorm1d": frozenset({"mean", "variance", "gamma", "beta"}),
    "mindspore.nn.BatchNorm2d": frozenset({"mean", "variance", "gamma", "beta"}),
    "mindspore.nn.LayerNorm": frozenset({"gamma", "beta"}),
    "mindspore.nn.GroupNorm": frozenset({"gamma", "beta"}),
    "mindspore.nn.InstanceNorm2d": frozenset({"mean", "variance", "gamma", "beta"}),
    "mindspore.nn.LSTM": frozenset({"weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"}),
    "mindspore.nn.GRU": frozenset({"weight_ih_l0", "weight_hh_l0", "bias_ih_l0", "bias_hh_l0"}),
    "mindspore.mint.nn.Linear": frozenset({"weight", "bias"}),
    "mindspore.mint.nn.Conv2d": frozenset({"weight", "bias"}),
    "mindspore.mint.nn.LayerNorm": frozenset({"weight", "bias"}),
    "mindspore.mint.nn.Embedding": frozenset({"weight"}),
    "mindspore.mint.nn.GroupNorm": frozenset({"weight", "bias"}),
}

# ms-forward-not-construct: the method PyTorch calls and the one MindSpore calls.
TORCH_FORWARD_METHOD = "forward"
CELL_FORWARD_METHOD = "construct"
# ms-torch-train-override: PyTorch's mode hook, which nn.Cell does not have.
TORCH_TRAIN_HOOK = "train"
# Non-Cell bases that cannot provide a construct (mixins of a Cell subclass).
NON_CELL_MIXIN_BASES: frozenset[str] = frozenset({"object", "abc.ABC", "typing.Generic"})

# ms-torch-in-cell.
TORCH_PACKAGES: frozenset[str] = frozenset({"torch", "torchvision", "torchaudio", "pytorch_lightning", "lightning"})
MINDSPORE_PACKAGE = "mindspore"
# ``torch.no_grad()`` and friends: no effect on MindSpore's differentiation.
TORCH_NO_GRAD_CONTEXTS: frozenset[str] = frozenset({"torch.no_grad", "torch.inference_mode", "torch.autograd.no_grad"})
# torch calls that, inside a MindSpore Cell's methods (outside graph code), build
# torch layers or tensors that the Cell neither registers nor can compute with.
# (torch.load & co. stay silent: converting weights in a Cell method is legitimate.)
TORCH_TENSOR_FACTORIES: frozenset[str] = frozenset(
    "torch." + name
    for name in (
        "tensor", "as_tensor", "zeros", "ones", "empty", "full", "rand", "randn", "randint",
        "arange", "linspace", "eye", "zeros_like", "ones_like", "full_like", "randn_like",
    )
)
TORCH_LAYER_PACKAGES: tuple[str, ...] = ("torch.nn",)
TORCH_PARAMETER_CLASSES: frozenset[str] = frozenset({"torch.nn.Parameter", "torch.nn.parameter.Parameter"})


class TorchMethodIdiom:
    """A PyTorch-only method and when a call to it is judged to be one.

    receiver: "any" (no MindSpore object has the method), "loss" (a name containing
    "loss"), "optimizer" (an optimizer-like name or an optimizer constructed here),
    "tensor" (a value that depends on a runtime tensor, in graph/differentiated code).
    no_args: only a call without arguments (``optimizer.step()``, not ``opt.step(closure)``
    and not a MindSpore profiler's or scheduler's step).
    """

    __slots__ = ("receiver", "no_args", "harm", "instead")

    def __init__(self, receiver, harm, instead, no_args=False):
        self.receiver = receiver
        self.harm = harm
        self.instead = instead
        self.no_args = no_args


TORCH_METHOD_IDIOMS: dict[str, TorchMethodIdiom] = {
    "cuda": TorchMethodIdiom(
        "any",
        "MindSpore tensors and Cells have no .cuda() (AttributeError)",
        'choose the device once with ms.set_device("GPU") and delete the call',
    ),
    "backward": TorchMethodIdiom(
        "loss",
        "MindSpore tensors have no .backward() (AttributeError)",
        "get the gradients with ms.value_and_grad(forward_fn, None, optimizer.parameters) and apply them with optimizer(grads)",
    ),
    "zero_grad": TorchMethodIdiom(
        "optimizer",
        "MindSpore optimizers have no .zero_grad() (AttributeError)",
        "delete it: ms.grad/ms.value_and_grad return fresh gradients, nothing accumulates",
    ),
    "step": TorchMethodIdiom(
        "optimizer",
        "MindSpore optimizers have no .step() (AttributeError)",
        "apply the gradients with optimizer(grads)",
        no_args=True,
    ),
    "detach": TorchMethodIdiom(
        "tensor",
        "MindSpore tensors have no .detach() (AttributeError)",
        "use ops.stop_gradient(x) to stop the gradient",
        no_args=True,
    ),
    "cpu": TorchMethodIdiom(
        "tensor",
        "MindSpore tensors have no .cpu() (AttributeError)",
        "delete it (x.asnumpy() copies a tensor to the host)",
        no_args=True,
    ),
    "size": TorchMethodIdiom(
        "tensor",
        "Tensor.size is an int attribute in MindSpore (the element count), so calling it raises TypeError",
        "use x.shape[dim] (or x.shape for the whole shape)",
    ),
}
# More PyTorch tensor methods MindSpore 2.10's Tensor and Parameter lack, found by
# introspection of the installed classes (every callable of torch.Tensor that neither
# has, nor a numpy array, a list, a dict, a str, a Cell or an optimizer):
# AttributeError (tests/oracle/test_torch_idioms.py measures each name again). Not
# every such name is here, only those a port writes and no other library's object
# spells alike (``x.mode()``, ``x.values()``, ``x.solve()`` are left out).
# In-place ``x.op_(...)`` whose out-of-place ``x.op(...)`` MindSpore's Tensor has and
# computes alike (measured on the unary ones):
TORCH_INPLACE_TENSOR_METHODS: frozenset[str] = frozenset(
    {
        "abs_", "absolute_", "acos_", "acosh_", "addcmul_", "arccos_", "arccosh_",
        "arcsin_", "arcsinh_", "arctan_", "arctanh_", "asin_", "asinh_", "atan_", "atan2_", "atanh_",
        "ceil_", "clip_", "cos_", "cosh_", "cumprod_", "cumsum_", "deg2rad_", "divide_", "erf_",
        "erfc_", "expm1_", "fmod_", "frac_", "lerp_", "log10_", "log1p_", "log2_", "multiply_",
        "nan_to_num_", "neg_", "negative_", "pow_", "rad2deg_", "reciprocal_", "round_", "rsqrt_",
        "sgn_", "sin_", "sinc_", "sinh_", "sqrt_", "square_", "squeeze_", "subtract_", "swapaxes_",
        "swapdims_", "t_", "tan_", "transpose_", "tril_", "triu_", "true_divide_", "trunc_",
        "unsqueeze_", "xlogy_",
    }
)
# In-place comparisons and logical/bitwise operations: PyTorch's keep x's dtype, where
# MindSpore's out-of-place ones return booleans.
TORCH_INPLACE_DTYPE_KEEPING_METHODS: frozenset[str] = frozenset(
    {
        "eq_", "ne_", "lt_", "le_", "gt_", "ge_", "greater_", "greater_equal_", "less_",
        "less_equal_", "not_equal_", "logical_and_", "logical_or_", "logical_xor_", "logical_not_",
        "bitwise_and_", "bitwise_or_", "bitwise_xor_", "bitwise_not_",
    }
)
# The others, with what to write instead.
TORCH_ONLY_TENSOR_METHODS: dict[str, str] = {
    "detach_": "delete it: a Parameter with requires_grad=False is not trained, and ops.stop_gradient(x) "
               "stops a gradient",
    "relu_": "assign ops.relu(x)",
    # Tensor.addcdiv exists, but its kernel is not registered on CPU (measured)
    "addcdiv_": "assign x + value * tensor1 / tensor2",
    "clamp_min_": "assign x.clamp(min=...)",
    "clamp_max_": "assign x.clamp(max=...)",
    "clamp_min": "use x.clamp(min=...)",
    "clamp_max": "use x.clamp(max=...)",
    "retain_grad": "delete it: ms.grad/ms.value_and_grad return the gradients they are asked for",
    "element_size": "use x.itemsize",
    "new_tensor": "use ms.Tensor(data, dtype=x.dtype)",
    "unflatten": "use x.reshape(...) with the split dimensions",
    "log_softmax": "use ops.log_softmax(x, axis)",
    "get_device": "delete it: MindSpore chooses the device once, with ms.set_device",
    "share_memory_": "delete it",
    "record_stream": "delete it",
}
for _name in sorted(TORCH_INPLACE_TENSOR_METHODS):
    TORCH_METHOD_IDIOMS[_name] = TorchMethodIdiom(
        "tensor",
        f"MindSpore tensors have no in-place .{_name}() (AttributeError)",
        f"assign the out-of-place result: x = x.{_name[:-1]}(...)",
    )
for _name in sorted(TORCH_INPLACE_DTYPE_KEEPING_METHODS):
    TORCH_METHOD_IDIOMS[_name] = TorchMethodIdiom(
        "tensor",
        f"MindSpore tensors have no in-place .{_name}() (AttributeError)",
        f"assign the out-of-place result in x's dtype: x = x.{_name[:-1]}(...).astype(x.dtype)",
    )
for _name, _instead in TORCH_ONLY_TENSOR_METHODS.items():
    TORCH_METHOD_IDIOMS[_name] = TorchMethodIdiom("tensor", f"MindSpore tensors have no .{_name}() (AttributeError)", _instead)
# Tensor.to / Cell.to: MindSpore 2.10 accepts a dtype, a tensor, or one of its own
# device names ("CPU", "cpu", "Ascend", "npu", "meta"); PyTorch device names raise
# ValueError. Strings with these prefixes (lower-cased) are PyTorch devices.
TORCH_DEVICE_PREFIXES: tuple[str, ...] = ("cuda", "mps", "xpu", "hip")
TORCH_DEVICE_CONSTRUCTORS: frozenset[str] = frozenset({"torch.device"})
DEVICE_METHOD = "to"
# PyTorch-compatible layers over MindSpore: where they are imported, backward(),
# step() and zero_grad() are legal, so the module is not judged as plain MindSpore.
# hyper_parallel's autograd_compat adds Tensor.backward to MindSpore (mindformers' PyNative trainer).
# mindnlp: from 0.5 on, importing mindnlp at all installs mindtorch as ``torch``
# (mindnlp/__init__.py: "set mindnlp.core to torch"), and HuggingFace code then runs on
# torch-compatible tensors (``.to("cuda")``, ``.backward()``); earlier versions had
# mindnlp.core. Which version a module targets cannot be seen, so any mindnlp import
# counts.
TORCH_COMPAT_MODULES: tuple[str, ...] = ("msadapter", "mindtorch", "mindnlp", "hyper_parallel")
# Of those, the layers whose import gives the module PyTorch's API itself
# (``import msadapter.pytorch as torch``): its tensors and modules, in Cells and in the
# functions given to value_and_grad too, take .detach(), .cuda(), .log_softmax(1), so
# there a tensor idiom is judged by its receiver (a certain MindSpore tensor), not by
# where it is. hyper_parallel only adds Tensor.backward; mindnlp before 0.5 hands out
# MindSpore's own tensors outside mindnlp.core.
TORCH_API_LAYERS: tuple[str, ...] = ("msadapter", "mindtorch", "mindnlp.core")
# Imports after which ``import torch`` loads mindtorch: mindtorch's documented entry
# (its PyPI user guide: ``from mindtorch.tools import mstorch_enable``, "used before
# importing torch related modules", then plain ``import torch``). In a module importing
# it, ``torch.nn.Dropout`` is mindtorch's Module (a mindspore.nn.Cell) and torch's names
# are mindtorch's, as ``import msadapter.pytorch as torch`` spells it.
TORCH_REDIRECTING_MODULES: tuple[str, ...] = ("mindtorch.tools.mstorch_enable",)
# x2ms_adapter (the X2MindSpore converter's runtime): its optimizers (Adam, SGD, AdamW...
# built through optim_register) mix in OptimAdaptorMixIn, whose step() and zero_grad()
# are no-ops; it patches no Tensor.backward, .detach() or .cpu() (x2ms_adapter/__init__.py
# patches operators and properties only). Where it is imported, only the optimizer
# idioms are legal.
TORCH_COMPAT_OPTIMIZER_MODULES: tuple[str, ...] = ("x2ms_adapter",)
# Libraries built on PyTorch that hand out torch tensors and modules without the
# module importing torch by name (``AutoModel.from_pretrained(...).named_parameters()``,
# ``safetensors.torch.load_file``): in a module importing one, a receiver is not a
# MindSpore tensor merely because the module imports mindspore and not torch.
# (torchvision and torchaudio are in TORCH_PACKAGES.)
TORCH_BASED_LIBRARIES: tuple[str, ...] = (
    "transformers", "timm", "diffusers", "accelerate", "peft", "sentence_transformers",
    "open_clip", "safetensors.torch", "torchmetrics", "torchtext", "fairseq", "detectron2",
    "mmcv", "mmdet", "segmentation_models_pytorch", "kornia", "reformer_pytorch",
)
# Of those, libraries whose public classes are all torch.nn.Modules (reformer_pytorch:
# LSHAttention, LSHSelfAttention, Reformer, ReformerLM, ReformerEncDec, Recorder,
# Autopadder): one built in a MindSpore Cell is a torch layer, as torch.nn's are
# (TORCH_LAYER_PACKAGES): the Cell neither registers nor trains it, and it cannot
# compute on MindSpore tensors.
TORCH_LAYER_LIBRARIES: tuple[str, ...] = ("reformer_pytorch",)

# --------------------------------------------------------------------------
# Cells that hold trainable parameters (ms-cell-in-construct, issue 7): only
# these lose their training when built inside graph code. Measured on MindSpore
# 2.10 (``trainable_params()`` of a default instance is not empty); Softmax,
# ReLU, pooling, padding, losses, Dropout, Flatten have none and are harmless
# there. A keyword below set to anything but a literal True leaves it unsure.
# --------------------------------------------------------------------------
PARAMETERIZED_CELLS: frozenset[str] = frozenset(
    [
        "mindspore.nn." + name
        for name in (
            "Dense", "BiDense", "DenseBnAct", "Conv1d", "Conv2d", "Conv3d",
            "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose", "Conv2dBnAct",
            "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm",
            "GroupNorm", "InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d",
            "Embedding", "EmbeddingLookup", "MultiFieldEmbeddingLookup",
            "LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell", "PReLU",
            "MultiheadAttention", "Transformer", "TransformerEncoder",
            "TransformerDecoder", "TransformerEncoderLayer", "TransformerDecoderLayer",
        )
    ]
    + [
        "mindspore.mint.nn." + name
        for name in (
            "Linear", "Conv1d", "Conv2d", "Conv3d", "ConvTranspose2d", "BatchNorm1d",
            "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "LayerNorm", "GroupNorm",
            "Embedding", "PReLU",
        )
    ]
)
PARAMETER_AFFINE_KEYWORDS: frozenset[str] = frozenset({"affine", "elementwise_affine"})
# A layer built in graph code with its weights given as a value (not an initializer
# name) and no bias is a fixed filter (an STFT basis as a Conv1d's weight_init): the
# functional convolution, meant to stay fixed (ms-cell-in-construct).
FIXED_WEIGHT_KEYWORD, BIAS_KEYWORD = "weight_init", "has_bias"
# Calls that create a trainable parameter (a user Cell whose __init__ makes one holds weights).
PARAMETER_CONSTRUCTORS: frozenset[str] = frozenset({"mindspore.Parameter", "mindspore.ParameterTuple"})

# Tensor methods whose result is static (from the shape), like .shape itself:
# ``np.sqrt(x.numel())`` is numpy on a constant.
STATIC_TENSOR_METHODS: frozenset[str] = frozenset(
    {"numel", "nelement", "dim", "ndimension", "element_size", "is_floating_point", "is_complex", "is_contiguous"}
)
# Generic containers in annotations: ``List[int]``, ``Tuple[int, ...]``,
# ``Optional[int]`` of CONSTANT_ANNOTATIONS are compile-time constants too.
CONSTANT_ANNOTATION_CONTAINERS: frozenset[str] = frozenset(
    {"List", "Tuple", "Sequence", "Optional", "list", "tuple", "Union"}
)

# --------------------------------------------------------------------------
# Graph syntax and semantics (issue 6): ms-unsupported-syntax-in-graph,
# ms-forbidden-api-in-graph, ms-loop-variable-after-loop (checkers/graph_syntax.py),
# ms-frozen-random-in-graph, ms-lost-mutation-in-graph, ms-tensor-as-python-value
# (checkers/graph_semantics.py). Every entry measured on MindSpore 2.10, GRAPH_MODE,
# under jit_syntax_level STRICT and LAX (tests/oracle/test_graph_syntax.py).
# --------------------------------------------------------------------------
# Syntax the graph parser rejects at every level: key -> (construct, rewrite).
# Not here because they compile: ``global``, ``assert``, ``raise``, ``with`` on a
# @jit_class object, lambdas, one-``for`` list/dict comprehensions and generator
# expressions (nested ones too), starred assignment, annotated local assignment.
UNSUPPORTED_GRAPH_SYNTAX: dict[str, tuple[str, str]] = {
    "try": ("try/except", "handle the error outside construct/@jit, or test the condition with if and raise"),
    "try-finally": ("try/finally", "run the cleanup after the call, outside construct/@jit"),
    "del": ("del", "rebind the name instead, or build a new list/dict without the item"),
    "yield": ("yield", "return a tuple or list of the values"),
    "yield-from": ("yield from", "return a tuple or list of the values"),
    "set": ("a set literal", "use a tuple or list"),
    "set-comprehension": ("a set comprehension", "use a list comprehension"),
    "walrus": ("the walrus operator :=", "assign the value on a line of its own first"),
    "nonlocal": ("nonlocal", "pass the value in and return the new value"),
    "match": ("a match statement", "use if/elif"),
    "async": ("async def", "use a plain def"),
    "class": ("a class definition", "define the class at module level"),
    "for-else": ("for ... else", "set a flag before the loop and test it after the loop"),
    "while-else": ("while ... else", "set a flag before the loop and test it after the loop"),
    "comprehension": (
        "a comprehension with %d for clauses",
        "nest comprehensions with one for each, or write the loops out",
    ),
    "complex": ("a complex literal", "build complex tensors with ops.Complex()(real, imag)"),
}

# Calls graph mode refuses at every level (MindSpore's jit_forbidden registry and
# measured failures): qualified name -> what to do instead.
_CONTEXT_FIX = "set or read the context before building the network, outside construct/@jit"
GRAPH_FORBIDDEN_CALLS: dict[str, str] = {
    "mindspore.Parameter": "create the Parameter in __init__ and update it with ops.assign",
    "mindspore.ParameterTuple": "build it in __init__ and keep it on self",
    "mindspore.set_context": _CONTEXT_FIX,
    "mindspore.get_context": _CONTEXT_FIX,
    "mindspore.set_auto_parallel_context": _CONTEXT_FIX,
    "mindspore.get_auto_parallel_context": _CONTEXT_FIX,
    "mindspore.reset_auto_parallel_context": _CONTEXT_FIX,
    "mindspore.set_ps_context": _CONTEXT_FIX,
    "mindspore.get_ps_context": _CONTEXT_FIX,
    "mindspore.reset_ps_context": _CONTEXT_FIX,
    "mindspore.set_seed": "set the seed before building the network, or pass seed= to the ops random function",
    "mindspore.manual_seed": "set the seed before building the network, or pass seed= to the ops random function",
}
# Modules every callable of which is refused (jit_forbidden modules).
GRAPH_FORBIDDEN_MODULES: dict[str, str] = {
    "mindspore.common.initializer": "initialize Parameters in __init__",
    "mindspore.log": "log outside construct/@jit (print works in graph code)",
}
# Reported by ms-parameter-init-in-construct (checkers/graph_cells.py) instead.
GRAPH_FORBIDDEN_EXEMPT: frozenset[str] = PARAMETER_INIT_CALLS
# Cell methods refused in graph code whatever the receiver: names no other
# common class has (``self.trainable_params()``, ``self.backbone.get_parameters()``).
GRAPH_FORBIDDEN_CELL_METHODS: frozenset[str] = frozenset(
    {
        "trainable_params", "untrainable_params", "get_parameters", "parameters_dict",
        "parameters_and_names", "cells_and_names", "get_sub_cell",
    }
)
# Cell methods refused in graph code, flagged only on ``self`` of a Cell class:
# the names are common elsewhere (dicts, PyTorch-like objects).
GRAPH_FORBIDDEN_SELF_METHODS: frozenset[str] = frozenset(
    {
        "state_dict", "load_state_dict", "buffers", "named_buffers", "get_buffer",
        "register_buffer", "register_forward_hook", "register_forward_pre_hook",
        "register_backward_hook", "register_backward_pre_hook",
    }
)
# Checkpoint loads into a network: (qualified name, position, keyword) of the network
# argument (ms-auto-prefix: a load after a prefixing wrapper renamed the network).
CHECKPOINT_LOADS: dict[str, tuple[int, str]] = {
    "mindspore.load_param_into_net": (0, "net"),
    "mindspore.train.serialization.load_param_into_net": (0, "net"),
    "mindspore.train.load_param_into_net": (0, "net"),
    "mindspore.load_checkpoint": (1, "net"),
    "mindspore.train.serialization.load_checkpoint": (1, "net"),
    "mindspore.train.load_checkpoint": (1, "net"),
}

# Checkpoint saves of a network: qualified name -> (position, keyword) of the network.
# A save after wrapping writes the prefixed names, which load back into the wrapped
# network (ms-auto-prefix stays silent on a load after such a save).
CHECKPOINT_SAVES: dict[str, tuple[int, str]] = {
    "mindspore.save_checkpoint": (0, "save_obj"),
    "mindspore.train.serialization.save_checkpoint": (0, "save_obj"),
    "mindspore.train.save_checkpoint": (0, "save_obj"),
}

# A Cell method that gives a sub-cell's parameters their own prefix.
RENAME_PARAMETERS_METHOD = "update_parameters_name"

# Cell methods graph mode accepts only while their result goes unused (measured:
# ``cells = self.cells()`` alone compiles; ``len(self.cells())``, ``for c in
# self.cells()`` and ``self.name_cells().items()`` fail at every level).
GRAPH_FORBIDDEN_WHEN_USED_METHODS: frozenset[str] = frozenset({"cells", "name_cells"})
GRAPH_CELL_LIST_FIX = "keep the sub-cells in an nn.CellList built in __init__ and iterate that"
GRAPH_FORBIDDEN_METHOD_FIX = "call it outside construct/@jit (e.g. in __init__) and keep the result on self"

# Host calls that, with no tensor input, run once while the graph compiles: the
# value is a constant of the graph (measured: two calls return the same value at
# both levels). With a tensor argument they are not frozen (LAX runs them per call).
FROZEN_HOST_MODULES: tuple[str, ...] = ("random", "numpy.random", "secrets")
FROZEN_HOST_CALLS: frozenset[str] = frozenset(
    {
        "time.time", "time.time_ns", "time.perf_counter", "time.perf_counter_ns",
        "time.monotonic", "time.monotonic_ns", "time.process_time", "time.process_time_ns",
        "datetime.datetime.now", "datetime.datetime.utcnow", "datetime.datetime.today",
        "datetime.date.today",
    }
)
# Seeding and state functions return nothing to freeze.
FROZEN_HOST_EXEMPT: frozenset[str] = frozenset(
    {
        "random.seed", "random.getstate", "random.setstate", "numpy.random.seed",
        "numpy.random.get_state", "numpy.random.set_state",
    }
)
# MindSpore random ops that draw a new value at every call in graph mode (measured
# with seed=1; ops.randperm and ops.bernoulli repeated their value, so they are not offered).
RANDOM_TO_MINDSPORE: dict[str, str] = {
    "random.random": "ops.rand", "random.uniform": "ops.uniform", "random.randint": "ops.randint",
    "random.randrange": "ops.randint", "random.gauss": "ops.normal", "random.normalvariate": "ops.normal",
    "random.shuffle": "ops.shuffle", "random.sample": "ops.shuffle", "random.choice": "ops.multinomial",
    "random.choices": "ops.multinomial",
    "numpy.random.rand": "ops.rand", "numpy.random.random": "ops.rand", "numpy.random.random_sample": "ops.rand",
    "numpy.random.randn": "ops.randn", "numpy.random.standard_normal": "ops.standard_normal",
    "numpy.random.normal": "ops.normal", "numpy.random.uniform": "ops.uniform",
    "numpy.random.randint": "ops.randint", "numpy.random.permutation": "ops.shuffle",
    "numpy.random.shuffle": "ops.shuffle", "numpy.random.choice": "ops.multinomial",
}
RANDOM_DEFAULT_REPLACEMENT = "an ops random function (ops.rand, ops.randn, ops.randint, ops.uniform)"
TIME_REPLACEMENT = "measure time outside construct/@jit, or pass the value in as an argument"

# ``self.<list>.<method>(...)`` in graph code, per level: what happens, or None
# where it behaves as in Python (LAX runs extend/insert on the host each call).
_LIST_LOST = "is lost: the Cell's list does not change and later reads in the graph do not see it"
_LIST_LOST_STRICT = (
    "is lost under jit_syntax_level STRICT: the Cell's list does not change and later reads in the graph "
    "do not see it (LAX runs it on the host)"
)
_LIST_STALE = (
    "returns the same element on every call and later reads do not see the removal (the list as it was when "
    "the graph was compiled)"
)
LIST_MUTATIONS: dict[str, dict[str, str | None]] = {
    "append": {"lax": _LIST_LOST, "strict": _LIST_LOST},
    "clear": {"lax": _LIST_LOST, "strict": _LIST_LOST},
    "pop": {"lax": _LIST_STALE, "strict": _LIST_STALE},
    "remove": {"lax": _LIST_LOST, "strict": "fails to compile under jit_syntax_level STRICT"},
    "extend": {"lax": None, "strict": _LIST_LOST_STRICT},
    "insert": {"lax": None, "strict": _LIST_LOST_STRICT},
}
# ``x * self.lst.pop()``: pop used inside an expression (not assigned, not a statement).
LIST_POP_IN_EXPRESSION = (
    "gives a (remaining list, element) tuple inside an expression, not the element (arithmetic on it fails "
    "to compile at every jit_syntax_level)"
)
# Values that make a ``self`` attribute a Python list or dict (``self.x = []``).
LIST_FACTORIES: frozenset[str] = frozenset({"list"})
DICT_FACTORIES: frozenset[str] = frozenset({"dict", "collections.OrderedDict", "collections.defaultdict"})
# Assigning them in graph code keeps them Parameters (ops.Assign): fine at both levels.
PARAMETER_CLASSES: frozenset[str] = frozenset({"mindspore.Parameter"})
# Calls in a class that create attributes mslint cannot see: an attribute it does not
# find assigned may be a Parameter made by one of these.
DYNAMIC_ATTRIBUTE_CALLS: frozenset[str] = frozenset(
    {"setattr", "insert_param_to_cell", "__setattr__", "register_buffer"}
)
MUTATION_FIX = "keep per-step state in a Parameter updated with ops.assign, or return the value"

# ms-tensor-as-python-value: Python builtins that need an int, and conversions that
# make a Python number of a tensor (the gradient through them is zero at both levels).
INT_ONLY_BUILTINS: frozenset[str] = frozenset({"range"})
SCALAR_CONVERSIONS: frozenset[str] = frozenset({"float", "int"})
# Builtins whose result is a Python scalar whatever the argument.
PYTHON_SCALAR_BUILTINS: frozenset[str] = frozenset({"int", "float", "bool", "len", "round", "str", "isinstance"})
# Calls whose tensor result carries no gradient back to its input.
GRADIENT_STOPPING_CALLS: frozenset[str] = frozenset({"mindspore.ops.stop_gradient"})
# Calls and tensor methods whose result carries no gradient whatever their inputs:
# integer indices, counts and random integers (tests/oracle/test_training_loop.py
# checks that each result has an integer dtype).
_INTEGER_RESULT_FUNCTIONS = ("argmax", "argmin", "argsort", "randint", "randperm", "multinomial",
                             "count_nonzero", "nonzero")
INTEGER_RESULT_CALLS: frozenset[str] = frozenset(
    {f"mindspore.{package}.{name}" for package in ("ops", "mint") for name in _INTEGER_RESULT_FUNCTIONS}
    | {f"mindspore.ops.{name}" for name in ("bucketize", "argwhere", "random_categorical",
                                            "Argmax", "Argmin", "UniformInt", "RandomCategorical")}
)
INTEGER_RESULT_METHODS: frozenset[str] = frozenset({"argmax", "argmin", "argsort", "nonzero"})
# Inputs whose name says they hold integer data (``input_ids``, ``batch_valid_length``,
# ``indices``): the last word of the parameter name, or of the key read from
# ``**kwargs``. An integer tensor has no gradient, so a host copy of one used as data
# loses nothing (tests/oracle/test_graph.py: a copy of an integer mask). Not
# ``labels``: regression targets are floats, and a loss's host copy of
# ``logits - labels`` still cuts the logits' gradient.
INTEGER_INPUT_WORDS: frozenset[str] = frozenset({"ids", "idx", "index", "indices", "length", "lengths", "len", "lens"})
# MindSpore ops (function, op class or tensor method, by last name) whose result is
# an integer index, a boolean, or a step function's: no gradient flows through it
# (the integer results above, comparisons, predicates, rounding).
NO_GRADIENT_OPS: frozenset[str] = frozenset(
    {name.rsplit(".", 1)[-1] for name in INTEGER_RESULT_CALLS} | INTEGER_RESULT_METHODS
    | {
        "searchsorted", "SearchSorted", "Bucketize", "NonZero",
        "equal", "not_equal", "eq", "ne", "gt", "ge", "lt", "le", "greater", "greater_equal",
        "less", "less_equal", "isnan", "isinf", "isfinite", "isclose", "logical_and",
        "logical_or", "logical_not", "logical_xor", "Equal", "NotEqual", "Greater",
        "GreaterEqual", "Less", "LessEqual", "IsNan", "IsInf", "IsFinite", "LogicalAnd",
        "LogicalOr", "LogicalNot", "sign", "floor", "ceil", "round", "Sign", "Floor", "Ceil",
        "Round", "ones_like", "zeros_like", "OnesLike", "ZerosLike", "randint_like",
    }
)
# Methods only tensors have (no Python number, list, tuple or str has them): ``n.sum()``
# on a construct parameter proves the parameter is a tensor.
TENSOR_VALUE_METHODS: frozenset[str] = frozenset(
    {"sum", "max", "min", "mean", "prod", "argmax", "argmin", "amax", "amin", "norm", "astype", "squeeze", "reshape"}
)
# Tensor methods whose result carries no gradient, and methods whose arguments lend
# only their dtype or device (``t.type_as(x)``), for ms-lost-mutation-in-graph under LAX.
GRADIENT_STOPPING_METHODS: frozenset[str] = frozenset({"detach", "stop_gradient"})
RECEIVER_ONLY_METHODS: frozenset[str] = frozenset(
    {"type_as", "to", "astype", "new_zeros", "new_ones", "new_empty", "new_full"}
)


# ==========================================================================
# Training loop (checkers/training_loop.py, ids 80xx): ms-torch-keyword-args,
# ms-grad-without-has-aux, ms-loss-without-reduction, ms-missing-set-train.
# Measured on MindSpore 2.10 (tests/oracle/test_training_loop.py checks every
# entry against ``inspect.signature`` of the installed classes and calls them).
# ==========================================================================
# ms-unknown-context-keyword: the parameters MindSpore 2.10's context setters know,
# measured (tests/oracle/test_training_loop.py): set_auto_parallel_context takes the keys
# of its setter table and raises ValueError ("Set context keyword ... is not
# recognized!") for any other; set_context takes its setters and the context's
# parameters (a few of them only warn, or refuse a removed key by name:
# exception_dump, grad_for_scalar, precompile_only) and raises ValueError ("... is not
# recognized!") for any other. Both take **kwargs, so no signature shows this. A
# keyword outside the set is reported only when it misspells one inside it (difflib
# ratio >= CONTEXT_KEYWORD_CUTOFF): a name that resembles none may be an older
# MindSpore's key (``mirror_mean``), right where that version runs.
CONTEXT_KEYWORDS: dict[str, frozenset[str]] = {
    "mindspore.set_auto_parallel_context": frozenset(
        {
            "all_reduce_fusion_config", "auto_parallel_new_interface", "auto_parallel_search_mode",
            "auto_pipeline", "comm_fusion", "communi_parallel_mode", "dataset_strategy",
            "device_num", "dump_device_local_norm", "dump_local_norm", "dump_local_norm_path",
            "enable_alltoall", "enable_parallel_optimizer", "force_fp32_communication",
            "full_batch", "global_rank", "grad_accumulation_step", "gradient_fp32_sync",
            "gradients_mean", "group_ckpt_save_file", "init_param_in_compile", "loss_repeated_mean",
            "optimizer_weight_shard_aggregated_save", "optimizer_weight_shard_size",
            "parallel_mode", "parallel_optimizer_config", "parameter_broadcast", "pipeline_config",
            "pipeline_result_broadcast", "pipeline_segments", "pipeline_stages", "search_mode",
            "sharding_propagation", "strategy_ckpt_config", "strategy_ckpt_load_file",
            "strategy_ckpt_save_file"
        }
    ),
    "mindspore.set_context": frozenset(
        {
            "aoe_config", "aoe_job_type", "aoe_tune_mode", "ascend_config", "atomic_clean_policy",
            "auto_tune_mode", "bias_add_comm_swap", "check_bprop", "compile_cache_path",
            "compute_communicate_fusion_level", "conv_allow_hf32", "conv_allow_tf32",
            "conv_dgrad_algo", "conv_fprop_algo", "conv_wgrad_algo", "cur_step_num",
            "dataset_broadcast_opt_level", "debug_level", "deterministic", "device_id",
            "device_target", "disable_format_transform", "enable_allreduce_slice_to_reducescatter",
            "enable_auto_mixed_precision", "enable_begin_end_inline_opt", "enable_compile_cache",
            "enable_concat_eliminate_opt", "enable_flash_attention_load_balance",
            "enable_fused_cast_add_opt", "enable_grad_comm_opt", "enable_graph_kernel",
            "enable_interleave_parallel_branch", "enable_interleave_split_concat_branch",
            "enable_offloading_packed_experts", "enable_opt_shard_comm_opt",
            "enable_parallel_split", "enable_profiling", "enable_reduce_precision", "enable_sparse",
            "enable_task_opt", "env_config_path", "exec_order", "ge_options", "gpu_config",
            "graph_kernel_flags", "hccl_watchdog", "host_scheduling_max_threshold", "infer_boost",
            "inter_op_parallel_num", "interleaved_layernorm_comm", "interleaved_matmul_comm",
            "jit_compile", "jit_config", "jit_level", "jit_syntax_level", "last_triggered_step",
            "matmul_allow_hf32", "matmul_allow_tf32", "matmul_grad_comm_overlap", "max_call_depth",
            "max_device_memory", "memory_optimize_level", "mempool_block_size", "mode", "need_ckpt",
            "op_debug_option", "op_precision_mode", "op_timeout", "pp_1f1b_overlap",
            "precision_mode", "print_file_path", "profiling_options", "pynative_synchronize",
            "recompute_allgather_overlap_fagrad", "recompute_comm_overlap",
            "reserve_class_name_in_scope", "runtime_num_threads", "save_checkpoint_steps",
            "save_graphs", "save_graphs_path", "topo_order", "variable_memory_max_size",
            "exception_dump", "grad_for_scalar", "precompile_only"
        }
    ),
}
# What set_context also takes without complaint and no one means: the context object's
# other attributes (its methods among them), which it overwrites. Never suggested.
CONTEXT_OBJECT_ATTRIBUTES: frozenset[str] = frozenset(
    {
        "enable_debug_runtime", "enable_ge", "get_jit_config", "get_mode", "get_param",
        "set_aoe_config", "set_aoe_tune_mode", "set_ascend_config", "set_backend_policy",
        "set_debug_level", "set_deterministic", "set_device_id", "set_device_target",
        "set_env_config_path", "set_exec_order", "set_gpu_config", "set_inter_op_parallel_num",
        "set_jit_config", "set_jit_syntax_level", "set_max_call_depth", "set_max_device_memory",
        "set_memory_optimize_level", "set_mempool_block_size", "set_mode", "set_op_timeout",
        "set_param", "set_print_file_path", "set_profiling_options", "set_runtime_num_threads",
        "set_save_graphs_path", "set_variable_memory_max_size", "setters", "support_binary"
    }
)
# Every keyword that does not raise "is not recognized".
CONTEXT_KNOWN_KEYWORDS: dict[str, frozenset[str]] = {
    **CONTEXT_KEYWORDS,
    "mindspore.set_context": CONTEXT_KEYWORDS["mindspore.set_context"] | CONTEXT_OBJECT_ATTRIBUTES,
}
CONTEXT_KEYWORD_CUTOFF = 0.8
CONTEXT_KEYWORD_ERRORS: dict[str, str] = {
    "mindspore.set_auto_parallel_context": 'ValueError ("Set context keyword {} is not recognized!")',
    "mindspore.set_context": 'ValueError ("the keyword argument {} is not recognized!")',
}


@dataclass(frozen=True)
class TorchKeyword:
    """A PyTorch keyword a MindSpore API does not accept.

    ``rename`` is the MindSpore keyword that takes the same value (a pure rename,
    a safe fix); when there is none, ``instead`` says what to write.
    """

    rename: str | None = None
    instead: str = ""
    delete: bool = False  # deleting the keyword keeps behaviour (a safe fix)


@dataclass(frozen=True)
class TorchKeywordApi:
    torch: str  # the PyTorch counterpart, as the message names it
    keywords: dict[str, TorchKeyword]
    raises: str = "TypeError"  # what the naive call raises (Adam's **kwargs: KeyError)
    call: str = "constructing it"  # "calling it" for a function (the generated data's ops)


def _renames(**names: str) -> dict[str, TorchKeyword]:
    return {torch_name: TorchKeyword(rename=ms_name) for torch_name, ms_name in names.items()}


_DELETE_INPLACE = {"inplace": TorchKeyword(instead="delete it (MindSpore layers never work in place)", delete=True)}
_LEGACY_REDUCTION = {
    name: TorchKeyword(instead='write reduction="mean", "sum" or "none" instead (PyTorch deprecated it for reduction too)')
    for name in ("size_average", "reduce")
}
_TRACK_RUNNING_STATS = {
    "track_running_stats": TorchKeyword(
        instead="write use_batch_statistics=True for PyTorch's track_running_stats=False, delete it when True"
    )
}
_BETAS = {"betas": TorchKeyword(instead="write beta1=..., beta2=... (two keywords, not a tuple)")}

TORCH_KEYWORD_APIS: dict[str, TorchKeywordApi] = {
    "mindspore.nn.Dense": TorchKeywordApi(
        "torch.nn.Linear", _renames(in_features="in_channels", out_features="out_channels", bias="has_bias")
    ),
    "mindspore.nn.BiDense": TorchKeywordApi(
        "torch.nn.Bilinear",
        _renames(in1_features="in1_channels", in2_features="in2_channels", out_features="out_channels",
                 bias="has_bias"),
    ),
    "mindspore.nn.LayerNorm": TorchKeywordApi(
        "torch.nn.LayerNorm",
        {**_renames(eps="epsilon"),
         "elementwise_affine": TorchKeyword(
             instead="delete it (gamma and beta always exist; freeze them with requires_grad=False)")},
    ),
    "mindspore.nn.Embedding": TorchKeywordApi(
        "torch.nn.Embedding", _renames(num_embeddings="vocab_size", embedding_dim="embedding_size")
    ),
    "mindspore.nn.LeakyReLU": TorchKeywordApi(
        "torch.nn.LeakyReLU", {**_renames(negative_slope="alpha"), **_DELETE_INPLACE}
    ),
    "mindspore.nn.PReLU": TorchKeywordApi("torch.nn.PReLU", _renames(num_parameters="channel", init="w")),
    "mindspore.nn.MultiheadAttention": TorchKeywordApi("torch.nn.MultiheadAttention", _renames(bias="has_bias")),
    # Optimizers: MindSpore's learning_rate is PyTorch's lr.
    "mindspore.nn.SGD": TorchKeywordApi("torch.optim.SGD", _renames(lr="learning_rate")),
    "mindspore.nn.Momentum": TorchKeywordApi(
        "torch.optim.SGD", _renames(lr="learning_rate", nesterov="use_nesterov")
    ),
    "mindspore.nn.Adam": TorchKeywordApi(
        "torch.optim.Adam", {**_renames(lr="learning_rate", amsgrad="use_amsgrad"), **_BETAS}, raises="KeyError"
    ),
    "mindspore.nn.AdamWeightDecay": TorchKeywordApi(
        "torch.optim.AdamW", {**_renames(lr="learning_rate"), **_BETAS}
    ),
    "mindspore.nn.AdaMax": TorchKeywordApi("torch.optim.Adamax", {**_renames(lr="learning_rate"), **_BETAS}),
    # Lamb has no PyTorch class; ported code takes Adam's keywords.
    "mindspore.nn.Lamb": TorchKeywordApi("torch.optim.Adam", {**_renames(lr="learning_rate"), **_BETAS}),
    "mindspore.nn.RMSProp": TorchKeywordApi(
        "torch.optim.RMSprop", _renames(lr="learning_rate", alpha="decay", eps="epsilon")
    ),
    "mindspore.nn.Adagrad": TorchKeywordApi(
        "torch.optim.Adagrad", _renames(lr="learning_rate", initial_accumulator_value="accum")
    ),
    "mindspore.nn.Adadelta": TorchKeywordApi("torch.optim.Adadelta", _renames(lr="learning_rate", eps="epsilon")),
    "mindspore.nn.Rprop": TorchKeywordApi("torch.optim.Rprop", _renames(lr="learning_rate")),
    "mindspore.nn.ASGD": TorchKeywordApi("torch.optim.ASGD", _renames(lr="learning_rate")),
}
for _name, _torch in (
    ("Conv1d", "Conv1d"), ("Conv2d", "Conv2d"), ("Conv3d", "Conv3d"),
    ("Conv1dTranspose", "ConvTranspose1d"), ("Conv2dTranspose", "ConvTranspose2d"), ("Conv3dTranspose", "ConvTranspose3d"),
):
    TORCH_KEYWORD_APIS[f"mindspore.nn.{_name}"] = TorchKeywordApi(
        f"torch.nn.{_torch}",
        {**_renames(bias="has_bias", groups="group"),
         "padding_mode": TorchKeyword(
             instead='delete it: pad_mode="pad" pads with zeros; pad with ops.pad first for other modes')},
    )
for _name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm"):
    TORCH_KEYWORD_APIS[f"mindspore.nn.{_name}"] = TorchKeywordApi(f"torch.nn.{_name}", dict(_TRACK_RUNNING_STATS))
for _name in ("InstanceNorm1d", "InstanceNorm2d", "InstanceNorm3d"):
    TORCH_KEYWORD_APIS[f"mindspore.nn.{_name}"] = TorchKeywordApi(
        f"torch.nn.{_name}", {"track_running_stats": TorchKeyword(instead="delete it (no running statistics)")}
    )
for _name in ("Softmax", "LogSoftmax", "Softmin", "GLU"):
    TORCH_KEYWORD_APIS[f"mindspore.nn.{_name}"] = TorchKeywordApi(f"torch.nn.{_name}", _renames(dim="axis"))
# The primitives ops.Softmax(axis=-1) and ops.LogSoftmax(axis=-1) take only the axis and
# are then called on the tensor; ported code writes ops.Softmax(x, dim=-1) for
# torch.softmax(x, dim=-1). No rename: with the tensor given first, axis=... fails too.
# Likewise ops.Stack(axis=0), called on the sequence: ops.Stack([a, b], dim=0) for
# torch.stack([a, b], dim=0) raises TypeError (tests/oracle/test_training_loop.py).
for _name, _function, _torch, _operand in (("Softmax", "softmax", "torch.nn.Softmax", "x"),
                                           ("LogSoftmax", "log_softmax", "torch.nn.LogSoftmax", "x"),
                                           ("Stack", "stack", "torch.stack", "xs")):
    TORCH_KEYWORD_APIS[f"mindspore.ops.{_name}"] = TorchKeywordApi(
        _torch,
        {"dim": TorchKeyword(
            instead=f"build the primitive with the axis and call it on the {'tensors' if _operand == 'xs' else 'tensor'}, "
                    f"ops.{_name}(axis=...)({_operand}), or call ops.{_function}({_operand}, axis=...)")},
    )
# ops.Concat(axis=0) likewise: ops.Concat((a, b), dim=1) for torch.cat((a, b), dim=1).
TORCH_KEYWORD_APIS["mindspore.ops.Concat"] = TorchKeywordApi(
    "torch.cat",
    {"dim": TorchKeyword(
        instead="build the primitive with the axis and call it on the tensors, ops.Concat(axis=...)(xs), "
                "or call ops.cat(xs, axis=...)")},
)
# The reduction primitives take only keep_dims when built; the axis goes to the call
# (ops.ReduceMean(keep_dims=True)(x, 1)). Ported code writes PyTorch's keepdim and dim
# (torch.mean(x, dim=1, keepdim=True)): TypeError when the primitive is built.
for _name, _torch, _function in (("ReduceMean", "torch.mean", "mean"), ("ReduceSum", "torch.sum", "sum"),
                                 ("ReduceMax", "torch.amax", "amax"), ("ReduceMin", "torch.amin", "amin"),
                                 ("ReduceProd", "torch.prod", "prod"), ("ReduceAll", "torch.all", "all"),
                                 ("ReduceAny", "torch.any", "any")):
    TORCH_KEYWORD_APIS[f"mindspore.ops.{_name}"] = TorchKeywordApi(
        _torch,
        {**_renames(keepdim="keep_dims"),
         "dim": TorchKeyword(
             instead=f"build the primitive with keep_dims only and give the axis to the call, "
                     f"ops.{_name}(keep_dims=...)(x, axis), or call ops.{_function}(x, axis=...)")},
    )
# ArgMaxWithValue/ArgMinWithValue (torch.max(x, dim, keepdim) and torch.min's
# (values, indices) form) and Argmax/Argmin take the axis when built: a rename.
for _name, _torch in (("ArgMaxWithValue", "torch.max"), ("ArgMinWithValue", "torch.min")):
    TORCH_KEYWORD_APIS[f"mindspore.ops.{_name}"] = TorchKeywordApi(_torch, _renames(dim="axis", keepdim="keep_dims"))
for _name, _torch in (("Argmax", "torch.argmax"), ("Argmin", "torch.argmin")):
    TORCH_KEYWORD_APIS[f"mindspore.ops.{_name}"] = TorchKeywordApi(_torch, _renames(dim="axis"))
# ops.var/ops.std(input, axis, ddof, keepdims): PyTorch's older overload
# torch.var(x, dim, unbiased, keepdim) is still what ported code writes; unbiased
# is no parameter of MindSpore's (TypeError). The generated data covers the rest.
# ops.L2Normalize(axis, epsilon) is torch.nn.functional.normalize with p=2, built as a
# primitive: ported code keeps PyTorch's eps= and dim= (TypeError when it is built).
TORCH_KEYWORD_APIS["mindspore.ops.L2Normalize"] = TorchKeywordApi(
    "torch.nn.functional.normalize", _renames(eps="epsilon", dim="axis"))
# ms.load_checkpoint for torch.load(path, map_location="cpu"): MindSpore reads the
# parameters on the host and places them when the network runs; there is no device
# to choose when loading (TypeError).
for _name in ("mindspore.load_checkpoint", "mindspore.train.serialization.load_checkpoint"):
    TORCH_KEYWORD_APIS[_name] = TorchKeywordApi(
        "torch.load",
        {"map_location": TorchKeyword(
            instead="delete it: MindSpore loads the parameters on the host and places them when the network runs",
            delete=True)},
        call="calling it",
    )
for _name in ("var", "std"):
    TORCH_KEYWORD_APIS[f"mindspore.ops.{_name}"] = TorchKeywordApi(
        f"torch.{_name}",
        {"unbiased": TorchKeyword(
            instead="write ddof=1 for PyTorch's unbiased=True (its default), ddof=0 for unbiased=False")},
        call="calling it",
    )
for _name in ("LSTM", "GRU", "RNN", "LSTMCell", "GRUCell", "RNNCell"):
    TORCH_KEYWORD_APIS[f"mindspore.nn.{_name}"] = TorchKeywordApi(f"torch.nn.{_name}", _renames(bias="has_bias"))
for _name, _torch in (
    ("Dropout", "Dropout"), ("Dropout1d", "Dropout1d"), ("Dropout2d", "Dropout2d"), ("Dropout3d", "Dropout3d"),
    ("ReLU", "ReLU"), ("ReLU6", "ReLU6"), ("SiLU", "SiLU"), ("HSwish", "Hardswish"), ("HSigmoid", "Hardsigmoid"),
    ("Mish", "Mish"), ("SeLU", "SELU"), ("ELU", "ELU"), ("CELU", "CELU"), ("RReLU", "RReLU"),
    ("Threshold", "Threshold"), ("Hardtanh", "Hardtanh"),
):
    TORCH_KEYWORD_APIS[f"mindspore.nn.{_name}"] = TorchKeywordApi(f"torch.nn.{_torch}", dict(_DELETE_INPLACE))
for _name in (
    "CrossEntropyLoss", "MSELoss", "L1Loss", "BCELoss", "BCEWithLogitsLoss", "NLLLoss", "SmoothL1Loss",
    "KLDivLoss", "MarginRankingLoss", "CosineEmbeddingLoss", "TripletMarginLoss", "SoftMarginLoss",
    "MultiMarginLoss", "PoissonNLLLoss",
):
    TORCH_KEYWORD_APIS[f"mindspore.nn.{_name}"] = TorchKeywordApi(f"torch.nn.{_name}", dict(_LEGACY_REDUCTION))

# ms-grad-without-has-aux: grad/value_and_grad(fn, grad_position, weights, has_aux, ...)
# differentiate the sum of every output of fn unless has_aux=True (measured: f(x) =
# (sum(2x), 3x) gives [5, 5] without has_aux, [2, 2] with it). GradOperation has no
# has_aux (its sens_param gives every output its own sensitivity): not judged.
HAS_AUX_GRAD_FUNCTIONS: dict[str, str] = {
    "mindspore.grad": "ms.grad",
    "mindspore.value_and_grad": "ms.value_and_grad",
    "mindspore.ops.grad": "ops.grad",
    "mindspore.ops.value_and_grad": "ops.value_and_grad",
}
GRAD_WEIGHTS_ARGUMENT = (2, "weights")
GRAD_HAS_AUX_ARGUMENT = (3, "has_aux")
# Calls whose result carries no gradient: an output wrapped in one is a true auxiliary.
NO_GRADIENT_CALLS: frozenset[str] = frozenset({"mindspore.ops.stop_gradient"})

# ms-loss-without-reduction: losses and where their reduction is (position, default),
# read with inspect.signature on MindSpore 2.10. Defaults of "none" are the trap
# (SoftmaxCrossEntropyWithLogits, SmoothL1Loss, SampledSoftmaxLoss); the others
# matter only when a call passes reduction="none".
LOSS_REDUCTIONS: dict[str, tuple[int, str]] = {
    **{"mindspore.nn." + name: (position, default) for name, position, default in (
        ("BCELoss", 1, "mean"), ("BCEWithLogitsLoss", 0, "mean"), ("CTCLoss", 1, "mean"),
        ("CosineEmbeddingLoss", 1, "mean"), ("CrossEntropyLoss", 2, "mean"), ("FocalLoss", 2, "mean"),
        ("GaussianNLLLoss", 2, "mean"), ("HingeEmbeddingLoss", 1, "mean"), ("HuberLoss", 0, "mean"),
        ("KLDivLoss", 0, "mean"), ("L1Loss", 0, "mean"), ("MAELoss", 0, "mean"), ("MSELoss", 0, "mean"),
        ("MarginRankingLoss", 1, "mean"), ("MultiLabelSoftMarginLoss", 1, "mean"), ("MultiMarginLoss", 2, "mean"),
        ("MultilabelMarginLoss", 0, "mean"), ("NLLLoss", 2, "mean"), ("PoissonNLLLoss", 3, "mean"),
        ("SampledSoftmaxLoss", 6, "none"), ("SmoothL1Loss", 1, "none"), ("SoftMarginLoss", 0, "mean"),
        ("SoftmaxCrossEntropyWithLogits", 1, "none"), ("TripletMarginLoss", 3, "mean"),
    )},
    **{"mindspore.mint.nn." + name: (position, "mean") for name, position in (
        ("BCELoss", 1), ("BCEWithLogitsLoss", 1), ("CosineEmbeddingLoss", 1), ("CrossEntropyLoss", 2),
        ("KLDivLoss", 0), ("L1Loss", 0), ("MSELoss", 0), ("NLLLoss", 2), ("SmoothL1Loss", 0), ("SoftMarginLoss", 0),
    )},
}
UNREDUCED = "none"
# Where a loss Cell is the objective: (position, keyword) of the loss in these wrappers.
LOSS_WRAPPERS: dict[str, tuple[int, str]] = {
    "mindspore.nn.WithLossCell": (1, "loss_fn"),
    "mindspore.Model": (1, "loss_fn"),
    "mindspore.train.Model": (1, "loss_fn"),
}
# Methods of mindspore.Model that only evaluate: a Model whose uses are all these
# differentiates nothing, whatever optimizer it holds (an eval script building the
# training Model to reuse its construction).
MODEL_EVALUATION_METHODS: frozenset[str] = frozenset({"eval", "predict", "infer_predict_layout"})
# Reductions that turn a per-sample loss into a scalar: methods and functions.
REDUCING_METHODS: frozenset[str] = frozenset({"mean", "sum"})
REDUCING_CALLS: frozenset[str] = frozenset(
    {"mindspore.ops.mean", "mindspore.ops.sum", "mindspore.ops.ReduceMean", "mindspore.ops.ReduceSum",
     "mindspore.mint.mean", "mindspore.mint.sum", "mindspore.numpy.mean", "mindspore.numpy.sum"}
)

# ms-missing-set-train: Cells that behave differently once set_train() is called
# (measured: a new Cell has training=False; nn.Dropout(p=0.5) zeroes nothing and
# BatchNorm uses moving statistics it never updates until set_train()).
TRAIN_MODE_CELLS: frozenset[str] = frozenset(
    ["mindspore.nn." + name for name in (
        "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
        "SyncBatchNorm",
    )]
    + ["mindspore.mint.nn." + name for name in (
        "Dropout", "Dropout2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm",
    )]
    # the layers mindnlp 0.2/0.3's injection puts in mindspore.nn's place (knowledge.injections):
    # PyTorch's semantics, the training flag included (mindnlp/injection.py: its BatchNorm1d's
    # construct takes bn_train ``if self.training``, else the moving statistics; its Dropout
    # zeroes only in training, as mindnlp's Dropout documents: "During training, randomly zeroes")
    + ["mindnlp.injection.nn." + name for name in ("Dropout", "BatchNorm1d", "BatchNorm2d")]
)
TRAINING_FLAG = "training"
# the Dropout layers of TRAIN_MODE_CELLS (the others are BatchNorms); nn.Dropout's
# first argument is keep_prob, its rate is the keyword p; the others take p first
DROPOUT_LAYER_NAMES: frozenset[str] = frozenset({"Dropout", "Dropout1d", "Dropout2d", "Dropout3d"})
DROPOUT_WITH_KEEP_PROB = "mindspore.nn.Dropout"
SET_TRAIN_METHOD = "set_train"
# MindSpore classes that are no subclass of any other mindspore.nn class but Cell
# (the containers), and the package of the Primitives (no Cell: Cell.cells() never
# yields one): an ``isinstance(child, nn.Dense)`` on them is False
# (tests/oracle/test_migration_api.py).
NEVER_A_LAYER_SUBCLASS: frozenset[str] = frozenset(
    {"mindspore.nn.SequentialCell", "mindspore.nn.CellList", "mindspore.nn.CellDict"}
)
PRIMITIVE_PACKAGE = "mindspore.ops."
# Containers whose arguments are the sub-cells they hold.
CELL_CONTAINERS: frozenset[str] = frozenset(
    {"mindspore.nn.SequentialCell", "mindspore.nn.CellList"}
)
# Containers that run their cells one after the other, in the order they hold them
# (SequentialCell.construct loops over cell_list).
SEQUENTIAL_CELLS: frozenset[str] = frozenset({"mindspore.nn.SequentialCell"})
# The same, with PyTorch's name written on mindspore.nn (``class Net(nn.Sequential)``,
# ``nn.Sequential(conv, bn)``): mindspore.nn has no Sequential (ms-torch-class-name
# reports it), and the port means SequentialCell, whose order of layers it keeps.
# ms-layer-default-differs reads the layer after a conv in it (a norm: the bias is moot).
SEQUENTIAL_CELLS_AS_PORTED: frozenset[str] = SEQUENTIAL_CELLS | {"mindspore.nn.Sequential"}
# mindspore.nn layers whose call returns one tensor (measured on MindSpore 2.10:
# tests/oracle/test_torch_idioms.py), so ``layer(x).size(0)`` raises TypeError
# (Tensor.size is an int). Recurrent layers and attention return tuples: not here.
TENSOR_OUTPUT_CELLS: frozenset[str] = frozenset(
    f"mindspore.nn.{name}" for name in (
        "Conv1d", "Conv2d", "Conv3d", "Conv2dTranspose", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
        "LayerNorm", "GroupNorm", "Dense", "ReLU", "ReLU6", "LeakyReLU", "GELU", "Sigmoid", "Tanh",
        "SiLU", "Softmax", "PReLU", "ELU", "Dropout", "Flatten", "Identity", "MaxPool1d", "MaxPool2d",
        "AvgPool1d", "AvgPool2d", "AdaptiveAvgPool2d", "Embedding",
    )
)
# Methods that add a cell at the end of such a sequence -> the position of the cell
# argument: SequentialCell.append (measured: it extends cell_list, which construct
# runs; insert_child_to_cell does not), and PyTorch's Sequential.add_module(name,
# cell), which a port keeps (ms-torch-module-method reports it) meaning that order.
SEQUENCE_ADDERS: dict[str, int] = {"append": 0, "add_module": 1}
# Trainers that call set_train() on the network themselves (Model.train does).
# x2ms_adapter (the X2MindSpore converter's runtime, installed or copied into the
# project) turns PyTorch's model.train() into x2ms_adapter.x2ms_train(model), whose
# body is ``return obj.set_train(...)`` (x2ms_adapter/__init__.py).
SET_TRAIN_RUNNERS: frozenset[str] = frozenset(
    {"mindspore.Model", "mindspore.train.Model", "x2ms_adapter.x2ms_train"})
# ms-missing-set-train: how a grad call's weights name the network they belong to
# (``net.trainable_params()``, or ``optimizer.parameters`` of an optimizer built from it).
CELL_PARAMETER_METHODS: frozenset[str] = frozenset({"trainable_params", "get_parameters"})
OPTIMIZER_PARAMETERS_ATTRIBUTE = "parameters"
# Wrappers that train the network they hold when called (they do not call set_train).
TRAIN_STEP_CELLS: frozenset[str] = frozenset(
    {"mindspore.nn.TrainOneStepCell", "mindspore.nn.TrainOneStepWithLossScaleCell"}
)
# Wrappers that differentiate what their network returns (its objective).
OBJECTIVE_WRAPPERS: frozenset[str] = TRAIN_STEP_CELLS | {"mindspore.nn.ForwardValueAndGrad"}
# Wrappers that hold a network (its first argument) without training it themselves.
NETWORK_WRAPPERS: frozenset[str] = frozenset(
    {"mindspore.nn.WithLossCell", "mindspore.nn.WithEvalCell", "mindspore.nn.TrainOneStepCell",
     "mindspore.nn.TrainOneStepWithLossScaleCell", "mindspore.nn.ForwardValueAndGrad"}
)

# ms-clip-result-discarded: MindSpore's clipping functions return the clipped tensors
# and leave their arguments alone (measured: tests/oracle/test_training_loop.py), where
# PyTorch's clip_grad_norm_/clip_grad_value_ clip the .grad of the parameters in place.
CLIPPING_CALLS: frozenset[str] = frozenset({
    "mindspore.ops.clip_by_global_norm", "mindspore.ops.clip_by_value", "mindspore.ops.clip_by_norm",
})
# ms-stop-gradient-discarded: ops.stop_gradient returns a new tensor and leaves its
# argument alone (measured: a discarded call changes no gradient).
# ms-torch-module-method: PyTorch Module methods that a MindSpore 2.10 Cell lacks
# (measured with hasattr; .cuda() and .to() are ms-torch-in-cell's) -> what to write.
TORCH_MODULE_METHODS: dict[str, str] = {
    "eval": "write {0}.set_train(False)",
    "train": "write {0}.set_train() (set_train(False) for train(False))",
    "parameters": "write {0}.get_parameters() (trainable_params() for the trainable ones only)",
    "named_parameters": "write {0}.parameters_and_names()",
    "cpu": "delete it (choose the device once with ms.set_device)",
    "half": "write {0}.to_float(ms.float16)",
    "float": "write {0}.to_float(ms.float32)",
    "modules": "write {0}.cells_and_names() (the cells are the second items)",
    "named_modules": "write {0}.cells_and_names()",
    "children": "write {0}.cells()",
    "named_children": "write {0}.name_cells().items()",
    "requires_grad_": "set p.requires_grad in a loop over {0}.trainable_params()",
    # torch.nn.RNNBase's cuDNN weight compaction: MindSpore's LSTM/GRU/RNN have none
    "flatten_parameters": "delete it (MindSpore's recurrent layers need no compaction of their weights)",
    # a Cell runs construct when called; nn.Cell defines no forward (measured: no
    # mindspore.nn or mint.nn class has one, the probability bijectors aside)
    "forward": "call {0}(...) (calling a Cell runs its construct)",
}
# MindSpore classes that define the method themselves (measured: every
# mindspore.nn.probability Bijector has forward): a Cell of theirs, or derived from
# one, is not judged. Named as mslint spells them (mindspore.nn.probability.bijector.Exp
# is flattened to mindspore.nn.Exp, and its Softplus shares the activation's name), and
# anything still spelled under mindspore.nn.probability.
TORCH_MODULE_METHOD_OWNERS: dict[str, frozenset[str]] = {
    "forward": frozenset(
        f"mindspore.nn.{name}"
        for name in ("Bijector", "Exp", "GumbelCDF", "Invert", "PowerTransform", "ScalarAffine", "Softplus")
    ),
}
TORCH_MODULE_METHOD_OWNER_PACKAGES: dict[str, tuple[str, ...]] = {"forward": ("mindspore.nn.probability.",)}

# ms-loss-scale-without-unscale: a differentiated function that returns
# ``scaler.scale(loss)`` gives gradients multiplied by the scale until
# ``scaler.unscale(grads)`` (measured: StaticLossScaler(1024) gives 1024 times the gradient).
# Its autofix: the method call ``.name()`` (no arguments) written as MindSpore's,
# "" to drop it; "train" is renamed with its arguments (train(False) -> set_train(False)).
TORCH_MODULE_METHOD_FIXES: dict[str, str] = {
    "eval": ".set_train(False)",
    "train": ".set_train()",
    "parameters": ".get_parameters()",
    "named_parameters": ".parameters_and_names()",
    "children": ".cells()",
    "cpu": "",
}
TORCH_MODULE_METHOD_RENAMES: dict[str, str] = {"train": "set_train"}
# ms-torch-in-cell's autofix: x.size(d) -> x.shape[d] (the only idiom with an exact rewrite).
TORCH_SIZE_METHODS: frozenset[str] = frozenset({"size"})

LOSS_SCALERS: frozenset[str] = frozenset(
    {"mindspore.amp.StaticLossScaler", "mindspore.amp.DynamicLossScaler"}
)
LOSS_SCALE_METHOD = "scale"
LOSS_UNSCALE_METHOD = "unscale"


# ==========================================================================
# From the generated PyTorch-to-MindSpore data (mslint/knowledge/mapping,
# issue 26): ms-torch-keyword-args and ms-torch-positional-args cover every
# MindSpore class and function the data measured (inspect.signature on
# MindSpore 2.10 against PyTorch 2.13). The hand-written entries above win where
# both speak of a keyword (their advice is curated); the data adds the rest.
# tests/oracle/test_training_loop.py and test_layers.py call every entry.
# ==========================================================================
from mslint.knowledge import mapping as _mapping  # noqa: E402 - section-local import


def _data_keyword(rename: str | None, name: str, default: str | None, positional: bool) -> TorchKeyword:
    if rename:
        return TorchKeyword(rename=rename)
    if positional:  # mint.randint(*args, ...): low, high and size by position
        return TorchKeyword(instead="pass it positionally (MindSpore takes it in *args)")
    if default is None:
        return TorchKeyword(instead="no MindSpore parameter takes it")
    return TorchKeyword(instead=f"no MindSpore parameter takes it: delete it where PyTorch's default {name}={default} is meant")


# Where the data pairs a PyTorch keyword with no MindSpore parameter but MindSpore takes
# the value under another name that is no exact rename (tests/oracle/test_mapping.py):
# ops.one_hot(indices, depth, ...) requires the class count as depth, where PyTorch's
# num_classes defaults to -1 (the largest index + 1), which depth cannot say.
DATA_KEYWORD_ADVICE: dict[tuple[str, str], str] = {
    ("mindspore.ops.one_hot", "num_classes"): (
        "pass the class count as depth, MindSpore's required second argument (write depth=...); "
        "PyTorch's num_classes=-1 has no counterpart: give the count itself"),
}


# Where the data pairs PyTorch's dim/keepdim with no MindSpore parameter, though the
# MindSpore function takes the same value under MindSpore's own name: the pages have no
# row for these namesakes, and their signatures put the axis elsewhere or name it
# otherwise, so the comparison could not pair them (ops.concat(tensors, axis=0) for
# torch.concat(tensors, dim=0)). Without the pairing the advice read "no MindSpore
# parameter takes it: delete it", which drops the axis the call meant. Only renames
# with the same meaning: ops.gather's axis is not torch.gather's dim (another
# operation), ops.select's arguments are another function's. The names are checked
# against MindSpore's signatures by tests/oracle/test_mapping.py.
DATA_KEYWORD_RENAMES: dict[tuple[str, str], str] = {
    **{(f"mindspore.ops.{_function}", "dim"): "axis" for _function in (
        "concat", "log_softmax", "all", "any", "amax", "amin", "aminmax", "nanmean", "nanmedian", "nanquantile",
        "nansum", "quantile", "prod", "index_add", "index_fill", "select_scatter", "slice_scatter")},
    **{(f"mindspore.ops.{_function}", "keepdim"): "keepdims" for _function in (
        "aminmax", "nanmean", "nanmedian", "nanquantile", "nansum", "quantile")},
    ("mindspore.ops.permute", "dims"): "axis",
}


# The hand-written table, before the data extends it (its oracle tests build each
# entry with curated arguments; the data's entries are called generically).
WRITTEN_TORCH_KEYWORD_APIS: dict[str, TorchKeywordApi] = dict(TORCH_KEYWORD_APIS)
# (MindSpore API, PyTorch keyword) pairs only the generated data names.
DATA_TORCH_KEYWORDS: set[tuple[str, str]] = set()
for _qname, (_torch, _keywords, _kind) in _mapping.linter_tables()["torch_keywords"].items():
    _known = TORCH_KEYWORD_APIS.get(_qname)
    DATA_TORCH_KEYWORDS.update((_qname, name) for name in _keywords if _known is None or name not in _known.keywords)
    _merged = {name: TorchKeyword(instead=DATA_KEYWORD_ADVICE[(_qname, name)]) if (_qname, name) in DATA_KEYWORD_ADVICE
               else _data_keyword(rename or DATA_KEYWORD_RENAMES.get((_qname, name)), name, default, positional)
               for name, (rename, default, positional) in _keywords.items()}
    if _known is not None:
        _merged.update(_known.keywords)
        TORCH_KEYWORD_APIS[_qname] = TorchKeywordApi(_known.torch, _merged, _known.raises, _known.call)
    else:
        TORCH_KEYWORD_APIS[_qname] = TorchKeywordApi(
            _torch, _merged, call="constructing it" if _kind == "class" else "calling it"
        )


def _value_kinds(default: str | None) -> str | None:
    """What a PyTorch or MindSpore default says its parameter takes: "bool",
    "str", "int", "float" (None: unknown, None, or not a literal)."""
    value = _mapping.compare.literal(default) if default is not None else None
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str) and default is not None and default[:1] in "'\"":
        return "str"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return None


# A PyTorch value written positionally (its literal kind, PositionalTrap.looks_like)
# is judged PyTorch's when PyTorch's parameter takes that kind and the MindSpore
# parameter in the same slot does not: True in an int slot, 0.3 in an int slot,
# "zeros" in a bool slot. Numbers in a float slot prove nothing (an int is a float).
_TORCH_TAKES = {"bool": ("bool",), "str": ("str",), "fraction": ("int", "float"), "int": ("int", "float")}
_MINDSPORE_REFUSES = {"bool": ("int", "float", "str"), "str": ("int", "float", "bool"), "fraction": ("int", "bool", "str"),
                      "int": ("bool", "str")}


def _data_traps(ms_params: list, torch_params: list, mapping: dict, skip: set[int]) -> tuple[PositionalTrap, ...]:
    from mslint.knowledge.mapping.compare import positional  # noqa: PLC0415 - same package

    ms_defaults = {name: default for name, _, default in ms_params}
    torch_defaults = {name: default for name, _, default in torch_params}
    ms_slots, torch_slots = positional(ms_params), positional(torch_params)
    traps: list[PositionalTrap] = []
    for index, torch_name in enumerate(torch_slots):
        if index >= len(ms_slots) or torch_name.startswith("*") or ms_slots[index].startswith("*"):
            break
        ms_name = ms_slots[index]
        counterpart = mapping.get(torch_name)
        if counterpart == ms_name or index in skip:
            continue
        torch_kind, ms_kind = _value_kinds(torch_defaults.get(torch_name)), _value_kinds(ms_defaults.get(ms_name))
        if torch_kind is None or ms_kind is None:
            continue
        # "*": the slots before are PyTorch's and MindSpore's alike; "moved": an
        # earlier argument moved too, so the counterpart does not keep its default
        if counterpart and ms_defaults.get(counterpart) is not None:
            consequence = {"*": f"{ms_name} takes the value and {counterpart} keeps its default {ms_defaults[counterpart]}",
                           "moved": f"{ms_name} takes the value meant for {counterpart}"}
        elif counterpart:
            consequence = {"*": f"{ms_name} takes the value meant for {counterpart}"}
        else:
            consequence = {"*": f"{ms_name} takes the value, and MindSpore has no parameter for PyTorch's {torch_name}"}
        for looks_like, torch_takes in _TORCH_TAKES.items():
            if torch_kind in torch_takes and ms_kind in _MINDSPORE_REFUSES[looks_like]:
                traps.append(PositionalTrap(index, ms_name, torch_name, looks_like, consequence, fails=False))
    return tuple(traps)


# Classes outside LAYER_APIS whose positional order differs from PyTorch's:
# judged by ms-torch-positional-args only (family "positional").
POSITIONAL_APIS: dict[str, LayerApi] = {}
# The traps the data adds (to POSITIONAL_APIS and to LAYER_APIS entries), by class.
DATA_POSITIONAL_TRAPS: dict[str, tuple[PositionalTrap, ...]] = {}
for _qname, (_torch, _ms_params, _torch_params, _pairs) in _mapping.linter_tables()["positional_orders"].items():
    _known_layer = LAYER_APIS.get(_qname)
    _skip = {trap.index for trap in _known_layer.positional_traps} if _known_layer else set()
    _traps = _data_traps(_ms_params, _torch_params, _pairs, _skip)
    if not _traps:
        continue
    DATA_POSITIONAL_TRAPS[_qname] = _traps
    if _known_layer is not None:
        LAYER_APIS[_qname] = replace(_known_layer, positional_traps=_known_layer.positional_traps + _traps)
        continue
    POSITIONAL_APIS[_qname] = LayerApi(
        family="positional",
        params=tuple(name for name, kind, _ in _ms_params if kind in ("p", "pk")),
        defaults={name: _mapping.compare.literal(default) for name, _, default in _ms_params if default is not None},
        torch=_torch,
        torch_params=tuple(name for name, kind, _ in _torch_params if kind in ("p", "pk")),
        torch_defaults={name: _mapping.compare.literal(d) for name, _, d in _torch_params if d is not None},
        torch_to_ms={name: _pairs.get(name) for name, _, _ in _torch_params},
        positional_traps=_traps,
    )
@dataclass(frozen=True)
class PositionalLimit:
    """A MindSpore class or function that takes fewer positional arguments than
    its PyTorch counterpart (measured signatures, no ``*args``): a call with more
    raises TypeError (``nn.ReLU(True)``: PyTorch's inplace;
    tests/oracle/test_layers.py::test_ms_torch_positional_args_one_too_many_raises_type_error
    calls every entry)."""

    torch: str
    params: tuple[str, ...]  # what MindSpore binds by position
    torch_params: tuple[str, ...]  # what PyTorch binds by position
    call: str  # "constructing it" or "calling it"


# nn.LSTMCell(a, b, True, None, None) raises ValueError on purpose ("arguments ... from
# old MindSpore version(<1.6)"), not the TypeError the message states: left out;
# ops.transpose(x, 0, 1) is ms-transpose-torch-args' (with its ops.swapaxes fix).
_LIMITS_LEFT_OUT = frozenset({"mindspore.nn.LSTMCell", "mindspore.ops.transpose"})
POSITIONAL_LIMITS: dict[str, PositionalLimit] = {
    _qname: PositionalLimit(_torch, tuple(_params), tuple(_torch_params),
                            "constructing it" if _kind == "class" else "calling it")
    for _qname, (_torch, _params, _torch_params, _kind) in _mapping.linter_tables()["positional_limits"].items()
    if _qname not in _LIMITS_LEFT_OUT
}


# --------------------------------------------------------------------------
# Graph code that fails to compile, compiles slowly, again, or in pieces
# (issue 28: checkers/graph_compile.py, checkers/graph_performance.py; measured in
# tests/oracle/test_graph_compile.py and tests/oracle/test_graph_performance.py)
# --------------------------------------------------------------------------
# ms-branch-type-mismatch: tensor methods that cast to one dtype (``x.half()``),
# and the dtype names that mean the same dtype.
DTYPE_CAST_METHODS: dict[str, str] = {"half": "float16", "float": "float32", "double": "float64", "bfloat16": "bfloat16"}
DTYPE_SYNONYMS: dict[str, str] = {
    "half": "float16", "single": "float32", "double": "float64", "float": "float32",
    "int": "int32", "long": "int64", "bool_": "bool",
}
# Tensors built from shapes and constants only (``ops.ones_like(x)``): MindSpore
# folds them, and joined with a Python number they compile when the result is
# used in arithmetic (measured), where a tensor computed from data never does.
FOLDABLE_TENSOR_CALLS: frozenset[str] = frozenset(
    {"ones_like", "zeros_like", "full_like", "ones", "zeros", "full", "fill", "eye", "arange", "Tensor", "tensor"}
)
# A cast of a value to one of these, joined with the value itself uncast: the
# input is float32 unless the program made it otherwise (what the cast is for).
LOW_PRECISION_DTYPES: frozenset[str] = frozenset({"float16", "bfloat16"})

# ms-cell-state-in-graph: Cell methods that change the Cell's Python state, which
# a compiled graph cannot do: STRICT fails ("In JIT strict mode, if need to modify
# a member attribute of a class ..."), LAX runs the graph as compiled (the call
# changes nothing) -> what to write instead.
CELL_STATE_METHODS: dict[str, str] = {
    "set_train": "call net.set_train(...) on the network before it runs, in the training or evaluation script",
    "set_grad": "call net.set_grad() on the network before it runs",
    "to_float": "call .to_float(...) on the layer in __init__",
}
# Hook registrations: refused inside construct at both levels ("... is not
# supported in 'construct'"); on self they are ms-forbidden-api-in-graph's.
CELL_HOOK_METHODS: frozenset[str] = frozenset(
    {"register_forward_hook", "register_forward_pre_hook", "register_backward_hook", "register_backward_pre_hook"}
)
CELL_HOOK_FIX = "register the hook once, outside construct (after building the network)"

# ms-loop-unroll-too-deep: a ``for`` over ``range(n)`` is unrolled with two call
# levels per iteration; MindSpore's max_call_depth is 1000: 450 iterations compile,
# 500 fail (nested loops count their product).
UNROLL_FAILS_AT = 500
# ms-slow-unrolled-loop: a tensor item assignment in an unrolled loop costs about
# 0.1 s of compile time per iteration on CPU (0.8 s at 10, 9.4 s at 100, 41 s at 400).
SLOW_UNROLL_ITERATIONS = 50

# ms-dynamic-shape-in-graph: functions and op classes whose output shape depends
# on the data (MindSpore's dynamic-shape guide); on CPU they compile and run as
# fast as static twins (measured); the Ascend claim is the guide's.
DYNAMIC_SHAPE_FUNCTIONS: frozenset[str] = frozenset(
    {
        "mindspore.ops.masked_select", "mindspore.ops.nonzero", "mindspore.ops.argwhere", "mindspore.ops.unique",
        "mindspore.ops.unique_consecutive", "mindspore.mint.masked_select", "mindspore.mint.nonzero",
        "mindspore.mint.unique", "mindspore.mint.unique_consecutive",
        "mindspore.ops.MaskedSelect", "mindspore.ops.NonZero", "mindspore.ops.Unique", "mindspore.ops.UniqueConsecutive",
    }
)
DYNAMIC_SHAPE_METHODS: frozenset[str] = frozenset({"masked_select", "nonzero", "argwhere", "unique", "unique_consecutive"})
# TopK: where its k is (position, keyword) in the function, the op class's call, the method.
TOPK_CALLS: dict[str, tuple[int, str]] = {
    "mindspore.ops.topk": (1, "k"), "mindspore.mint.topk": (1, "k"), "mindspore.ops.TopK": (1, "k"),
}
TOPK_METHOD = "topk"
DYNAMIC_SHAPE_FIX: dict[str, str] = {
    "masked_select": "keep the shape static: ops.where(mask, x, 0) or x * mask, then reduce",
    "nonzero": "keep the shape static: work with the mask itself (x * mask, ops.where)",
    "argwhere": "keep the shape static: work with the mask itself (x * mask, ops.where)",
    "unique": "keep the shape static (ops.unique_with_pad pads to a fixed size)",
    "unique_consecutive": "keep the shape static, or do it in the data pipeline",
    "mask": "keep the shape static: ops.where(mask, x, 0) or x * mask",
    "slice": "slice with a constant or a shape (x.shape[0]), and mask the rest",
    "topk": "use a constant k (take the largest k the data needs, then mask)",
}

# ms-recompile-python-argument (measured: 10 values, 10 compiles; ms.mutable(...) or a
# Tensor: 1).
# A loop over at most this many constant values compiles at most that many
# graphs: not flagged (``for phase in range(2)``).
FEW_COMPILES = 3

# ms-graph-break: what breaks a graph under capture_mode="bytecode" (measured with
# fullgraph=True, which raises at a break) -> MindSpore's reason, the fix.
GRAPH_BREAK_REASONS: dict[str, tuple[str, str]] = {
    "tensor-branch": ("Data-dependent conditional control flow is not supported",
                      "compute both sides and pick with ops.where, or branch on a shape or a Python flag"),
    "set": ("Unsupported bytecode", "use a tuple or a list"),
    "class": ("Unsupported bytecode", "define the class at module level"),
    "nonlocal": ("Assignment or deletion of free variables is not supported", "return the new value instead"),
    "host-call": ("Unsupported function", "use the mindspore.ops equivalent, or do it outside the @jit function"),
    "host-copy": ("Unsupported function", "keep the value a tensor (ops on it) inside the @jit function"),
    "import": ("Cannot infer the execution result", "import at module level"),
    "custom-class": ("Cannot infer the execution result",
                     "pass the tensors themselves, or decorate the class with @ms.jit_class"),
    "forbidden": ("Unsupported function", "do it outside the @jit function (in __init__ or before the call)"),
    "identity": ("Data-dependent conditional control flow is not supported", "compare values (==), or a Python flag"),
    "tensor-membership": ("Cannot infer the execution result", "compare values: (x == v).any()"),
    "tensor-range": ("Unsupported iterable type for loop control flow",
                     "loop over a constant range, or with a while on a tensor"),
    "generator": ("a generator function is not captured at all", "return a tuple or list instead of yielding"),
}
# Host libraries whose calls break the graph under bytecode capture (with or
# without tensor arguments): random numbers, clocks, logging.
GRAPH_BREAK_HOST_MODULES: tuple[str, ...] = ("random", "numpy.random", "time", "logging", "datetime")
# APIs AST capture refuses that bytecode capture runs as Python (measured: Unsupported
# under fullgraph=True, and the function runs without it).
GRAPH_BREAK_CALLS: frozenset[str] = frozenset({"mindspore.Parameter", "mindspore.set_seed"})
# Host copies that break the graph (``.item()``, ``.tolist()`` do not: measured).
GRAPH_BREAK_COPY_METHODS: frozenset[str] = frozenset({"asnumpy", "numpy"})
# --------------------------------------------------------------------------
# Values that flow with construction, and the rules that judge them (issue 24)
# --------------------------------------------------------------------------
# Calls that build a configuration mapping whose keys mslint reads as constants
# (``CFG = EasyDict({"momentum": 0.1})``, then ``CFG.momentum`` / ``CFG["momentum"]``).
CONFIG_MAPPING_CALLS: frozenset[str] = frozenset(
    {"dict", "EasyDict", "edict", "SimpleNamespace", "Namespace", "AttrDict", "ConfigDict", "Config"}
)
# Normalisations that subtract a per-channel mean: a per-channel bias added just
# before one is removed again (ms-layer-default-differs stays silent on a conv's
# has_bias there; PyTorch code writes bias=False before them for that reason).
# GroupNorm: with as many groups as channels it subtracts each channel's mean
# (checkers.layers._per_channel_group_norm)
GROUP_NORMS: frozenset[str] = frozenset({"mindspore.nn.GroupNorm", "mindspore.mint.nn.GroupNorm"})
MEAN_REMOVING_NORMS: frozenset[str] = frozenset(
    [f"mindspore.nn.{name}" for name in (
        "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "InstanceNorm1d", "InstanceNorm2d",
        "InstanceNorm3d",
    )]
    + [f"mindspore.mint.nn.{name}" for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm")]
)

# ms-loss-without-reduction: optimizers whose update does not change when the loss
# (so every gradient) is multiplied by a constant, so a summed loss trains like a
# mean one (measured, tests/oracle/test_training_loop.py: 20 steps on a summed and
# a mean loss end within 1% of the distance moved; nn.Adam within 2e-6, SGD 0.62
# apart). The value: whether weight_decay keeps that (decoupled: applied to the
# weights); where it is added to the gradient instead, a summed loss makes the decay
# batch-size times weaker (measured: nn.Adam with weight_decay=0.1 ends 1.9 times
# the distance moved away). Lamb and LARS (no CPU kernel) and mindspore.mint.optim
# (AdamW has no CPU kernel) could not be measured and are not listed.
SCALE_INVARIANT_OPTIMIZERS: dict[str, bool] = {
    "mindspore.nn.Adam": False, "mindspore.nn.AdamWeightDecay": True, "mindspore.nn.LazyAdam": False,
    "mindspore.nn.AdaMax": False, "mindspore.nn.Adadelta": False, "mindspore.nn.Rprop": False,
    "mindspore.experimental.optim.Adam": False, "mindspore.experimental.optim.AdamW": True,
    "mindspore.experimental.optim.Adamax": False, "mindspore.experimental.optim.NAdam": False,
    "mindspore.experimental.optim.RMSprop": False, "mindspore.experimental.optim.Adagrad": False,
    "mindspore.experimental.optim.Adadelta": False, "mindspore.experimental.optim.Rprop": True,
}
# Optimizers whose step is the gradient times the learning rate (with momentum): a
# summed loss is exactly the learning rate multiplied by the batch size (measured).
LINEAR_OPTIMIZERS: frozenset[str] = frozenset(
    {"mindspore.nn.SGD", "mindspore.nn.Momentum", "mindspore.nn.ASGD", "mindspore.experimental.optim.SGD"}
)
OPTIMIZER_WEIGHT_DECAY = "weight_decay"
# ms-optimizer-loss-scale-unmatched: optimizers that divide every gradient by their
# ``loss_scale`` (Optimizer.scale_grad) and whose step is linear in the gradient, with
# the position of ``loss_scale`` (measured signatures, MindSpore 2.10): built with
# loss_scale=S and trained where nothing multiplies the loss by S, each step is S
# times too small (measured, tests/oracle/test_training_loop.py).
OPTIMIZER_LOSS_SCALE_ARGUMENT: dict[str, int] = {"mindspore.nn.Momentum": 4, "mindspore.nn.SGD": 6}
OPTIMIZER_LOSS_SCALE = "loss_scale"
# Where a training wrapper builds the step from an optimizer: (position, keyword) of the
# optimizer, and the argument that multiplies the loss (Model: a loss scale manager;
# TrainOneStepCell: sens).
LOSS_SCALING_TRAINERS: dict[str, tuple[tuple[int, str], tuple[int | None, str]]] = {
    "mindspore.Model": ((2, "optimizer"), (None, "loss_scale_manager")),
    "mindspore.train.Model": ((2, "optimizer"), (None, "loss_scale_manager")),
    "mindspore.nn.TrainOneStepCell": ((1, "optimizer"), (2, "sens")),
}
# Model(..., amp_level=...): a level other than O0 may bring its own loss scale manager.
MODEL_AMP_LEVEL_ARGUMENT = (6, "amp_level")
EASYDICT_CLASSES: frozenset[str] = frozenset({"easydict.EasyDict"})

# ms-torch-module-method: where PyTorch's ``parameters()`` is what an optimizer (or a
# grad function's weights) gets, MindSpore's equivalent is ``trainable_params()``:
# ``get_parameters()`` also holds BatchNorm moving statistics and frozen parameters,
# which the optimizer's weight decay then shrinks (measured: moving_variance 0.508
# instead of 0.594 after 5 steps at lr 0.1, wd 0.1). PyTorch's optimizers skip
# parameters that get no gradient, as trainable_params() leaves them out.
OPTIMIZER_PARAMETERS_FIX = ".trainable_params()"
OPTIMIZER_PARAMETERS_ADVICE: dict[str, str] = {
    "parameters": "write {0}.trainable_params(): get_parameters() also holds the BatchNorm moving statistics "
    "and frozen parameters, which the optimizer's weight decay would shrink",
    "named_parameters": "iterate ((p.name, p) for p in {0}.trainable_params()): parameters_and_names() also "
    "holds the BatchNorm moving statistics and frozen parameters, which the optimizer's weight decay would shrink",
}
# Calls that pass their argument's items through (``filter(f, net.parameters())``).
ITEM_PASSING_CALLS: frozenset[str] = frozenset({"filter", "list", "tuple", "iter", "sorted", "itertools.chain"})
# Cell methods that return the Cell itself: ``net = Net(3).set_grad()`` holds the Cell.
CELL_SELF_RETURNING_METHODS: frozenset[str] = frozenset({"set_grad", "set_train", "to_float", "add_flags", "add_flags_recursive"})
# values.mindspore_object: what a MindSpore tensor gives. Arithmetic on it is a tensor
# or raises TypeError (measured, whatever the other operand); these methods and
# attributes of a MindSpore tensor return a tensor (measured in
# tests/oracle/test_torch_idioms.py, on CPU: not clone, repeat or roll, whose CPU
# kernels are missing; not max/min/sort/topk/split/chunk, which may return tuples).
TENSOR_ARITHMETIC_OPERATORS: frozenset[str] = frozenset({"+", "-", "*", "/", "//", "%", "**", "@"})
TENSOR_RESULT_METHODS: frozenset[str] = frozenset(
    {
        "squeeze", "unsqueeze", "reshape", "view", "view_as", "reshape_as", "expand", "expand_as",
        "broadcast_to", "transpose", "swapaxes", "permute", "flatten", "ravel", "contiguous",
        "copy", "float", "half", "double", "int", "long", "bool", "astype", "type_as",
        "abs", "exp", "log", "sqrt", "rsqrt", "pow", "square", "neg", "sigmoid", "tanh", "softmax",
        "sum", "mean", "prod", "norm", "cumsum", "clamp", "clip", "repeat_interleave",
        "tile", "flip", "narrow", "index_select", "gather", "masked_fill", "matmul",
        "add", "sub", "mul", "div", "t", "tril", "triu", "clone",
    }
)
TENSOR_RESULT_ATTRIBUTES: frozenset[str] = frozenset({"data", "T"})
# The Parameters a MindSpore layer holds as attributes (measured: ``weight`` is a
# Parameter on each, ``bias`` a Parameter when the layer has one, else None):
# ``layer.weight`` of such a layer is a MindSpore tensor.
LAYER_PARAMETER_ATTRIBUTES: frozenset[str] = frozenset({"weight", "bias"})
LAYERS_WITH_PARAMETER_ATTRIBUTES: frozenset[str] = frozenset(
    {f"mindspore.nn.{name}" for name in (
        "Dense", "BiDense", "Conv1d", "Conv2d", "Conv3d", "Conv1dTranspose", "Conv2dTranspose", "Conv3dTranspose",
    )}
    | {f"mindspore.mint.nn.{name}" for name in ("Linear", "Conv1d", "Conv2d", "Conv3d")}
)
# A parameter so annotated is declared a MindSpore tensor.
TENSOR_ANNOTATIONS: frozenset[str] = frozenset(
    {"mindspore.Tensor", "mindspore.common.tensor.Tensor", "mindspore.Parameter", "mindspore.common.parameter.Parameter"}
)
# Dataset iterators whose items are MindSpore tensors (unless output_numpy=True).
DATASET_DICT_ITERATOR = "create_dict_iterator"
DATASET_TENSOR_ITERATORS: frozenset[str] = frozenset({"create_tuple_iterator", DATASET_DICT_ITERATOR})
# Wrappers that yield the items of the iterable they are given, unchanged: a loop
# over ``tqdm(loader)`` gets the dataset's items (``enumerate`` is handled apart).
ITEM_PRESERVING_WRAPPERS: frozenset[str] = frozenset({"tqdm.tqdm", "tqdm.auto.tqdm", "tqdm.notebook.tqdm", "tqdm.std.tqdm"})
# ms-amp-overrides-to-float: Cell methods that iterate over its sub-cells (a loop
# that sets each BatchNorm back to float32, as the migration guide shows).
CELL_ITERATING_METHODS: frozenset[str] = frozenset({"cells_and_names", "cells", "name_cells"})
# ms-torch-in-cell: PyTorch tensor methods that neither a MindSpore tensor nor a
# numpy array has (measured: AttributeError): in a module that imports mindspore and
# no torch, a call of one is the PyTorch idiom whatever the receiver. The in-place
# ones end in "_", a spelling only PyTorch's tensors (and layers over MindSpore that
# mimic them, whose modules count as torch) use.
TORCH_TENSOR_ONLY_METHODS: frozenset[str] = frozenset(
    {"detach", "cpu"} | TORCH_INPLACE_TENSOR_METHODS | TORCH_INPLACE_DTYPE_KEEPING_METHODS
    | {name for name in TORCH_ONLY_TENSOR_METHODS if name.endswith("_")}
)
# Issue 25 (guide): rows added to ms-torch-module-method's tables. The rules of
# the migration guide's training chapters keep their facts in mslint/knowledge/guide.py.
# ==========================================================================
# Cell has no add_module (measured on 2.10); insert_child_to_cell(name, cell) takes the
# same arguments and registers the child (tests/oracle/test_migration_api.py).
TORCH_MODULE_METHODS["add_module"] = "write {0}.insert_child_to_cell(name, cell)"
TORCH_MODULE_METHOD_RENAMES["add_module"] = "insert_child_to_cell"
