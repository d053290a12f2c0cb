"""Properties over generated MindSpore-like code: the linter never crashes, and its
findings depend neither on the order of the files nor on the number of processes.

The generator builds small packages of modules with Cells whose ``construct`` and
helpers mix mindspore ops, numpy (real or ``mindspore.numpy``), ``.asnumpy()``,
shape arithmetic, helper calls, user classes, Cells built in construct, and Cells
that derive from a sibling module's Cell (so resolution crosses modules).
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
import tempfile
import textwrap
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TypeVar

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from pylint.lint import PyLinter, Run
from pylint.reporters import CollectingReporter

import mslint
from mslint.analysis import resolve, scope

T = TypeVar("T")
Choose = Callable[[Sequence[T]], T]

HEADERS = (
    "import numpy as np\n",
    "import mindspore.numpy as np\n",
    "import numpy as np\nimport scipy.special as sp\n",
)
COMMON = "import mindspore as ms\nfrom mindspore import Parameter, Tensor, mint, nn, ops\n"
EXPRESSIONS = (
    "ops.exp({a})",
    "np.exp({a})",
    "{a}.asnumpy()",
    "np.prod({a}.shape)",
    "{a}.shape[0] * 2",
    "len({a})",
    "np.zeros(({a}.shape[0], 2))",
    "Tensor(np.ones(({n}, 2)))",
    "self.helper({a})",
    "helper_fn({a}, {b})",
    "{a} if {b} is None else {b}",
    "[{a}, {b}]",
    "{a}.item()",
    "np.sqrt({n})",
    "self.weight * {a}",
    "nn.Dense(2, 2)({a})",
    "nn.Softmax()({a})",
    "Custom({a}).value",
    "{a} + {b}",
    "ops.reshape({a}, (-1,))",
    "np.array({a})",
    "float({n})",
    "np.finfo(np.float32).eps",
    "Block()({a})",
    "[np.exp(v) for v in {a}.shape]",
    "tuple(int(d) for d in {a}.shape)",
    "mint.nn.Linear(2, 2)({a})",
    "{a}.numel()",
    "sp.expit({a})",
)
STATEMENTS = (
    "{v} = {e}",
    "{v} += {e}",
    "for i in range({n}):\n    {v} = {e}",
    "if {n} > 1:\n    {v} = {e}\nelse:\n    {v} = {a}",
    "{v}, _ = {e}, {a}",
)


def _body(choose: Choose, names: list[str], ints: list[str], size: int) -> list[str]:
    """``size`` statements over ``names``; every target becomes a name."""
    lines: list[str] = []
    names = list(names)
    for _ in range(size):
        expression = choose(EXPRESSIONS)
        statement = choose(STATEMENTS)
        target = choose(("z", "w", "u", *names))
        if "{v} +=" in statement and target not in names:
            statement = "{v} = {e}"
        fields = {"a": choose(names), "b": choose(names), "n": choose(ints)}
        code = statement.format(v=target, e=expression.format(**fields), **fields)
        lines.extend(code.splitlines())
        if target not in names:
            names.append(target)
    lines.append(f"return {choose(names)}")
    return lines


def _indent(lines: list[str], depth: int) -> str:
    return "".join("    " * depth + line + "\n" for line in lines)


def module_source(choose: Choose, index: int) -> str:
    base = "nn.Cell" if index == 0 else choose(("nn.Cell", "Base", "sibling.Net0"))
    imports = ""
    if index > 0:
        imports = "from . import mod0 as sibling\nfrom .mod0 import Net0 as Base\n"
    size = choose((1, 2, 3, 4))
    return (
        choose(HEADERS)
        + COMMON
        + imports
        + "\n\nclass Custom:\n    def __init__(self, v):\n        self.value = v\n"
        + "\n\nclass Block(nn.Cell):\n    def __init__(self):\n        super().__init__()\n"
        + "        self.dense = nn.Dense(2, 2)\n\n    def construct(self, x):\n        return self.dense(x)\n"
        + "\n\ndef helper_fn(a, b):\n"
        + _indent(_body(choose, ["a", "b"], ["2"], size), 1)
        + f"\n\nclass Net{index}({base}):\n"
        + "    def __init__(self):\n        super().__init__()\n"
        + '        self.weight = Parameter(Tensor(np.ones(2), ms.float32), name="w")\n'
        + "        self.scale = np.sqrt(2.0)\n\n"
        + "    def construct(self, x, y, n: int = 2):\n"
        + _indent(_body(choose, ["x", "y"], ["n", "3"], size), 2)
        + "\n    def helper(self, a):\n"
        + _indent(_body(choose, ["a"], ["2"], size), 2)
        + ("\n\n@ms.jit\ndef compiled(x):\n" + _indent(_body(choose, ["x"], ["2"], 1), 1) if choose((True, False)) else "")
        + ("\n\ngrad_fn = ms.grad(helper_fn)\n" if choose((True, False)) else "")
    )


def write_package(root: Path, sources: list[str], name: str = "genpkg") -> list[Path]:
    package = root / name
    package.mkdir()
    (package / "__init__.py").write_text("")
    paths = []
    for index, source in enumerate(sources):
        path = package / f"mod{index}.py"
        path.write_text(source, encoding="utf-8")
        paths.append(path)
    return paths


def _symbols() -> str:
    linter = PyLinter()
    mslint.register(linter)
    return ",".join(sorted(m.symbol for m in linter.msgs_store.messages if m.checker_name != "main"))


SYMBOLS = _symbols()
CRASHES = {"fatal", "astroid-error", "parse-error", "syntax-error"}


_RUNS = iter(range(10**9))


def lint_in_process(sources: list[str], order: Sequence[int], root: Path) -> list[tuple]:
    """Lint the modules ``order`` picks from ``sources``, in that order, in this
    process, as a package never seen before (a fresh name: astroid builds fresh
    trees) with mslint's caches emptied."""
    paths = write_package(root, sources, name=f"genpkg{next(_RUNS)}")
    resolve.clear_caches()
    scope._CACHE.clear()  # pylint: disable=protected-access
    reporter = CollectingReporter()
    args = [
        "--load-plugins=mslint", "--disable=all", f"--enable={SYMBOLS},{','.join(sorted(CRASHES))}",
        "--persistent=n", "--score=n", "--reports=n", *(str(paths[index]) for index in order),
    ]
    Run(args, reporter=reporter, exit=False)
    found = []
    for message in reporter.messages:
        assert message.symbol not in CRASHES, (message.symbol, message.msg, Path(message.path).read_text())
        found.append((Path(message.path).name, message.line, message.column, message.symbol, message.msg))
    return sorted(found)


@st.composite
def packages(draw: st.DrawFn) -> list[str]:
    count = draw(st.integers(min_value=1, max_value=3))

    def choose(options: Sequence[T]) -> T:
        return draw(st.sampled_from(options))

    return [module_source(choose, index) for index in range(count)]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(sources=packages())
def test_findings_do_not_depend_on_file_order(sources: list[str]) -> None:
    for source in sources:
        compile(source, "<generated>", "exec")  # the generator writes valid Python
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp)
        indices = list(range(len(sources)))
        forward = lint_in_process(sources, indices, root)
        backward = lint_in_process(sources, indices[::-1], root)
        assert forward == backward
        # each module alone gives what it gave among the others
        alone = sorted(finding for index in indices for finding in lint_in_process(sources, [index], root))
        assert alone == forward


def _corpus(root: Path, modules: int, seed: int) -> list[Path]:
    rng = random.Random(seed)
    paths = []
    for package in range(modules // 3):
        folder = root / f"p{package}"
        folder.mkdir()
        sources = [module_source(rng.choice, index) for index in range(3)]
        for path in write_package(folder, sources):
            paths.append(path)
    return paths


def _run(command: list[str], cwd: Path) -> subprocess.CompletedProcess:
    done = subprocess.run(command, cwd=cwd, capture_output=True, text=True, timeout=600, check=False)
    assert "Traceback" not in done.stderr, done.stderr[-3000:]
    return done


def test_findings_do_not_depend_on_jobs(tmp_path: Path) -> None:
    """pylint's own --jobs with the plugin over 24 generated modules, and the mslint
    command's --jobs over them plus the fixtures: the same findings with 1 and 2
    processes."""
    _corpus(tmp_path, modules=24, seed=7)
    fixtures = Path(__file__).resolve().parent.parent / "fixtures"
    generated = sorted(str(p.relative_to(tmp_path)) for p in tmp_path.iterdir())

    def plugin(jobs: int) -> list[tuple]:
        done = _run(
            [sys.executable, "-m", "pylint", "--load-plugins=mslint", "--disable=all", f"--enable={SYMBOLS}",
             "--persistent=n", "--score=n", "--reports=n", "--recursive=y", "--output-format=json2",
             f"--jobs={jobs}", *generated],
            tmp_path,
        )
        messages = json.loads(done.stdout)["messages"]
        assert not [m for m in messages if m["symbol"] in CRASHES - {"syntax-error"}], messages
        return sorted((m["path"], m["line"], m["column"], m["symbol"], m["message"]) for m in messages)

    one = plugin(1)
    assert len(one) > 20  # the generated code has findings
    assert plugin(2) == one

    def command(jobs: int) -> list[tuple]:
        done = _run(
            [sys.executable, "-m", "mslint", "--no-cache", "--format=json", f"--jobs={jobs}", *generated, str(fixtures)],
            tmp_path,
        )
        report = json.loads(done.stdout)
        return sorted(
            (f["path"], f["line"], f["column"], f["symbol"], f.get("message")) for f in report["findings"]
        )

    first = command(1)
    assert first
    assert command(2) == first


def test_generator_covers_the_rules() -> None:
    """The generated code exercises the graph rules (else the properties prove little)."""
    rng = random.Random(3)
    symbols: set[str] = set()
    with tempfile.TemporaryDirectory() as tmp:
        for _ in range(8):
            sources = [module_source(rng.choice, index) for index in range(3)]
            symbols |= {finding[3] for finding in lint_in_process(sources, range(3), Path(tmp))}
    assert {"ms-numpy-on-tensor", "ms-asnumpy-in-graph", "ms-cell-in-construct", "ms-custom-type-on-tensor"} <= symbols, symbols


def test_sample_is_valid_python() -> None:
    rng = random.Random(11)
    for index in range(3):
        compile(textwrap.dedent(module_source(rng.choice, index)), "<generated>", "exec")
