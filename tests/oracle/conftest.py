"""Oracle tests run naive and fixed code with the real MindSpore (and PyTorch) and
assert the harm each rule claims. Every snippet runs in its own Python process,
with a temporary working directory, so graph-compile caches, ``rank_0/`` dumps and
global context settings cannot leak between tests or into the checkout.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

# Imported by every snippet: helpers to set the mode and report results as JSON.
PRELUDE = '''
import json, sys
import numpy as np
import mindspore as ms
from mindspore import nn, ops, Tensor, Parameter

def graph_mode(level="lax"):
    ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level={"strict": ms.STRICT, "lax": ms.LAX}[level])

def pynative_mode():
    ms.set_context(mode=ms.PYNATIVE_MODE)

def attempt(fn):
    """Run fn; return ("ok", value) or ("error", "ExceptionType: first line")."""
    try:
        return ["ok", fn()]
    except Exception as error:  # the compiler's verdict is the result
        return ["error", "%s: %s" % (type(error).__name__, str(error).strip().splitlines()[0] if str(error).strip() else "")]

def report(**results):
    print("ORACLE-RESULT " + json.dumps(results, default=str))
'''


@pytest.fixture
def run_snippet(tmp_path: Path):
    """Run a snippet (PRELUDE prepended) in a fresh interpreter; return what it
    passed to ``report(...)``. The snippet is a real file, so MindSpore's graph
    parser can read its source."""

    def run(code: str, timeout: float = 300) -> dict:
        source = tmp_path / "snippet.py"
        source.write_text(PRELUDE + textwrap.dedent(code), encoding="utf-8")
        completed = subprocess.run(
            [sys.executable, str(source)],
            cwd=tmp_path,
            capture_output=True,
            text=True,
            timeout=timeout,
            check=False,
        )
        for line in completed.stdout.splitlines():
            if line.startswith("ORACLE-RESULT "):
                return json.loads(line[len("ORACLE-RESULT "):])
        raise AssertionError(
            f"snippet reported nothing (exit {completed.returncode})\n"
            f"stdout:\n{completed.stdout[-3000:]}\nstderr:\n{completed.stderr[-3000:]}"
        )

    return run


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every oracle test runs the real MindSpore (and PyTorch): mark them all
    ``frameworks``, new modules included, so ``-m "not frameworks"`` leaves them out."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.frameworks)
