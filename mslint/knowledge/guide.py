"""Facts behind the rules of the migration guide's training chapters (issue 25):
the training loop, checkpoints, data parallel, metrics, seeds (ids 81xx) and the
PyTorch names that fail in MindSpore (ids 82xx).

Measured on MindSpore 2.10 (CPU; the data-parallel facts on two CPU ranks with
``msrun --worker_num=2``) and PyTorch 2.13: tests/oracle/test_data_parallel.py,
test_checkpoints.py, test_training_steps.py, test_evaluation.py,
test_migration_api.py prove each entry with the real frameworks.
Names are canonical qualified names (mslint.analysis.resolve.canonical).
"""

from __future__ import annotations

# --------------------------------------------------------------------------
# Data parallel (checkers/data_parallel.py)
# --------------------------------------------------------------------------
# set_auto_parallel_context(parallel_mode=..., gradients_mean=..., parameter_broadcast=...)
AUTO_PARALLEL_CONTEXT_CALLS: frozenset[str] = frozenset({"mindspore.set_auto_parallel_context"})
PARALLEL_MODE_KEYWORD = "parallel_mode"
GRADIENTS_MEAN_KEYWORDS: tuple[str, ...] = ("gradients_mean", "mirror_mean")  # mirror_mean: before 1.0
PARAMETER_BROADCAST_KEYWORD = "parameter_broadcast"
# How the data-parallel mode is written: ParallelMode.DATA_PARALLEL (its qualified
# name ends so, from mindspore, mindspore.context, mindspore.train...) or the string.
DATA_PARALLEL_NAME = "ParallelMode.DATA_PARALLEL"
DATA_PARALLEL_STRING = "data_parallel"
# The collective group's size: dividing a loss or a learning rate by it averages
# summed gradients by hand.
GROUP_SIZE_CALLS: frozenset[str] = frozenset(
    {"mindspore.communication.get_group_size", "mindspore.communication.management.get_group_size",
     "mindspore.communication.get_local_rank_size", "mindspore.communication.management.get_local_rank_size"}
)
# What reduces gradients across ranks. DistributedGradReducer(parameters, mean=None,
# ...): mean None reads gradients_mean from the context (measured: the sum without it).
GRAD_REDUCERS: frozenset[str] = frozenset({"mindspore.nn.DistributedGradReducer"})
GRAD_REDUCER_MEAN_ARGUMENT = (1, "mean")
ALL_REDUCE_CALLS: frozenset[str] = frozenset(
    {"mindspore.ops.AllReduce", "mindspore.ops.all_reduce", "mindspore.communication.comm_func.all_reduce",
     "mindspore.mint.distributed.all_reduce", "mindspore.communication.all_reduce"}
)
# The abstract optimizer base (mindspore.nn.Optimizer, experimental.optim.Optimizer):
# a user class deriving from it is an algorithm of its own.
OPTIMIZER_BASE_NAME = "Optimizer"
# Trainers that build the reducer themselves from the context: a Model with an
# optimizer, TrainOneStepCell and its loss-scale twin (and user subclasses).
MODEL_CLASSES: frozenset[str] = frozenset({"mindspore.Model", "mindspore.train.Model"})
MODEL_TRAIN_METHOD = "train"
MODEL_OPTIMIZER_ARGUMENT = (2, "optimizer")
MODEL_LOSS_ARGUMENT = (1, "loss_fn")
REDUCING_TRAIN_CELLS: frozenset[str] = frozenset(
    {"mindspore.nn.TrainOneStepCell", "mindspore.nn.TrainOneStepWithLossScaleCell",
     "mindspore.boost.BoostTrainOneStepCell", "mindspore.boost.BoostTrainOneStepWithLossScaleCell"}
)
# Optimizers whose step does not grow with the gradient's scale (Adam's update is
# m / sqrt(v): measured, weights after 20 steps on a loss and on twice the loss
# agree within 2e-6, where SGD's are 0.62 apart): summed gradients are harmless there.
SCALE_INVARIANT_OPTIMIZERS: frozenset[str] = frozenset(
    {"mindspore.nn." + name for name in ("Adam", "AdamWeightDecay", "AdamOffload", "LazyAdam", "Lamb", "AdaMax",
                                         "AdaFactor")}
    | {"mindspore.mint.optim." + name for name in ("Adam", "AdamW", "FusedAdamW")}
    | {"mindspore.experimental.optim." + name for name in ("Adam", "AdamW", "Adamax", "NAdam", "RAdam")}
)
# Optimizers whose step grows with the gradient (measured: twice the gradient,
# twice the step): summed gradients multiply their learning rate by the device count.
SCALE_SENSITIVE_OPTIMIZERS: frozenset[str] = frozenset(
    {"mindspore.nn.SGD", "mindspore.nn.Momentum", "mindspore.nn.ASGD", "mindspore.mint.optim.SGD",
     "mindspore.experimental.optim.SGD", "mindspore.experimental.optim.ASGD"}
)
# Seeds that make every rank build the same initial weights (measured: set_seed(1)
# gives equal weights on both ranks; MindSpore's initializers draw from numpy's
# global generator, so np.random.seed does too), and loads that overwrite them.
MINDSPORE_SEED_CALLS: frozenset[str] = frozenset(
    {"mindspore.set_seed", "mindspore.common.set_seed", "mindspore.common.seed.set_seed", "mindspore.manual_seed"}
)
NUMPY_SEED_CALLS: frozenset[str] = frozenset({"numpy.random.seed"})
PRETRAINED_LOADERS: frozenset[str] = frozenset({"from_pretrained"})
CHECKPOINT_READS: frozenset[str] = frozenset(
    {"mindspore.load_checkpoint", "mindspore.load_param_into_net", "mindspore.train.serialization.load_checkpoint",
     "mindspore.train.serialization.load_param_into_net", "mindspore.train.load_checkpoint",
     "mindspore.train.load_param_into_net"}
)
# mindspore.dataset sources: each takes num_shards/shard_id (and most a sampler);
# without them every rank reads the whole dataset (measured: both ranks read the same
# 4 batches; sharded, 2 each). Operations on a dataset that keep it one pipeline.
DATASET_PACKAGE = "mindspore.dataset"
PYTHON_SOURCE_DATASET = "GeneratorDataset"  # reads a Python object, which may shard by itself
DATASET_SHARD_KEYWORDS: frozenset[str] = frozenset({"num_shards", "shard_id", "sampler"})
DATASET_PIPELINE_METHODS: frozenset[str] = frozenset(
    {"batch", "map", "shuffle", "repeat", "project", "rename", "filter", "padded_batch", "take", "skip"}
)
DATASET_ITERATOR_METHODS: frozenset[str] = frozenset({"create_tuple_iterator", "create_dict_iterator"})
# Dataset classes that are not sources (pipelines, combinations): they read what
# they are given, sharding is their source's business.
DATASET_NON_SOURCES: frozenset[str] = frozenset(
    "mindspore.dataset." + name for name in (
        "BatchDataset", "BucketBatchByLengthDataset", "ConcatDataset", "Dataset", "DeserializedDataset",
        "FilterDataset", "MapDataset", "MappableDataset", "PaddedBatchDataset", "ProjectDataset", "RenameDataset",
        "RepeatDataset", "ShuffleDataset", "SkipDataset", "SourceDataset", "SyncWaitDataset", "TakeDataset",
        "TransferDataset", "UnionBaseDataset", "ZipDataset", "TextBaseDataset", "VisionBaseDataset",
        "AudioBaseDataset", "PaddedDataset",
    )
)

# --------------------------------------------------------------------------
# The training step (checkers/training_steps.py)
# --------------------------------------------------------------------------
# Words that name a loss: a value, a function or a Cell so named is the objective.
LOSS_WORDS: tuple[str, ...] = ("loss", "criterion")
# Optimizers' weight_decay, by (position, keyword), read with inspect.signature
# through their argument-checking decorator (tests/oracle/test_training_steps.py).
WEIGHT_DECAY_ARGUMENTS: dict[str, tuple[int, str]] = {
    "mindspore.nn." + name: (position, "weight_decay") for name, position in (
        ("SGD", 4), ("Momentum", 3), ("Adam", 7), ("AdamWeightDecay", 5), ("Lamb", 5), ("RMSProp", 8),
        ("Adagrad", 5), ("FTRL", 8), ("ProximalAdagrad", 7), ("LazyAdam", 7), ("AdaMax", 5), ("Adadelta", 5),
        ("Rprop", 4), ("ASGD", 5), ("AdamOffload", 7),
    )
}
OPTIMIZER_PARAMS_ARGUMENT = (0, "params")
# Cell methods that return every parameter, trainable or not (BatchNorm's moving
# statistics, frozen weights): an optimizer given them decays them all (measured).
ALL_PARAMETERS_METHODS: frozenset[str] = frozenset({"get_parameters"})
PARAMETER_DICT_METHOD = "parameters_dict"
TRAINABLE_PARAMETERS_METHOD = "trainable_params"
# Cells whose parameters include some no gradient updates (moving statistics).
CELLS_WITH_UNTRAINED_PARAMETERS: frozenset[str] = frozenset(
    "mindspore.nn." + name for name in (
        "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "InstanceNorm1d", "InstanceNorm2d",
        "InstanceNorm3d", "Conv2dBnAct", "DenseBnAct",
    )
)
# Layers and containers that return their outputs (no loss): differentiated with
# weights, or trained by TrainOneStepCell, they give the gradient of the outputs' sum.
BARE_LAYERS: frozenset[str] = frozenset(
    ["mindspore.nn." + name for name in (
        "Dense", "Conv1d", "Conv2d", "Conv3d", "SequentialCell", "LSTM", "GRU", "RNN", "Embedding", "BiDense",
    )]
    + ["mindspore.mint.nn." + name for name in ("Linear", "Conv1d", "Conv2d", "Conv3d", "Embedding")]
)
# The only base a user network may have for mslint to read all it computes.
PLAIN_CELL_BASES: frozenset[str] = frozenset({"mindspore.nn.Cell"})
# Seeds of other libraries: none of them seeds MindSpore's random ops (measured:
# Dropout masks differ from run to run with numpy, random and torch seeded).
OTHER_SEED_CALLS: frozenset[str] = frozenset(
    {"random.seed", "numpy.random.seed", "torch.manual_seed", "torch.cuda.manual_seed", "torch.cuda.manual_seed_all",
     "torch.random.manual_seed"}
)
# Under mindtorch's redirection (apis.TORCH_REDIRECTING_MODULES: ``from mindtorch.tools
# import mstorch_enable``, then ``import torch`` loads mindtorch.torch), these seed
# MindSpore: mindtorch 0.4.0's torch/random.py defines ``manual_seed(seed)`` as ``return
# ms.set_seed(seed)`` (read in its wheel); its torch.cuda.manual_seed(_all) are no-ops.
MINDTORCH_MINDSPORE_SEEDS: frozenset[str] = frozenset({"torch.manual_seed", "torch.random.manual_seed"})
# Where a seed call's text shows that the project seeds MindSpore somewhere
# (``set_seed(`` in any spelling, ``manual_seed`` of mindspore): the rule is silent.
MINDSPORE_SEED_PATTERN = r"\bset_seed\s*\(|\bmindspore\.manual_seed\s*\(|\bms\.manual_seed\s*\("
# A mindspore.dataset source or operation told to shuffle: mindspore.set_seed also seeds
# mindspore.dataset (it calls dataset.config.set_seed; tests/oracle/test_training_steps.py
# measures two unseeded runs shuffling in different orders).
DATASET_SHUFFLE_KEYWORD = "shuffle"
DROPOUT_LAYERS: frozenset[str] = frozenset(
    ["mindspore.nn." + name for name in ("Dropout", "Dropout1d", "Dropout2d", "Dropout3d")]
    + ["mindspore.mint.nn." + name for name in ("Dropout", "Dropout2d")]
)
# Gradient accumulation: a period named so, or the loss divided by the period (PyTorch's
# ``loss = loss / accumulation_steps``), says the program means to accumulate; without
# either, ``optimizer(grads)`` every k steps is a skip (a GAN's generator every k steps).
ACCUMULATION_WORD = "accum"

# --------------------------------------------------------------------------
# Evaluation (checkers/evaluation.py)
# --------------------------------------------------------------------------
METRIC_PACKAGES: tuple[str, ...] = ("mindspore.train", "mindspore.nn", "mindspore.train.metrics")
METRIC_BASES: frozenset[str] = frozenset({"mindspore.train.Metric", "mindspore.nn.Metric"})
METRIC_CLASSES: frozenset[str] = frozenset(
    package + "." + name
    for package in METRIC_PACKAGES
    for name in (
        "Accuracy", "BleuScore", "ConfusionMatrix", "ConfusionMatrixMetric", "CosineSimilarity", "Dice", "F1",
        "Fbeta", "HausdorffDistance", "Loss", "MAE", "MSE", "MeanSurfaceDistance", "OcclusionSensitivity",
        "Perplexity", "Precision", "ROC", "Recall", "RootMeanSquareDistance", "Top1CategoricalAccuracy",
        "Top5CategoricalAccuracy", "TopKCategoricalAccuracy",
    )
)
METRIC_UPDATE, METRIC_EVAL, METRIC_CLEAR = "update", "eval", "clear"
# Cells whose output depends on the training flag (Dropout drops, BatchNorm uses and
# updates batch statistics): the evaluation of a network in training mode differs.
TRAIN_MODE_LAYERS: frozenset[str] = frozenset(
    ["mindspore.nn." + name for name in (
        "Dropout", "Dropout1d", "Dropout2d", "Dropout3d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d",
        "SyncBatchNorm", "Conv2dBnAct", "DenseBnAct",
    )]
    + ["mindspore.mint.nn." + name for name in (
        "Dropout", "Dropout2d", "BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm",
    )]
)

# --------------------------------------------------------------------------
# Checkpoints (checkers/checkpoints.py)
# --------------------------------------------------------------------------
LOAD_CHECKPOINT_CALLS: frozenset[str] = frozenset(
    {"mindspore.load_checkpoint", "mindspore.train.serialization.load_checkpoint", "mindspore.train.load_checkpoint"}
)
LOAD_CHECKPOINT_NET_ARGUMENT = (1, "net")
LOAD_PARAM_INTO_NET_CALLS: frozenset[str] = frozenset(
    {"mindspore.load_param_into_net", "mindspore.train.serialization.load_param_into_net",
     "mindspore.train.load_param_into_net"}
)
LOAD_PARAM_NET_ARGUMENT = (0, "net")
LOAD_PARAM_DICT_ARGUMENT = (1, "parameter_dict")
# Calls whose result is a path, not a parameter dict (ms-load-param-given-path): given to
# load_param_into_net, it raises TypeError ("'parameter_dict' should be a dict").
PATH_RESULT_CALLS: frozenset[str] = frozenset(
    {"os.path.join", "os.path.abspath", "os.path.realpath", "os.path.expanduser", "os.path.normpath",
     "pathlib.Path", "pathlib.PurePath", "pathlib.PosixPath", "builtins.str"}
)
# Reading PyTorch weights: the dict these return has PyTorch's names.
TORCH_WEIGHT_READS: frozenset[str] = frozenset({"torch.load", "torch.hub.load_state_dict_from_url"})
TORCH_STATE_DICT_METHOD = "state_dict"
# Cell methods that give the network's parameter names: a conversion calling them
# compares the names itself.
PARAMETER_NAME_READERS: frozenset[str] = frozenset(
    {"parameters_dict", "parameters_and_names", "get_parameters", "trainable_params"}
)
# mindspore.nn layers whose parameter names differ from PyTorch's (measured with
# parameters_and_names on 2.10): a PyTorch state dict loaded unrenamed leaves these
# parameters as they were.
RENAMED_PARAMETERS: dict[str, str] = {
    **{"mindspore.nn." + name: "weight/bias/running_mean/running_var are gamma/beta/moving_mean/moving_variance"
       for name in ("BatchNorm1d", "BatchNorm2d", "BatchNorm3d", "SyncBatchNorm", "InstanceNorm1d",
                    "InstanceNorm2d", "InstanceNorm3d")},
    **{"mindspore.nn." + name: "weight/bias are gamma/beta" for name in ("LayerNorm", "GroupNorm")},
    "mindspore.nn.Embedding": "weight is embedding_table",
    "mindspore.nn.PReLU": "weight is w",
}

# --------------------------------------------------------------------------
# PyTorch names that fail in MindSpore (checkers/migration_api.py, ids 82xx)
# --------------------------------------------------------------------------
# torch.optim.lr_scheduler classes that mindspore.experimental.optim.lr_scheduler has too.
TORCH_SCHEDULERS_IN_EXPERIMENTAL: tuple[str, ...] = (
    "LRScheduler", "LambdaLR", "MultiplicativeLR", "StepLR", "MultiStepLR", "ConstantLR", "LinearLR",
    "ExponentialLR", "SequentialLR", "PolynomialLR", "CosineAnnealingLR", "ReduceLROnPlateau", "CyclicLR",
    "CosineAnnealingWarmRestarts",
)
# Names MindSpore 2.10 does not have (AttributeError / ImportError) -> its name.
MISSING_NAMES: dict[str, str] = {
    "mindspore.nn.Module": "Cell",
    "mindspore.nn.Sequential": "SequentialCell",
    "mindspore.nn.ModuleList": "CellList",
    "mindspore.nn.ModuleDict": "CellDict",
    "mindspore.mint.nn.Module": "mindspore.nn.Cell",
    "mindspore.mint.nn.Sequential": "mindspore.nn.SequentialCell",
    "mindspore.mint.nn.ModuleList": "mindspore.nn.CellList",
    "mindspore.mint.nn.ModuleDict": "mindspore.nn.CellDict",
    "mindspore.ms_function": "jit",
    # ms_function looked up in mindspore.common (``from mindspore.common import
    # ms_function``: ImportError in 2.10, where mindspore.common.jit is mindspore.jit;
    # tests/oracle/test_migration_api.py)
    "mindspore.common.ms_function": "jit",
    # ms_class, ms_function's companion for user classes, went with it (jit_class
    # takes the same one argument; tests/oracle/test_migration_api.py)
    "mindspore.ms_class": "jit_class",
    "mindspore.common.ms_class": "jit_class",
    # torch.nn names absent from mindspore.nn 2.10 (introspection of both installed
    # modules: tests/oracle/test_migration_api.py), with MindSpore's spelling: a
    # renamed mindspore.nn class of the same arguments, else mindspore.mint.nn's
    # PyTorch-compatible class, else the closest mindspore.nn class (the mapping data's
    # counterpart). torch.nn names with no MindSpore spelling are left out.
    "mindspore.nn.Parameter": "mindspore.Parameter",
    "mindspore.nn.init": "mindspore.common.initializer",
    "mindspore.nn.functional": "mindspore.mint.nn.functional",
    "mindspore.nn.SELU": "SeLU",
    "mindspore.nn.Hardswish": "HSwish",
    "mindspore.nn.Hardsigmoid": "HSigmoid",
    "mindspore.nn.Hardshrink": "HShrink",
    "mindspore.nn.Softshrink": "SoftShrink",
    "mindspore.nn.MultiLabelMarginLoss": "MultilabelMarginLoss",
    "mindspore.nn.ConvTranspose1d": "Conv1dTranspose",
    "mindspore.nn.ConvTranspose2d": "mindspore.mint.nn.ConvTranspose2d",
    "mindspore.nn.ConvTranspose3d": "Conv3dTranspose",
    "mindspore.nn.LocalResponseNorm": "LRN",
    "mindspore.nn.Bilinear": "BiDense",
    "mindspore.nn.Fold": "mindspore.mint.nn.Fold",
    "mindspore.nn.UpsamplingBilinear2d": "mindspore.mint.nn.UpsamplingBilinear2d",
    "mindspore.nn.UpsamplingNearest2d": "mindspore.mint.nn.UpsamplingNearest2d",
    "mindspore.nn.ZeroPad1d": "mindspore.mint.nn.ZeroPad1d",
    "mindspore.nn.ZeroPad3d": "mindspore.mint.nn.ZeroPad3d",
    "mindspore.nn.DataParallel": "the network itself",
    # torch's DataParallel and DataLoader looked up in mindspore.parallel and
    # mindspore.dataset (``from mindspore.parallel import DataParallel``, ``from
    # mindspore.dataset import DataLoader``: ImportError in 2.10; tests/oracle/test_migration_api.py)
    "mindspore.parallel.DataParallel": "the network itself",
    # torch.nn.parallel's DistributedDataParallel looked up in mindspore.nn (``from
    # mindspore.nn.parallel import DistributedDataParallel``: ModuleNotFoundError in 2.10,
    # ``mindspore.nn.DistributedDataParallel``: AttributeError; resolve.canonical folds the
    # first into the second; tests/oracle/test_migration_api.py)
    "mindspore.nn.DistributedDataParallel": "the network itself",
    "mindspore.dataset.DataLoader": "mindspore.dataset.GeneratorDataset",
    # torch.optim's AdamW looked up in mindspore.nn (absent in 2.10): mint's takes
    # PyTorch's arguments (lr=, betas=, weight_decay=; tests/oracle/test_migration_api.py)
    "mindspore.nn.AdamW": "mindspore.mint.optim.AdamW",
    # torch.optim.lr_scheduler's classes looked up in mindspore.nn (absent in 2.10):
    # mindspore.experimental.optim.lr_scheduler has each but OneCycleLR and
    # ChainedScheduler, with PyTorch's parameters (CyclicLR without the momentum
    # cycling ones), for a mindspore.experimental.optim optimizer (a mindspore.nn one:
    # TypeError); OneCycleLR: a per-step list of rates as learning_rate
    # (tests/oracle/test_migration_api.py). ChainedScheduler has no spelling: left out.
    **{"mindspore.nn." + name: "mindspore.experimental.optim.lr_scheduler." + name for name in TORCH_SCHEDULERS_IN_EXPERIMENTAL},
    "mindspore.nn.OneCycleLR": "a list of per-step learning rates",
    # torch's legacy name of the schedulers' base class (torch.optim.lr_scheduler._LRScheduler,
    # a subclass of LRScheduler) looked up in mindspore.nn (``from mindspore.nn.lr_scheduler
    # import _LRScheduler``: ModuleNotFoundError; tests/oracle/test_migration_api.py):
    # experimental's LRScheduler is subclassed the same way (get_lr() over base_lrs)
    # (both spellings: resolve.canonical folds mindspore.nn.lr_scheduler.X into
    # mindspore.nn.X for public class names only)
    **{name: "mindspore.experimental.optim.lr_scheduler.LRScheduler"
       for name in ("mindspore.nn._LRScheduler", "mindspore.nn.lr_scheduler._LRScheduler")},
    # torch.optim and torch.utils.data looked up in mindspore (absent in 2.10:
    # ``from mindspore import optim`` raises ImportError, ``mindspore.utils.data``
    # AttributeError; tests/oracle/test_migration_api.py): experimental.optim has
    # torch.optim's classes with PyTorch's arguments, mindspore.dataset the data pipeline
    "mindspore.optim": "mindspore.experimental.optim",
    "mindspore.utils.data": "mindspore.dataset",
    # torch.nn.utils.data (sic), torch.distributed and torch.cuda.amp looked up in
    # mindspore (``from mindspore.nn.utils import data``: ImportError; ``import
    # mindspore.distributed``, ``from mindspore.cuda.amp import ...``:
    # ModuleNotFoundError; tests/oracle/test_migration_api.py): mindspore.mint.distributed
    # has torch.distributed's functions (init_process_group, get_world_size, all_reduce...);
    # mindspore.amp casts a network (auto_mixed_precision) and scales losses (DynamicLossScaler)
    "mindspore.nn.utils.data": "mindspore.dataset",
    "mindspore.distributed": "mindspore.mint.distributed",
    "mindspore.cuda.amp.autocast": "mindspore.amp.auto_mixed_precision",
    "mindspore.cuda.amp.GradScaler": "mindspore.amp.DynamicLossScaler",
    # torch's tensor functions looked up in mindspore, mindspore.ops or mindspore.tensor
    # (absent in 2.10: AttributeError; mindspore.tensor is a function, not the Tensor class;
    # tests/oracle/test_migration_api.py): MindSpore's spelling, run on CPU. mint.cat takes
    # PyTorch's (tensors, dim); ops.randint takes (low, high, size) (mint.randint has no CPU
    # kernel in 2.10); ops.L2Normalize(axis=dim) is normalize with p=2 (mint's normalize has
    # no CPU kernel); ops.zeros takes the shape as one tuple (``ops.zeros(2, 3)``: TypeError)
    "mindspore.cat": "mindspore.mint.cat",
    "mindspore.randint": "mindspore.ops.randint",
    "mindspore.ops.normalize": "mindspore.ops.L2Normalize",
    "mindspore.tensor.zeros": "mindspore.ops.zeros",
    # more of torch's top-level functions looked up in mindspore (absent in 2.10:
    # AttributeError; tests/oracle/test_migration_api.py), with the spelling that runs on
    # CPU: ops.arange, ops.cumsum(x, axis) (mint's arange and cumsum have no CPU kernel
    # in 2.10); ops.ones/ops.zeros take the shape as one tuple; ops.randn takes PyTorch's
    # sizes (mint.randn has no CPU kernel); mint.transpose takes PyTorch's two axes
    # (ops.transpose takes one permutation); mint.nonzero returns PyTorch's index rows
    "mindspore.arange": "mindspore.ops.arange",
    "mindspore.ones": "mindspore.ops.ones",
    "mindspore.zeros": "mindspore.ops.zeros",
    "mindspore.sigmoid": "mindspore.ops.sigmoid",
    "mindspore.mul": "mindspore.ops.mul",
    "mindspore.transpose": "mindspore.mint.transpose",
    "mindspore.randn": "mindspore.ops.randn",
    "mindspore.nonzero": "mindspore.mint.nonzero",
    "mindspore.cumsum": "mindspore.ops.cumsum",
    # torch's elementwise and reduction functions looked up in mindspore (absent in 2.10:
    # AttributeError; round 19's ``ms.sqrt``, ``ms.stack``): mindspore.ops has each under
    # the same name (an axis is spelled axis there: ms-torch-keyword-args says so)
    **{f"mindspore.{name}": f"mindspore.ops.{name}" for name in (
        "sqrt", "stack", "exp", "abs", "tanh", "cos", "sin", "pow", "matmul", "where", "mean", "sum", "clamp",
        "relu", "squeeze", "unsqueeze", "flatten", "full", "eye", "linspace", "rand")},
    # torch.nn.utils' gradient clipping and weight norm looked up in mindspore.nn.utils
    # (absent in 2.10: AttributeError; round 20's ports): MindSpore clips the gradient
    # tuple value_and_grad returns (ops.clip_by_global_norm, ops.clip_by_value), not the
    # parameters' .grad in place; it has no weight_norm
    "mindspore.nn.utils.clip_grad_norm_": "mindspore.ops.clip_by_global_norm",
    "mindspore.nn.utils.clip_grad_value_": "mindspore.ops.clip_by_value",
    "mindspore.nn.utils.weight_norm": "mindspore.nn.utils.weight_norm",
    # torch.autograd looked up in mindspore (absent: ``mindspore.autograd.grad(...)``
    # AttributeError, ``import mindspore.autograd`` ModuleNotFoundError): MindSpore
    # differentiates functions (mindspore.grad / value_and_grad), not tensors
    "mindspore.autograd": "mindspore.grad",
    # torch.no_grad looked up in mindspore (absent in 2.10: AttributeError, only the
    # private _no_grad; round 24's search-and-replace ports, ``with mindspore.no_grad():``):
    # MindSpore records nothing outside the functions it is asked to differentiate
    "mindspore.no_grad": "mindspore.ops.stop_gradient",
    # PyTorch's typed tensor classes looked up in mindspore (absent in 2.10:
    # tests/oracle/test_migration_api.py): a Tensor of that dtype (TORCH_TENSOR_TYPES)
    **{"mindspore." + name: "mindspore.Tensor" for name in (
        "FloatTensor", "DoubleTensor", "HalfTensor", "BFloat16Tensor", "ByteTensor", "CharTensor",
        "ShortTensor", "IntTensor", "LongTensor", "BoolTensor")},
}
# Names of MISSING_NAMES that older MindSpore releases have: the last release line
# (major, minor) whose API documentation lists the name. A project that pins an
# exact MindSpore at or below it (``mindspore==2.0.0`` in its requirements) runs
# where the name exists. ms_function: documented in every release up to r2.5
# (deprecated since 2.0 in favour of jit); mindspore.common.__init__ imports it
# from common.api and mindspore star-imports common, so both spellings go together.
PRESENT_THROUGH: dict[str, tuple[int, int]] = {
    "mindspore.ms_function": (2, 5),
    "mindspore.common.ms_function": (2, 5),
    # ms_class: documented through r2.4.10; taken as present through 2.5 like
    # ms_function (a project pinning 2.5 is left alone rather than told wrongly)
    "mindspore.ms_class": (2, 5),
    "mindspore.common.ms_class": (2, 5),
}
# The distributions a project pins MindSpore under (the GPU and Ascend wheels of 1.x).
MINDSPORE_DISTRIBUTIONS: tuple[str, ...] = ("mindspore", "mindspore-gpu", "mindspore-ascend")
# torch's typed tensor class -> the MindSpore dtype of its elements (torch.LongTensor
# holds int64). ``torch.LongTensor(3)`` is an empty tensor of shape (3,) where
# ``Tensor(3, ...)`` holds the number 3: no rename is exact, the message only advises.
TORCH_TENSOR_TYPES: dict[str, str] = {
    "FloatTensor": "float32", "DoubleTensor": "float64", "HalfTensor": "float16", "BFloat16Tensor": "bfloat16",
    "ByteTensor": "uint8", "CharTensor": "int8", "ShortTensor": "int16", "IntTensor": "int32",
    "LongTensor": "int64", "BoolTensor": "bool_",
}
# What to write where the replacement is no name (MISSING_NAMES gives the short form).
MISSING_NAME_ADVICE: dict[str, str] = {
    **{"mindspore.nn." + name: (
        f"mindspore.experimental.optim.lr_scheduler.{name} (PyTorch's arguments"
        f"{' but the momentum ones' if name == 'CyclicLR' else ''}), on a mindspore.experimental.optim "
        "optimizer (a mindspore.nn one raises TypeError)") for name in TORCH_SCHEDULERS_IN_EXPERIMENTAL},
    "mindspore.nn.OneCycleLR": (
        "a list of per-step rates computed in Python, given as the optimizer's learning_rate (MindSpore has no OneCycleLR)"),
    "mindspore.no_grad": (
        "nothing in its place (MindSpore computes gradients only of the functions given to mindspore.grad or "
        "value_and_grad): drop the with; ops.stop_gradient(x) for one value"),
    **{name: (
        "the network itself, with mindspore.set_auto_parallel_context(parallel_mode=ParallelMode.DATA_PARALLEL, "
        "gradients_mean=True) after communication.init()"
    ) for name in ("mindspore.nn.DataParallel", "mindspore.parallel.DataParallel",
                   "mindspore.nn.DistributedDataParallel")},
    **{name: (
        "mindspore.dataset (a DataLoader: mindspore.dataset.GeneratorDataset(source, column_names=[...])"
        ".batch(batch_size))") for name in ("mindspore.utils.data", "mindspore.nn.utils.data")},
    "mindspore.dataset.DataLoader": (
        "mindspore.dataset.GeneratorDataset(source, column_names=[...]).batch(batch_size) (MindSpore has no DataLoader)"),
    **{name: (
        "mindspore.experimental.optim.lr_scheduler.LRScheduler (PyTorch's base class: a subclass's get_lr() "
        "reads base_lrs and last_epoch), on a mindspore.experimental.optim optimizer")
       for name in ("mindspore.nn._LRScheduler", "mindspore.nn.lr_scheduler._LRScheduler")},
    "mindspore.cuda.amp.autocast": (
        "mindspore.amp.auto_mixed_precision(network, amp_level=\"O1\") once on the network "
        "(MindSpore has no autocast context)"),
    "mindspore.cuda.amp.GradScaler": (
        "mindspore.amp.DynamicLossScaler(scale_value, scale_factor, scale_window): scale the loss, "
        "unscale the gradients, and adjust it with mindspore.amp.all_finite(grads)"),
    "mindspore.ops.normalize": (
        "mindspore.ops.L2Normalize(axis=dim, epsilon=eps)(x) (the p=2 norm; mindspore.mint.nn.functional.normalize "
        "takes PyTorch's arguments but has no CPU kernel in 2.10)"),
    "mindspore.tensor.zeros": "mindspore.ops.zeros((rows, columns)) (the shape as one tuple)",
    "mindspore.nn.utils.clip_grad_norm_": (
        "grads = mindspore.ops.clip_by_global_norm(grads, max_norm) on the gradients value_and_grad returns, "
        "before optimizer(grads)"),
    "mindspore.nn.utils.clip_grad_value_": (
        "grads = mindspore.ops.clip_by_value(grads, -clip_value, clip_value) on the gradients value_and_grad "
        "returns, before optimizer(grads)"),
    "mindspore.nn.utils.weight_norm": (
        "two Parameters, the direction v and the norm g, and weight = g * v / ops.norm(v) computed in "
        "construct (MindSpore has no weight_norm)"),
    "mindspore.ones": "mindspore.ops.ones((rows, columns)) (the shape as one tuple)",
    "mindspore.zeros": "mindspore.ops.zeros((rows, columns)) (the shape as one tuple)",
    "mindspore.randn": (
        "mindspore.ops.randn (PyTorch's sizes; mindspore.mint.randn has no CPU kernel in 2.10)"),
    "mindspore.cumsum": (
        "mindspore.ops.cumsum(x, axis) (the dimension is named axis; mindspore.mint.cumsum has no CPU kernel in 2.10)"),
    "mindspore.arange": "mindspore.ops.arange (mindspore.mint.arange has no CPU kernel in 2.10)",
    "mindspore.transpose": "mindspore.mint.transpose(x, dim0, dim1) (ops.transpose takes one permutation)",
    "mindspore.autograd": (
        "mindspore.grad(fn, grad_position)(*inputs) or mindspore.value_and_grad on the function that computes "
        "the output (MindSpore has no autograd module: it differentiates functions, not tensors)"),
    **{f"mindspore.{name}": f"mindspore.Tensor(data, dtype=mindspore.{dtype}) (PyTorch's {name} holds {dtype.rstrip('_')})"
       for name, dtype in TORCH_TENSOR_TYPES.items()},
}
# MindSpore modules whose name is a PyTorch function: called, they raise TypeError ('module'
# object is not callable; mindspore.log is MindSpore's logging module, torch.log the
# elementwise logarithm; tests/oracle/test_migration_api.py) -> the function to call.
CALLED_MODULES: dict[str, str] = {"mindspore.log": "mindspore.ops.log"}
# Where the replacement lives in the same module and takes the same arguments (a
# rename of the last name is exact: signatures compared by introspection).
SAME_MODULE_RENAMES: frozenset[str] = frozenset(
    {"mindspore.nn.Module", "mindspore.nn.Sequential", "mindspore.nn.ModuleList", "mindspore.nn.ModuleDict",
     "mindspore.ms_function", "mindspore.common.ms_function", "mindspore.ms_class", "mindspore.common.ms_class",
     "mindspore.nn.SELU", "mindspore.nn.Hardswish", "mindspore.nn.Hardsigmoid",
     "mindspore.nn.Hardshrink", "mindspore.nn.Softshrink", "mindspore.nn.MultiLabelMarginLoss"}
)
# ops.transpose(input, dims) takes one permutation; PyTorch's transpose(x, a, b) swaps two axes.
TRANSPOSE_CALLS: dict[str, str] = {"mindspore.ops.transpose": "swapaxes"}
# PyTorch DataLoader keywords given to a mindspore.dataset source or to .batch():
# TypeError (measured). keyword -> (MindSpore keyword for a pure rename, or None; what to write).
DATALOADER_KEYWORDS: dict[str, tuple[str | None, str]] = {
    "batch_size": (None, "call .batch(batch_size) on the dataset instead"),
    "num_workers": ("num_parallel_workers", "write num_parallel_workers="),
    "drop_last": (None, "call .batch(batch_size, drop_remainder=True) on the dataset instead"),
    "pin_memory": (None, "delete it (MindSpore moves the data to the device itself)"),
    "persistent_workers": (None, "delete it"),
    "prefetch_factor": (None, "set mindspore.dataset.config.set_prefetch_size instead"),
    "worker_init_fn": (None, "delete it"),
    "timeout": (None, "delete it"),
}
BATCH_METHOD = "batch"
BATCH_KEYWORDS: dict[str, tuple[str | None, str]] = {
    "drop_last": ("drop_remainder", "write drop_remainder="),
    "num_workers": ("num_parallel_workers", "write num_parallel_workers="),
    "pin_memory": (None, "delete it (MindSpore moves the data to the device itself)"),
}
# nn.SoftmaxCrossEntropyWithLogits(sparse=False, ...): labels must be one-hot floats of
# the logits' shape; integer class indices raise TypeError ("the input type must be same").
SPARSE_LABEL_LOSSES: dict[str, tuple[int, str]] = {"mindspore.nn.SoftmaxCrossEntropyWithLogits": (0, "sparse")}
# torch.nn.init functions that fail on a MindSpore Parameter on every device (they call
# Tensor.size(), an int in MindSpore: TypeError; trunc_normal_: AttributeError).
# zeros_, ones_, constant_, normal_, uniform_ call in-place kernels that exist on Ascend
# only (RuntimeError on CPU): left alone.
TORCH_INIT_FAILING: dict[str, str] = {
    "torch.nn.init." + name: instead for name, instead in (
        ("xavier_uniform_", "XavierUniform()"), ("xavier_normal_", "XavierNormal()"),
        ("kaiming_uniform_", "HeUniform()"), ("kaiming_normal_", "HeNormal()"),
        ("orthogonal_", "Orthogonal()"), ("trunc_normal_", "TruncatedNormal()"),
    )
}
# PyTorch's optimizer interface on a mindspore.nn optimizer: lr_scheduler classes
# raise TypeError ("SGD is not an Optimizer"), .param_groups AttributeError.
# mindspore.experimental.optim and mint.optim have both.
TORCH_LR_SCHEDULER_PACKAGE = "torch.optim.lr_scheduler"
TORCH_OPTIMIZER_ATTRIBUTES: frozenset[str] = frozenset({"param_groups"})
NN_OPTIMIZER_PACKAGE = "mindspore.nn"
# set_context(device_target=...) is deprecated in 2.10 (a warning; it still works):
# mindspore.set_device(target, device_id) replaces it.
SET_CONTEXT_CALLS: frozenset[str] = frozenset({"mindspore.set_context"})
DEVICE_KEYWORDS: tuple[str, ...] = ("device_target", "device_id")
