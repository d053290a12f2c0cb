"""Runtime confirmation: check static findings against MindSpore itself.

``confirm_findings`` takes the findings of a lint run, and for every module with
confirmable findings starts a worker process (never the linter's own process)
that builds the flagged layer calls and compiles the module's Cells and @jit
functions in GRAPH_MODE under jit_syntax_level STRICT (then LAX, to see JIT
fallback cut gradients). Each finding comes back ``confirmed``,
``not reproduced`` or ``not run`` with a short reason; compile errors that no
finding predicted come back as new ``ms-graph-compile-error`` findings.

The linter process never imports mindspore: availability is checked with
``importlib.util.find_spec``. See docs/runtime.md.
"""

from __future__ import annotations

import importlib.util
import os
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from mslint.confirm.rules import (
    COMPILE_ERROR_MSGID,
    COMPILE_ERROR_SYMBOL,
    CONFIRMED,
    NOT_REPRODUCED,
    NOT_RUN,
    STATUSES,
)

if TYPE_CHECKING:
    from mslint.findings import Finding

__all__ = [
    "COMPILE_ERROR_MSGID",
    "COMPILE_ERROR_SYMBOL",
    "CONFIRMED",
    "DEVICES",
    "NOT_REPRODUCED",
    "NOT_RUN",
    "RuntimeModeUnavailable",
    "STATUSES",
    "confirm_findings",
    "count_statuses",
    "format_suffix",
    "format_summary",
]

DEVICES = ("CPU", "GPU", "Ascend")


class RuntimeModeUnavailable(RuntimeError):
    """Runtime mode cannot start (MindSpore is not installed); one-line message."""


def check_available() -> None:
    try:
        spec = importlib.util.find_spec("mindspore")
    except (ImportError, ValueError):
        spec = None
    if spec is None:
        raise RuntimeModeUnavailable(
            "runtime confirmation needs MindSpore, which is not installed here: pip install 'mslint[runtime]'"
        )


def normalize_device(device: str) -> str:
    for known in DEVICES:
        if device.strip().lower() == known.lower():
            return known
    raise ValueError(f"unknown device {device!r}: use one of {', '.join(DEVICES)}")


def confirm_findings(
    findings: list[Finding],
    options: dict | None = None,
    *,
    device: str = "CPU",
    timeout: float = 60.0,
    jobs: int = 1,
    project_root: Path | None = None,
    config: dict | None = None,
    syntax_level: str = "lax",
    progress: bool | None = None,
) -> tuple[list[Finding], list[Finding]]:
    """Confirm findings by compiling the flagged code with MindSpore.

    ``findings``: mslint.findings.Finding objects as mslint lints them (their
    anchors say what to compile or build; one without is *not run*). Sets
    ``finding.confirmation = {"status": ..., "detail": ...}`` on each (the same
    objects, returned in the same order) and returns them with the new
    ``ms-graph-compile-error`` findings, fingerprinted relative to
    ``project_root``. Raises
    :class:`RuntimeModeUnavailable` when mindspore is not installed.
    ``options``, when given, is a dict of the same keyword arguments.
    """
    if options:
        unknown = set(options) - {"device", "timeout", "jobs", "project_root", "config", "syntax_level", "progress"}
        if unknown:
            raise TypeError(f"confirm_findings() got unknown options: {', '.join(sorted(unknown))}")
        device = options.get("device", device)
        timeout = options.get("timeout", timeout)
        jobs = options.get("jobs", jobs)
        project_root = options.get("project_root", project_root)
        config = options.get("config", config)
        syntax_level = options.get("syntax_level", syntax_level)
        progress = options.get("progress", progress)
    if project_root is None:
        raise TypeError("confirm_findings() needs project_root")
    from mslint import findings as made  # noqa: PLC0415
    from mslint.confirm import plan as planning  # noqa: PLC0415
    from mslint.confirm import runner, verdict  # noqa: PLC0415

    check_available()
    device = normalize_device(device)
    syntax_level = "strict" if str(syntax_level).lower() == "strict" else "lax"
    jobs = max(1, int(jobs or os.cpu_count() or 1))
    project_root = Path(project_root).resolve()
    if not config:
        config = planning.load_config(project_root)

    by_module: dict[str, list[tuple[int, Finding]]] = {}
    finding_lines: dict[str, set[int]] = {}
    for index, finding in enumerate(findings):
        if not finding.path:
            finding.confirmation = planning.not_run("the finding has no file")
            continue
        real = os.path.realpath(finding.path)
        by_module.setdefault(real, []).append((index, finding))
        if finding.line:
            finding_lines.setdefault(real, set()).add(finding.line)

    plans = [planning.plan_module(path, items, project_root, config) for path, items in sorted(by_module.items())]
    to_run = [plan for plan in plans if plan.needs_worker]
    limit = runner.memory_limit(device, jobs)
    shown = runner.Progress(len(to_run), progress)
    outcomes: dict[str, tuple[list[dict], verdict.WorkerEnd]] = {}
    unavailable: list[dict] = []

    def run(plan: planning.ModulePlan) -> None:
        if unavailable:  # the device is missing: no point starting more workers
            outcomes[plan.path] = ([unavailable[0]], verdict.WorkerEnd("skipped", unavailable[0]["detail"]))
        else:
            try:
                records, end = runner.run_worker(plan, device, timeout, limit)
            except runner.WorkersStopped:
                records, end = [], verdict.WorkerEnd("skipped", "mslint was stopped before this module")
            outcomes[plan.path] = (records, end)
            for record in records:
                if record.get("type") == "fatal" and record.get("stage") in ("device", "mindspore"):
                    unavailable.append(record)
        shown.advance()

    try:
        with runner.workers_die_with_us():  # SIGTERM/SIGHUP: every worker dies, folders removed
            if jobs == 1 or len(to_run) <= 1:
                for plan in to_run:
                    run(plan)
            else:
                with ThreadPoolExecutor(max_workers=min(jobs, len(to_run))) as pool:
                    try:
                        list(pool.map(run, to_run))
                    except BaseException:
                        unavailable.append({"type": "fatal", "stage": "interrupted", "detail": "interrupted"})
                        runner.kill_all()  # Ctrl-C: stop the workers instead of waiting for them
                        raise
    finally:
        shown.close()

    new: list[Finding] = []
    for plan in plans:
        records, end = outcomes.get(plan.path, ([], verdict.WorkerEnd("skipped", "")))
        decided = verdict.decide_module(plan, records, end, findings, syntax_level)
        for index, finding in by_module[plan.path]:
            finding.confirmation = decided.get(index) or planning.not_run("not checked")
        new.extend(verdict.new_findings(plan, records, finding_lines, project_root, syntax_level))
    return findings, made.assign_fingerprints(new, str(project_root))


def count_statuses(findings: list[Finding], new_findings: list[Finding]) -> dict[str, int]:
    counts = {status: 0 for status in STATUSES}
    for finding in findings:
        status = (finding.confirmation or {}).get("status")
        if status in counts:
            counts[status] += 1
    counts["new"] = len(new_findings)
    return counts


def format_summary(findings: list[Finding], new_findings: list[Finding]) -> str:
    """``runtime confirmation: 5 confirmed, 1 not reproduced, 3 not run, 1 new``"""
    counts = count_statuses(findings, new_findings)
    return (
        f"runtime confirmation: {counts[CONFIRMED]} confirmed, {counts[NOT_REPRODUCED]} not reproduced, "
        f"{counts[NOT_RUN]} not run, {counts['new']} new"
    )


def format_suffix(confirmation: dict | None) -> str:
    """`` [confirmed: compile error at line 14: ...]`` for text output."""
    if not confirmation:
        return ""
    detail = confirmation.get("detail")
    return f" [{confirmation['status']}: {detail}]" if detail else f" [{confirmation['status']}]"
