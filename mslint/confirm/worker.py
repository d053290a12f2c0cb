"""The runtime-mode worker: ``python -m mslint.confirm.worker JOB.json RESULTS.jsonl``.

Runs in its own process (its own session, working directory and environment
prepared by :mod:`mslint.confirm.runner`), for one module: imports mindspore
once, builds the flagged layer calls, imports the module, then compiles each of
its Cells and @jit functions in GRAPH_MODE under jit_syntax_level STRICT, and
where that fails, under LAX with a gradient taken to see where MindSpore cuts
it. Each result is appended to RESULTS.jsonl as soon as it is known, so a
timeout or a crash loses only what was still running. The parent matches the
results to the findings (:mod:`mslint.confirm.verdict`).
"""

from __future__ import annotations

import contextlib
import importlib
import importlib.util
import inspect
import json
import os
import shutil
import signal
import sys
import tempfile
import threading
import time
from pathlib import Path

from mslint.confirm import specs
from mslint.confirm.errors import first_useful_line, gradient_cut_locations, locations

MEMORY_ENV = "MSLINT_CONFIRM_MEMORY_LIMIT"
WATCHDOG_ENV = "MSLINT_CONFIRM_WATCHDOG_FD"  # the read end of a pipe only mslint writes to
_LIMIT = {"bytes": 0}


class _NotRun(Exception):
    """A target that cannot be built or fed: the message is the reason."""


def _error_text(error: BaseException) -> str:
    line = first_useful_line(str(error))
    text = f"{type(error).__name__}: {line}" if line else type(error).__name__
    if isinstance(error, MemoryError) and _LIMIT["bytes"]:
        text += f" (worker address-space limit {_LIMIT['bytes'] / (1 << 30):.1f} GiB)"
    return text


def _error_record(error: BaseException) -> dict:
    text = str(error)
    return {
        "type": type(error).__name__,
        "first": first_useful_line(text),
        "locations": [location.as_list() for location in locations(text)],
    }


def limit_memory() -> int:
    """Apply the address-space limit the parent chose (bytes; 0: none)."""
    try:
        limit = int(os.environ.get(MEMORY_ENV, "0") or 0)
    except ValueError:
        return 0
    if limit <= 0:
        return 0
    import resource  # noqa: PLC0415 - POSIX only

    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        limit = min(limit, hard)
    resource.setrlimit(resource.RLIMIT_AS, (limit, hard))
    _LIMIT["bytes"] = limit
    return limit


def start_watchdog(folder: Path) -> None:
    """Die with mslint: a thread waits on the pipe whose write end only mslint
    holds; at its end (mslint exited or was killed, even by SIGKILL) it removes
    the worker's folder and kills the worker's process group (the worker and
    whatever the user's code started)."""
    try:
        fd = int(os.environ.pop(WATCHDOG_ENV, ""))
    except ValueError:
        return

    def watch() -> None:
        try:
            while os.read(fd, 1):
                pass
        except OSError:
            pass
        shutil.rmtree(folder, ignore_errors=True)
        os.killpg(0, signal.SIGKILL)

    threading.Thread(target=watch, name="mslint-watchdog", daemon=True).start()


@contextlib.contextmanager
def captured_stderr():
    """Capture file descriptor 2, where MindSpore's C++ logs go, into a string."""
    holder = {"text": ""}
    sys.stderr.flush()
    handle, path = tempfile.mkstemp(prefix="stderr-")  # in TMPDIR: the worker's own folder
    saved = os.dup(2)
    os.dup2(handle, 2)
    try:
        yield holder
    finally:
        sys.stderr.flush()
        os.dup2(saved, 2)
        os.close(saved)
        os.close(handle)
        with open(path, encoding="utf-8", errors="replace") as stream:
            holder["text"] = stream.read()
        os.unlink(path)
        sys.stderr.write(holder["text"])  # keep it in the worker's log too


class Worker:
    def __init__(self, job: dict, emit) -> None:
        self.job = job
        self.emit = emit
        self.ms = None
        self.np = None
        self.module = None
        self.home = os.getcwd()  # the temporary directory the parent made

    # -- set up ----------------------------------------------------------
    def start(self) -> bool:
        try:
            import numpy as np  # noqa: PLC0415
            import mindspore as ms  # noqa: PLC0415
        except BaseException as error:  # noqa: BLE001 - report, never raise
            self.emit({"type": "fatal", "stage": "mindspore", "detail": f"mindspore failed to import: {_error_text(error)}"})
            return False
        self.ms, self.np = ms, np
        device = self.job["device"]
        self.emit({"type": "begin", "what": f"setting up device {device}"})
        try:
            ms.set_device(device)
            ms.set_context(mode=ms.PYNATIVE_MODE)
            (ms.Tensor(np.ones((2,), dtype=np.float32)) + 1).asnumpy()
        except Exception as error:  # noqa: BLE001
            self.emit({"type": "fatal", "stage": "device", "detail": f"device {device} unavailable: {_error_text(error)}"})
            return False
        return True

    # -- layer calls -----------------------------------------------------
    def run_layer_checks(self) -> None:
        from mslint.confirm import layer_checks  # noqa: PLC0415

        for item in self.job["layer_checks"]:
            self.emit({"type": "begin", "what": f"building {item['qname'].replace('mindspore.', '', 1)}(...) at line {item['line']}"})
            self.ms.set_context(mode=self.ms.PYNATIVE_MODE)
            try:
                result = layer_checks.check(self.ms, self.np, item)
            except Exception as error:  # noqa: BLE001
                result = {"status": "not run", "detail": f"layer check failed: {_error_text(error)}"}
            self.emit({"type": "layer", "index": item["index"], **result})

    # -- graph code ------------------------------------------------------
    def import_module(self) -> bool:
        for entry in reversed(self.job["sys_path"]):
            if entry not in sys.path:
                sys.path.insert(0, entry)
        name, path = self.job["module"], self.job["path"]
        self.emit({"type": "begin", "what": f"importing {name}"})
        try:
            module = importlib.import_module(name)
            loaded = getattr(module, "__file__", None)
            if loaded is None or os.path.realpath(loaded) != os.path.realpath(path):
                # the name is taken (a standard module, an installed package):
                # load the file under a name of its own
                alias = "_mslint_confirm_target"
                spec = importlib.util.spec_from_file_location(alias, path)
                module = importlib.util.module_from_spec(spec)
                sys.modules[alias] = module
                spec.loader.exec_module(module)
        except BaseException as error:  # noqa: BLE001 - SystemExit, errors in user code
            self.emit({"type": "fatal", "stage": "import", "detail": f"import failed: {_error_text(error)}"})
            return False
        self.module = module
        return True

    def run_targets(self) -> None:
        for target in self.job["targets"]:
            record = {"type": "target", "id": target["id"], "label": _label(target)}
            self.emit({"type": "begin", "what": f"compiling {record['label']}"})
            try:
                record.update(self.run_target(target))
            except _NotRun as reason:
                record["not_run"] = str(reason)
            except Exception as error:  # noqa: BLE001
                record["not_run"] = f"runtime mode failed on {record['label']}: {_error_text(error)}"
            self.emit(record)

    def run_target(self, target: dict) -> dict:
        label = _label(target)
        if target.get("problem"):
            raise _NotRun(target["problem"])
        self._check_buildable(target, label)
        strict = self.attempt(target, "strict")
        result = {"strict": strict}
        if strict.get("ok") is False:
            result["lax"] = self.attempt(target, "lax")
        return result

    def _check_buildable(self, target: dict, label: str) -> None:
        if target["kind"] == "cell" and not target.get("factory"):
            cls = getattr(self.module, target["name"], None)
            if cls is None:
                raise _NotRun(f"{target['name']} is not a module attribute after import")
            required = _required_init_params(cls)
            if required:
                raise _NotRun(
                    f"{target['name']}() needs {', '.join(required)}: no zero-argument constructor and no "
                    "factory in [tool.mslint.confirm] or '# mslint: factory=...' hint"
                )
        if target.get("inputs") is None and target["required_params"] and not target.get("factory"):
            raise _NotRun(
                f"{label} takes {', '.join(target['required_params'])}: declare example inputs in "
                "[tool.mslint.confirm] or a '# mslint: inputs=...' hint"
            )

    def _build(self, target: dict):
        """A fresh Cell (or the function) and its example inputs (parsed specs)."""
        ms = self.ms
        inputs = target.get("inputs")
        if target["kind"] == "function":
            obj = getattr(self.module, target["name"])
            if target.get("wrap_jit"):
                obj = ms.jit(obj)
            return obj, None, inputs
        factory = target.get("factory")
        try:
            if factory:
                made = self._resolve(factory)()
                if isinstance(made, tuple) and len(made) == 2 and inputs is None:
                    made, inputs = made[0], list(made[1])
                net = made
            else:
                net = getattr(self.module, target["name"])()
        except Exception as error:  # noqa: BLE001
            raise _NotRun(f"building {target['name']} failed: {_error_text(error)}") from error
        if not isinstance(net, ms.nn.Cell):
            raise _NotRun(f"the factory {factory} returned {type(net).__name__}, not an nn.Cell")
        return net, net, inputs

    def _resolve(self, reference: str):
        module_name, _, attribute = reference.rpartition(":")
        module = importlib.import_module(module_name) if module_name else self.module
        obj = module
        for part in attribute.split("."):
            obj = getattr(obj, part)
        return obj

    def _tensors(self, inputs) -> tuple[list, list | None, list[int]]:
        """Concrete inputs, dynamic-shape declarations (or None) and the
        positions of float tensors (what can be differentiated)."""
        ms, np = self.ms, self.np
        rng = np.random.default_rng(0)
        concrete, dynamic, floats, any_dynamic = [], [], [], False
        for position, spec in enumerate(specs.parse_inputs(inputs or [])):
            if spec["kind"] == "literal":
                concrete.append(spec["value"])
                dynamic.append(spec["value"])
                continue
            dtype = getattr(ms, spec["dtype"])
            shape = tuple(2 if dim is None else dim for dim in spec["dims"])
            any_dynamic = any_dynamic or None in spec["dims"]
            if spec["dtype"].startswith(("float", "bfloat")):
                data = rng.uniform(0.5, 1.5, shape).astype(np.float32)
                floats.append(position)
            else:
                data = np.zeros(shape, dtype=np.int64 if spec["dtype"] != "bool" else np.bool_)
            concrete.append(ms.Tensor(data, dtype=dtype))
            dynamic.append(ms.Tensor(shape=list(spec["dims"]), dtype=dtype))
        return concrete, (dynamic if any_dynamic else None), floats

    def attempt(self, target: dict, level: str) -> dict:
        ms = self.ms
        os.chdir(self.home)  # user code may have changed directory: MindSpore writes rank_0/ into the cwd
        os.environ["MS_DEV_JIT_SYNTAX_LEVEL"] = "0" if level == "strict" else "2"
        ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if level == "strict" else ms.LAX)
        obj, net, inputs = self._build(target)
        if inputs is None and target["required_params"]:
            raise _NotRun(
                f"{_label(target)} takes {', '.join(target['required_params'])}: the factory returned no inputs; "
                "declare them in [tool.mslint.confirm] or a '# mslint: inputs=...' hint"
            )
        try:
            tensors, dynamic, floats = self._tensors(inputs)
        except specs.SpecError as error:
            raise _NotRun(str(error)) from error
        if net is not None and target["method"] != "construct":
            call = getattr(net, target["method"])
        else:
            call = obj
        outcome: dict = {}
        with captured_stderr() as log:
            try:
                if net is not None and target["method"] == "construct":
                    if dynamic is not None:
                        net.set_inputs(*dynamic)
                    net.compile(*tensors)
                else:
                    call(*tensors)
                outcome["ok"] = True
            except MemoryError as error:
                raise _NotRun(f"out of memory while compiling ({_error_text(error)})") from error
            except Exception as error:  # noqa: BLE001 - the compiler's verdict
                outcome["ok"] = False
                outcome["error"] = _error_record(error)
            if level == "lax" and outcome["ok"]:
                outcome["grad"] = self._gradient(call, net, tensors, floats)
        if level == "lax":
            outcome["gradient_cut"] = [location.as_list() for location in gradient_cut_locations(log["text"])]
        return outcome

    def _gradient(self, call, net, tensors: list, floats: list[int]) -> dict:
        ms, np = self.ms, self.np
        if floats:
            position = floats[0] if len(floats) == 1 else tuple(floats)
            grad_fn = ms.grad(call, grad_position=position)
        elif net is not None and net.trainable_params():
            grad_fn = ms.grad(call, grad_position=None, weights=net.trainable_params())
        else:
            return {"ran": False, "detail": "no float input or trainable parameter to differentiate"}
        try:
            grads = grad_fn(*tensors)
        except Exception as error:  # noqa: BLE001
            return {"ran": False, "detail": f"differentiating failed: {_error_text(error)}"}
        total = 0.0
        stack = [grads]
        while stack:
            item = stack.pop()
            if isinstance(item, (tuple, list)):
                stack.extend(item)
            elif hasattr(item, "asnumpy"):
                total += float(np.abs(item.asnumpy().astype(np.float64)).sum())
        return {"ran": True, "sum": total}

    def run(self) -> None:
        if not self.start():
            return
        if self.job["layer_checks"]:
            self.run_layer_checks()
        if self.job["targets"] and self.import_module():
            os.chdir(self.home)
            self.run_targets()
        self.emit({"type": "done"})


def _label(target: dict) -> str:
    if target["kind"] == "cell":
        return f"{target['name']}.{target['method']}"
    return f"{target['name']}()"


def _required_init_params(cls) -> list[str]:
    try:
        signature = inspect.signature(cls)
    except (TypeError, ValueError):
        return []
    return [
        name
        for name, param in signature.parameters.items()
        if param.default is param.empty and param.kind in (param.POSITIONAL_ONLY, param.POSITIONAL_OR_KEYWORD, param.KEYWORD_ONLY)
    ]


def main(argv: list[str] | None = None) -> int:
    sys.dont_write_bytecode = True  # never a __pycache__ beside the user's code
    job_path, results_path = (argv if argv is not None else sys.argv[1:])[:2]
    job = json.loads(Path(job_path).read_text(encoding="utf-8"))
    start_watchdog(Path(job_path).resolve().parent)
    limit_memory()
    with open(results_path, "a", encoding="utf-8") as results:

        started = time.monotonic()

        def emit(record: dict) -> None:
            record.setdefault("at", round(time.monotonic() - started, 2))
            results.write(json.dumps(record, default=str) + "\n")
            results.flush()

        emit({"type": "begin", "what": "importing mindspore"})
        Worker(job, emit).run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
