"""The ``mslint migration`` report in its four formats: text (summary first, then
a section per status), JSON (the contract of issue 26), CSV (one row per API)
and Markdown (to paste into an issue).

The JSON document::

    {"tool": "mslint", "version": ..., "mindspore": "2.10.0", "torch": "2.13.0",
     "data": {"sources": [...pages read...], "verification": {...}},
     "summary": {"files": N, "filesScanned": N, "uses": N, "apis": N,
                 "byStatus": {"same": {"apis", "uses"}, ...}, "sameShare": 0.61,
                 "missing": [{"api", "uses"}, ...]},
     "apis": [{"api": "torch.nn.Conv2d",
               "uses": [{"path", "line", "column"(, "cell", "cellLine", "cellColumn")}],
               "status": "same" | "differs" | "missing",
               "counterpart": "mindspore.mint.nn.Conv2d" | null,
               "differences": [...that matter for the arguments this code passes...],
               "rules": ["ms-..."], "kind", "verified", "otherDifferences",
               "alternatives": [{"counterpart", "status", "differences", "rules"}]}],
     "problems": [{"path", "message"}]}
"""

from __future__ import annotations

import csv
import io
import json
import os
from typing import Any

from mslint.analysis.migration import ApiReport, Use
from mslint.knowledge import mapping
from mslint.knowledge.mapping import STATUSES
from mslint.knowledge.version import VERSION

_MISSING_SHOWN = 20  # missing APIs the text and markdown summaries rank
_PLACES_SHOWN = 3  # uses listed per API in text and markdown


def _relative(path: str, root: str) -> str:
    try:
        relative = os.path.relpath(path, root)
    except ValueError:
        return path
    return path if relative.startswith(os.pardir) else relative.replace(os.sep, "/")


def _use(use: Use, root: str) -> dict[str, Any]:
    place: dict[str, Any] = {"path": _relative(use.path, root), "line": use.line, "column": use.column}
    if use.cell:
        place["cell"], place["cellLine"], place["cellColumn"] = use.cell
    return place


def summary(reports: list[ApiReport], files: int, scanned: int) -> dict[str, Any]:
    uses = sum(len(r.uses) for r in reports)
    by_status = {status: {"apis": 0, "uses": 0} for status in STATUSES}
    for report in reports:
        by_status[report.status]["apis"] += 1
        by_status[report.status]["uses"] += len(report.uses)
    by_status["differs"]["affectedUses"] = sum(r.affected for r in reports if r.status == "differs")
    missing = sorted((r for r in reports if r.status == "missing"), key=lambda r: (-len(r.uses), r.api))
    return {
        "files": files,
        "filesScanned": scanned,
        "uses": uses,
        "apis": len(reports),
        "byStatus": by_status,
        "sameShare": round(by_status["same"]["uses"] / uses, 4) if uses else None,
        "missing": [{"api": r.api, "uses": len(r.uses)} for r in missing],
    }


def document(reports: list[ApiReport], files: int, scanned: int, root: str, problems: list | None = None) -> dict[str, Any]:
    """The JSON document (see the module docstring)."""
    versions = mapping.versions()
    return {
        "tool": "mslint",
        "version": VERSION,
        "mindspore": versions["mindspore"],
        "torch": versions["torch"],
        "data": {"sources": versions["sources"], "verification": mapping.data().get("verification")},
        "root": root,
        "summary": summary(reports, files, scanned),
        "apis": [
            {
                "api": r.api,
                "uses": [_use(use, root) for use in r.uses],
                "status": r.status,
                "counterpart": r.counterpart,
                "differences": r.differences,
                "rules": r.rules,
                "kind": r.kind,
                "verified": r.verified,
                "affectedUses": r.affected,
                "otherDifferences": r.other_differences,
                "alternatives": r.alternatives,
            }
            for r in reports
        ],
        "problems": [{"path": p.path, "message": p.message} for p in problems or ()],
    }


def format_json(doc: dict[str, Any]) -> str:
    return json.dumps(doc, indent=2, ensure_ascii=False) + "\n"


def _percent(part: int, whole: int) -> str:
    return f"{100 * part / whole:.1f}%" if whole else "-"


def _places(api: dict[str, Any]) -> str:
    shown = []
    for use in api["uses"][:_PLACES_SHOWN]:
        where = f"{use['path']}:{use['line']}"
        if "cell" in use:
            where = f"{use['path']}:cell {use['cell']}:line {use['cellLine']}"
        shown.append(where)
    more = len(api["uses"]) - len(shown)
    return ", ".join(shown) + (f" and {more} more" if more > 0 else "")


def _sources_line(doc: dict[str, Any]) -> str:
    pages = ", ".join(
        f"{s['revision']} ({s['commit'][:10]}, {s['date']})" if s.get("commit") else s["revision"]
        for s in doc["data"]["sources"]
    )
    return (f"Counterparts of MindSpore {doc['mindspore']}, measured against PyTorch {doc['torch']}; "
            f"mapping pages of mindspore-ai/docs {pages}.")


def summary_lines(doc: dict[str, Any]) -> list[str]:
    s = doc["summary"]
    lines = [
        f"PyTorch in {s['files']} of {s['filesScanned']} files: {s['uses']} uses of {s['apis']} APIs.",
    ]
    for status in STATUSES:
        counts = s["byStatus"][status]
        line = f"  {status + ':':9}{counts['uses']:6} uses ({_percent(counts['uses'], s['uses'])}) of {counts['apis']} APIs"
        if status == "differs":
            line += f"; {counts['affectedUses']} of these uses meet a difference with the arguments they pass"
        lines.append(line)
    if s["missing"]:
        lines.append("Missing in MindSpore, by uses:")
        for item in s["missing"][:_MISSING_SHOWN]:
            lines.append(f"  {item['uses']:6}  {item['api']}")
        if len(s["missing"]) > _MISSING_SHOWN:
            lines.append(f"  ... and {len(s['missing']) - _MISSING_SHOWN} more")
    lines.append(_sources_line(doc))
    return lines


def format_text(doc: dict[str, Any]) -> str:
    lines = summary_lines(doc)
    for status in ("missing", "differs", "same"):
        apis = [a for a in doc["apis"] if a["status"] == status]
        if not apis:
            continue
        lines += ["", f"{status} ({len(apis)} APIs)"]
        for api in apis:
            target = f" -> {api['counterpart']}" if api["counterpart"] else ""
            count = len(api["uses"])
            lines.append(f"  {api['api']}{target}  ({count} use{'s' if count != 1 else ''}: {_places(api)})")
            for difference in api["differences"]:
                lines.append(f"      - {difference}")
            if status == "differs" and not api["differences"] and api["otherDifferences"]:
                lines.append(f"      - (not for the arguments passed here) {'; '.join(api['otherDifferences'])}")
            for alternative in api["alternatives"]:
                if alternative["status"] == "differs" and alternative["differences"]:
                    lines.append(f"      if ported to {alternative['counterpart']}: {'; '.join(alternative['differences'])}")
            if api["rules"]:
                lines.append(f"      checked by: {', '.join(api['rules'])}")
    for problem in doc["problems"]:
        lines.append(f"mslint: {problem['path']}: {problem['message']}")
    return "\n".join(lines) + "\n"


CSV_COLUMNS = ("api", "status", "counterpart", "uses", "affected_uses", "files", "differences", "rules", "first_use",
               "verified")


def format_csv(doc: dict[str, Any]) -> str:
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(CSV_COLUMNS)
    for api in doc["apis"]:
        first = api["uses"][0] if api["uses"] else None
        writer.writerow([
            api["api"], api["status"], api["counterpart"] or "", len(api["uses"]), api["affectedUses"],
            len({use["path"] for use in api["uses"]}), "; ".join(api["differences"]), " ".join(api["rules"]),
            f"{first['path']}:{first['line']}" if first else "", "yes" if api["verified"] else "no",
        ])
    return out.getvalue()


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def format_markdown(doc: dict[str, Any]) -> str:
    s = doc["summary"]
    lines = [
        "## PyTorch to MindSpore: migration analysis",
        "",
        f"{s['uses']} uses of {s['apis']} PyTorch APIs in {s['files']} files "
        f"(mslint {doc['version']} `mslint migration`).",
        "",
        "| status | APIs | uses | share of uses |",
        "| --- | ---: | ---: | ---: |",
    ]
    for status in STATUSES:
        counts = s["byStatus"][status]
        lines.append(f"| {status} | {counts['apis']} | {counts['uses']} | {_percent(counts['uses'], s['uses'])} |")
    lines += ["", f"{s['byStatus']['differs']['affectedUses']} of the uses whose counterpart differs meet a difference "
              "with the arguments they pass.", "", _sources_line(doc)]
    for status, title in (("missing", "No MindSpore counterpart"), ("differs", "Counterpart differs"),
                          ("same", "Same parameters")):
        apis = [a for a in doc["apis"] if a["status"] == status]
        if not apis:
            continue
        lines += ["", f"### {title} ({len(apis)} APIs)", ""]
        if status == "same":
            lines += ["| PyTorch | MindSpore | uses |", "| --- | --- | ---: |"]
            lines += [f"| `{a['api']}` | `{a['counterpart']}` | {len(a['uses'])} |" for a in apis]
            continue
        lines += ["| PyTorch | MindSpore | uses | what differs for this code | checked by |",
                  "| --- | --- | ---: | --- | --- |"]
        for a in apis:
            counterpart = f"`{a['counterpart']}`" if a["counterpart"] else "-"
            differences = "<br>".join(_cell(d) for d in a["differences"]) or "-"
            rules = ", ".join(f"`{r}`" for r in a["rules"]) or "-"
            lines.append(f"| `{a['api']}` | {counterpart} | {len(a['uses'])} ({_cell(_places(a))}) | "
                         f"{differences} | {rules} |")
    return "\n".join(lines) + "\n"


FORMATTERS = {"text": format_text, "json": format_json, "csv": format_csv, "markdown": format_markdown}
