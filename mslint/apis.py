"""The knowledge: facts about MindSpore, numpy and PyTorch APIs, as data.

Every rule reads this table instead of hard-coding API names, so a new MindSpore
version is a table edit. Names are canonical qualified names as produced by
:func:`mslint.resolve.canonical` (``mindspore.nn.Conv2d``, ``numpy.exp``).

The facts behind the entries are measured on MindSpore 2.10 and PyTorch 2.13
(see the oracle tests in ``tests/oracle``), not copied from documentation.
"""

from __future__ import annotations

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
# Packages whose sources mslint never parses or infers into (speed, and the
# findings must not depend on whether they are installed).
# --------------------------------------------------------------------------
EXTERNAL_PACKAGES: frozenset[str] = frozenset(
    {
        "mindspore", "torch", "numpy", "scipy", "tensorflow", "jax", "cv2", "PIL",
        "sklearn", "pandas", "skimage", "mindcv", "mindnlp", "mindformers",
        "mindocr", "mindyolo", "mindone", "transformers", "torchvision",
    }
)

# --------------------------------------------------------------------------
# Graph mode: what graph code is.
# --------------------------------------------------------------------------
JIT_DECORATORS: frozenset[str] = frozenset(
    {"mindspore.jit", "mindspore.ms_function", "mindspore.jit_function"}
)
JIT_CLASS_DECORATORS: frozenset[str] = frozenset({"mindspore.jit_class"})
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

# Cell base classes: anything exported by these packages with a capitalised name
# is an nn.Cell, except the classes below.
CELL_PACKAGES: tuple[str, ...] = ("mindspore.nn", "mindspore.mint.nn")
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
SCIPY_TO_MINDSPORE: dict[str, str] = {
    "scipy.special.expit": "ops.sigmoid",
    "scipy.special.softmax": "ops.softmax",
    "scipy.special.log_softmax": "ops.log_softmax",
    "scipy.special.erf": "ops.erf",
    "scipy.special.logsumexp": "ops.logsumexp",
}

# Tensor methods that copy data to the host (ms-asnumpy-in-graph). ``asnumpy``
# exists only on MindSpore tensors, so it is flagged whatever the receiver; the
# others are flagged only on values that depend on a runtime tensor.
HOST_COPY_METHODS: dict[str, bool] = {
    "asnumpy": True,
    "numpy": False,
    "item": False,
    "tolist": False,
}

# --------------------------------------------------------------------------
# Python features that do not belong in graph code.
# --------------------------------------------------------------------------
CONCURRENCY_PACKAGES: frozenset[str] = frozenset(
    {"threading", "multiprocessing", "concurrent", "_thread", "queue"}
)
# Calls that (re)initialise parameter data: host-side, not graph ops.
PARAMETER_INIT_METHODS: frozenset[str] = frozenset({"set_data", "init_data"})
PARAMETER_INIT_CALLS: frozenset[str] = frozenset({"mindspore.common.initializer.initializer"})
