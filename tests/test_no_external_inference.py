"""mslint never sends astroid into mindspore's or torch's sources.

Inference into those packages is slow (hundreds of modules) and never needed:
names are resolved from the module's imports. With both frameworks installed, a
fresh pylint process records every request for a mindspore/torch module made
while mslint's rules lint the fixtures and a module of tricky spellings, with the
code that made it: none may come from mslint's code.

(astroid itself loads mindspore while *building* any module that assigns
``self.x`` in a Cell subclass: it infers ``self`` and the class's bases. That is
pylint's floor, paid with or without mslint, and not counted here.)
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest
from pylint.lint import PyLinter

import mslint

# Needs mindspore and torch installed: it proves astroid never reads them.
pytestmark = pytest.mark.frameworks

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
FRAMEWORKS = ("mindspore", "torch")

RECORDER = r"""
import importlib.util, json, os, sys
import astroid.manager
import mslint, mslint.checkers

assert importlib.util.find_spec("mindspore") and importlib.util.find_spec("torch"), "frameworks not installed"
OURS = tuple(os.path.dirname(os.path.realpath(m.__file__)) + os.sep for m in (mslint, mslint.checkers))
BUILDER = os.path.join("astroid", "builder.py")
loaded, entered = set(), []
Manager = astroid.manager.AstroidManager
_cache_module = Manager.cache_module
_from_name = Manager.ast_from_module_name

def cache_module(self, module):
    loaded.add(module.name)
    return _cache_module(self, module)

def culprit():
    # Innermost first: mslint's code asked for the module, unless astroid is
    # building a module at that point (astroid infers ``self`` attributes while
    # building every module, pylint's floor does the same without mslint).
    frame = sys._getframe(2)
    while frame is not None:
        filename = os.path.realpath(frame.f_code.co_filename)
        if filename.endswith(BUILDER):
            return None
        if filename.startswith(OURS):
            return "%s:%d %s" % (filename, frame.f_lineno, frame.f_code.co_name)
        frame = frame.f_back
    return None

import functools

@functools.wraps(_from_name)  # keeps the signature mslint's version check reads
def ast_from_module_name(self, modname, *args, **kwargs):
    if modname:
        loaded.add(modname)
        if modname.split(".", 1)[0] in ("mindspore", "torch"):
            where = culprit()
            if where:
                entered.append([modname, where])
    return _from_name(self, modname, *args, **kwargs)

Manager.cache_module = cache_module
Manager.ast_from_module_name = ast_from_module_name

from pylint.lint import Run
Run(sys.argv[1:], exit=False)
print("LOADED-MODULES " + json.dumps({"loaded": sorted(loaded), "entered": entered}))
"""

# Spellings that would send a careless resolver into the frameworks' sources.
TRICKY = '''
import mindspore as ms
import mindspore.nn as msnn
import numpy as np
import torch
from mindspore import Tensor, jit, nn, ops
from mindspore.nn import Cell as BaseCell
from mindspore.ops import Primitive


class Net(BaseCell):
    @ms.jit
    def helper(self, x):
        return np.exp(x)

    @staticmethod
    @jit
    def static(x):
        return x

    @classmethod
    def build(cls):
        return cls()

    def construct(self, x):
        y = self.helper(x) + Net.static(x) + msnn.ReLU()(x)
        return ops.exp(y).asnumpy() + x.numel() + torch.exp(x)


class Derived(Net, msnn.Dense, torch.nn.Module):
    def construct(self, x):
        return super().construct(x) + self.weight + Tensor(np.ones(2)).sum()


class MyPrim(Primitive):
    def __call__(self, x):
        return x


class Wrapper(nn.TrainOneStepCell):
    pass


grad_fn = ms.value_and_grad(Net(), None, weights=None)
compiled = ms.jit(Derived().construct)
'''


# A project whose classes reach MindSpore through aliases and re-exports: resolving
# them must follow the imports, not infer into mindspore.
PROJECT = {
    "proj/__init__.py": "from .models import *\n",
    "proj/aliases.py": """
import mindspore as ms
from mindspore import nn
from mindspore.nn import Cell as Base2

Base = nn.Cell
Dense = nn.Dense


@ms.jit
def compiled(x):
    return x
""",
    "proj/models.py": """
import numpy as np
from .aliases import Base, Base2, compiled


class Net(Base):
    def construct(self, x):
        return np.exp(compiled(x))


class Other(Base2):
    def construct(self, x):
        return np.exp(x)
""",
    "proj/use.py": """
import numpy as np
import proj
import proj.models as models
from proj import Net
from proj.aliases import Dense


class Sub(proj.models.Net):
    def construct(self, x):
        return np.exp(x) + models.Other()(x) + Net()(x)


class Wide(Dense):
    def construct(self, x):
        return np.tanh(x)
""",
}


def _symbols() -> str:
    linter = PyLinter()
    mslint.register(linter)
    return ",".join(sorted(m.symbol for m in linter.msgs_store.messages if m.checker_name != "main"))


def test_inference_never_enters_mindspore_or_torch(tmp_path: Path) -> None:
    tricky = tmp_path / "tricky_spellings.py"
    tricky.write_text(textwrap.dedent(TRICKY), encoding="utf-8")
    # the project is a library of its own (its setup.py marks its root): no program in
    # sight, so its Cells are assumed compiled (tricky_spellings.py, beside it, is a
    # program that runs PyNative: mslint.analysis.programs)
    library = tmp_path / "lib"
    for name, source in PROJECT.items():
        (library / name).parent.mkdir(parents=True, exist_ok=True)
        (library / name).write_text(textwrap.dedent(source), encoding="utf-8")
    (library / "setup.py").write_text("", encoding="utf-8")
    command = [
        sys.executable, "-c", RECORDER,
        "--load-plugins=mslint", "--disable=all", f"--enable={_symbols()}",
        "--persistent=n", "--score=n", "--reports=n", "--recursive=y", "--output-format=json2",
        str(FIXTURES), str(tricky), str(library / "proj"),
    ]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600, check=False, cwd=tmp_path)
    marker = [line for line in done.stdout.splitlines() if line.startswith("LOADED-MODULES ")]
    assert marker, done.stdout[-3000:] + done.stderr[-3000:]
    recorded = json.loads(marker[0].split(" ", 1)[1])
    # the recorder works: the linted modules themselves were built
    assert "tricky_spellings" in recorded["loaded"] and len(recorded["loaded"]) > 20, recorded["loaded"]
    assert recorded["entered"] == [], recorded["entered"]
    # and mslint did lint (the findings are the functional tests' business)
    report = json.loads(done.stdout[: done.stdout.index("LOADED-MODULES ")])
    assert any(m["module"] == "tricky_spellings" for m in report["messages"]), report["messages"]
    # the aliases were resolved: every construct of the project is graph code
    numpy_lines = sorted(
        (m["module"], m["line"]) for m in report["messages"]
        if m["symbol"] == "ms-numpy-on-tensor" and m["module"].split(".")[0] == "proj"
    )
    assert numpy_lines == [("proj.models", 8), ("proj.models", 13), ("proj.use", 11), ("proj.use", 16)], numpy_lines
