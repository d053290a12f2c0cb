"""The oracle snippets' zygote: a Python that imports numpy and MindSpore once,
then forks a child for each snippet (see conftest.run_snippet), so that a snippet
costs its own work, not the 5-7 s of importing MindSpore again.

Each child starts from the zygote's state exactly as it was after the imports
(the zygote itself never runs a snippet, nor calls ``set_context``): a child's
mode, compile caches or globals die with it. The child runs the snippet as
``python snippet.py`` would: as ``__main__`` (snippets look for their classes
there), with ``sys.argv``, ``sys.path[0]`` and the working directory of that
command, random generators seeded anew (numpy's, MindSpore's), its stdin empty, its stdout and stderr written to the files it is
given.

Protocol, one JSON object per line: the test sends ``{"script", "cwd", "stdout",
"stderr"}``; the zygote answers ``{"pid"}`` once the child runs (so the test can
kill it at its timeout), then ``{"exit"}`` with its exit status, as
``subprocess`` reports it (negative: the signal that ended it).
"""

from __future__ import annotations

import json
import os
import sys


def _child(request: dict) -> int:
    import runpy  # noqa: PLC0415
    import traceback  # noqa: PLC0415

    os.chdir(request["cwd"])
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    for fd, path in ((1, request["stdout"]), (2, request["stderr"])):
        target = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
        os.dup2(target, fd)
        os.close(target)
    sys.stdin = open(0, encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stdout = open(1, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    sys.stderr = open(2, "w", encoding="utf-8", closefd=False)  # noqa: SIM115
    # generators seeded from entropy at import would be the zygote's in every
    # child: each child draws a seed of its own, as a fresh Python would
    # (Python's random module reseeds itself after fork)
    import numpy  # noqa: PLC0415
    from mindspore.common.generator import default_generator  # noqa: PLC0415

    numpy.random.seed()
    default_generator.seed()
    script = request["script"]
    sys.argv = [script]
    sys.path[0] = os.path.dirname(os.path.abspath(script))
    code = 0
    try:
        runpy.run_path(script, run_name="__main__")
    except SystemExit as stop:
        if stop.code is None:
            code = 0
        elif isinstance(stop.code, int):
            code = stop.code
        else:
            print(stop.code, file=sys.stderr)
            code = 1
    except BaseException:  # noqa: BLE001 - reported as python would
        traceback.print_exc()
        code = 1
    return code


def main() -> None:
    # the protocol keeps the pipe it came on; whatever the zygote or a library
    # prints to its stdout goes to its stderr instead
    protocol_out = os.fdopen(os.dup(1), "w", encoding="utf-8")
    os.dup2(2, 1)
    # imported once here, inherited by every child
    import numpy  # noqa: F401, PLC0415
    import mindspore  # noqa: F401, PLC0415
    from mindspore import Parameter, Tensor, nn, ops  # noqa: F401, PLC0415

    protocol_in = sys.stdin
    print(json.dumps({"ready": True}), file=protocol_out, flush=True)
    for line in protocol_in:
        request = json.loads(line)
        sys.stdout.flush()
        sys.stderr.flush()
        pid = os.fork()
        if pid == 0:
            code = 1
            try:
                protocol_out.close()
                code = _child(request)
            finally:
                try:
                    sys.stdout.flush()
                    sys.stderr.flush()
                finally:
                    os._exit(code)  # noqa: SLF001 - the zygote's own exit handlers are not the child's
        print(json.dumps({"pid": pid}), file=protocol_out, flush=True)
        _, status = os.waitpid(pid, 0)
        print(json.dumps({"exit": os.waitstatus_to_exitcode(status)}), file=protocol_out, flush=True)


if __name__ == "__main__":
    main()
