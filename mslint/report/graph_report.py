"""``mslint --graph-report``: one screen, per compiled Cell or @jit function, of
what keeps it from compiling into one fast graph, in the manner of
``torch._dynamo.explain``: compile errors, graph breaks, recompile triggers,
dynamic-shape ops and slow-compiling loops, counted, worst first, with the first
reasons.

It reads only the findings: each one knows the compiled units it is in
(``Finding.units``, set from mslint.analysis.compiled when it is made), so
nothing is parsed again.
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field

from mslint.report.findings import Finding

GRAPH_BREAK = "ms-graph-break"
RECOMPILE = "ms-recompile-python-argument"
DYNAMIC_SHAPE = "ms-dynamic-shape-in-graph"
COLUMNS = ("errors", "breaks", "recompiles", "dynamic", "other")
MAX_UNITS = 10
MAX_REASONS = 2
WIDTH = 100


@dataclass
class Unit:
    path: str
    line: int
    name: str
    counts: dict[str, int] = field(default_factory=lambda: dict.fromkeys(COLUMNS, 0))
    reasons: list[Finding] = field(default_factory=list)

    @property
    def rank(self) -> tuple:
        return tuple(-self.counts[column] for column in COLUMNS) + (self.path, self.line)


def column_of(item: Finding) -> str:
    if item.symbol == GRAPH_BREAK:
        return "breaks"
    if item.symbol == RECOMPILE:
        return "recompiles"
    if item.symbol == DYNAMIC_SHAPE:
        return "dynamic"
    if item.category in ("error", "fatal"):
        return "errors"
    return "other"


def units_of(found: list[Finding]) -> list[Unit]:
    """Each compiled unit some finding is in, with its counts; worst first."""
    units: dict[str, Unit] = {}
    for item in found:
        for label in item.units:
            path, line, name = _split(label)
            unit = units.setdefault(label, Unit(path, line, name))
            column = column_of(item)
            unit.counts[column] += 1
            unit.reasons.append(item)
    ordered = sorted(units.values(), key=lambda unit: unit.rank)
    for unit in ordered:
        unit.reasons.sort(key=lambda item: (COLUMNS.index(column_of(item)), item.path, item.line))
    return ordered


def _split(label: str) -> tuple[str, int, str]:
    path, _, rest = label.rpartition(":")  # name
    path, _, line = path.rpartition(":")
    try:
        number = int(line)
    except ValueError:
        number = 0
    return path, number, rest


def _shown(path: str, root: str) -> str:
    try:
        relative = os.path.relpath(path, root)
    except ValueError:
        return path
    return path if relative.startswith("..") else relative


def _short(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 3] + "..."


def format_graph_report(found: list[Finding], root: str) -> str:
    """The report's text: the compiled units with findings, worst first, each
    with its counts and first reasons, then the totals."""
    units = units_of(found)
    if not units:
        return ("mslint graph report: no compile error, graph break, recompile trigger or dynamic-shape op "
                "found in compiled code\n")
    plural = "s" if len(units) != 1 else ""
    out = [f"mslint graph report: {len(units)} compiled Cell{plural} or @jit function{plural} with findings, worst first", ""]
    header = f"{'errors':>6} {'breaks':>6} {'recompiles':>10} {'dynamic':>7} {'other':>5}  compiled unit"
    out.append(header)
    out.append("-" * len(header))
    for unit in units[:MAX_UNITS]:
        counts = unit.counts
        shown = _shown(unit.path, root)
        out.append(
            f"{counts['errors']:>6} {counts['breaks']:>6} {counts['recompiles']:>10} {counts['dynamic']:>7} "
            f"{counts['other']:>5}  {unit.name}  {shown}:{unit.line}"
        )
        for item in unit.reasons[:MAX_REASONS]:
            where = f"line {item.line}" if item.path == unit.path else f"{_shown(item.path, root)}:{item.line}"
            out.append(_short(f"{'':>8}{where} {item.symbol}: {item.message}", WIDTH))
        if len(unit.reasons) > MAX_REASONS:
            out.append(f"{'':>8}... and {len(unit.reasons) - MAX_REASONS} more")
    if len(units) > MAX_UNITS:
        out.append(f"... and {len(units) - MAX_UNITS} more compiled units with findings")
    totals = {column: sum(unit.counts[column] for unit in units) for column in COLUMNS}
    out.append("")
    out.append(
        f"total: {totals['errors']} compile errors, {totals['breaks']} graph breaks, {totals['recompiles']} "
        f"recompile triggers, {totals['dynamic']} dynamic-shape ops, {totals['other']} other warnings"
    )
    out.append("(a finding in code that several units compile counts for each; `mslint` without --graph-report lists them all)")
    return "\n".join(out) + "\n"
