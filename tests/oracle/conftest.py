"""Oracle tests run naive and fixed code with the real MindSpore (and PyTorch) and
assert the harm each rule claims. Every snippet runs in its own Python process
(forked from a zygote that imported MindSpore once), with a temporary working directory, so graph-compile caches, ``rank_0/`` dumps and
global context settings cannot leak between tests or into the checkout.
"""

from __future__ import annotations

import json
import os
import select
import signal
import subprocess
import sys
import textwrap
import time
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


class Zygote:
    """A Python that has imported numpy and MindSpore once and forks a child per
    snippet (tests/oracle/zygote.py): importing MindSpore took 5-7 s of each
    snippet's run. Each child starts from the state right after the imports, as
    a fresh ``python snippet.py`` would find it after the prelude's imports."""

    def __init__(self, log: Path) -> None:
        self.folder = log.parent
        self.log = log.open("w", encoding="utf-8")
        self.process = subprocess.Popen(
            [sys.executable, str(Path(__file__).with_name("zygote.py"))],
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=self.log, text=True, bufsize=1,
        )
        self._pending = b""
        self._reply(timeout=300)  # {"ready"}: the imports are done

    def _reply(self, timeout: float) -> dict:
        # the pipe is read unbuffered, by hand: a reader's buffer could hold the
        # next line while select() waits on the pipe for it
        deadline = time.monotonic() + timeout
        fd = self.process.stdout.fileno()
        while b"\n" not in self._pending:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([fd], [], [], left)[0]:
                raise subprocess.TimeoutExpired(self.process.args, timeout)
            chunk = os.read(fd, 65536)
            if not chunk:
                raise RuntimeError(f"the oracle zygote ended (exit {self.process.wait()}), see {self.log.name}")
            self._pending += chunk
        line, _, self._pending = self._pending.partition(b"\n")
        return json.loads(line)

    def run(self, script: Path, cwd: Path, timeout: float) -> tuple[int, str, str]:
        """Run ``script`` as ``python script`` would in ``cwd``: (exit status, stdout, stderr)."""
        # beside the zygote's log, not in cwd (a snippet may look at what it wrote there)
        out, err = self.folder / "stdout", self.folder / "stderr"
        request = {"script": str(script), "cwd": str(cwd), "stdout": str(out), "stderr": str(err)}
        self.process.stdin.write(json.dumps(request) + "\n")
        self.process.stdin.flush()
        pid = self._reply(timeout=60)["pid"]
        try:
            code = self._reply(timeout=timeout)["exit"]
        except subprocess.TimeoutExpired:
            os.kill(pid, signal.SIGKILL)  # as subprocess.run kills its child at its timeout
            self._reply(timeout=60)
            raise
        texts = [path.read_text(encoding="utf-8", errors="replace") for path in (out, err)]
        out.unlink()
        err.unlink()
        return code, texts[0], texts[1]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait(timeout=60)
        self.log.close()


@pytest.fixture(scope="session")
def zygote(tmp_path_factory: pytest.TempPathFactory):  # noqa: ANN201
    """This test process's oracle zygote, started at the first snippet."""
    process = Zygote(tmp_path_factory.mktemp("zygote") / "zygote.log")
    yield process
    process.close()


@pytest.fixture
def run_snippet(tmp_path: Path, zygote: Zygote):  # noqa: ANN201
    """Run a snippet (PRELUDE prepended) as a fresh interpreter would (a child
    forked from the zygote); return what it passed to ``report(...)``. The
    snippet is a real file, so MindSpore's graph parser can read its source."""

    def run(code: str, timeout: float = 300) -> dict:
        source = tmp_path / "snippet.py"
        source.write_text(PRELUDE + textwrap.dedent(code), encoding="utf-8")
        returncode, stdout, stderr = zygote.run(source, tmp_path, timeout)
        for line in stdout.splitlines():
            if line.startswith("ORACLE-RESULT "):
                return json.loads(line[len("ORACLE-RESULT "):])
        raise AssertionError(
            f"snippet reported nothing (exit {returncode})\n"
            f"stdout:\n{stdout[-3000:]}\nstderr:\n{stderr[-3000:]}"
        )

    return run


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Every oracle test runs the real MindSpore (and PyTorch): mark them all
    ``frameworks``, new modules included, so ``-m "not frameworks"`` leaves them out."""
    here = Path(__file__).parent
    for item in items:
        if here in item.path.parents:
            item.add_marker(pytest.mark.frameworks)
