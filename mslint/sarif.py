"""SARIF 2.1.0 output, as a pylint reporter and for the ``mslint`` command.

``pylint --load-plugins mslint --output-format=sarif`` (or
``--output-format=text,sarif:report.sarif``) writes a log that GitHub code scanning
accepts: the tool's ``rules[]`` (every mslint rule, with its documentation as help
text and markdown, and every other rule that has a result), one result per message
with a ``%SRCROOT%``-relative location, 1-based character columns and a
``partialFingerprints`` entry that survives unrelated edits above the line.

Findings are plain dicts (see :func:`finding`), shared with the ``mslint``
command, its cache and the runtime confirmation.

``python -m mslint.sarif --validate LOG [--schema SCHEMA]`` validates a log against
the SARIF 2.1.0 JSON schema (the copy in ``tests/data`` by default).
"""

from __future__ import annotations

import argparse
import hashlib
import io
import json
import os
import sys
import tokenize
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from pylint.reporters import BaseReporter

import mslint
from mslint import catalog

if TYPE_CHECKING:
    from pylint.lint import PyLinter
    from pylint.message import Message
    from pylint.reporters.ureports.nodes import Section

SARIF_VERSION = "2.1.0"
SARIF_SCHEMA_URI = "https://docs.oasis-open.org/sarif/sarif/v2.1.0/errata01/os/schemas/sarif-schema-2.1.0.json"
SRCROOT = "%SRCROOT%"
FINGERPRINT_KEY = "mslint/v1"

LEVELS = {
    "fatal": "error",
    "error": "error",
    "warning": "warning",
    "convention": "note",
    "refactor": "note",
    "info": "note",
}
GITHUB_SEVERITY = {"error": "error", "warning": "warning", "note": "recommendation"}

# pylint's syntax-error takes its column from SyntaxError.offset: already 1-based
# characters, not a UTF-8 byte offset.
CHARACTER_COLUMN_SYMBOLS = frozenset({"syntax-error"})


# ---------------------------------------------------------------------------
# Source lines and columns
# ---------------------------------------------------------------------------


def read_source_lines(path: str | os.PathLike[str]) -> list[str]:
    """The lines of a Python file as the tokenizer sees them (declared encoding,
    BOM removed, only \\r\\n, \\r and \\n end a line). Empty when unreadable."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return []
    return source_lines(data)


def source_lines(data: bytes) -> list[str]:
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        encoding = "utf-8"
    try:
        text = data.decode(encoding, errors="replace")
    except LookupError:
        text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def char_column(line_text: str | None, byte_offset: int) -> int:
    """The 0-based character offset of a UTF-8 byte offset into ``line_text``
    (astroid and pylint columns are byte offsets)."""
    if byte_offset <= 0 or not line_text:
        return max(byte_offset, 0)
    encoded = line_text.encode("utf-8")
    if byte_offset >= len(encoded):
        return len(line_text) + (byte_offset - len(encoded))
    return len(encoded[:byte_offset].decode("utf-8", errors="ignore"))


def _line(lines: list[str], number: int | None) -> str | None:
    if number is None or number < 1 or number > len(lines):
        return None
    return lines[number - 1]


def line_hash(text: str | None) -> str:
    """A hash of a source line with its whitespace normalised."""
    normalised = " ".join((text or "").split())
    return hashlib.blake2b(normalised.encode("utf-8"), digest_size=8).hexdigest()


# ---------------------------------------------------------------------------
# Findings
# ---------------------------------------------------------------------------


def finding(  # noqa: PLR0913 - one field per argument
    *,
    path: str,
    line: int,
    byte_column: int,
    end_line: int | None,
    end_byte_column: int | None,
    symbol: str,
    msg_id: str,
    message: str,
    obj: str = "",
    module: str = "",
    lines: list[str],
) -> dict[str, Any]:
    """A finding as a plain dict: 1-based lines, 1-based character columns
    (``end_column`` exclusive, as in SARIF), absolute ``path``. ``fingerprint``
    is set by :func:`assign_fingerprints`."""
    line = line or 0
    start_text = _line(lines, line)
    if symbol in CHARACTER_COLUMN_SYMBOLS:
        column = max(byte_column or 0, 1)
    else:
        column = char_column(start_text, byte_column or 0) + 1
    end_column = None
    if end_line is not None and end_byte_column is not None and end_line >= line:
        end_column = char_column(_line(lines, end_line), end_byte_column) + 1
        if end_line == line and end_column < column:
            end_column = column
    else:
        end_line = None
    return {
        "path": path,
        "line": line,
        "column": column,
        "end_line": end_line,
        "end_column": end_column,
        "symbol": symbol,
        "msg_id": msg_id,
        "message": message,
        "category": catalog.CATEGORIES.get(msg_id[:1], "info"),
        "obj": obj,
        "module": module,
        "line_hash": line_hash(start_text),
        "fingerprint": "",
    }


def finding_from_message(message: Message, lines: list[str]) -> dict[str, Any]:
    return finding(
        path=os.path.abspath(message.abspath or message.path),
        line=message.line,
        byte_column=message.column,
        end_line=message.end_line,
        end_byte_column=message.end_column,
        symbol=message.symbol,
        msg_id=message.msg_id,
        message=message.msg or "",
        obj=message.obj,
        module=message.module,
        lines=lines,
    )


def repository_root(start: str) -> str:
    """The root report paths are relative to: the enclosing git repository's
    (what code scanning expects), else ``start``."""
    folder = os.path.abspath(start)
    while True:
        if os.path.exists(os.path.join(folder, ".git")):
            return folder
        parent = os.path.dirname(folder)
        if parent == folder:
            return os.path.abspath(start)
        folder = parent


def relative_path(path: str, root: str) -> str | None:
    """``path`` relative to ``root`` in POSIX form, or None when outside it."""
    try:
        relative = os.path.relpath(path, root)
    except ValueError:  # another drive on Windows
        return None
    if relative == os.pardir or relative.startswith(os.pardir + os.sep):
        return None
    return PurePosixPath(*Path(relative).parts).as_posix()


def sort_key(item: dict[str, Any]) -> tuple:
    return (
        item["path"],
        item["line"],
        item["column"],
        item["symbol"],
        item["end_line"] or 0,
        item["end_column"] or 0,
        item["message"],
    )


def assign_fingerprints(findings: list[dict[str, Any]], root: str) -> list[dict[str, Any]]:
    """Sort findings and give each a fingerprint: a hash of its file (relative to
    ``root``), rule and whitespace-normalised source line, plus its occurrence
    number among identical ones in that file. Line numbers are not part of it, so
    edits above a finding keep it."""
    ordered = sorted(findings, key=sort_key)
    seen: dict[tuple[str, str, str], int] = {}
    for item in ordered:
        where = relative_path(item["path"], root) or item["path"]
        key = (where, item["symbol"], item["line_hash"])
        occurrence = seen.get(key, 0)
        seen[key] = occurrence + 1
        digest = hashlib.blake2b("\0".join(key).encode("utf-8"), digest_size=8).hexdigest()
        item["fingerprint"] = f"{digest}:{occurrence}"
    return ordered


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
        descriptor["help"] = {"text": catalog.markdown_to_text(markdown), "markdown": markdown}
    else:
        text = f"{rule.description or rule.summary}\n\nSee {rule.help_uri}"
        descriptor["help"] = {"text": text, "markdown": f"{rule.description or rule.summary}\n\nSee [{rule.symbol}]({rule.help_uri})."}
    if rule.mslint:
        descriptor["properties"]["precision"] = "high"
    return descriptor


def file_uri(path: str) -> str:
    return Path(path).resolve().as_uri()


def _artifact(path: str, root: str) -> dict[str, str]:
    relative = relative_path(path, root)
    if relative is None:
        return {"uri": file_uri(path)}
    return {"uri": quote(relative, safe="/"), "uriBaseId": SRCROOT}


def _region(item: dict[str, Any]) -> dict[str, int]:
    region = {"startLine": max(item["line"], 1), "startColumn": max(item["column"], 1)}
    if item.get("end_line") and item.get("end_column"):
        region["endLine"] = max(item["end_line"], region["startLine"])
        region["endColumn"] = max(item["end_column"], 1)
        if region["endLine"] == region["startLine"] and region["endColumn"] < region["startColumn"]:
            region["endColumn"] = region["startColumn"]
    return region


def build_log(  # noqa: PLR0913
    findings: Iterable[dict[str, Any]],
    rules: Iterable[catalog.Rule],
    *,
    root: str,
    notifications: Iterable[dict[str, Any]] = (),
    successful: bool = True,
    properties: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """A SARIF 2.1.0 log of ``findings`` (already fingerprinted and sorted).

    ``rules``: every rule to describe; rules of results that are not in it must be
    in it too (the caller passes the whole catalogue and this keeps mslint's rules
    and the rules that have results). ``notifications``: dicts with ``message``
    and optionally ``path``, ``level`` ("error", "warning", "note").
    """
    findings = list(findings)
    used = {item["symbol"] for item in findings}
    described = sorted(
        (rule for rule in {rule.symbol: rule for rule in rules}.values() if rule.mslint or rule.symbol in used),
        key=lambda rule: (not rule.mslint, catalog.sort_key(rule)),
    )
    index = {rule.symbol: position for position, rule in enumerate(described)}
    descriptors = [rule_descriptor(rule) for rule in described]
    results = []
    for item in findings:
        symbol = item["symbol"]
        if symbol not in index:  # a message with no definition (should not happen)
            index[symbol] = len(descriptors)
            rule = catalog.Rule(symbol, item["msg_id"], item["category"], True, "", "", item["message"], False)
            descriptors.append(rule_descriptor(rule))
        result: dict[str, Any] = {
            "ruleId": symbol,
            "ruleIndex": index[symbol],
            "level": LEVELS.get(item["category"], "note"),
            "message": {"text": item["message"] or symbol},
            "locations": [
                {
                    "physicalLocation": {
                        "artifactLocation": _artifact(item["path"], root),
                        "region": _region(item),
                    }
                }
            ],
            "partialFingerprints": {FINGERPRINT_KEY: item["fingerprint"]},
            "properties": {"id": item["msg_id"], "category": item["category"]},
        }
        logical = ".".join(part for part in (item.get("module"), item.get("obj")) if part)
        if logical:
            result["locations"][0]["logicalLocations"] = [{"fullyQualifiedName": logical}]
        if item.get("confirmation"):
            result["properties"]["confirmation"] = item["confirmation"]
        if item.get("baseline_state"):
            result["baselineState"] = item["baseline_state"]
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
                "version": mslint.__version__,
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
        findings = []
        for message in self.messages:
            path = message.abspath or message.path
            if path not in lines_of:
                lines_of[path] = read_source_lines(path) if path else []
            findings.append(finding_from_message(message, lines_of[path]))
        findings = assign_fingerprints(findings, root)
        log = build_log(findings, catalog.rules_of(self.linter), root=root)
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
    parser = argparse.ArgumentParser(prog="python -m mslint.sarif", description="Validate SARIF logs.")
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
