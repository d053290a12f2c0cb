"""Generate mslint's PyTorch-to-MindSpore mapping data (``torch_to_mindspore.json``).

    python -m mslint.knowledge.mapping.generate --docs-git /path/to/mindspore-ai/docs.git

reads the official mapping pages (``docs/mindspore/source_{en,zh_cn}/note/
api_mapping/pytorch_api_mapping.md`` and ``pytorch_diff/*.md``) from the
revisions in :data:`SOURCES` of a clone of mindspore-ai/docs (a bare one
works: pages are read with ``git show``), then measures every row against the
installed MindSpore and PyTorch (``measure.py``: the named counterpart must
import; parameters by introspection) and writes the data beside this file.
Where the pages and the frameworks disagree the measurement wins, and the data
keeps both (``docs`` and ``verification`` of each entry). ``--no-measure`` writes
what the pages alone say (no framework needed; the tests use it on a sample).

Which revisions: the mapping pages of the current docs (master, "PyTorch 2.1
APIs", mint counterparts first) list 514 PyTorch APIs and keep 69 difference
pages; r2.4.10 (the last branch before the per-API pages were deleted) lists 876
with 231 difference pages (ops and nn counterparts). Both are read; master's
counterpart comes first. The zh_cn twin is read too and adds the rows the
English page lacks (none, in these revisions).
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
from dataclasses import asdict
from pathlib import Path

from mslint.knowledge import mapping
from mslint.knowledge.mapping import compare as comparing
from mslint.knowledge.mapping import pages

HERE = Path(__file__).resolve().parent
DATA_FILE = HERE / "torch_to_mindspore.json"
FORMAT = 1

# (revision of mindspore-ai/docs, the PyTorch version its table describes)
SOURCES: tuple[tuple[str, str], ...] = (("master", "2.1"), ("r2.4.10", "1.8.1"))
LANGUAGES = ("en", "zh_cn")
MAPPING_PAGE = "docs/mindspore/source_{lang}/note/api_mapping/pytorch_api_mapping.md"
DIFF_PAGE = "docs/mindspore/source_{lang}/note/api_mapping/pytorch_diff/{name}.md"
MAPPING_FOLDER = "docs/mindspore/source_en/note/api_mapping"

# Where a PyTorch name's namesake lives in MindSpore: mint follows PyTorch's
# names and meanings, so ``torch.nn.functional.relu`` is looked for as
# ``mindspore.mint.nn.functional.relu`` first (longest prefix wins).
NAMESAKE_PREFIXES: tuple[tuple[str, str], ...] = (
    ("torch.nn.functional.", "mindspore.mint.nn.functional."),
    ("torch.optim.lr_scheduler.", "mindspore.mint.optim.lr_scheduler."),
    ("torch.distributed.", "mindspore.mint.distributed."),
    ("torch.nn.", "mindspore.mint.nn."),
    ("torch.optim.", "mindspore.mint.optim."),
    ("torch.linalg.", "mindspore.mint.linalg."),
    ("torch.special.", "mindspore.mint.special."),
    ("torch.fft.", "mindspore.mint.fft."),
    ("torch.Tensor.", "mindspore.Tensor."),
    ("torch.", "mindspore.mint."),
)
# Namesakes outside mint (``torch.transpose`` and ``mindspore.ops.transpose``):
# measured and kept as candidates, never chosen as the counterpart (the same name
# may mean something else there), so that the report and the rules can say how
# they differ.
ELSEWHERE_PREFIXES: tuple[tuple[str, str], ...] = (
    ("torch.nn.functional.", "mindspore.ops."),
    ("torch.nn.", "mindspore.nn."),
    ("torch.optim.", "mindspore.nn."),
    ("torch.", "mindspore.ops."),
)
ELSEWHERE = "namesake-elsewhere"
# PyTorch names that are values (dtypes): their namesake is mindspore's own.
VALUE_PREFIXES: tuple[tuple[str, str], ...] = (("torch.", "mindspore."),)
# Rows the mapping table lacks but the migration guide states
# (migration_guide/model_development/model_and_cell.md, r2.4.10: a network
# inherits nn.Cell where PyTorch's inherits nn.Module and defines construct
# where PyTorch's defines forward; nn.Sequential is nn.SequentialCell...).
# (PyTorch API, MindSpore API, what the guide says)
GUIDE_ROWS: tuple[tuple[str, str, str], ...] = (
    ("torch.nn.Module", "mindspore.nn.Cell",
     "a Cell defines construct() where a Module defines forward(); Module methods (parameters(), eval(), "
     "train(), named_modules()...) have other names"),
    ("torch.nn.Sequential", "mindspore.nn.SequentialCell", "Consistent"),
    ("torch.nn.ModuleList", "mindspore.nn.CellList", "Consistent"),
    ("torch.nn.ModuleDict", "mindspore.nn.CellDict", "Consistent"),
    ("torch.nn.Parameter", "mindspore.Parameter", "a Parameter takes its data as default_input"),
    ("torch.Tensor", "mindspore.Tensor", "Consistent"),
)
GUIDE_REVISION = "migration guide (r2.4.10)"
# Modules of the PyTorch packages the frameworks' environment may lack
# (torchvision and friends are not test dependencies): known to be modules.
UNINSTALLED_MODULES: tuple[str, ...] = (
    "torchvision", "torchvision.transforms", "torchvision.transforms.functional", "torchvision.transforms.v2",
    "torchvision.models", "torchvision.models.detection", "torchvision.datasets", "torchvision.ops",
    "torchvision.utils", "torchvision.io", "torchaudio", "torchaudio.transforms", "torchaudio.functional",
    "torchtext", "torchtext.data", "torchtext.datasets", "torchtext.vocab",
)
# Notes in a difference table that say nothing beyond a rename or "the same".
_TRIVIAL_NOTES = (
    "", "-", "—", "consistent", "not involved", "the same", "same", "一致", "功能一致", "不涉及", "无",
    "no difference", "consistent function", "consistent functions", "the function is consistent",
    "the functions are consistent", "function is consistent", "same function",
)


# ---------------------------------------------------------------------------
# Reading the pages
# ---------------------------------------------------------------------------
class GitDocs:
    """Pages at one revision of a mindspore-ai/docs clone."""

    def __init__(self, git_dir: str, ref: str) -> None:
        self.git_dir = git_dir
        self.ref = ref

    def _git(self, *args: str) -> str | None:
        completed = subprocess.run(
            ["git", "--git-dir", self.git_dir, *args], capture_output=True, text=True, check=False
        )
        return completed.stdout if completed.returncode == 0 else None

    def read(self, path: str) -> str | None:
        return self._git("show", f"{self.ref}:{path}")

    def describe(self) -> dict:
        line = self._git("log", "-1", "--format=%H %cs", self.ref, "--", MAPPING_FOLDER) or ""
        commit, _, date = line.strip().partition(" ")
        return {"revision": self.ref, "commit": commit, "date": date}


class FolderDocs:
    """Pages in a folder laid out as the docs repository (the tests' sample)."""

    def __init__(self, root: str | Path, ref: str) -> None:
        self.root = Path(root) / ref
        self.ref = ref

    def read(self, path: str) -> str | None:
        try:
            return (self.root / path).read_text(encoding="utf-8")
        except OSError:
            return None

    def describe(self) -> dict:
        return {"revision": self.ref, "commit": "", "date": ""}


def read_sources(sources: list) -> tuple[list[dict], dict[str, dict], list[str]]:
    """(rows, difference pages by "revision:name", general parameters) of all sources.

    A row is a MappingRow as a dict plus "revision" and "language"; the English
    page's rows come first, the Chinese page adds only rows the English lacks.
    """
    rows: list[dict] = []
    diffs: dict[str, dict] = {}
    general: list[str] = []
    for docs, _pytorch in sources:
        seen: set[tuple[str, tuple[str, ...]]] = set()
        for lang in LANGUAGES:
            text = docs.read(MAPPING_PAGE.format(lang=lang))
            if text is None:
                continue
            if lang == "en":
                general += [name for name in pages.general_parameters(text) if name not in general]
            for row in pages.read_mapping_page(text):
                key = (row.torch, tuple(row.mindspore))
                if key in seen:
                    continue
                seen.add(key)
                rows.append({**asdict(row), "revision": docs.ref, "language": lang})
                if row.diff_page and f"{docs.ref}:{row.diff_page}" not in diffs:
                    page = _read_diff(docs, row.diff_page)
                    if page is not None:
                        diffs[f"{docs.ref}:{row.diff_page}"] = page
    return rows, diffs, general


def _read_diff(docs, name: str) -> dict | None:
    for lang in LANGUAGES:
        text = docs.read(DIFF_PAGE.format(lang=lang, name=name))
        if text is not None:
            page = asdict(pages.read_diff_page(name, text))
            page["language"] = lang
            return page
    return None


# ---------------------------------------------------------------------------
# From rows to entries
# ---------------------------------------------------------------------------
def namesake(torch_api: str, value: bool = False) -> str | None:
    for prefix, target in VALUE_PREFIXES if value else NAMESAKE_PREFIXES:
        if torch_api.startswith(prefix):
            return target + torch_api[len(prefix):]
    return None


def namesake_elsewhere(torch_api: str) -> str | None:
    if torch_api.startswith("torch.Tensor."):
        return None
    for prefix, target in ELSEWHERE_PREFIXES:
        if torch_api.startswith(prefix):
            rest = torch_api[len(prefix):]
            return target + rest if "." not in rest else None
    return None


def _doc_rows_for(page: dict | None) -> list[dict]:
    """The parameter rows of a difference page: one table serves every pair the
    page names (``torch.diag`` and ``torch.Tensor.diag``); names a pair does not
    have are never matched."""
    return (page or {}).get("rows") or []


def _trivial(note: str) -> bool:
    lowered = note.strip().strip(".。").lower()
    if lowered in _TRIVIAL_NOTES or not any(char.isalpha() for char in lowered):
        return True
    words = lowered.replace(",", " ").replace("，", " ").split()
    if len(words) <= 8 and "default" in lowered and not any(w in lowered for w in ("support", "type", "mean")):
        return True  # "Same function, different default values": the signatures measure it
    # "Same function, different parameter names", "功能一致，参数名不同"
    return ("name" in lowered or "参数名" in lowered) and not any(
        word in lowered for word in ("default", "type", "support", "value", "position", "order", "默认", "类型", "支持")
    ) and len(words) <= 8


_ELSEWHERE = re.compile(r"refer to the above|see (the )?above|参见上文|详见上文", re.I)


def doc_notes(rows: list[dict], page: str | None = None) -> list[str]:
    """What a page says differs beyond names: forward inputs and outputs,
    parameters of the same name with a note (values supported, meaning)."""
    notes = []
    for row in rows:
        note = row.get("note") or ""
        if _trivial(note):
            continue
        torch_name, ms_name = row.get("torch"), row.get("mindspore")
        if row.get("category") == "parameter" and torch_name != ms_name:
            continue  # a renamed or missing parameter: measured, not taken from the page
        what = {"parameter": "parameter", "input": "input", "output": "output"}.get(row.get("category"), "")
        label = torch_name or ms_name or ""
        if _ELSEWHERE.search(note):
            note = f"differs (the difference page {page} explains it)" if page else "differs"
        notes.append(f"{what} {label}: {note}".strip())
    return notes


def build(sources: list, measurer=None) -> dict:
    """The data: one entry per PyTorch API the pages list (and, when measuring,
    per public PyTorch API whose mint namesake exists)."""
    rows, diffs, general = read_sources(sources)
    listed = {row["torch"] for row in rows}
    for torch_api, ms_api, said in GUIDE_ROWS:
        if torch_api not in listed:
            rows.append({"torch": torch_api, "mindspore": [ms_api], "description": said,
                         "consistent": said == "Consistent", "diff_page": None, "section": "migration guide",
                         "revision": GUIDE_REVISION, "language": "en"})
    general_set = frozenset(general)
    by_torch: dict[str, list[dict]] = {}
    for row in rows:
        by_torch.setdefault(row["torch"], []).append(row)
    if measurer is not None:
        for torch_api in measurer.public_torch_apis():
            by_torch.setdefault(torch_api, [])
    entries = {}
    for torch_api in sorted(by_torch):
        entry = _entry(torch_api, by_torch[torch_api], diffs, general_set, measurer)
        if entry is not None:
            entries[torch_api] = entry
    described = [docs.describe() | {"pytorch_docs": pytorch} for docs, pytorch in sources]
    data = {
        "format": FORMAT,
        "sources": described,
        "general_parameters": general,
        "apis": entries,
    }
    if measurer is not None:
        data.update(measurer.versions())
        data["verification"] = _summary(entries)
        data["torch_tensor_attributes"] = measurer.tensor_attributes()
        data["torch_modules"] = sorted(set(measurer.torch_modules()) | set(UNINSTALLED_MODULES))
    return data


def _candidate(api: str, origin: str, doc_row: dict | None, diffs: dict) -> dict:
    candidate: dict = {"api": api, "origin": origin}
    if doc_row is not None:
        page_key = f"{doc_row['revision']}:{doc_row['diff_page']}" if doc_row.get("diff_page") else None
        page = diffs.get(page_key) if page_key else None
        candidate["docs"] = {
            "revision": doc_row["revision"],
            "consistent": doc_row["consistent"],
            "description": doc_row["description"],
            "diff_page": doc_row.get("diff_page"),
            "section": doc_row.get("section"),
        }
        if page is not None:
            candidate["docs"]["rows"] = [
                {k: row[k] for k in ("category", "torch", "mindspore", "note")}
                for row in _doc_rows_for(page)
            ]
            candidate["docs"]["not_consistent"] = bool(page.get("not_consistent"))
            summary = [line for line in page.get("summary") or () if line.lower().startswith("mindspore")]
            if summary and len(summary[0]) > len("MindSpore:") + 3:
                candidate["docs"]["summary"] = summary[0][:400]
    return candidate


def _entry(torch_api: str, rows: list[dict], diffs: dict, general: frozenset[str], measurer) -> dict | None:
    candidates: list[dict] = []
    seen: set[str] = set()

    def add(api: str, origin: str, doc_row: dict | None = None) -> None:
        if api in seen:
            for candidate in candidates:
                if candidate["api"] == api and doc_row is not None and "docs" not in candidate:
                    candidate.update({k: v for k, v in _candidate(api, origin, doc_row, diffs).items() if k == "docs"})
            return
        seen.add(api)
        candidates.append(_candidate(api, origin, doc_row, diffs))

    torch_info = measurer.torch_side(torch_api) if measurer is not None else None
    value = torch_info is not None and torch_info["kind"] == "value"
    own = namesake(torch_api, value=value)
    if measurer is not None and own and own.startswith("mindspore.mint.") and measurer.exists(own):
        add(own, "namesake")
    for row in rows:
        for api in row["mindspore"]:
            add(api, f"docs:{row['revision']}", row)
    if measurer is not None and own and own not in seen and measurer.exists(own):
        add(own, "namesake")
    other = namesake_elsewhere(torch_api)
    if measurer is not None and other and other not in seen and measurer.exists(other):
        add(other, ELSEWHERE)
    if not candidates:
        return None if measurer is not None else {"kind": None, "counterpart": None, "status": "missing",
                                                  "candidates": []}
    docs_first = next((c for c in candidates if "docs" in c), None)
    entry: dict = {
        "kind": torch_info["kind"] if torch_info else None,
        "docs": {"counterpart": docs_first["api"], "status": _docs_status(docs_first)} if docs_first else None,
    }
    if torch_info is not None:
        entry["torch"] = {k: torch_info[k] for k in ("exists", "overloads", "how", "returns_tensor") if k in torch_info}
    for candidate in candidates:
        _judge(candidate, torch_info, general, measurer)
    chosen = _choose(candidates)
    entry["counterpart"] = chosen["api"] if chosen else None
    entry["status"] = chosen["status"] if chosen else "missing"
    entry["candidates"] = candidates
    if measurer is not None:
        entry["verification"] = _changes(entry, candidates)
    return entry


def _docs_status(candidate: dict) -> str:
    return "same" if candidate["docs"]["consistent"] else "differs"


def _judge(candidate: dict, torch_info: dict | None, general: frozenset[str], measurer) -> None:
    """Status and differences of one candidate: measured when both signatures
    are known, else what the page says."""
    docs = candidate.get("docs")
    rows = (docs or {}).get("rows") or []
    notes = doc_notes(rows, (docs or {}).get("diff_page"))
    if docs and docs.get("revision") == GUIDE_REVISION and not docs.get("consistent"):
        notes.append(f"the migration guide: {docs['description']}")
    if docs and docs.get("not_consistent"):
        said = docs.get("summary") or "MindSpore: see the difference page"
        notes.insert(0, f"the mapping pages ({docs['revision']}) say the function is not consistent with PyTorch's: {said}")
    if measurer is None:
        candidate["status"] = _docs_status(candidate) if docs else "differs"
        candidate["verified"] = False
        candidate["notes"] = notes
        return
    ms_info = measurer.mindspore_side(candidate["api"])
    candidate["exists"] = ms_info["exists"]
    if not ms_info["exists"]:
        candidate["status"] = "absent"
        return
    candidate["kind"] = ms_info["kind"]
    torch_overloads = _readable((torch_info or {}).get("overloads"))
    ms_overloads = _readable(ms_info.get("overloads"))
    if torch_overloads and ms_overloads:
        pair_by_position = bool(docs) and not docs.get("diff_page") and "name" in (docs.get("description") or "").lower()
        torch_params, ms_params, result = comparing.compare_overloads(
            torch_overloads, ms_overloads, rows, general, pair_by_position
        )
        candidate["signature"] = ms_params
        candidate["signature_from"] = ms_info.get("how")
        candidate["torch_signature"] = torch_params if len(torch_overloads) > 1 else None
        candidate["parameters"] = result["parameters"]
        candidate["renamed_from"] = {k: v for k, v in result["sources"].items() if v != "name"}
        candidate["differences"] = result["differences"]
        candidate["general"] = result["general"]
        candidate["rejected"] = result["rejected"]
        candidate["verified"] = True
        candidate["notes"] = notes
        candidate["status"] = "differs" if result["differences"] or notes else "same"
        return
    candidate["verified"] = False
    candidate["notes"] = notes
    if ms_info["kind"] == "value" and (torch_info or {}).get("kind") == "value":
        candidate["status"] = "same"
    elif docs:
        candidate["status"] = _docs_status(candidate)
    else:
        candidate["status"] = "differs"
        candidate["notes"] = ["not in the mapping pages, and the parameters could not be compared"]


def _readable(overloads: list[list[list]] | None) -> list[list[list]] | None:
    """Overloads that say something: ``(*args, **kwargs)`` says nothing of the
    parameters (mindspore.nn.CellDict), so the pages decide there."""
    def opaque(params: list[list]) -> bool:
        kinds = {kind for _, kind, _ in params}
        return bool(params) and kinds <= {"*", "**"} and ("**" in kinds or params[0][0] == "args")

    if not overloads or all(opaque(params) for params in overloads):
        return None
    return overloads


def _choose(candidates: list[dict]) -> dict | None:
    present = [c for c in candidates if c["status"] != "absent" and c["origin"] != ELSEWHERE]
    for candidate in present:
        if candidate["status"] == "same":
            return candidate
    return present[0] if present else None


def _changes(entry: dict, candidates: list[dict]) -> list[str]:
    """What the measurement changed in what the pages say of this API."""
    changes = []
    docs = entry.get("docs")
    if docs is None:
        if entry["counterpart"]:
            changes.append(f"not in the pages: {entry['counterpart']} found by name ({entry['status']})")
        return changes
    docs_candidate = next(c for c in candidates if c["api"] == docs["counterpart"])
    if docs_candidate["status"] == "absent":
        changes.append(f"{docs['counterpart']} does not exist in the installed MindSpore")
    elif docs_candidate.get("verified") and docs_candidate["status"] != docs["status"]:
        changes.append(f"the pages say {docs['status']}, the signatures say {docs_candidate['status']}")
    if docs_candidate.get("rejected"):
        changes += [f"parameter pairing rejected: {text}" for text in docs_candidate["rejected"]]
    if entry["counterpart"] != docs["counterpart"]:
        changes.append(f"counterpart {entry['counterpart']} ({entry['status']}) instead of {docs['counterpart']}")
    return changes


def _summary(entries: dict) -> dict:
    documented = [e for e in entries.values() if e.get("docs")]
    changed = [e for e in documented if e.get("verification")]
    def count(word: str) -> int:
        return sum(1 for e in documented if any(word in change for change in e["verification"]))
    return {
        "documented": len(documented),
        "changed": len(changed),
        "counterpart_absent": count("does not exist"),
        "status_changed": count("the pages say"),
        "pairing_rejected": count("pairing rejected"),
        "counterpart_changed": count("instead of"),
        "found_by_name": sum(1 for e in entries.values() if not e.get("docs") and e.get("counterpart")),
        "namesakes_elsewhere": sum(1 for e in entries.values() for c in e["candidates"] if c["origin"] == ELSEWHERE),
    }


def linter_tables() -> dict:
    """What the rules take from the shipped data (see mapping.linter_tables)."""
    return json.loads(json.dumps({"torch_keywords": mapping.torch_keywords(),
                                  "positional_orders": mapping.positional_orders(),
                                  "positional_limits": mapping.positional_limits()}))


def write_linter_tables() -> None:
    mapping.LINTER_FILE.write_text(json.dumps(linter_tables(), separators=(",", ":"), sort_keys=True) + "\n",
                                   encoding="utf-8")


# ---------------------------------------------------------------------------
# Checking the shipped data against the installed frameworks
# ---------------------------------------------------------------------------
_CHECKED_FIELDS = ("exists", "status", "signature", "parameters", "differences")


def check(data: dict, measurer) -> list[str]:
    """What no longer holds in ``data`` with the installed frameworks: each
    candidate re-measured from what the pages said of it (kept in the data), the
    counterpart chosen again, and every public PyTorch API whose mint namesake
    now exists. Empty when the frameworks still match the data."""
    problems = []
    versions = measurer.versions()
    for key in ("mindspore", "torch"):
        if data.get(key) != versions[key]:
            problems.append(f"the data describes {key} {data.get(key)}, {versions[key]} is installed")
    general = frozenset(data.get("general_parameters", ()))
    for torch_api, entry in data["apis"].items():
        torch_info = measurer.torch_side(torch_api)
        stored_torch = entry.get("torch") or {}
        if stored_torch.get("overloads") != torch_info.get("overloads"):
            problems.append(f"{torch_api}: PyTorch's parameters changed")
        fresh = []
        for candidate in entry["candidates"]:
            again = {k: candidate[k] for k in ("api", "origin", "docs") if k in candidate}
            _judge(again, torch_info, general, measurer)
            fresh.append(again)
            for field in _CHECKED_FIELDS:
                if candidate.get(field) != again.get(field):
                    problems.append(f"{torch_api} -> {candidate['api']}: {field} {candidate.get(field)!r} "
                                    f"is now {again.get(field)!r}")
        chosen = _choose(fresh)
        if (chosen["api"] if chosen else None) != entry["counterpart"]:
            problems.append(f"{torch_api}: the counterpart is now {chosen['api'] if chosen else None}")
        known = {c["api"] for c in entry["candidates"]}
        for own in (namesake(torch_api, value=torch_info.get("kind") == "value"), namesake_elsewhere(torch_api)):
            if own and own not in known and measurer.exists(own):
                problems.append(f"{torch_api}: the installed MindSpore has {own}, which the data lacks")
    for torch_api in measurer.public_torch_apis():
        if torch_api in data["apis"]:
            continue
        value = measurer.torch_side(torch_api).get("kind") == "value"
        for own in (namesake(torch_api, value=value), namesake_elsewhere(torch_api)):
            if own and measurer.exists(own):
                problems.append(f"{torch_api}: the installed MindSpore has {own}, which the data lacks")
    return problems


# ---------------------------------------------------------------------------
# The command
# ---------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--docs-git", help="a clone of mindspore-ai/docs (bare or not: its .git folder)")
    parser.add_argument("--docs-folder", help="a folder of pages laid out as <revision>/docs/mindspore/... (tests)")
    parser.add_argument("--revisions", nargs="*", default=[ref for ref, _ in SOURCES])
    parser.add_argument("--no-measure", action="store_true", help="write what the pages say, unmeasured")
    parser.add_argument("--output", default=str(DATA_FILE))
    parser.add_argument("--check", action="store_true",
                        help="re-measure the shipped data with the installed frameworks; exit 1 when it no longer holds")
    args = parser.parse_args(argv)
    if args.check:
        from mslint.knowledge.mapping.measure import Measurer  # noqa: PLC0415 - imports the frameworks

        data = json.loads(Path(args.output).read_text(encoding="utf-8"))
        problems = check(data, Measurer())
        for problem in problems:
            print(problem)
        print(f"{len(problems)} differences between the data and the installed frameworks", file=sys.stderr)
        return 1 if problems else 0
    pytorch_of = dict(SOURCES)
    if args.docs_git:
        sources = [(GitDocs(args.docs_git, ref), pytorch_of.get(ref, "")) for ref in args.revisions]
    elif args.docs_folder:
        sources = [(FolderDocs(args.docs_folder, ref), pytorch_of.get(ref, "")) for ref in args.revisions]
    else:
        parser.error("give --docs-git or --docs-folder")
    measurer = None
    if not args.no_measure:
        from mslint.knowledge.mapping.measure import Measurer  # noqa: PLC0415 - imports the frameworks

        measurer = Measurer()
    data = build(sources, measurer)
    Path(args.output).write_text(json.dumps(data, indent=None, separators=(",", ":"), sort_keys=False) + "\n",
                                 encoding="utf-8")
    if Path(args.output).resolve() == DATA_FILE:
        mapping.data.cache_clear()
        mapping.by_mindspore.cache_clear()
        write_linter_tables()
    summary = data.get("verification")
    print(f"{len(data['apis'])} PyTorch APIs written to {args.output}", file=sys.stderr)
    if summary:
        print("verification: " + ", ".join(f"{k} {v}" for k, v in summary.items()), file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
