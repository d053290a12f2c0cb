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
        self.recorder = None  # mslint.confirm.build.Recorder: where each Cell was created
        self.built = None  # mslint.confirm.build.Built: what building the module's Cells tried
        self.layer_results: dict[int, dict] = {}

    # -- set up ----------------------------------------------------------
    def start(self) -> bool:
        try:
            import numpy as np  # noqa: PLC0415
            import mindspore as ms  # noqa: PLC0415
        except BaseException as error:  # noqa: BLE001 - report, never raise
            from mslint.knowledge.version import install_hint  # noqa: PLC0415

            self.emit({"type": "fatal", "stage": "mindspore", "detail": (
                f"mindspore failed to import: {_error_text(error)}; runtime mode needs a MindSpore that imports in the Python "
                f"mslint runs in: {install_hint('runtime')}")})
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
    def run_layer_checks(self, recorder=None, built=None) -> None:
        """Each layer finding: on the layer the program built at its line when
        ``recorder`` saw one, else on the call rebuilt from its literals (the
        first pass, before the module is imported: it stands if the import or
        the build fails)."""
        from mslint.confirm import layer_checks  # noqa: PLC0415

        for item in self.job["layer_checks"]:
            made = None
            if recorder is not None:
                cls = self._layer_class(item["qname"])
                made = recorder.made_at(self.job["path"], item["line"], cls) if cls is not None else None
                if made is None:
                    self._not_reached(item, built)
                    continue
            what = "judging the layer built at" if made is not None else "building"
            self.emit({"type": "begin", "what": f"{what} {item['qname'].replace('mindspore.', '', 1)}(...) at line {item['line']}"})
            self.ms.set_context(mode=self.ms.PYNATIVE_MODE)
            try:
                result = layer_checks.check(self.ms, self.np, item, made)
            except Exception as error:  # noqa: BLE001
                result = {"status": "not run", "detail": f"layer check failed: {_error_text(error)}"}
            self.layer_results[item["index"]] = result
            self.emit({"type": "layer", "index": item["index"], **result})

    def _not_reached(self, item: dict, built) -> None:
        """The program built no layer at the line: the literal verdict stands,
        and when it is 'not run', it says what building tried."""
        result = self.layer_results.get(item["index"])
        if result is None or result["status"] != "not run" or built is None:
            return
        detail = f"{result['detail']}; building the module's Cells did not reach line {item['line']} ({built.summary()})"
        self.emit({"type": "layer", "index": item["index"], "status": "not run", "detail": detail})

    def _layer_class(self, qname: str):
        from mslint.confirm import layer_checks  # noqa: PLC0415

        try:
            return layer_checks.import_qname(qname)
        except (ImportError, AttributeError):
            return None

    # -- building the module's Cells ----------------------------------------
    def make_recorder(self):
        from mslint.confirm import build  # noqa: PLC0415

        classes = [cls for cls in (self._layer_class(item["qname"]) for item in self.job["layer_checks"]) if cls is not None]
        return build.Recorder(self.ms.nn.Cell, classes)

    def build_cells(self, recorder):
        """Build the module's Cells (zero-argument classes, factories) until
        every layer finding's line was reached and every Cell class needed has
        an instance; None when nothing is needed."""
        from mslint.confirm import build  # noqa: PLC0415

        module_name = self.module.__name__
        wanted = {check["name"] for check in self.job.get("call_checks", [])}
        for target in self.job["targets"]:
            cls = getattr(self.module, target["name"], None)
            if target["kind"] == "cell" and not target.get("factory") and isinstance(cls, type) and build.required_params(cls):
                wanted.add(target["name"])
        if self.job.get("compile_all"):
            wanted.update(cls.__name__ for cls in build.cell_classes(self.module, self.ms.nn.Cell) if build.required_params(cls))
        layers = [(item, self._layer_class(item["qname"])) for item in self.job["layer_checks"]]

        def done() -> bool:
            return all(cls is None or recorder.made_at(self.job["path"], item["line"], cls) for item, cls in layers) and all(
                recorder.instance_of(name, module_name) for name in wanted
            )

        if done():
            return None
        self.emit({"type": "begin", "what": f"building the Cells of {self.job['module']}"})
        self.ms.set_context(mode=self.ms.PYNATIVE_MODE)
        built = build.build_module(self.module, recorder, done, float(self.job.get("build_budget", 30)))
        os.chdir(self.home)
        self.emit({"type": "built", "tried": built.tried, "seconds": round(built.spent, 2), "out_of_time": built.out_of_time,
                   "cells": len(recorder.first)})
        return built

    # -- calling Cells (ms-forward-not-construct) ----------------------------
    def run_call_checks(self, recorder, built) -> None:
        from mslint.confirm import inputs as synth  # noqa: PLC0415

        for check in self.job.get("call_checks", []):
            name = check["name"]
            self.emit({"type": "begin", "what": f"calling {name}"})
            self.ms.set_context(mode=self.ms.PYNATIVE_MODE)
            try:
                net, how = self._instance(name, recorder, built)
                if check.get("attribute"):
                    result = self._look_up(net, how, check["attribute"])
                    self.emit({"type": "layer", "index": check["index"], **result})
                    continue
                specs_used, _source = synth.candidates(net, max(1, len(check.get("required_params") or []) or 1))[0]
                tensors, _dynamic, _floats = self._tensors(specs_used)
                shown = f"{how}({', '.join(specs_used)})"
                try:
                    net(*tensors)
                except Exception as error:  # noqa: BLE001 - the verdict
                    result = {"status": "confirmed", "detail": f"calling {shown} raises {_error_text(error)}"}
                else:
                    result = {"status": "not reproduced", "detail": f"calling {shown} runs"}
            except _NotRun as reason:
                result = {"status": "not run", "detail": str(reason)}
            except Exception as error:  # noqa: BLE001
                result = {"status": "not run", "detail": f"building {name} failed: {_error_text(error)}"}
            self.emit({"type": "layer", "index": check["index"], **result})

    @staticmethod
    def _look_up(net, how: str, attribute: str) -> dict:
        try:
            getattr(net, attribute)
        except AttributeError as error:
            return {"status": "confirmed", "detail": f"{how} has no {attribute}(): looking it up raises {_error_text(error)}"}
        return {"status": "not reproduced", "detail": f"{how} has {attribute}()"}

    def _instance(self, name: str, recorder, built):
        """A Cell of the module's class ``name``: its zero-argument constructor,
        else the one a factory of the module built; and how it was made."""
        from mslint.confirm import build  # noqa: PLC0415

        cls = getattr(self.module, name, None)
        if not isinstance(cls, type):
            raise _NotRun(f"{name} is not a module attribute after import")
        required = build.required_params(cls)
        if not required:
            return cls(), f"{name}()"
        found = recorder.instance_of(name, self.module.__name__) if recorder is not None else None
        if found is not None:
            instance, recipe = found
            return instance, f"{name} (built by {recipe or 'importing the module'})"
        tried = f" (tried {built.summary()})" if built is not None else ""
        raise _NotRun(
            f"{name}() needs {', '.join(required)}: no zero-argument constructor and no factory of the module built "
            f"one{tried}; declare one in [tool.mslint.confirm] or a '# mslint: factory=...' hint"
        )

    # -- graph code ------------------------------------------------------
    def import_module(self) -> bool:
        for entry in reversed(self.job["sys_path"]):
            if entry not in sys.path:
                sys.path.insert(0, entry)
        name, path = self.job["module"], self.job["path"]
        self.emit({"type": "begin", "what": f"importing {name}"})
        try:
            with self.recorder:  # Cells the module builds at import count too
                module = self._import(name, path)
        except BaseException as error:  # noqa: BLE001 - SystemExit, errors in user code
            self.emit({"type": "fatal", "stage": "import", "detail": _import_failure(error, path)})
            return False
        self.module = module
        return True

    @staticmethod
    def _import(name: str, path: str):
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
        return module

    def add_every_cell(self) -> None:
        """--confirm-all-cells: every Cell class of the module is a target too."""
        from mslint.confirm import build  # noqa: PLC0415

        from mslint.report.findings import read_source_lines  # noqa: PLC0415

        known = {target["name"] for target in self.job["targets"]}
        lines = read_source_lines(self.job["path"])
        for cls in build.cell_classes(self.module, self.ms.nn.Cell):
            construct = cls.__dict__.get("construct")
            if cls.__name__ in known or construct is None:
                continue
            required = build.required_params(construct) or []
            line = build.source_line(cls)
            hint, problem = specs.hint_for(lines, line)  # a '# mslint:' hint still declares inputs or a factory
            self.job["targets"].append({
                "id": f"all{len(self.job['targets'])}", "kind": "cell", "name": cls.__name__, "method": "construct",
                "wrap_jit": False, "line": line, "factory": (hint or {}).get("factory"), "inputs": (hint or {}).get("inputs"),
                "inputs_from": "hint" if (hint or {}).get("inputs") is not None else None,
                "required_params": required[1:] if required[:1] == ["self"] else required, "problem": problem,
            })

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
        if target.get("problem"):
            raise _NotRun(target["problem"])
        strict = self.attempt(target, "strict")
        result = {"strict": strict}
        if strict.get("ok") is False:
            result["lax"] = self.attempt(target, "lax", strict.get("inputs"))
            if strict.get("inputs_source") and not strict.get("inputs_not_found"):
                recheck = self._recheck(target, result)
                if recheck is not None:
                    result["recheck"] = recheck
        return result

    def _recheck(self, target: dict, result: dict) -> dict | None:
        """A compile error under guessed inputs, compiled again with inputs of
        another shape (synth.other_shape): whether each level fails the same way
        (the same error at the same line), which the guessed inputs then cannot
        have caused. None when the error is at a finding (decided whatever the
        inputs)."""
        from mslint.confirm import inputs as synth  # noqa: PLC0415

        failed = {level: result[level]["error"] for level in ("strict", "lax") if (result.get(level) or {}).get("ok") is False}
        if all(self._at_a_finding(error) for error in failed.values()):
            return None
        _obj, net, _inputs = self._build(target)
        other = synth.other_shape(net, len(target["required_params"]), result["strict"]["inputs"])
        if other is None:
            return {"inputs": None}
        record: dict = {"inputs": other[0], "inputs_source": other[1], "same_rank": other[2]}
        for level, error in failed.items():
            again = self.attempt(target, level, other[0])
            record[level] = again.get("ok") is False and _same_error(error, again["error"])
        return record

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
        if not factory:
            try:
                net, _how = self._instance(target["name"], self.recorder, self.built)
            except _NotRun:
                raise
            except Exception as error:  # noqa: BLE001
                raise _NotRun(f"building {target['name']} failed: {_error_text(error)}") from error
            return net, net, inputs
        try:
            made = self._resolve(factory)()
            if isinstance(made, tuple) and len(made) == 2 and inputs is None:
                made, inputs = made[0], list(made[1])
            net = made
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

    def attempt(self, target: dict, level: str, chosen: list | None = None) -> dict:
        """Compile the target at ``level`` with its declared inputs, else the
        inputs chosen under STRICT, else (STRICT) the first synthesised inputs
        that compile or fail for a reason no input changes."""
        ms = self.ms
        os.chdir(self.home)  # user code may have changed directory: MindSpore writes rank_0/ into the cwd
        os.environ["MS_DEV_JIT_SYNTAX_LEVEL"] = "0" if level == "strict" else "2"
        ms.set_context(mode=ms.GRAPH_MODE, jit_syntax_level=ms.STRICT if level == "strict" else ms.LAX)
        obj, net, inputs = self._build(target)
        declared = None
        if inputs is not None:  # declared, or returned by the factory with the Cell
            declared = f"from {'a hint' if target.get('inputs_from') == 'hint' else target.get('inputs_from') or 'its factory'}"
        if inputs is None and target["required_params"]:
            if chosen is None:
                return self._search_inputs(target, obj, net)
            inputs = chosen
        outcome = self._compile(target, level, obj, net, inputs)
        if declared and inputs:
            outcome.update(inputs=list(inputs), inputs_declared=declared)
        return outcome

    def _search_inputs(self, target: dict, obj, net) -> dict:
        from mslint.confirm import inputs as synth  # noqa: PLC0415

        tried, first = [], None
        for candidate, source in synth.candidates(net, len(target["required_params"])):
            outcome = self._compile(target, "strict", obj, net, candidate)
            outcome.update(inputs=candidate, inputs_source=source)
            tried.append(", ".join(candidate))
            if outcome.get("ok") or not synth.input_dependent(outcome["error"]) or self._at_a_finding(outcome["error"]):
                outcome["tried"] = tried
                return outcome
            first = first or outcome
        first["tried"] = tried
        first["inputs_not_found"] = True
        return first

    def _at_a_finding(self, error: dict) -> bool:
        """The compile error points at a flagged line: the finding is decided
        whatever the inputs."""
        lines = set(self.job.get("finding_lines", ()))
        path = self.job["path"]
        return any(
            int(item[1]) in lines and os.path.realpath(item[0]) == os.path.realpath(path) for item in error.get("locations", ())
        )

    def _compile(self, target: dict, level: str, obj, net, inputs) -> dict:
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
                    if _defines_bprop(net, self.ms.nn.Cell) and tensors:
                        # a custom bprop is compiled only when the Cell is differentiated
                        self.ms.grad(net, grad_position=0)(*tensors)
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
            self.run_layer_checks()  # from the literals: stands if the module cannot be imported or built
        self.recorder = self.make_recorder()
        work = self.job["layer_checks"] or self.job["targets"] or self.job.get("call_checks") or self.job.get("compile_all")
        if work and self.import_module():
            os.chdir(self.home)
            self.built = self.build_cells(self.recorder)
            if self.job["layer_checks"]:
                self.run_layer_checks(self.recorder, self.built)
            self.run_call_checks(self.recorder, self.built)
            if self.job.get("compile_all"):
                self.add_every_cell()
            self.run_targets()
        self.emit({"type": "done"})


def _same_error(first: dict, second: dict) -> bool:
    """The same compile error: its type, its message and its innermost place."""
    def innermost(error: dict) -> tuple:
        places = error.get("locations") or []
        return tuple(places[-1][:2]) if places else ()

    return (first.get("type"), first.get("first"), innermost(first)) == (second.get("type"), second.get("first"), innermost(second))


def _import_failure(error: BaseException, path: str) -> str:
    """Why the module could not be imported, and how to fix it: a missing
    dependency names the import statement (the innermost frame in the user's
    code) and says to install the project's dependencies where mslint runs."""
    import traceback  # noqa: PLC0415

    if not isinstance(error, ImportError):
        return f"import failed: {_error_text(error)}"
    where = ""
    for frame, line in traceback.walk_tb(error.__traceback__):
        filename = frame.f_code.co_filename
        if filename.startswith("<") or os.path.basename(os.path.dirname(filename)) == "importlib" or filename == __file__:
            continue  # the import machinery and this worker
        try:
            where = f" at {os.path.relpath(filename, os.path.dirname(path))}:{line}"
        except ValueError:
            where = f" at {filename}:{line}"
    return f"import failed{where}: {_error_text(error)}; install the project's dependencies into the Python mslint runs in ({sys.executable})"
def _defines_bprop(net, cell_class) -> bool:
    """Whether the Cell's class (or a user base class) defines ``bprop``."""
    for klass in type(net).__mro__:
        if klass is cell_class:
            return False
        if "bprop" in vars(klass):
            return True
    return False


def _label(target: dict) -> str:
    if target["kind"] == "cell":
        return f"{target['name']}.{target['method']}"
    return f"{target['name']}()"


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
