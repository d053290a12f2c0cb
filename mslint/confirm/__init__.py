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
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import TYPE_CHECKING

from mslint.confirm.rules import (
    COMPILE_ERROR_MSGID,
    COMPILE_ERROR_SYMBOL,
    CONFIRMED,
    DEFAULT_TIMEOUT,
    NOT_REPRODUCED,
    NOT_RUN,
    STATUSES,
)

if TYPE_CHECKING:
    from mslint.report.findings import Finding

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
        from mslint.knowledge.version import install_hint  # noqa: PLC0415

        raise RuntimeModeUnavailable(
            f"runtime confirmation needs MindSpore, which is not installed here: {install_hint('runtime')}"
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
    timeout: float = DEFAULT_TIMEOUT,
    jobs: int = 1,
    project_root: Path | None = None,
    config: dict | None = None,
    syntax_level: str = "lax",
    progress: bool | None = None,
    all_cells: list[str] | None = None,
    stats: dict | None = None,
) -> tuple[list[Finding], list[Finding]]:
    """Confirm findings by compiling the flagged code with MindSpore.

    ``findings``: mslint.report.findings.Finding objects as mslint lints them (their
    anchors say what to compile or build; one without is *not run*). Sets
    ``finding.confirmation = {"status": ..., "detail": ...}`` on each (the same
    objects, returned in the same order) and returns them with the new
    ``ms-graph-compile-error`` findings, fingerprinted relative to
    ``project_root``. Raises
    :class:`RuntimeModeUnavailable` when mindspore is not installed.
    ``options``, when given, is a dict of the same keyword arguments.
    ``all_cells``: the linted files; every Cell class and @jit function of
    each is compiled, with findings or not (compile errors no rule predicted
    become new findings). ``stats``, when given, is filled with ``modules``
    (workers run), ``cells_built`` and ``cells_compiled``, and when a module
    could not be checked (its import failed, MindSpore could not start, the
    worker timed out or crashed) ``not_checked`` (how many) and
    ``not_checked_first`` ("module: why").
    """
    if options:
        unknown = set(options) - {"device", "timeout", "jobs", "project_root", "config", "syntax_level", "progress", "all_cells", "stats"}
        if unknown:
            raise TypeError(f"confirm_findings() got unknown options: {', '.join(sorted(unknown))}")
        device = options.get("device", device)
        timeout = options.get("timeout", timeout)
        jobs = options.get("jobs", jobs)
        project_root = options.get("project_root", project_root)
        config = options.get("config", config)
        syntax_level = options.get("syntax_level", syntax_level)
        progress = options.get("progress", progress)
        all_cells = options.get("all_cells", all_cells)
        stats = options.get("stats", stats)
    if project_root is None:
        raise TypeError("confirm_findings() needs project_root")
    from mslint.report import findings as made  # noqa: PLC0415
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

    for path in all_cells or ():
        if path.endswith(".py"):  # a notebook's Cells are not importable
            by_module.setdefault(os.path.realpath(path), [])
    plans = [planning.plan_module(path, items, project_root, config) for path, items in sorted(by_module.items())]
    if all_cells:
        for plan in plans:
            plan.compile_all = True
    to_run = [plan for plan in plans if plan.needs_worker]
    limit = runner.memory_limit(device, jobs)
    shown = runner.Progress(len(to_run), progress)
    outcomes: dict[str, tuple[list[dict], verdict.WorkerEnd]] = {}
    decisions: dict[str, dict[int, dict]] = {}
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
        records, end = outcomes[plan.path]
        decided = decisions[plan.path] = verdict.decide_module(plan, records, end, findings, syntax_level)
        shown.advance(plan.module, verdict.module_counts(records, decided), end)

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
    totals = {"modules": len(outcomes), "cells_built": 0, "cells_compiled": 0}
    not_checked: list[str] = []  # "module: why", so that "0 Cells compiled" never hides it
    for plan in plans:
        records, end = outcomes.get(plan.path, ([], verdict.WorkerEnd("skipped", "")))
        fatal = next((record for record in records if record.get("type") == "fatal"), None)
        if plan.path in outcomes and (fatal is not None or end.kind not in ("done", "skipped")):
            not_checked.append(f"{plan.module}: {fatal['detail'] if fatal is not None else end.detail}")
        decided = decisions.get(plan.path) or verdict.decide_module(plan, records, end, findings, syntax_level)
        counts = verdict.module_counts(records, decided)
        totals["cells_built"] += counts["built"]
        totals["cells_compiled"] += counts["compiled"]
        for index, finding in by_module[plan.path]:
            finding.confirmation = decided.get(index) or planning.not_run("not checked")
        if end.signalled:  # said with each finding of the module, and once on standard error
            for _, finding in by_module[plan.path]:
                detail = finding.confirmation.get("detail")
                finding.confirmation = {**finding.confirmation, "signalled": end.signalled,
                                        "detail": f"{detail}; {end.signalled}" if detail else end.signalled}
            print(f"mslint --confirm: {plan.module}: {end.signalled}", file=sys.stderr)
        new.extend(verdict.new_findings(plan, records, finding_lines, project_root, syntax_level))
    if not_checked:
        totals.update(not_checked=len(not_checked), not_checked_first=not_checked[0])
    if stats is not None:
        stats.update(totals)
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
