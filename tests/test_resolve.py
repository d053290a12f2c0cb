"""Name resolution from the module's own imports, without importing anything."""

from __future__ import annotations

import json
import subprocess
import sys

import astroid
import pytest
from astroid import nodes

from mslint.analysis import resolve


def _call_name(source: str) -> str | None:
    node = astroid.extract_node(source)
    assert isinstance(node, nodes.Call)
    return resolve.call_name(node)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("import mindspore as ms\nms.nn.Conv2d(1, 2, 3) #@", "mindspore.nn.Conv2d"),
        ("from mindspore import nn, ops\nnn.Conv2d(1, 2, 3) #@", "mindspore.nn.Conv2d"),
        ("from mindspore import nn, ops\nops.exp(1) #@", "mindspore.ops.exp"),
        ("import mindspore.nn as msnn\nmsnn.Dense(1, 2) #@", "mindspore.nn.Dense"),
        ("from mindspore.nn import Conv2d as C\nC(1, 2, 3) #@", "mindspore.nn.Conv2d"),
        ("import mindspore.numpy as np\nnp.exp(1) #@", "mindspore.numpy.exp"),
        ("import numpy as np\nnp.exp(1) #@", "numpy.exp"),
        ("import numpy\nnumpy.linalg.norm(1) #@", "numpy.linalg.norm"),
        ("import torch\ntorch.nn.Conv2d(1, 2, 3) #@", "torch.nn.Conv2d"),
        ("from torch import nn\nnn.Conv2d(1, 2, 3) #@", "torch.nn.Conv2d"),
        ("import mindspore.ops.operations as P\nP.ReduceSum() #@", "mindspore.ops.ReduceSum"),
        ("from mindspore.ops import functional as F\nF.exp(1) #@", "mindspore.ops.exp"),
        ("from mindspore.nn.layer.conv import Conv2d\nConv2d(1, 2, 3) #@", "mindspore.nn.Conv2d"),
        ("from mindspore.common.tensor import Tensor\nTensor(1) #@", "mindspore.Tensor"),
        ("from mindspore.common.initializer import initializer\ninitializer('zeros', (1,)) #@",
         "mindspore.common.initializer.initializer"),
        ("from mindspore import mint\nmint.nn.Dropout(0.1) #@", "mindspore.mint.nn.Dropout"),
        ("len([]) #@", "len"),
    ],
)
def test_imports_resolve_to_canonical_names(source: str, expected: str) -> None:
    assert _call_name(source) == expected


def test_local_names_do_not_resolve() -> None:
    assert _call_name("def f(np):\n    np.exp(1) #@") is None
    assert _call_name("x = object()\nx.exp(1) #@") is None


def test_a_local_rebinding_shadows_the_import() -> None:
    source = """
import numpy as np
def f():
    np = make()
    np.exp(1) #@
"""
    assert _call_name(source) is None


def _value_at_use(source: str) -> str | None:
    value = resolve.assigned_value(astroid.extract_node(source))
    return value.as_string() if value is not None else None


def test_the_binding_that_reaches_the_use_in_source_order() -> None:
    """A name bound twice in the frame that reads it (a notebook's cells): the
    binding above the use, not a later one."""
    assert _value_at_use("net = Pretrain()\ntrain(__(net))\nnet = Classifier()") == "Pretrain()"
    assert _value_at_use("net = Pretrain()\nnet = Classifier()\ntrain(__(net))") == "Classifier()"
    assert _value_at_use("net = Pretrain()\nnet = wrap(__(net))") == "Pretrain()"  # the right side reads the older one
    assert _value_at_use("net = Pretrain()\nfor net in nets:\n    train(__(net))") is None  # the loop's own binding
    # a function reads the name when it is called, after any binding of the module
    assert _value_at_use("net = Pretrain()\ndef fit():\n    train(__(net))\nnet = Classifier()") == "Classifier()"


def test_a_later_import_rebinds_the_name() -> None:
    """``from mindspore import nn`` then ``from torch import nn``: below the second
    import, and in any function of the module, ``nn`` is torch's."""
    two = "from mindspore import ops, nn\nfrom torch import nn\n"
    assert _call_name(two + "nn.MaxPool2d(3, 1, 1) #@") == "torch.nn.MaxPool2d"
    assert _call_name(two + "def f():\n    nn.MaxPool2d(3, 1, 1) #@") == "torch.nn.MaxPool2d"
    assert _call_name(two + "class A(nn.Module):\n    def f(self):\n        nn.ReLU() #@") == "torch.nn.ReLU"
    # a use between the two imports reads the first
    assert _call_name("from mindspore import nn\nnn.ReLU() #@\nfrom torch import nn") == "mindspore.nn.ReLU"
    # the same name imported twice stays sure
    assert _call_name("from mindspore import nn\nif X:\n    from mindspore import nn\nnn.ReLU() #@") \
        == "mindspore.nn.ReLU"
    # an except handler's import is the fallback of the try's
    source = "try:\n    from mindspore import nn\nexcept ImportError:\n    from torch import nn\nnn.ReLU() #@"
    assert _call_name(source) == "mindspore.nn.ReLU"


def test_an_import_in_a_branch_beside_another_leaves_the_name_unsure() -> None:
    source = "from mindspore import nn\nif TORCH:\n    from torch import nn\nnn.ReLU() #@"
    assert _call_name(source) is None
    source = "if TORCH:\n    from torch import nn\nelse:\n    from mindspore import nn\ndef f():\n    nn.ReLU() #@"
    assert _call_name(source) is None
    # a straight-line import after the branch decides again
    source = "if TORCH:\n    from torch import nn\nfrom mindspore import nn\nnn.ReLU() #@"
    assert _call_name(source) == "mindspore.nn.ReLU"


def test_framework_star_imports_bind_the_measured_all() -> None:
    # MindSpore 2.10's __all__ (mslint.knowledge.apis.star_exports), whatever is installed
    assert _call_name("from mindspore.nn import *\nConv2d(1, 2, 3) #@") == "mindspore.nn.Conv2d"
    assert _call_name("from mindspore.ops import *\nmax(a, b) #@") == "mindspore.ops.max"
    # not in the module's __all__: a NameError, not MindSpore's
    assert _call_name("from mindspore.nn import *\nSequential() #@") is None
    assert _call_name("from mindspore import *\nnn.Conv2d(1, 2, 3) #@") is None
    # a framework mslint has no table for: unknown; the builtin stays the builtin
    assert _call_name("from torch.nn import *\nConv2d(1, 2, 3) #@") is None
    assert _call_name("from torch.nn import *\nmax(1, 2) #@") == "max"
    # a definition after the star import replaces the name
    shadowed = _call_name("from mindspore.nn import *\nclass Conv2d: pass\nConv2d(1) #@")
    assert shadowed is not None and shadowed.endswith("Conv2d") and not shadowed.startswith("mindspore")


def test_project_star_imports_bind_what_python_binds(tmp_path, monkeypatch) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/common.py": "import mindspore.nn as nn\nfrom torch import nn as tnn\n_hidden = nn\n",
        "pkg/shared.py": "from .common import *\n",
        "pkg/limited.py": "from mindspore import nn, ops\n__all__ = ['ops']\n",
        "pkg/blocks.py": "from mindspore import nn\nclass Block(nn.Cell):\n    pass\n",
        "pkg/cycle_a.py": "from .cycle_b import *\n",
        "pkg/cycle_b.py": "from .cycle_a import *\n",
        "pkg/net.py": "from .shared import *\nfrom .limited import *\nfrom .blocks import *\nfrom .cycle_a import *\n"
                      "nn.Conv2d(1, 2, 3)\ntnn.Linear(1, 2)\nops.exp(1)\n_hidden.Dense(1, 2)\nBlock()\nundefined()\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        module = astroid.MANAGER.ast_from_file(str(tmp_path / "pkg/net.py"), "pkg.net")
        calls = [node.value for node in module.body if isinstance(node, nodes.Expr)]
        # two levels of star imports, an import's alias, a name __all__ lists
        assert [resolve.call_name(call) for call in calls[:3]] == [
            "mindspore.nn.Conv2d", "torch.nn.Linear", "mindspore.ops.exp"]
        # a private name is not brought without __all__; a cycle brings nothing new
        assert resolve.call_name(calls[3]) is None and resolve.call_name(calls[5]) is None
        # the project class, to its definition (its constructions are sites)
        built = resolve.user_class_of_call(calls[4])
        assert built is not None and built.name == "Block" and resolve.is_cell_class(built)
    finally:
        for name in list(astroid.MANAGER.astroid_cache):
            if name == "pkg" or name.startswith("pkg."):
                astroid.MANAGER.astroid_cache.pop(name, None)
        astroid.MANAGER.clear_cache()
        resolve.clear_caches()


def test_project_star_import_all_leaves_names_out(tmp_path, monkeypatch) -> None:
    _write(tmp_path, {
        "pkg/__init__.py": "",
        "pkg/limited.py": "from mindspore import nn, ops\n__all__ = ['ops']\n",
        "pkg/net.py": "from .limited import *\nnn.Conv2d(1, 2, 3)\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        module = astroid.MANAGER.ast_from_file(str(tmp_path / "pkg/net.py"), "pkg.net")
        call = next(node.value for node in module.body if isinstance(node, nodes.Expr))
        assert resolve.call_name(call) is None
    finally:
        for name in list(astroid.MANAGER.astroid_cache):
            if name == "pkg" or name.startswith("pkg."):
                astroid.MANAGER.astroid_cache.pop(name, None)
        astroid.MANAGER.clear_cache()
        resolve.clear_caches()


def test_function_level_imports_resolve() -> None:
    source = """
def f():
    import numpy as np
    np.exp(1) #@
"""
    assert _call_name(source) == "numpy.exp"


def test_class_scope_does_not_leak_into_methods() -> None:
    source = """
import numpy as np
class A:
    np = None
    def f(self):
        np.exp(1) #@
"""
    assert _call_name(source) == "numpy.exp"


def _classes(source: str) -> dict[str, nodes.ClassDef]:
    module = astroid.parse(source)
    return {cls.name: cls for cls in module.nodes_of_class(nodes.ClassDef)}


def test_cell_classes_direct_aliased_and_through_user_bases() -> None:
    classes = _classes(
        """
import mindspore.nn as msnn
from mindspore import nn
from mindspore.nn import Cell as Base, TrainOneStepCell
import torch

class A(nn.Cell): pass
class B(msnn.Cell): pass
class C(Base): pass
class D(A): pass
class E(TrainOneStepCell): pass
class F(torch.nn.Module): pass
class G: pass
class H(nn.Metric): pass
"""
    )
    cells = {name for name, cls in classes.items() if resolve.is_cell_class(cls)}
    assert cells == {"A", "B", "C", "D", "E"}


def test_recursive_class_hierarchy_terminates() -> None:
    classes = _classes("class A(B): pass\nclass B(A): pass\n")
    assert not resolve.is_cell_class(classes["A"])
    user, external = resolve.class_hierarchy(classes["A"])
    assert {cls.name for cls in user} == {"A", "B"}
    assert external == frozenset()


def test_unresolvable_base_is_marked() -> None:
    classes = _classes("def make():\n    return object\nclass A(make()): pass\n")
    _, external = resolve.class_hierarchy(classes["A"])
    assert external == {resolve.UNRESOLVED_BASE}


def test_jit_decorator_in_every_spelling() -> None:
    module = astroid.parse(
        """
import mindspore
import mindspore as ms
from mindspore import jit, ms_function
@jit
def a(x): pass
@jit(jit_level="O1")
def b(x): pass
@mindspore.jit
def c(x): pass
@ms.jit()
def d(x): pass
@ms_function
def e(x): pass
def f(x): pass
"""
    )
    from mslint.knowledge import apis

    decorated = {
        func.name for func in module.nodes_of_class(nodes.FunctionDef) if resolve.has_decorator(func, apis.JIT_DECORATORS)
    }
    assert decorated == {"a", "b", "c", "d", "e"}


def test_a_conditional_base_is_a_cell() -> None:
    module = astroid.parse(
        "from mindspore import nn\nHAVE_MS = True\n"
        "class Quant(nn.Cell if HAVE_MS else object):\n    pass\n"
    )
    cls = next(module.nodes_of_class(nodes.ClassDef))
    assert resolve.is_cell_class(cls)


def _write(root, files: dict[str, str]) -> None:
    for name, source in files.items():
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(source, encoding="utf-8")


def test_a_linted_package_named_like_a_library_is_the_project(tmp_path, monkeypatch) -> None:
    # mindformers' own Cells are Cells when mindformers itself is linted
    _write(tmp_path, {
        "mindformers/__init__.py": "",
        "mindformers/models/__init__.py": "",
        "mindformers/models/base.py": "from mindspore import nn\nclass PreTrainedModel(nn.Cell):\n    pass\n",
        "mindformers/models/bert.py": "from mindformers.models.base import PreTrainedModel\n"
                                      "class Bert(PreTrainedModel):\n    pass\n",
    })
    monkeypatch.syspath_prepend(str(tmp_path))
    names = ("mindformers", "mindformers.models", "mindformers.models.base", "mindformers.models.bert")
    try:
        module = astroid.MANAGER.ast_from_file(str(tmp_path / "mindformers/models/bert.py"), "mindformers.models.bert")
        cls = next(module.nodes_of_class(nodes.ClassDef))
        assert not resolve.is_installed("mindformers.models.base", module.file)
        assert resolve.is_cell_class(cls)
    finally:
        for name in names:
            astroid.MANAGER.astroid_cache.pop(name, None)
        astroid.MANAGER.clear_cache()
        resolve.clear_caches()


def test_an_installed_package_is_external_and_never_built(tmp_path, monkeypatch) -> None:
    installed = tmp_path / "lib" / "site-packages"
    _write(installed, {"mslint_fake_lib/__init__.py": "from mindspore import nn\nclass Base(nn.Cell):\n    pass\n"})
    monkeypatch.syspath_prepend(str(installed))
    module = astroid.parse(
        "from mslint_fake_lib import Base\nclass Net(Base):\n    pass\n", path=str(tmp_path / "user.py")
    )
    cls = next(module.nodes_of_class(nodes.ClassDef))
    requested = []
    real = astroid.MANAGER.ast_from_module_name
    monkeypatch.setattr(
        astroid.MANAGER, "ast_from_module_name", lambda name, *a, **k: requested.append(name) or real(name, *a, **k)
    )
    try:
        assert resolve.is_installed("mslint_fake_lib", module.file)
        _, external = resolve.class_hierarchy(cls)
        assert external == frozenset({"mslint_fake_lib.Base"})
        assert requested == []  # mslint never asked astroid for the library's tree
    finally:
        astroid.MANAGER.clear_cache()
        resolve.clear_caches()


GRU_ONE_INPUT = """
from mindspore import nn


class GRU(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cell = nn.Dense(4, 4)

    def construct(self, x):
        return self.cell(x)
"""
GRU_WITH_STATE = """
from mindspore import nn


class _RecurrentBase(nn.Cell):
    def __init__(self):
        super().__init__()
        self.cell = nn.Dense(4, 4)

    def construct(self, x, hx=None):
        return self.cell(x), hx


class GRU(_RecurrentBase):
    pass
"""
MODEL = """
from mindspore import nn, ops
from .gru import GRU


class Model(nn.Cell):
    def __init__(self):
        super().__init__()
        self.gru = GRU()
        self.h0 = ops.zeros((1, 4))

    def construct(self, x):
        {call}
"""
TRAIN = """
import mindspore as ms
from src.model import Model

ms.set_context(mode=ms.GRAPH_MODE)
net = Model()
"""


def _project(folder, gru: str, call: str) -> None:
    (folder / "src").mkdir(parents=True)
    (folder / "src" / "__init__.py").write_text("", encoding="utf-8")
    (folder / "src" / "gru.py").write_text(gru, encoding="utf-8")
    (folder / "src" / "model.py").write_text(MODEL.format(call=call), encoding="utf-8")
    (folder / "train.py").write_text(TRAIN, encoding="utf-8")


def test_a_relative_import_finds_its_own_project_module(tmp_path, mslint_findings) -> None:  # noqa: ANN001
    """Two projects of one repository, each with a ``src`` package: astroid's
    cache, keyed by name, holds the ``src.gru`` checked first, but each
    ``from .gru import GRU`` is its own project's (DIEN beside soft_masked_bert)."""
    (tmp_path / ".git").mkdir()
    _project(tmp_path / "a_first", GRU_ONE_INPUT, "return self.gru(x, self.h0)")  # its GRU takes one input
    _project(tmp_path / "b_second", GRU_WITH_STATE, "out, _ = self.gru(x, self.h0)\n        return out")
    found = [(item.path, item.line) for item in mslint_findings(tmp_path, enabled=["ms-cell-call-mismatch"])]
    assert found == [(str(tmp_path / "a_first" / "src" / "model.py"), 13)]


def test_a_star_import_finds_its_own_project_package(tmp_path) -> None:  # noqa: ANN001
    """Two projects side by side, each with a ``zoo`` package: astroid binds a star
    import's names by module name when it builds a tree, so the ``zoo`` it finds
    first (the other project's, without ``blocks``) binds nothing. The class the
    training script differentiates is still found in its own project's files."""
    (tmp_path / ".git").mkdir()
    for name, body in (("a_other", "VALUE = 1\n"), ("b_trainer", None)):
        package = tmp_path / name / "zoo"
        package.mkdir(parents=True)
        if body is not None:
            (package / "__init__.py").write_text(body, encoding="utf-8")
            (tmp_path / name / "train.py").write_text("from zoo import VALUE\nprint(VALUE)\n", encoding="utf-8")
            continue
        (package / "__init__.py").write_text("from .blocks import *  # noqa: F403\n", encoding="utf-8")
        (package / "blocks.py").write_text(
            "from mindspore import Tensor, nn\n\n__all__ = ['Net']\n\n\n"
            "class Net(nn.Cell):\n"
            "    def __init__(self):\n        super().__init__()\n        self.dense = nn.Dense(4, 4)\n\n"
            "    def construct(self, x):\n        y = self.dense(x)\n        return y * Tensor(y.asnumpy().max())\n",
            encoding="utf-8",
        )
        (tmp_path / name / "train.py").write_text(
            "import mindspore as ms\n\nfrom zoo import Net\n\nnet = Net()\n\n\n"
            "def forward_fn(data):\n    return net(data).sum()\n\n\n"
            "grad_fn = ms.value_and_grad(forward_fn, None, net.trainable_params())\n",
            encoding="utf-8",
        )
    done = subprocess.run(
        [sys.executable, "-m", "mslint", "--no-cache", "--jobs", "1", "--select=ms-asnumpy-in-graph", "--format=json", "."],
        cwd=tmp_path, capture_output=True, text=True, check=False, timeout=300,
    )
    found = [(item["path"], item["line"]) for item in json.loads(done.stdout)["findings"]]
    assert found == [("b_trainer/train.py", 9)], done.stderr
