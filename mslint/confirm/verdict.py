"""Parent side: turn what the workers measured into a status per finding, and
the compile errors no finding predicted into ``ms-graph-compile-error`` findings.

A graph finding is *confirmed* when a compile error of a Cell or @jit function
reaching it points at its line (at any frame of MindSpore's traceback: the line
itself, or the call into the helper where the error is), or, for host code on
tensors, when under LAX MindSpore reports cutting the gradient at its line. It
is *not reproduced* when the code reaching it compiles under STRICT. Everything
else is *not run*, with the reason.
"""

from __future__ import annotations

import os
import re
import signal
from dataclasses import dataclass
from pathlib import Path

from mslint.report import findings as made
from mslint.confirm import rules
from mslint.confirm.inputs import input_dependent
from mslint.confirm.errors import Location, same_file
from mslint.confirm.plan import ModulePlan, not_run


@dataclass
class WorkerEnd:
    """How a worker process ended."""

    kind: str  # "done", "timeout", "crashed", "exited", "skipped"
    detail: str = ""
    signalled: str | None = None  # the user's code signalled mslint (its watchdog says how)


def describe_exit(returncode: int, log_tail: str) -> WorkerEnd:
    if returncode < 0:
        try:
            name = signal.Signals(-returncode).name
        except ValueError:
            name = "unknown signal"
        return WorkerEnd("crashed", f"worker crashed (signal {-returncode}, {name})")
    last = useful_log_line(log_tail)
    return WorkerEnd("exited", f"worker exited with status {returncode}" + (f": {last}" if last else ""))


# MindSpore's C++ log lines: "[ERROR] ME(31337,7f0c...,python):2026-11-23-10:11:12.345.678 [file.cc:88] Function] message"
_GLOG = re.compile(r"^\[(?P<level>[A-Z]+)\]\s+\w+\([^)]*\):[\d\-:.]*(?:\s+\[[^\]]*\]\s*(?:[\w:~<>]+\]\s*)?)?")
_PYTHON_ERROR = re.compile(r"^(?:[\w.]+\.)?\w*(?:Error|Exception|Interrupt|Exit)\b.*")


def useful_log_line(tail: str, limit: int = 200) -> str:
    """What a worker's log says last that a person can act on: a Python
    exception line, else the message of MindSpore's last ERROR (or worse) log
    line, else its last line of text; never a log line's header cut in the
    middle of its timestamp (a line cut short by the crash is skipped)."""
    python, logged, plain = "", "", ""
    for raw in tail.splitlines():
        line = raw.strip()
        if not line:
            continue
        match = _GLOG.match(line)
        if match is not None:
            message = line[match.end():].strip()
            if message and match["level"] in ("ERROR", "CRITICAL", "EXCEPTION"):
                logged = message
            continue  # a warning, or a header without its message
        if _PYTHON_ERROR.match(line):
            python = line
        elif not line.startswith(("Traceback (", "File \"", "^", "~")):
            plain = line
    text = python or logged or plain
    if len(text) > limit:
        text = text[: limit - 3].rsplit(" ", 1)[0] + "..."
    return text


@dataclass
class Span:
    """Where a finding is: its line, and its 0-based columns when it fits on that line."""

    path: str
    line: int
    column: int | None = None
    end_line: int | None = None
    end_column: int | None = None

    def overlaps(self, location: Location) -> bool:
        """A single-line location on the finding's line, whose columns (when
        both sides have them) overlap the finding's."""
        if location.line != self.line:
            return False
        if (
            location.end_line != location.line
            or location.column is None
            or location.end_column is None
            or self.column is None
            or self.end_column is None
            or self.end_line not in (None, self.line)
        ):
            return True
        return location.column < max(self.end_column, self.column + 1) and self.column < max(
            location.end_column, location.column + 1
        )


def _points_at(error: dict, span: Span) -> bool:
    """Does a frame of the compile error point at the finding: its line (or,
    for the innermost frame, a statement spanning it)?"""
    found = [Location.from_list(item) for item in error.get("locations", [])]
    for position, location in enumerate(found):
        if not same_file(location.path, span.path):
            continue
        if span.overlaps(location):
            return True
        innermost = position == len(found) - 1
        if innermost and location.end_line > location.line and location.line <= span.line <= location.end_line:
            return True
    return False


def _cut_at(attempt: dict | None, span: Span) -> bool:
    if not attempt:
        return False
    return any(
        same_file(item[0], span.path) and span.overlaps(Location.from_list(item))
        for item in attempt.get("gradient_cut", [])
    )


def _error_line(error: dict, path: str) -> int | None:
    for item in reversed(error.get("locations", [])):
        if same_file(item[0], path):
            return int(item[1])
    return None


def _describe(error: dict) -> str:
    first = error.get("first") or ""
    return f"{error.get('type', 'Error')}: {first}" if first else error.get("type", "Error")


def _inputs_note(strict: dict | None) -> str:
    """`` with inputs float32[2,3,32,32] (from its first layer, ...)`` when
    runtime mode chose the inputs."""
    if not strict or not strict.get("inputs_source"):
        return ""
    return f" with inputs {', '.join(strict.get('inputs') or []) or 'none'} ({strict['inputs_source']})"


# errors an input of the wrong rank can cause with the same message at every size
_SHAPE_ERRORS = ("IndexError", "ValueError", "TypeError")


def _inputs_named(strict: dict, recheck: dict | None) -> str:
    """The inputs a compile error came with, guessed (and the other rank that
    gave the same error) or declared; "" for code that takes none."""
    inputs = strict.get("inputs")
    if not inputs:
        return ""
    if strict.get("inputs_source"):
        again = f"; the same error with {', '.join(recheck['inputs'])} ({recheck.get('inputs_source', 'a guess')})" if recheck and recheck.get("inputs") else ""
        return f" with inputs {', '.join(inputs)} ({strict['inputs_source']}){again}"
    return f" with inputs {', '.join(inputs)} ({strict.get('inputs_declared', 'declared')})"


def _gradient_note(lax: dict | None) -> str:
    grad = (lax or {}).get("grad") or {}
    if grad.get("ran") and grad.get("sum") == 0:
        return " (gradient sum 0.0)"
    return ""


def _end_reason(end: WorkerEnd) -> str:
    if end.kind == "done":  # its time says nothing about this finding
        return "the worker finished without a result for it (a runtime-mode gap: please report it)"
    return end.detail or "the worker ended before reaching it"


def _literals_only(result: dict, failure: str) -> dict:
    """A layer verdict the worker reached from the call's literal arguments
    before the module failed to import: it says so, and a call the literals
    cannot rebuild is not run because of the import."""
    if result["status"] == rules.NOT_RUN:
        return not_run(f"{failure}; and the call alone cannot stand in: {result['detail']}")
    return {"status": result["status"], "detail": f"{result['detail']}, judged on the call's literal arguments only: the module was not built ({failure})"}


def module_counts(records: list[dict], decided: dict[int, dict]) -> dict[str, int]:
    """Cells built and compiled by one worker, and its findings confirmed."""
    built = next((record.get("cells", 0) for record in records if record.get("type") == "built"), 0)
    compiled = sum(1 for record in records if record.get("type") == "target" and "strict" in record)
    confirmed = sum(1 for value in decided.values() if value.get("status") == rules.CONFIRMED)
    return {"built": built, "compiled": compiled, "confirmed": confirmed, "findings": len(decided)}


def decide_module(
    plan: ModulePlan,
    records: list[dict],
    end: WorkerEnd,
    findings: list[made.Finding],
    syntax_level: str,
) -> dict[int, dict]:
    """Confirmation of every finding of the module, by finding index."""
    decided = dict(plan.preset)
    fatal = next((record for record in records if record.get("type") == "fatal"), None)
    layers = {record["index"]: record for record in records if record.get("type") == "layer"}
    targets = {record["id"]: record for record in records if record.get("type") == "target"}
    # a module that failed to import: the reason of everything in it
    failure = fatal["detail"] if fatal is not None and fatal.get("stage") == "import" else None
    fallback = not_run(failure or _end_reason(end))
    for check in [*plan.layer_checks, *plan.call_checks]:
        record = layers.get(check.index)
        if record is not None:
            result = {"status": record["status"], "detail": record["detail"]}
            decided[check.index] = _literals_only(result, failure) if failure else result
        elif fatal is not None and fatal.get("stage") in ("mindspore", "device"):
            decided[check.index] = not_run(fatal["detail"])
        else:
            decided[check.index] = fallback
    for check in plan.graph_checks:
        path = findings[check.index].path
        if fatal is not None:
            decided[check.index] = not_run(fatal["detail"])
            continue
        span = Span(path, check.line, check.column, check.end_line, check.end_column)
        decided[check.index] = _graph_verdict(check.symbol, span, check.targets, targets, end)
    return decided


def _graph_verdict(symbol: str, span: Span, target_ids: list[str], targets: dict, end: WorkerEnd) -> dict:
    path, line = span.path, span.line
    ran = [targets[tid] for tid in target_ids if tid in targets]
    for record in ran:
        strict, lax = record.get("strict"), record.get("lax")
        label = record.get("label", "") + _inputs_note(strict)
        if strict and strict.get("ok") is False and _points_at(strict["error"], span):
            detail = f"compile error at line {line} under STRICT ({label}): {_describe(strict['error'])}"
            if symbol in rules.FALLBACK_RULES and lax and lax.get("ok") and _cut_at(lax, span):
                detail += "; under LAX it compiles only through JIT fallback and MindSpore cuts the gradient there" + _gradient_note(lax)
            elif lax and lax.get("ok") is False and _points_at(lax["error"], span):
                detail += "; LAX fails there too"
            return {"status": rules.CONFIRMED, "detail": detail}
        if lax and lax.get("ok") is False and _points_at(lax["error"], span):
            return {
                "status": rules.CONFIRMED,
                "detail": f"compile error at line {line} under LAX and STRICT ({label}): {_describe(lax['error'])}",
            }
        if symbol in rules.FALLBACK_RULES and lax and lax.get("ok") and _cut_at(lax, span):
            stopped = _error_line(strict["error"], path) if strict and strict.get("error") else None
            where = f" (STRICT stopped first at line {stopped})" if stopped and stopped != line else ""
            return {
                "status": rules.CONFIRMED,
                "detail": f"compiles only through JIT fallback: under LAX MindSpore cuts the gradient at line {line}"
                + _gradient_note(lax) + where,
            }
    compiled = [record for record in ran if (record.get("strict") or {}).get("ok")]
    if compiled:
        label = compiled[0].get("label", "") + _inputs_note(compiled[0].get("strict"))
        if symbol in rules.GRAPH_ERROR_RULES:
            return {"status": rules.NOT_REPRODUCED, "detail": f"{label} compiles under STRICT"}
        return not_run(f"{label} compiles under STRICT; a silent loss or a wrong result is not a compile error")
    failed = [record for record in ran if (record.get("strict") or {}).get("ok") is False]
    if failed:
        error = failed[0]["strict"]["error"]
        label = failed[0].get("label", "")
        stopped = _error_line(error, path)
        if failed[0]["strict"].get("inputs_not_found"):
            tried = "; ".join(failed[0]["strict"].get("tried", []))
            where = f", at line {stopped}" if stopped is not None else ""
            return not_run(f"could not find inputs for {label} (tried {tried}); it stops compiling{where}: {_describe(error)}")
        if stopped is not None:
            return not_run(f"{label} stops compiling earlier, at line {stopped}: {_describe(error)}")
        if error.get("locations"):
            where = Location.from_list(error["locations"][-1])
            return not_run(f"{label} stops compiling in {where.path}:{where.line}: {_describe(error)}")
        return not_run(f"compiling {label} failed without naming a line: {_describe(error)}")
    reasons = [record["not_run"] for record in ran if record.get("not_run")]
    if reasons:
        return not_run(reasons[0])
    return not_run(_end_reason(end))


# -- compile errors no finding predicted ------------------------------------
def compile_error_message(level: str, error: dict) -> str:
    described = _describe(error)
    if level == "lax":
        return f"MindSpore cannot compile this in GRAPH_MODE (LAX and STRICT): {described}"
    if level == "strict-fallback":
        return (
            f"MindSpore cannot compile this under jit_syntax_level STRICT ({described}); under LAX it compiles "
            "only through JIT fallback and the gradient is cut here"
        )
    return f"MindSpore cannot compile this in GRAPH_MODE under jit_syntax_level STRICT: {described}"


def _user_location(error: dict, project_root: Path, module_path: str) -> Location | None:
    root = os.path.realpath(project_root)
    for item in reversed(error.get("locations", [])):
        location = Location.from_list(item)
        real = os.path.realpath(location.path)
        if "site-packages" in real or "dist-packages" in real:
            continue
        if same_file(real, module_path) or real.startswith(root + os.sep):
            return location
    return None


def new_findings(
    plan: ModulePlan,
    records: list[dict],
    finding_lines: dict[str, set[int]],
    project_root: Path,
    syntax_level: str,
) -> list[made.Finding]:
    """Compile errors no finding points at, as ``ms-graph-compile-error``
    findings (confirmed by MindSpore)."""
    found: list[made.Finding] = []
    lines_of: dict[str, list[str]] = {}
    for record in records:
        if record.get("type") != "target":
            continue
        strict, lax = record.get("strict") or {}, record.get("lax") or {}
        if strict.get("inputs_not_found") or (
            strict.get("inputs_source") and strict.get("ok") is False and input_dependent(strict["error"])
        ):
            continue  # the inputs runtime mode guessed may be what MindSpore rejects
        # guessed inputs: only an error that inputs of another rank give the same way (record["recheck"])
        recheck = record.get("recheck") or {} if strict.get("inputs_source") else None
        errors = []
        if lax.get("ok") is False:
            errors.append(("lax", lax["error"]))
        if strict.get("ok") is False:
            if syntax_level == "strict":
                errors.append(("strict", strict["error"]))
            elif lax.get("ok"):
                line = _error_line(strict["error"], plan.path)
                if line is not None and _cut_at(lax, Span(plan.path, line)):
                    errors.append(("strict-fallback", strict["error"]))
        for level, error in errors:
            if recheck is not None and (
                not recheck.get("lax" if level == "lax" else "strict")
                or (recheck.get("same_rank") and error.get("type") in _SHAPE_ERRORS)
            ):
                continue  # the guessed inputs may be its cause (a rank they share: an unpacking, an index)
            if any(
                int(item[1]) in finding_lines.get(os.path.realpath(item[0]), ()) for item in error.get("locations", [])
            ):
                continue  # a finding already points there
            location = _user_location(error, project_root, plan.path)
            if location is None:
                continue
            message = compile_error_message(level, error)
            path = os.path.realpath(location.path)
            if any(item.path == path and item.line == location.line for item in found):
                continue  # one compile error per line (the LAX one, when both levels fail)
            if path not in lines_of:
                lines_of[path] = made.read_source_lines(path)
            finding = made.located(
                path=path,
                line=location.line,
                byte_column=location.column or 0,  # MindSpore's columns: 0-based, as Python's parser
                end_line=location.end_line,
                end_byte_column=location.end_column,
                symbol=rules.COMPILE_ERROR_SYMBOL,
                msg_id=rules.COMPILE_ERROR_MSGID,
                message=message,
                lines=lines_of[path],
            )
            finding.confirmation = {
                "status": rules.CONFIRMED,
                "detail": f"reported by MindSpore's graph compiler ({record.get('label', '')}{_inputs_named(strict, recheck)})",
            }
            found.append(finding)
    return found
