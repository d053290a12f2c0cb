"""Data-parallel training that silently trains wrong.

Measured on MindSpore 2.10, two CPU ranks launched with ``msrun --worker_num=2``
(tests/oracle/test_data_parallel.py):
- Under ``set_auto_parallel_context(parallel_mode=DATA_PARALLEL)`` the gradient
  reducer (``DistributedGradReducer`` with ``mean=None``, and the one
  ``TrainOneStepCell``/``Model`` build) returns the SUM of the ranks' gradients
  unless ``gradients_mean=True``: PyTorch's DDP averages, so an SGD step is the
  device count times larger.
- A custom training step (``value_and_grad`` + ``optimizer(grads)``) reduces
  nothing by itself, in PyNative and under ``@jit``: each rank trains alone and the
  replicas' weights differ after 3 steps. ``Model.train`` and ``TrainOneStepCell``
  add the reducer themselves.
- Without ``set_seed`` (or numpy's seed, which MindSpore's initializers draw from)
  or ``parameter_broadcast=True`` (default False) the ranks build different initial
  weights, and averaged gradients never bring them together.
- A dataset built without ``num_shards``/``shard_id`` (or a sampler) gives every rank
  the same batches.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis, guide
from mslint.analysis import astutil, resolve, training_code, values
from mslint.analysis.training_code import SKIP_NESTED
from mslint.checkers.messages import in_other_file, place, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

# The project seeds MindSpore's initializers somewhere (set_seed, numpy's seed): silent.
_SEED_PATTERN = guide.MINDSPORE_SEED_PATTERN + r"|\bnp\.random\.seed\s*\(|\bnumpy\.random\.seed\s*\("
_PARALLEL_TEXT = re.compile(rb"set_auto_parallel_context")
# Keywords of a call that loads weights from a checkpoint into what it builds.
_PRETRAINED_WORDS = ("pretrain", "ckpt", "checkpoint", "resume")
# ... unless they say the checkpoint is written (CheckpointConfig(save_checkpoint_steps=, keep_checkpoint_max=)).
_SAVING_WORDS = ("save", "keep")
# Other ways a module may train than Model.train: then any load may reach the network first.
_OTHER_TRAINING_TEXT = re.compile(rb"\b(?:value_and_grad|grad|GradOperation)\s*\(|TrainOneStep")
# Gradient transforms that keep each rank's own gradients (not a reduction).
_LOCAL_GRADIENT_TRANSFORMS = frozenset({"clip_by_global_norm", "clip_by_value", "clip_by_norm", "unscale"})


class DataParallelChecker(BaseChecker):
    name = "mindspore-data-parallel"
    msgs = {
        "W8102": (
            "data parallel without gradients_mean=True: the reducer %s returns the sum of the ranks' gradients "
            "(PyTorch's DDP averages), so each %s step is the device count times larger; pass "
            "gradients_mean=True to set_auto_parallel_context",
            "ms-data-parallel-gradient-sum",
            "set_auto_parallel_context(parallel_mode=DATA_PARALLEL) without gradients_mean=True in a program "
            "that trains through Model, TrainOneStepCell or DistributedGradReducer (mean=None) with a "
            "non-adaptive optimizer, and divides nothing by the group size.",
        ),
        "E8103": (
            "%s applies the gradients of %s, which no rank shares: under data parallel (%s) a custom training "
            "step reduces nothing by itself, so each rank trains alone and the replicas diverge; reduce them "
            "first: grads = nn.DistributedGradReducer(%s.parameters, mean=True)(grads)",
            "ms-data-parallel-without-reducer",
            "A custom training step (grad/value_and_grad, then optimizer(grads)) in a data-parallel program "
            "with no DistributedGradReducer and no AllReduce: Model.train and TrainOneStepCell add the "
            "reducer, a custom step does not.",
        ),
        "W8104": (
            "data parallel without a seed or parameter_broadcast=True: each rank initializes %s with its own "
            "random weights, and averaged gradients never make the replicas equal; call ms.set_seed(...) "
            "with the same seed on every rank before building the network",
            "ms-data-parallel-without-seed",
            "A data-parallel program that trains while neither it nor the project modules it imports call "
            "set_seed (or numpy's seed), it sets no parameter_broadcast=True and loads no checkpoint.",
        ),
        "W8105": (
            "%s %s in a data-parallel program (%s): every rank reads %s, "
            "so the ranks train on the same samples instead of a share each; pass "
            "num_shards=get_group_size(), shard_id=get_rank()",
            "ms-data-parallel-unsharded-dataset",
            "A mindspore.dataset source that reaches Model.train or a training loop in a data-parallel "
            "program, built without num_shards/shard_id or a sampler, given num_shards=1 in every way "
            "it is built, or given one shard_id in every way it is built.",
        ),
    }

    def open(self) -> None:
        training_code.clear_caches()

    # -- the setting itself: gradient sum, seed -----------------------------------
    @only_required_for_messages("ms-data-parallel-gradient-sum", "ms-data-parallel-without-seed")
    def visit_module(self, module: nodes.Module) -> None:
        if not training_code.mentions(module, _PARALLEL_TEXT):
            return  # these rules report the module's own setting
        settings = training_code.parallel_settings(module)
        own = [call for call in settings.data_parallel if call.root() is module]
        if not own or settings.unknown_mode:
            return
        if training_code.trainer(module) is None:
            return
        first = own[0]
        if self.linter.is_message_enabled("ms-data-parallel-gradient-sum"):
            self._check_gradient_sum(module, first, settings)
        if self.linter.is_message_enabled("ms-data-parallel-without-seed") and not settings.broadcast:
            self._check_seed(module, first)

    def _check_gradient_sum(self, module: nodes.Module, call: nodes.Call, settings) -> None:
        if settings.gradients_mean or settings.explicit_sum or training_code.divides_by_group_size(module):
            return
        reducer = self._context_reducer(module)
        if reducer is None:
            return
        # Adam's step does not grow with the gradient's scale (measured): only an
        # optimizer whose step does (SGD, Momentum), built here, makes the sum a harm
        sensitive = [qname for qname in self._optimizers(module) if qname in guide.SCALE_SENSITIVE_OPTIMIZERS]
        if not sensitive:
            return
        self.add_message("ms-data-parallel-gradient-sum", node=call, args=(reducer, sensitive[0].rsplit(".", 1)[-1]))

    def _check_seed(self, module: nodes.Module, call: nodes.Call) -> None:
        if training_code.program_mentions(module, _SEED_PATTERN):
            return
        trains = None
        for node in astutil.module_nodes(module, nodes.Call):
            if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
                continue
            qname = resolve.call_name(node)
            if qname in guide.MINDSPORE_SEED_CALLS | guide.NUMPY_SEED_CALLS:
                return
            loads = qname in guide.CHECKPOINT_READS or any(
                keyword.arg and any(word in keyword.arg.lower() for word in _PRETRAINED_WORDS)
                and not any(word in keyword.arg.lower() for word in _SAVING_WORDS)
                for keyword in node.keywords or ()
            ) or isinstance(node.func, nodes.Attribute) and node.func.attrname in guide.PRETRAINED_LOADERS
            # load_checkpoint, create_model(..., pretrained=...), AutoModel.from_pretrained(...):
            # every rank starts from the same file, unless it is read only after training
            if loads:
                if trains is None:
                    trains = _model_trainings(module)
                if not _after_training(node, trains):
                    return
        network = self._network_name(module)
        self.add_message("ms-data-parallel-without-seed", node=call, args=(network,))

    # -- what trains, and how ---------------------------------------------------
    @staticmethod
    def _context_reducer(module: nodes.Module) -> str | None:
        """The reducer that reads gradients_mean from the context: a Model with an
        optimizer, TrainOneStepCell (or a subclass), DistributedGradReducer without mean."""
        explicit = False
        for call in astutil.module_nodes(module, nodes.Call):
            if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
                continue
            qname = resolve.call_name(call)
            if qname in guide.GRAD_REDUCERS:
                mean = astutil.argument(call, *guide.GRAD_REDUCER_MEAN_ARGUMENT)
                if mean is None or (isinstance(mean, nodes.Const) and mean.value is None):
                    return "DistributedGradReducer(...) without mean="
                explicit = True
        if explicit:
            return None  # the program chose the reducer's mean itself
        for call in astutil.module_nodes(module, nodes.Call):
            if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
                continue
            qname = resolve.call_name(call)
            if qname in guide.MODEL_CLASSES and training_code.trains_model(call):
                return "that Model builds"
            if qname in guide.REDUCING_TRAIN_CELLS:
                return f"that {qname.rsplit('.', 1)[-1]} builds"
            if qname is None or not resolve.is_external(qname):
                cls = resolve.user_class_of_call(call)
                if cls is not None and resolve.derives_from(cls, guide.REDUCING_TRAIN_CELLS):
                    return f"that {cls.name} (a TrainOneStepCell) builds"
        return None

    @staticmethod
    def _optimizers(module: nodes.Module) -> list[str]:
        """The optimizer classes the module builds (a user subclass counts as its base)."""
        found = []
        for call in astutil.module_nodes(module, nodes.Call):
            if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
                continue
            qname = resolve.call_name(call)
            if qname in apis.OPTIMIZER_CLASSES:
                found.append(qname)
            elif qname is None or not resolve.is_external(qname):
                cls = resolve.user_class_of_call(call)
                if cls is not None:
                    _, external = resolve.class_hierarchy(cls)
                    found.extend(sorted(external & apis.OPTIMIZER_CLASSES))
        return found

    @staticmethod
    def _network_name(module: nodes.Module) -> str:
        for call in astutil.module_nodes(module, nodes.Call):
            if not isinstance(call.func, (nodes.Name, nodes.Attribute)):
                continue
            if resolve.call_name(call) in guide.MODEL_CLASSES | guide.REDUCING_TRAIN_CELLS:
                network = astutil.argument(call, 0, "network")
                if isinstance(network, (nodes.Name, nodes.Attribute)):
                    return network.as_string()
        return "the network"

    # -- the custom step and the dataset ----------------------------------------
    @only_required_for_messages("ms-data-parallel-without-reducer", "ms-data-parallel-unsharded-dataset")
    def visit_call(self, node: nodes.Call) -> None:
        if not isinstance(node.func, (nodes.Name, nodes.Attribute)):
            return
        module = node.root()
        if not training_code.parallel_settings(module).data_parallel:
            # a helper of another module builds the program's dataset: judged by the
            # program's settings where the one shard it is given comes from
            if node.keywords and any(keyword.arg == "num_shards" for keyword in node.keywords) \
                    and self.linter.is_message_enabled("ms-data-parallel-unsharded-dataset"):
                qname = resolve.call_name(node)
                if qname is not None and _is_dataset_source(qname):
                    self._check_one_shard(node)
            return  # the cheap question first: most modules run no data-parallel program
        if self.linter.is_message_enabled("ms-data-parallel-unsharded-dataset"):
            qname = resolve.call_name(node)
            if qname is not None and _is_dataset_source(qname):
                self._check_dataset(node, qname)
        if self.linter.is_message_enabled("ms-data-parallel-without-reducer") and len(node.args) == 1 \
                and not node.keywords and training_code.is_optimizer(node.func) \
                and training_code.optimizer_class(node.func) is not None:
            self._check_step(node, module)

    def _check_step(self, node: nodes.Call, module: nodes.Module) -> None:
        grads = node.args[0]
        if not isinstance(grads, nodes.Name):
            return
        func = node.frame()
        grad_call = _gradient_source(grads, func)
        if grad_call is None:
            return
        settings = training_code.parallel_settings(module)
        if not settings.data_parallel or _reduces(module):
            return
        if not training_code.project_initializes_communication(module):
            return  # no communication.init() anywhere: one rank, nothing to diverge from
        where = settings.elsewhere or f"line {settings.data_parallel[0].lineno}"
        optimizer = node.func.as_string()
        self.add_message(
            "ms-data-parallel-without-reducer", node=node,
            args=(spelled(node.func) + "(...)", f"{grads.name} from {spelled(grad_call.func)}(...)", where, optimizer),
        )

    def _check_dataset(self, node: nodes.Call, qname: str) -> None:
        if any(keyword.arg is None for keyword in node.keywords or ()):
            return
        if any(keyword.arg in guide.DATASET_SHARD_KEYWORDS for keyword in node.keywords or ()):
            self._check_one_shard(node)
            return
        if any(isinstance(arg, nodes.Starred) for arg in node.args) or len(node.args) > 3:
            return
        module = node.root()
        settings = training_code.parallel_settings(module)
        if not settings.data_parallel or _shards_elsewhere(node) or _rank_aware(node):
            return
        if not _reaches_training(node):
            return
        if not training_code.project_initializes_communication(module):
            return  # no communication.init() anywhere: no group of ranks to read one dataset each
        where = settings.elsewhere or f"set at line {settings.data_parallel[0].lineno}"
        self.add_message(
            "ms-data-parallel-unsharded-dataset", node=node,
            args=(spelled(node.func) + "(...)", "is built without num_shards/shard_id", where, _WHOLE),
        )

    def _check_one_shard(self, node: nodes.Call) -> None:
        """``num_shards=device_num`` where every way in sight gives it 1: the program
        sets ``device_num = 1`` and never reads the group size after ``init()``, so every
        rank's one shard is the whole dataset (measured on two CPU ranks)."""
        if any(keyword.arg == "sampler" for keyword in node.keywords):
            return
        shards = astutil.argument(node, None, "num_shards")
        if shards is None or shards is astutil.UNKNOWN:
            return
        flows = values.received(shards)
        if not flows:
            return
        if not all(_is_int(found.value) and found.value == 1 for found in flows):
            self._check_fixed_shard(node)
            return
        # judged where the dataset is built for the program: here, or at the call of the
        # helper that builds it (``create_dataset(..., device_num=device_num)`` in train.py)
        site = flows[0].site if isinstance(flows[0].site, nodes.Call) else node
        where = _data_parallel_where(site, node)
        if where is None:
            return
        note = _flow_where(shards, flows[0])
        self.add_message(
            "ms-data-parallel-unsharded-dataset", node=node,
            args=(spelled(node.func) + "(...)", "is given num_shards=1" if isinstance(shards, nodes.Const)
                  else f"is given num_shards={shards.as_string()}, which is 1{note}", where, _WHOLE),
        )

    def _check_fixed_shard(self, node: nodes.Call) -> None:
        """``shard_id=rank_id`` where every way in sight gives it the same number: a
        helper's ``rank_id=0`` default that no caller passes, so every rank reads shard
        0, the same share (measured on two CPU ranks)."""
        shard = astutil.argument(node, None, "shard_id")
        if shard is None or shard is astutil.UNKNOWN or _under_rank_test(node, node.frame()):
            return
        flows = values.received(shard)
        if not flows or not all(_is_int(found.value) for found in flows) or len({found.value for found in flows}) != 1:
            return
        site = flows[0].site if isinstance(flows[0].site, nodes.Call) else node
        where = _data_parallel_where(site, node)
        if where is None:
            return
        value = flows[0].value
        default = values.parameter_default(shard)
        if isinstance(shard, nodes.Const):
            told = f"is given shard_id={value}"
        elif default is not None and all(found.written is default[1] for found in flows):
            told = (f"is given shard_id={shard.as_string()}, always {value} ({default[0].name}()'s default, "
                    f"line {default[1].lineno}: no call passes it)")
        else:
            told = f"is given shard_id={shard.as_string()}, which is {value}{_flow_where(shard, flows[0])}"
        self.add_message(
            "ms-data-parallel-unsharded-dataset", node=node,
            args=(spelled(node.func) + "(...)", told, where, f"shard {value}, the same one"),
        )


_WHOLE = "the whole dataset"


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _data_parallel_where(site: nodes.Call, node: nodes.Call) -> str | None:
    """Where the program building the dataset at ``site`` (``node`` itself, or the call
    of the helper that builds it) sets data parallel, when it trains on it; else None."""
    settings = training_code.parallel_settings(site.root())
    if not settings.data_parallel or not (_reaches_training(site) or _reaches_training(node)):
        return None
    where = settings.elsewhere or f"set at line {settings.data_parallel[0].lineno}"
    return where + in_other_file(site, node)


def _flow_where(expr: nodes.NodeNG, found: values.Received) -> str:
    """`` (device_num at line 76 of ../train.py)``: where a value received through a
    call comes from."""
    written = found.written
    if written is None or written is expr:
        return ""
    return f" ({written.as_string()} at {place(written, expr)})"


def _is_dataset_source(qname: str) -> bool:
    if not qname.startswith(guide.DATASET_PACKAGE + "."):
        return False
    last = qname.rsplit(".", 1)[-1]
    return last.endswith("Dataset") and f"{guide.DATASET_PACKAGE}.{last}" not in guide.DATASET_NON_SOURCES


def _shards_elsewhere(construction: nodes.Call) -> bool:
    """Another dataset built in the same function is sharded: the program shards when it
    runs distributed (``if distribute: data = ds.X(path, num_shards=n, shard_id=r)``)."""
    for call in construction.scope().nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED):
        if call is construction or not isinstance(call.func, (nodes.Name, nodes.Attribute)):
            continue
        if any(keyword.arg in guide.DATASET_SHARD_KEYWORDS for keyword in call.keywords or ()):
            qname = resolve.call_name(call)
            if qname is not None and _is_dataset_source(qname):
                return True
    return False


_RANK_WORDS = re.compile(r"rank|shard|distribut|group_size|world|device_num|nproc", re.IGNORECASE)


def _rank_aware(construction: nodes.Call) -> bool:
    """The dataset's source may split the data by rank itself: an argument (through
    local names) mentions ranks or comes from a parameter of the function, or the
    construction (or its source's assignment) sits under an ``if`` on the ranks."""
    func = construction.scope()
    params = set(func.argnames()) if isinstance(func, (nodes.FunctionDef, nodes.Lambda)) else set()
    source = astutil.argument(construction, 0, "source")
    if isinstance(source, nodes.Name) and source.name in params and \
            (resolve.call_name(construction) or "").endswith(guide.PYTHON_SOURCE_DATASET):
        return True  # a Python source object from the caller: it may split by rank itself
    pending = list(astutil.call_arguments(construction))
    seen = 0
    while pending and seen < 20:
        expr = pending.pop()
        seen += 1
        if isinstance(expr, nodes.Call) and _shards_itself(expr):
            return True
        for name in [expr, *expr.nodes_of_class((nodes.Name, nodes.Attribute))]:
            text = name.name if isinstance(name, nodes.Name) else name.attrname if isinstance(
                name, nodes.Attribute) else ""
            if text and _RANK_WORDS.search(text):
                return True
            if isinstance(name, nodes.Name):
                bound = _last_binding(func, name.name, name.lineno or 0)
                if bound is not None:
                    if _under_rank_test(bound, func):
                        return True
                    pending.append(bound.value)
    return _under_rank_test(construction, func)


# The methods through which a dataset reads a Python source's items.
_SOURCE_ACCESS_METHODS = ("__getitem__", "__iter__", "__next__", "__len__")


def _shards_itself(call: nodes.Call) -> bool:
    """``call`` builds a project class whose items are read by rank: its
    ``__getitem__``/``__iter__``/``__len__`` use the rank (``index * self.rank_size
    + self.rank_id``, ``get_group_size()``), so each rank gets its own share."""
    cls = resolve.user_class_of_call(call) if isinstance(call.func, (nodes.Name, nodes.Attribute)) else None
    if cls is None:
        return False
    for name in _SOURCE_ACCESS_METHODS:
        method = resolve.find_method(cls, name)
        if method is None:
            continue
        for node in method.nodes_of_class((nodes.Name, nodes.Attribute)):
            if _RANK_WORDS.search(node.name if isinstance(node, nodes.Name) else node.attrname):
                return True
    return False


def _under_rank_test(node: nodes.NodeNG, func: nodes.NodeNG) -> bool:
    parent = node.parent
    while parent is not None and parent is not func:
        if isinstance(parent, nodes.If) and any(
            _RANK_WORDS.search(part.name if isinstance(part, nodes.Name) else part.attrname)
            for part in [parent.test, *parent.test.nodes_of_class((nodes.Name, nodes.Attribute))]
            if isinstance(part, (nodes.Name, nodes.Attribute))
        ):
            return True
        parent = parent.parent
    return False


def _reduces(module: nodes.Module) -> bool:
    """Anything in the module that reduces gradients across ranks."""
    for call in astutil.module_nodes(module, nodes.Call):
        func = call.func
        if isinstance(func, nodes.Call):
            func = func.func
        if not isinstance(func, (nodes.Name, nodes.Attribute)):
            continue
        qname = resolve.qualified_name(func)
        if qname in guide.GRAD_REDUCERS or qname in guide.ALL_REDUCE_CALLS:
            return True
        if qname is not None and qname.rsplit(".", 1)[-1] in ("AllReduce", "all_reduce", "DistributedGradReducer"):
            return True
    return False


def _gradient_source(grads: nodes.Name, func: nodes.NodeNG, depth: int = 0) -> nodes.Call | None:
    """The gradient call whose result ``grads`` holds, through tuple unpacking
    (``loss, grads = grad_fn(x)``) and gradient clipping; None when anything else
    touches it (an unknown call may reduce it)."""
    if depth > 3 or isinstance(func, nodes.Lambda):
        return None
    assignment = _last_binding(func, grads.name, grads.lineno or 0)
    if assignment is None:
        return None
    value = assignment.value
    if not isinstance(value, nodes.Call):
        return None
    callee = value.func
    if isinstance(callee, nodes.Attribute) and callee.attrname in _LOCAL_GRADIENT_TRANSFORMS or \
            isinstance(callee, nodes.Name) and callee.name in _LOCAL_GRADIENT_TRANSFORMS:
        inner = value.args[0] if value.args else None
        return _gradient_source(inner, func, depth + 1) if isinstance(inner, nodes.Name) else None
    if training_code.is_grad_call(callee) or training_code.is_grad_call(value):
        return value
    if isinstance(callee, nodes.Call) and isinstance(callee.func, (nodes.Name, nodes.Attribute)):
        # self.grad(self.network, self.weights)(*inputs) with self.grad = ops.GradOperation(...)
        if training_code.constructed_qname(callee.func) in apis.GRAD_OPERATION_FACTORIES:
            return value
        return None
    path = training_code.spelled_path(callee)
    if path is not None and path in training_code.grad_function_names(func):
        return value
    if isinstance(callee, (nodes.Name, nodes.Attribute)) and training_code.is_grad_call(training_code.holds(callee)):
        return value
    return None


def _last_binding(func: nodes.NodeNG, name: str, line: int) -> nodes.Assign | None:
    found = None
    for assign in func.nodes_of_class((nodes.Assign, nodes.AugAssign, nodes.AnnAssign), skip_klass=SKIP_NESTED):
        if (assign.lineno or 0) >= line:
            continue
        targets = assign.targets if isinstance(assign, nodes.Assign) else [assign.target]
        if any(name in astutil.target_names(target) for target in targets):
            if found is None or assign.lineno >= found.lineno:
                found = assign
    return found if isinstance(found, nodes.Assign) else None


# ---------------------------------------------------------------------------
# Does a dataset reach training?
# ---------------------------------------------------------------------------
def _reaches_training(construction: nodes.Call, depth: int = 0) -> bool:
    """Whether the dataset built by ``construction`` (through its pipeline: ``.map``,
    ``.batch``...) is given to ``Model.train`` or iterated in a loop that runs a
    training step; through one helper that returns it."""
    if depth > 2:
        return False
    func = construction.scope()
    names = _pipeline_names(construction, func)
    if not names:
        return False
    for node in func.nodes_of_class((nodes.Call, nodes.For, nodes.Return), skip_klass=SKIP_NESTED):
        if isinstance(node, nodes.Call) and training_code.is_model_train(node):
            dataset = astutil.argument(node, 1, "train_dataset")
            if isinstance(dataset, nodes.Name) and dataset.name in names:
                return True
        elif isinstance(node, nodes.For) and _iterates(node.iter, names) and _loop_trains(node):
            return True
        elif isinstance(node, nodes.Return) and isinstance(node.value, nodes.Name) and node.value.name in names \
                and isinstance(func, nodes.FunctionDef):
            for call in astutil.module_nodes(func.root(), nodes.Call):
                if isinstance(call.func, nodes.Name) and call.func.name == func.name and \
                        isinstance(call.parent, nodes.Assign) and _reaches_training(call, depth + 1):
                    return True
    return False


def _pipeline_names(construction: nodes.Call, func: nodes.NodeNG) -> set[str]:
    """The names the dataset is bound to: ``data = ds.X(...)``, then ``data = data.batch(...)``
    or ``train = data.map(...)`` (a chain on the construction counts too)."""
    node = construction
    while isinstance(node.parent, nodes.Attribute) and isinstance(node.parent.parent, nodes.Call) \
            and node.parent.attrname in guide.DATASET_PIPELINE_METHODS:
        node = node.parent.parent
    assign = node.parent
    if not (isinstance(assign, nodes.Assign) and len(assign.targets) == 1
            and isinstance(assign.targets[0], nodes.AssignName)):
        return set()
    names = {assign.targets[0].name}
    for later in func.nodes_of_class(nodes.Assign, skip_klass=SKIP_NESTED):
        if (later.lineno or 0) <= (assign.lineno or 0) or len(later.targets) != 1:
            continue
        target = later.targets[0]
        root, chain = astutil.attribute_chain(_chain_root(later.value))
        if isinstance(target, nodes.AssignName) and root is not None and root.name in names and not chain \
                and _is_pipeline_chain(later.value):
            names.add(target.name)
    return names


def _chain_root(value: nodes.NodeNG) -> nodes.NodeNG:
    while isinstance(value, nodes.Call) and isinstance(value.func, nodes.Attribute):
        value = value.func.expr
    return value


def _is_pipeline_chain(value: nodes.NodeNG) -> bool:
    if not isinstance(value, nodes.Call):
        return False
    while isinstance(value, nodes.Call) and isinstance(value.func, nodes.Attribute):
        if value.func.attrname not in guide.DATASET_PIPELINE_METHODS:
            return False
        value = value.func.expr
    return isinstance(value, nodes.Name)


def _iterates(iterable: nodes.NodeNG, names: set[str]) -> bool:
    if isinstance(iterable, nodes.Name):
        return iterable.name in names
    if isinstance(iterable, nodes.Call):
        if isinstance(iterable.func, nodes.Attribute) and iterable.func.attrname in guide.DATASET_ITERATOR_METHODS:
            return _iterates(iterable.func.expr, names)
        if isinstance(iterable.func, nodes.Name) and iterable.func.name in ("enumerate", "tqdm") and iterable.args:
            return _iterates(iterable.args[0], names)
    return False


def _loop_trains(loop: nodes.For) -> bool:
    """The loop body runs a training step: a gradient function, an optimizer applied
    to gradients, a train-step Cell, or a function whose name says train."""
    grad_names = training_code.grad_function_names(loop)
    for call in loop.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED):
        path = training_code.spelled_path(call.func)
        if path is None:
            continue
        last = path.rsplit(".", 1)[-1]
        if last == apis.SET_TRAIN_METHOD:
            continue  # net.set_train(False) sets a flag: no step (an inference loop calls it)
        if path in grad_names or "train" in last.lower():
            return True
        qname = training_code.constructed_qname(call.func)
        if qname in guide.REDUCING_TRAIN_CELLS:
            return True
    return False


def register(linter: PyLinter) -> None:
    linter.register_checker(DataParallelChecker(linter))


def _model_trainings(module: nodes.Module) -> list[nodes.Call]:
    """The ``model.train(...)`` calls of a module that trains by them alone (no
    grad/value_and_grad, no TrainOneStepCell); empty otherwise."""
    if training_code.mentions(module, _OTHER_TRAINING_TEXT):
        return []
    return [call for call in astutil.module_nodes(module, nodes.Call) if training_code.is_model_train(call)]


def _after_training(load: nodes.Call, trains: list[nodes.Call]) -> bool:
    """Whether the weights ``load`` reads can reach the network only after it has trained:
    every training call is in the same function, above the load and in no loop around
    both (``model.train(...)`` then, for evaluation, ``load_checkpoint(...)``), or in the
    other branch of an ``if`` (``if not args.do_eval: model.train(...) else: load...``)."""
    if not trains:
        return False
    frame = load.frame()
    if any((call.lineno or 0) > (load.lineno or 0) and _TRAINING_NAME.search(_called_name(call))
           for call in frame.nodes_of_class(nodes.Call, skip_klass=SKIP_NESTED)):
        return False  # finetune(net), trainer.fit(): something below may train what was loaded
    return all(train.frame() is frame and (_exclusive(train, load) or _runs_before(train, load)) for train in trains)


_TRAINING_NAME = re.compile(r"train|fit|tune", re.IGNORECASE)


def _called_name(call: nodes.Call) -> str:
    func = call.func
    return func.name if isinstance(func, nodes.Name) else func.attrname if isinstance(func, nodes.Attribute) else ""


def _ancestors(node: nodes.NodeNG, frame: nodes.NodeNG) -> list[nodes.NodeNG]:
    found = []
    while node is not None and node is not frame:
        found.append(node)
        node = node.parent
    return found


def _exclusive(first: nodes.NodeNG, second: nodes.NodeNG) -> bool:
    """``first`` and ``second`` in the two branches of one ``if``."""
    frame = first.frame()
    above_second = set(map(id, _ancestors(second, frame)))
    child = None
    for node in _ancestors(first, frame):
        if id(node) in above_second:
            if isinstance(node, nodes.If) and child is not None:
                in_body = child in node.body
                other = next((n for n in _ancestors(second, frame) if n.parent is node), None)
                return other is not None and in_body != (other in node.body) and \
                    (in_body or child in node.orelse) and (other in node.body or other in node.orelse)
            return False
        child = node
    return False


def _runs_before(first: nodes.NodeNG, second: nodes.NodeNG) -> bool:
    """``first`` is above ``second`` and no loop holds both (a later pass would run it after)."""
    if (first.lineno or 0) >= (second.lineno or 0):
        return False
    frame = first.frame()
    above_second = set(map(id, _ancestors(second, frame)))
    return not any(
        isinstance(node, (nodes.For, nodes.While)) and id(node) in above_second for node in _ancestors(first, frame)
    )
