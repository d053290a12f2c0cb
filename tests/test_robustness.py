"""Hostile inputs: every one gives a clear message or nothing, never a traceback,
a crash message (``fatal``/``astroid-error``) or a hang.

The cases are written into a temporary folder and linted by ``pylint
--load-plugins mslint`` with every mslint rule enabled, in a separate process with
a time limit, as a user (or the ``mslint`` command) runs it. The valid files are
linted together in one run (a crash on one would show on all), the unparsable ones
in another, the 50,000-line file alone.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from collections import defaultdict
from pathlib import Path

import pytest
from pylint.lint import PyLinter

import mslint

# A checker or astroid crashed. (``parse-error`` is a clear input error: a binary file.)
CRASH_MESSAGES = {"fatal", "astroid-error"}
PYLINT_ERRORS = ("syntax-error", "fatal", "astroid-error", "parse-error")
# Exact expectations below are about these rules; every rule runs for the crash checks.
GRAPH_RULES = {"ms-numpy-on-tensor", "ms-asnumpy-in-graph", "ms-custom-type-on-tensor", "ms-cell-in-construct"}


def _mslint_symbols() -> list[str]:
    linter = PyLinter()
    mslint.register(linter)
    return sorted(m.symbol for m in linter.msgs_store.messages if m.checker_name != "main")


ENABLE = ",".join([*_mslint_symbols(), *PYLINT_ERRORS])


def lint(paths: list[Path], cwd: Path, timeout: float = 300) -> tuple[int, list[dict], str]:
    """Run pylint with mslint over ``paths``; fail the test on a hang."""
    command = [
        sys.executable, "-m", "pylint", "--load-plugins=mslint", "--disable=all", f"--enable={ENABLE}",
        "--persistent=n", "--score=n", "--reports=n", "--recursive=y", "--output-format=json2",
        *(str(path.relative_to(cwd)) for path in paths),
    ]
    try:
        done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=timeout, check=False)
    except subprocess.TimeoutExpired:
        pytest.fail(f"mslint did not finish within {timeout} s on {[p.name for p in paths]}")
    try:
        messages = json.loads(done.stdout)["messages"]
    except (ValueError, KeyError) as error:
        pytest.fail(f"no JSON report ({error}); stdout: {done.stdout[-2000:]}; stderr: {done.stderr[-2000:]}")
    return done.returncode, messages, done.stdout + done.stderr


def assert_no_crash(returncode: int, messages: list[dict], output: str) -> None:
    crashes = [m for m in messages if m["symbol"] in CRASH_MESSAGES]
    assert not crashes, crashes
    assert "Traceback" not in output, output[-3000:]
    assert returncode & 32 == 0, (returncode, output[-3000:])  # 32: usage error
    if returncode & 1:  # a fatal-category message: only parse-error is a clear one
        assert any(m["symbol"] == "parse-error" for m in messages), (returncode, output[-3000:])


HEADER = """\
import numpy as np
import mindspore as ms
from mindspore import nn, ops
"""


def write(folder: Path, name: str, source: str | bytes) -> Path:
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    if isinstance(source, bytes):
        path.write_bytes(source)
    else:
        path.write_text(textwrap.dedent(source), encoding="utf-8")
    return path


# ---------------------------------------------------------------------------
# Files that cannot be parsed: one clear message each, and the others still checked.
# ---------------------------------------------------------------------------

UNPARSABLE = {
    "syntax_error.py": HEADER + "class Net(nn.Cell):\n    def construct(self, x)\n        return np.exp(x)\n",
    "null_bytes.py": (HEADER + "class Net(nn.Cell):\n    def construct(self, x):\n        return x\0\n").encode(),
    "latin1.py": b"# no coding line\nname = '\xe9t\xe9'\n",
    "binary.py": bytes(range(256)) * 4,
    "unclosed.py": HEADER + "x = np.exp((1, 2\n",
    "bad_indent.py": HEADER + "class Net(nn.Cell):\n  def construct(self, x):\n        return x\n    y = 1\n",
    "too_many_parentheses.py": HEADER + "x = " + "(" * 2000 + "1" + ")" * 2000 + "\n",
    "too_deeply_nested_blocks.py": "".join("    " * i + "if True:\n" for i in range(120)) + "    " * 120 + "pass\n",
}


def test_unparsable_files_give_one_clear_message_each(tmp_path: Path) -> None:
    paths = [write(tmp_path, name, source) for name, source in sorted(UNPARSABLE.items())]
    good = write(tmp_path, "good.py", HEADER + "class Net(nn.Cell):\n    def construct(self, x):\n        return np.exp(x)\n")
    returncode, messages, output = lint([*paths, good], tmp_path)
    assert_no_crash(returncode, messages, output)
    by_module = defaultdict(list)
    for message in messages:
        by_module[message["module"]].append(message)
    for path in paths:
        found = by_module.pop(path.stem, [])
        assert [m["symbol"] for m in found] in (["syntax-error"], ["parse-error"]), (path.name, found)
        assert found[0]["message"].startswith(("Parsing failed", "error while code parsing")), found
    assert [m["symbol"] for m in by_module.pop("good")] == ["ms-numpy-on-tensor"]
    assert not by_module, by_module


# ---------------------------------------------------------------------------
# Valid but hostile files, linted together once.
# ---------------------------------------------------------------------------

ZOO: dict[str, str | bytes] = {}

ZOO["encodings/bom.py"] = b"\xef\xbb\xbf" + (HEADER + "class Net(nn.Cell):\n    def construct(self, x):\n        return np.exp(x)\n").encode()
ZOO["encodings/declared_latin1.py"] = (
    "# -*- coding: latin-1 -*-\n" + HEADER + "class Net(nn.Cell):\n    def construct(self, x):\n        return np.exp(x)  # \xe9\n"
).encode("latin-1")
ZOO["encodings/crlf.py"] = (HEADER + "class Net(nn.Cell):\n    def construct(self, x):\n        return np.exp(x)\n").replace("\n", "\r\n").encode()
ZOO["encodings/empty.py"] = b""
ZOO["encodings/only_comments.py"] = "# nothing here\n# at all\n"
ZOO["encodings/unicode_names.py"] = HEADER + "class Réseau(nn.Cell):\n    def construct(self, données):\n        return np.exp(données)\n"

ZOO["deep.py"] = (
    HEADER
    + "class Net(nn.Cell):\n"
    + "    def construct(self, x):\n"
    + "        y = np.exp(" + "+".join(["x"] * 2000) + ")\n"  # a 2,000-deep BinOp tree
    + "        z = x" + ".a" * 2000 + "\n"  # a 2,000-deep Attribute chain
    + "        w = np.exp(" + "ops.neg(" * 150 + "x" + ")" * 150 + ")\n"  # near the parser's nesting limit
    + "        v = [" + " + ".join(f"[x, {i}]" for i in range(2000)) + "]\n"
    + "        return y, z, w, v\n"
)

ZOO["recursive.py"] = HEADER + """
class A(B):  # pylint: disable=used-before-assignment
    def construct(self, x):
        return np.exp(x)

class B(A):
    def construct(self, x):
        return B()(x) + A()(x)

class C(C):
    pass

class D(nn.Cell, D):
    def construct(self, x):
        return D()(np.exp(x))

class E(F, nn.Cell):
    def construct(self, x):
        return self.f(x)

class F(E):
    def f(self, x):
        return self.construct(x)
"""

ZOO["cyclic/__init__.py"] = ""
ZOO["cyclic/first.py"] = "from cyclic.second import Second\n\nclass First(Second):\n    pass\n"
ZOO["cyclic/second.py"] = "from cyclic.first import First\n\nclass Second(First):\n    pass\n"
ZOO["cyclic/model.py"] = (
    HEADER + "from cyclic.first import First\n\nclass Net(First, nn.Cell):\n    def construct(self, x):\n        return np.exp(x)\n"
)

ZOO["stars/__init__.py"] = "from stars.a import *\n"
ZOO["stars/a.py"] = "from stars.b import *\nfrom numpy import *\nfrom mindspore.nn import *\n"
ZOO["stars/b.py"] = "from stars.a import *\nfrom stars import *\n"
ZOO["stars/model.py"] = """\
from mindspore.nn import *
from numpy import *
from stars.a import *


class Net(Cell):  # Cell comes from a star import: unresolved, so not checked
    def construct(self, x):
        return exp(x)
"""

ZOO["conditional.py"] = """\
from typing import TYPE_CHECKING

try:
    import mindspore.numpy as np
except ImportError:
    np = None
if TYPE_CHECKING:
    import numpy as onp
import sys
if sys.version_info > (3, 8):
    from mindspore import nn
else:
    from mindspore import nn as nn
try:
    from mindspore import mint
except ImportError:
    mint = None


class Net(nn.Cell):
    def construct(self, x):
        y = np.exp(x)  # mindspore.numpy: fine in graph code
        return onp.exp(y)  # real numpy on a tensor
"""

ZOO["dynamic.py"] = HEADER + '''
exec("class Hidden(nn.Cell):\\n    def construct(self, x):\\n        return np.exp(x)\\n")
Dynamic = type("Dynamic", (nn.Cell,), {"construct": lambda self, x: np.exp(x)})
Hidden = globals()["Hidden"]


class Net(Hidden):
    def construct(self, x):
        return Dynamic()(Hidden()(x))


class Made(type("Base", (nn.Cell,), {})):
    def construct(self, x):
        return np.exp(x)
'''

ZOO["factories.py"] = HEADER + """

def make(depth):
    class Inner(nn.Cell):
        def construct(self, x):
            return np.exp(x)

    def nested():
        class Deeper(Inner):
            def construct(self, x):
                def local(y):
                    return np.tanh(y)
                return local(x)
        return Deeper

    return Inner() if depth else nested()()


class Outer(nn.Cell):
    def construct(self, x):
        class InConstruct(nn.Cell):
            def construct(self, y):
                return y
        return x
"""

ZOO["odd.py"] = HEADER + """

def ping(x, n):
    return pong(x, n - 1) if n else np.exp(x)

def pong(x, n):
    return ping(x, n)

def construct(self, x):  # a module function named construct: not a Cell method
    return np.exp(x)

class Net(nn.Cell):
    construct = None

class Lambda(nn.Cell):
    construct = lambda self, x: np.exp(x)

class Static(nn.Cell):
    @staticmethod
    def construct(x):
        return np.exp(x)

class Async(nn.Cell):
    async def construct(self, x):
        return x

class Decorated(nn.Cell):
    @(lambda f: f)
    @ms.jit(capture_mode="ast")
    def construct(self, x, *args, **kwargs):
        return ping(x, 3) + Decorated.construct(self, *args, **kwargs)

class Recursive(nn.Cell):
    def construct(self, x):
        return self.construct(x) + self.missing(x) + super().construct(x)

@ms.jit
def top(x=None, *, y, z: int = 1, **kw):
    return np.exp(kw) + lambda_(x)

lambda_ = lambda v: v
"""

# A project's own mindspore.py/torch.py beside the code: nothing odd, no crash.
ZOO["shadow/mindspore.py"] = "class Cell:\n    pass\n"
ZOO["shadow/torch.py"] = "import mindspore\n\nclass Module(mindspore.Cell):\n    pass\n"
ZOO["shadow/user.py"] = (
    "import numpy as np\nimport torch\nfrom mindspore import Cell\n\n"
    "class Net(Cell):\n    def construct(self, x):\n        return np.exp(x)\n\n"
    "class Port(torch.Module):\n    def forward(self, x):\n        return x.cuda()\n"
)


@pytest.fixture(scope="module")
def zoo(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[int, str]]]:
    """Lint every ZOO file in one run; findings of GRAPH_RULES per module."""
    root = tmp_path_factory.mktemp("zoo")
    paths = [write(root, name, source) for name, source in ZOO.items()]
    top = sorted({root / Path(name).parts[0] for name in ZOO})
    returncode, messages, output = lint(top, root)
    assert_no_crash(returncode, messages, output)
    # every valid file was linted
    assert not [m for m in messages if m["symbol"] in ("syntax-error", "parse-error")], messages
    found: dict[str, list[tuple[int, str]]] = defaultdict(list)
    for message in messages:
        if message["symbol"] in GRAPH_RULES:
            found[message["path"].replace("\\", "/")].append((message["line"], message["symbol"]))
    assert len(paths) == len(ZOO)
    return {name: sorted(found.get(name, [])) for name in ZOO}


def test_encodings_bom_crlf_and_empty_files(zoo) -> None:
    for name in ("bom", "crlf", "unicode_names"):
        assert zoo[f"encodings/{name}.py"] == [(6, "ms-numpy-on-tensor")], name
    assert zoo["encodings/declared_latin1.py"] == [(7, "ms-numpy-on-tensor")]
    assert zoo["encodings/empty.py"] == zoo["encodings/only_comments.py"] == []


def test_deeply_nested_expressions(zoo) -> None:
    assert zoo["deep.py"] == [(6, "ms-numpy-on-tensor"), (8, "ms-numpy-on-tensor")]


def test_recursive_class_hierarchies(zoo) -> None:
    # D and E are Cells (nn.Cell among their bases): checked; A, B, C are not.
    assert zoo["recursive.py"] == [(18, "ms-numpy-on-tensor")]
    assert zoo["cyclic/model.py"] == [(8, "ms-numpy-on-tensor")]


def test_star_and_cyclic_star_imports(zoo) -> None:
    assert all(zoo[f"stars/{name}.py"] == [] for name in ("__init__", "a", "b", "model"))


def test_conditional_imports(zoo) -> None:
    assert zoo["conditional.py"] == [(23, "ms-numpy-on-tensor")]


def test_exec_and_type_built_classes(zoo) -> None:
    assert zoo["dynamic.py"] == []  # classes mslint cannot see are not guessed at


def test_cells_defined_inside_functions(zoo) -> None:
    # Inner.construct, and the nested local(y) called from Deeper.construct with a tensor
    assert zoo["factories.py"] == [(9, "ms-numpy-on-tensor"), (15, "ms-numpy-on-tensor")]


def test_recursion_and_odd_definitions(zoo) -> None:
    # ping's np.exp (reached from Decorated.construct through mutual recursion),
    # the staticmethod construct, and @jit top's np.exp(kw)
    assert zoo["odd.py"] == [(7, "ms-numpy-on-tensor"), (24, "ms-numpy-on-tensor"), (42, "ms-numpy-on-tensor")]


def test_project_modules_named_like_the_frameworks(zoo) -> None:
    assert zoo["shadow/mindspore.py"] == zoo["shadow/torch.py"] == []


# ---------------------------------------------------------------------------
# Size.
# ---------------------------------------------------------------------------


def _large_module(helpers: int) -> str:
    """About 50,000 lines: one Cell whose construct calls a chain of thousands of
    helpers (the analysis must stay linear: not helpers x helpers), then many Cells."""
    lines = [HEADER.rstrip("\n"), "", "", "class Chain(nn.Cell):", "    def construct(self, x):", "        return self.h0(x)", ""]
    for i in range(helpers):
        lines += [f"    def h{i}(self, x):", f"        y = ops.exp(x) + {i}"]
        lines += [f"        return self.h{i + 1}(y)" if i < helpers - 1 else "        return np.exp(y)", ""]
    cell = 0
    while len(lines) < 50_000:
        lines += [
            "",
            f"class Block{cell}(nn.Cell):",
            "    def __init__(self):",
            "        super().__init__()",
            "        self.dense = nn.Dense(4, 4)",
            "        self.scale = np.sqrt(4.0)",
            "",
            "    def construct(self, x, n: int = 2):",
            "        y = self.dense(x) * self.scale",
            "        z = ops.reshape(y, (x.shape[0], -1))",
            "        k = np.prod(x.shape) + n",
            "        return self.helper(z, k)",
            "",
            "    def helper(self, z, k):",
            "        return ops.relu(z) * k",
        ]
        cell += 1
    return "\n".join(lines) + "\n"


def test_fifty_thousand_line_file(tmp_path: Path) -> None:
    helpers = 4000
    path = write(tmp_path, "large.py", _large_module(helpers))
    assert sum(1 for _ in path.open()) >= 50_000
    returncode, messages, output = lint([path], tmp_path, timeout=400)
    assert_no_crash(returncode, messages, output)
    # the only finding is at the end of the chain: the taint went through every helper
    last = 12 + 4 * (helpers - 1)  # h0 starts on line 10, four lines per helper
    assert [(m["line"], m["symbol"]) for m in messages if m["symbol"] in GRAPH_RULES] == [(last, "ms-numpy-on-tensor")]
