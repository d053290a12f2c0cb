"""SARIF 2.1.0 output, as a pylint reporter and for the ``mslint`` command.

``pylint --load-plugins mslint --output-format=sarif`` (or
``--output-format=text,sarif:report.sarif``) writes a log that GitHub code scanning
accepts: the tool's ``rules[]`` (every mslint rule, with its documentation as help
text and markdown, and every other rule that has a result), one result per message
with a ``%SRCROOT%``-relative location, 1-based character columns and a
``partialFingerprints`` entry that survives unrelated edits above the line; a
result reported at a call for a problem in the callee's module (mslint.checkers.follow)
has that place as its ``relatedLocations``.

Findings are :class:`mslint.report.findings.Finding` objects, made from pylint's
messages by mslint.report.findings; this module only renders them.

``python -m mslint.report.sarif --validate LOG [--schema SCHEMA]`` validates a log against
the SARIF 2.1.0 JSON schema (the copy in ``tests/data`` by default).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from pylint.reporters import BaseReporter

from mslint.knowledge.version import VERSION
from mslint.report import catalog, findings
from mslint.report.findings import Finding, relative_path, repository_root

if TYPE_CHECKING:
    from pylint.lint import PyLinter
    from pylint.reporters.ureports.nodes import Section

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "mslint/v1"
CONTEXT_KEY = "mslint/context/v1"  # the lines around a finding: tells repeated lines apart in a baseline

LEVELS = {
    "fatal": "error",
    "error": "error",
    "warning": "warning",
    "convention": "note",
    "refactor": "note",
    "info": "note",
}
# SARIF result.rank (0-100): a finding in code a program in sight runs, and one in code none reaches
REACHED_RANK, UNREACHED_RANK = 90.0, 40.0
GITHUB_SEVERITY = {"error": "error", "warning": "warning", "note": "recommendation"}


# ---------------------------------------------------------------------------
# The SARIF log
# ---------------------------------------------------------------------------


def _camel(symbol: str) -> str:
    return "".join(part[:1].upper() + part[1:] for part in symbol.replace("_", "-").split("-"))


def rule_descriptor(rule: catalog.Rule) -> dict[str, Any]:
    level = LEVELS.get(rule.category, "note")
    descriptor: dict[str, Any] = {
        "id": rule.symbol,
        "name": _camel(rule.symbol),
        "shortDescription": {"text": rule.summary or rule.symbol},
        "fullDescription": {"text": rule.description or rule.summary or rule.symbol},
        "helpUri": rule.help_uri,
        "defaultConfiguration": {"level": level, "enabled": rule.default_enabled},
        "properties": {
            "id": rule.msgid,
            "category": rule.category,
            "tags": sorted({rule.category, rule.checker, "mindspore" if rule.mslint else "pylint"}),
            "problem.severity": GITHUB_SEVERITY[level],
        },
    }
    markdown = catalog.doc_text(rule.symbol) if rule.mslint else None
    if markdown:
        markdown = absolute_links(markdown)
        descriptor["help"] = {"text": catalog.markdown_to_text(markdown), "markdown": markdown}
    else:
        text = f"{rule.description or rule.summary}\n\nSee {rule.help_uri}"
        descriptor["help"] = {"text": text, "markdown": f"{rule.description or rule.summary}\n\nSee [{rule.symbol}]({rule.help_uri})."}
    if rule.mslint:
        descriptor["properties"]["precision"] = "high"
    return descriptor


def absolute_links(markdown: str, base: str = catalog.DOCS_BASE_URL) -> str:
    """A rule page's relative links made absolute: code scanning shows the help
    text away from the repository, where ``../runtime.md`` leads nowhere."""
    from urllib.parse import urljoin  # noqa: PLC0415

    def absolute(match: re.Match[str]) -> str:
        target = match.group(2)
        if re.match(r"^[a-z][a-z0-9+.-]*:|^#", target, re.IGNORECASE):
            return match.group(0)
        return f"{match.group(1)}({urljoin(base, target)})"

    return re.sub(r"(\[[^\]]*\])\(([^)\s]+)\)", absolute, markdown)


def file_uri(path: str) -> str:
    return Path(path).resolve().as_uri()


def _artifact(path: str, root: str) -> dict[str, str]:
    relative = relative_path(path, root)
    if relative is None:
        return {"uri": file_uri(path)}
    return {"uri": quote(relative, safe="/", errors="surrogateescape"), "uriBaseId": SRCROOT}  # a non-UTF-8 name: its bytes


def _region(item: Finding) -> dict[str, int]:
    region = {"startLine": max(item.line, 1), "startColumn": max(item.column, 1)}
    if item.end_line and item.end_column:
        region["endLine"] = max(item.end_line, region["startLine"])
        region["endColumn"] = max(item.end_column, 1)
        if region["endLine"] == region["startLine"] and region["endColumn"] < region["startColumn"]:
            region["endColumn"] = region["startColumn"]
    return region


def _fix(item: Finding, root: str) -> dict[str, Any]:
    """A finding's autofix (mslint.report.fixes) as a SARIF fix: one artifact change
    whose replacements are its edits (1-based character columns, like regions)."""
    patch = item.fix
    replacements = [
        {
            "deletedRegion": {"startLine": edit.line, "startColumn": edit.column, "endLine": edit.end_line, "endColumn": edit.end_column},
            "insertedContent": {"text": edit.text},
        }
        for edit in patch.edits
    ]
    return {
        "description": {"text": patch.description},
        "artifactChanges": [{"artifactLocation": _artifact(item.path, root), "replacements": replacements}],
        "properties": {"applicability": patch.applicability},
    }


def build_log(  # noqa: PLR0913
    found: Iterable[Finding],
    rules: Iterable[catalog.Rule],
    *,
    root: str,
    notifications: Iterable[dict[str, Any]] = (),
    successful: bool = True,
    properties: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log of the findings ``found`` (already fingerprinted and sorted).

    ``rules``: every rule to describe; rules of results that are not in it must be
    in it too (the caller passes the whole catalogue and this keeps mslint's rules
    and the rules that have results). ``notifications``: dicts with ``message``
    and optionally ``path``, ``level`` ("error", "warning", "note").
    """
    found = list(found)
    used = {item.symbol for item in found}
    described = sorted(
        (rule for rule in {rule.symbol: rule for rule in rules}.values() if rule.mslint or rule.symbol in used),
        key=lambda rule: (not rule.mslint, catalog.sort_key(rule)),
    )
    index = {rule.symbol: position for position, rule in enumerate(described)}
    descriptors = [rule_descriptor(rule) for rule in described]
    results = []
    for item in found:
        symbol = item.symbol
        if symbol not in index:  # a message with no definition (should not happen)
            index[symbol] = len(descriptors)
            rule = catalog.Rule(symbol, item.msg_id, item.category, True, "", "", item.message, False)
            descriptors.append(rule_descriptor(rule))
        result: dict[str, Any] = {
            "ruleId": symbol,
            "ruleIndex": index[symbol],
            "level": LEVELS.get(item.category, "note"),
            "message": {"text": item.message or symbol},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact(item.path, root),
                        "region": _region(item),
                    }
                }
            ],
            "partialFingerprints": {FINGERPRINT_KEY: item.fingerprint, **({CONTEXT_KEY: item.context} if item.context else {})},
            "properties": {"id": item.msg_id, "category": item.category},
        }
        place = item.related
        if place is not None:  # reported at a call: the problem is in the callee's module
            result["relatedLocations"] = [
                {
                    "id": 1,
                    "physicalLocation": {"artifactLocation": _artifact(place.path, root), "region": {"startLine": max(place.line, 1)}},
                    "message": {"text": f"in {place.function}(), which the call at the result's location runs as {place.kind} code"},
                }
            ]
        logical = ".".join(part for part in (item.module, item.obj) if part)
        if logical:
            result["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": logical}]
        if item.confirmation:
            result["properties"]["confirmation"] = item.confirmation
        if item.mode:
            result["properties"]["mode"] = {"mode": item.mode, "basis": item.mode_basis}
        if item.reached is not None:
            # whether a program in sight runs the code (mslint.analysis.programs): a
            # finding in code none reaches ranks lower
            result["properties"]["reached"] = item.reached
            result["rank"] = REACHED_RANK if item.reached else UNREACHED_RANK
        if item.cell:  # a notebook: the region is the .ipynb file's line; where in the notebook, as it shows
            result["properties"]["cell"], result["properties"]["cellLine"], result["properties"]["cellColumn"] = item.cell
        elif item.fix is not None:  # (a notebook's edits would be in its cells' code, not the .ipynb text)
            result["fixes"] = [_fix(item, root)]
        results.append(result)
    notes = []
    for note in notifications:
        entry: dict[str, Any] = {"level": note.get("level", "error"), "message": {"text": note["message"]}}
        if note.get("path"):
            entry["locations"] = [{"physicalLocation": {"artifactLocation": _artifact(note["path"], root)}}]
        notes.append(entry)
    invocation: dict[str, Any] = {"executionSuccessful": successful}
    if notes:
        invocation["toolExecutionNotifications"] = notes
    run: dict[str, Any] = {
        "tool": {
            "driver": {
                "name": "mslint",
                "version": VERSION,
                "informationUri": catalog.INFORMATION_URI,
                "rules": descriptors,
            }
        },
        "invocations": [invocation],
        "originalUriBaseIds": {SRCROOT: {"uri": file_uri(root).rstrip("/") + "/"}},
        "columnKind": "unicodeCodePoints",
        "results": results,
    }
    if properties:
        run["properties"] = properties
    return {"$schema": SARIF_SCHEMA_URI, "version": SARIF_VERSION, "runs": [run]}


def dumps(log: dict[str, Any]) -> str:
    return json.dumps(log, indent=2, ensure_ascii=False, sort_keys=False) + "\n"


# ---------------------------------------------------------------------------
# The pylint reporter
# ---------------------------------------------------------------------------


class SarifReporter(BaseReporter):
    """``--output-format=sarif``: one SARIF 2.1.0 log for the whole run."""

    name = "sarif"
    extension = "sarif"

    def display_reports(self, layout: Section) -> None:
        """No textual reports in a SARIF log."""

    def _display(self, layout: Section) -> None:
        """Nothing: everything goes out in display_messages."""

    def display_messages(self, layout: Section | None) -> None:
        root = repository_root(os.getcwd())
        lines_of: dict[str, list[str]] = {}
        found = []
        for message in self.messages:
            path = message.abspath or message.path
            if path not in lines_of:
                lines_of[path] = findings.read_source_lines(path) if path else []
            item = findings.from_message(message, lines_of[path])
            if message.symbol.startswith("ms-"):  # the plugin says reachability with pylint's confidence
                item.reached = {"HIGH": True, "INFERENCE": False}.get(getattr(message.confidence, "name", ""))
            found.append(item)
        found = findings.assign_fingerprints(found, root)
        log = build_log(found, catalog.rules_of(self.linter), root=root)
        self.out.write(dumps(log))
        self.out.flush()


def register(linter: PyLinter) -> None:
    linter.register_reporter(SarifReporter)


# ---------------------------------------------------------------------------
# Validation (tests and .ci/run)
# ---------------------------------------------------------------------------

VENDORED_SCHEMA = Path(__file__).resolve().parent.parent / "tests" / "data" / "sarif-schema-2.1.0.json"


def validate(log: dict[str, Any], schema_path: str | os.PathLike[str] = VENDORED_SCHEMA) -> None:
    """Raise jsonschema.ValidationError unless ``log`` is valid SARIF 2.1.0."""
    import jsonschema  # noqa: PLC0415 - a test dependency only

    schema = json.loads(Path(schema_path).read_text(encoding="utf-8"))
    jsonschema.Draft4Validator.check_schema(schema)
    jsonschema.Draft4Validator(schema).validate(log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m mslint.report.sarif", description="Validate SARIF logs.")
    parser.add_argument("--validate", metavar="LOG", nargs="+", required=True, help="SARIF log files to validate")
    parser.add_argument("--schema", default=str(VENDORED_SCHEMA), help="the SARIF 2.1.0 JSON schema file")
    args = parser.parse_args(argv)
    import jsonschema  # noqa: PLC0415

    if not Path(args.schema).is_file():
        print(f"SARIF schema not found: {args.schema} (pass --schema FILE)", file=sys.stderr)
        return 2
    status = 0
    for name in args.validate:
        try:
            log = json.loads(Path(name).read_text(encoding="utf-8"))
            validate(log, args.schema)
        except (OSError, ValueError, jsonschema.ValidationError) as error:
            detail = getattr(error, "message", None) or str(error)
            print(f"{name}: invalid SARIF 2.1.0 ({detail})", file=sys.stderr)
            status = 1
        else:
            results = sum(len(run.get("results", [])) for run in log.get("runs", []))
            print(f"{name}: valid SARIF 2.1.0 against {args.schema} ({results} results)")
    return status


if __name__ == "__main__":
    sys.exit(main())
