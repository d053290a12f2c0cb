"""The rule catalogue: every registered message, its documentation page, and the
generated index ``docs/rules.md``.

Rules are read from the message definitions the checkers register (never from a
hand-kept list), so ``mslint rules``, the SARIF ``rules[]`` table and the docs
index cannot drift from what the checkers raise. Rule pages are
``docs/rules/<symbol>.md`` in a source checkout; a wheel carries them as
``mslint/rules_docs/<symbol>.md`` (package data mapped from ``docs/rules``).

The rules of a linter with mslint registered are mslint.run.plugin's; regenerate the
index and the rule table of README.md (between its ``<!-- rules-table -->``
markers) with ``python -m mslint.run.plugin --write``.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pylint.lint import PyLinter

DOCS_BASE_URL = "https://github.com/mslint/mslint/blob/main/docs/rules/"
INFORMATION_URI = "https://github.com/mslint/mslint"
PYLINT_DOCS_URL = "https://pylint.readthedocs.io/en/latest/user_guide/messages/{category}/{symbol}.html"

CATEGORIES = {
    "F": "fatal",
    "E": "error",
    "W": "warning",
    "C": "convention",
    "R": "refactor",
    "I": "info",
}

_PACKAGE_DIR = Path(__file__).resolve().parents[1]  # mslint/
_CHECKOUT = _PACKAGE_DIR.parent  # a source checkout: README.md, docs/


@dataclass(frozen=True)
class Rule:
    """One message definition, mslint's own or pylint's."""

    symbol: str
    msgid: str
    category: str  # fatal / error / warning / convention / refactor / info
    default_enabled: bool
    checker: str
    template: str
    description: str
    mslint: bool  # registered by an mslint checker

    @property
    def summary(self) -> str:
        return first_sentence(self.description)

    @property
    def help_uri(self) -> str:
        if self.mslint:
            return f"{DOCS_BASE_URL}{self.symbol}.md"
        return PYLINT_DOCS_URL.format(category=self.category, symbol=self.symbol)

    def as_dict(self) -> dict:
        return asdict(self)


def first_sentence(text: str) -> str:
    """The first sentence of a description, on one line."""
    text = " ".join(text.split())
    match = re.search(r"(?<=[.!?])\s+(?=[A-Z`(])", text)
    return text[: match.start()] if match else text


def close_rules(name: str, rules: Iterable[Rule]) -> list[str]:
    """The rules a mistyped ``name`` may mean (at most 2): mslint's first, by
    symbol, by id, or whose symbol contains it as a word (``numpy``); none for a
    name in another tool's namespace (``g-importing-member``) or only loosely like one."""
    known = [rule for rule in rules if rule.mslint] or list(rules)
    wanted = name.strip().lower()
    prefix = re.match(r"([a-z]{1,4})-", wanted)
    if prefix and not any(rule.symbol.startswith(prefix.group(0)) for rule in known):
        return []  # another tool's namespace (g-importing-member, c-extension-no-member): not a typo of ours
    if len(wanted) == 5 and wanted[:1].isalpha() and wanted[1:].isdigit():  # an id: E7011
        ids = [rule.msgid for rule in known]
        swapped = [msgid for msgid in ids if sorted(msgid) == sorted(wanted.upper())]  # two digits swapped
        close = swapped or difflib.get_close_matches(wanted.upper(), ids, n=1, cutoff=0.6)
        if close:
            return close[:1]
    close = difflib.get_close_matches(wanted, [rule.symbol for rule in known], n=2, cutoff=0.75)
    if close:
        return close[:1] if len(close) > 1 and difflib.SequenceMatcher(None, wanted, close[0]).ratio() > 0.9 else close
    words = [rule.symbol for rule in known if wanted and wanted in rule.symbol.split("-")]
    return words[:2]  # nothing looser: a name sharing one word with a rule is not a typo of it


def unknown_rule(name: str, rules: Iterable[Rule]) -> str:
    """``unknown rule 'x'; did you mean 'y'?``"""
    close = close_rules(name, list(rules))
    return f"unknown rule {name!r}" + (f"; did you mean {' or '.join(repr(item) for item in close)}?" if close else "")


def _is_mslint_checker(checker: object) -> bool:
    return type(checker).__module__.split(".", 1)[0] == "mslint"


def rules_of(linter: PyLinter) -> list[Rule]:
    """Every message registered on ``linter``, sorted by message number."""
    owner: dict[str, bool] = {}
    for checker in linter.get_checkers():
        for definition in getattr(checker, "messages", ()):
            owner[definition.msgid] = owner.get(definition.msgid, False) or _is_mslint_checker(checker)
    found = []
    for definition in linter.msgs_store.messages:
        found.append(
            Rule(
                symbol=definition.symbol,
                msgid=definition.msgid,
                category=CATEGORIES.get(definition.msgid[0], "info"),
                default_enabled=bool(definition.default_enabled),
                checker=definition.checker_name,
                template=definition.msg,
                description=" ".join(definition.description.split()),
                mslint=owner.get(definition.msgid, False),
            )
        )
    return sorted(found, key=sort_key)


def sort_key(rule: Rule) -> tuple[str, str]:
    """By number, then category: E7101, C7102, E7103, ..."""
    return (rule.msgid[1:], rule.msgid[:1])


# ---------------------------------------------------------------------------
# Rule pages
# ---------------------------------------------------------------------------


def docs_dirs() -> list[Path]:
    """Where rule pages can be: the wheel's package data, then a source checkout."""
    return [_PACKAGE_DIR / "rules_docs", _PACKAGE_DIR.parent / "docs" / "rules"]


def doc_path(symbol: str) -> Path | None:
    for folder in docs_dirs():
        candidate = folder / f"{symbol}.md"
        if candidate.is_file():
            return candidate
    return None


def doc_text(symbol: str) -> str | None:
    path = doc_path(symbol)
    if path is None:
        return None
    return path.read_text(encoding="utf-8")


def markdown_to_text(markdown: str) -> str:
    """A plain-text rendering of a rule page (SARIF ``help.text``)."""
    lines = []
    for line in markdown.splitlines():
        if line.startswith("```"):
            continue
        line = re.sub(r"^#+\s*", "", line)
        line = line.replace("**", "").replace("`", "")
        lines.append(line)
    return "\n".join(lines).strip() + "\n"


# ---------------------------------------------------------------------------
# The index, docs/rules.md
# ---------------------------------------------------------------------------

INDEX_HEADER = """\
# mslint rules

Generated from the message definitions by `python -m mslint.run.plugin --write`;
`tests/test_docs.py` fails when it is out of date. `mslint rules` prints the same table,
`mslint explain SYMBOL` prints a rule's page.

Categories: **E** will fail or silently train wrong; **W** likely wrong; **C** convention or hint.
Rules marked *off* are disabled by default: enable them with `enable = ["SYMBOL"]` in
`[tool.mslint]` or `--select`. The *fix* column says which rules `mslint --fix` fixes
(*safe*) and which only with `--unsafe-fixes` (*unsafe*: the fix changes what the code computes).

| rule | id | default | fix | what it flags |
| --- | --- | --- | --- | --- |
"""


def _cell(text: str) -> str:
    """Text for a markdown table cell: pipes escaped, and underscores outside
    code spans (``__init__`` must not turn bold)."""
    parts = text.replace("|", "\\|").split("`")
    for index in range(0, len(parts), 2):
        parts[index] = parts[index].replace("_", "\\_")
    return "`".join(parts)


def fix_applicability(symbol: str) -> str:
    """"safe", "unsafe" or "" (no autofix): the rule's fix as mslint/knowledge/manifest.py declares it."""
    from mslint.knowledge.manifest import BY_SYMBOL  # noqa: PLC0415

    spec = BY_SYMBOL.get(symbol)
    return spec.fix.applicability if spec is not None and spec.fix is not None else ""


def index_markdown(rules: list[Rule]) -> str:
    rows = [
        f"| [{rule.symbol}](rules/{rule.symbol}.md) | {rule.msgid} | {'on' if rule.default_enabled else 'off'} "
        f"| {fix_applicability(rule.symbol)} | {_cell(rule.summary)} |"
        for rule in rules
    ]
    return INDEX_HEADER + "\n".join(rows) + "\n"


# ---------------------------------------------------------------------------
# README.md's rule table
# ---------------------------------------------------------------------------

README_TABLE_START = "<!-- rules-table -->"
README_TABLE_END = "<!-- /rules-table -->"


def readme_table(rules: list[Rule]) -> str:
    rows = [
        f"| [{rule.symbol}](docs/rules/{rule.symbol}.md) | {rule.msgid}{'' if rule.default_enabled else ' (off)'} "
        f"| {_cell(rule.summary)} |"
        for rule in rules
    ]
    return "| rule | id | flags |\n| --- | --- | --- |\n" + "\n".join(rows) + "\n"


def with_readme_table(readme: str, rules: list[Rule]) -> str:
    """README.md's text with the table between its markers regenerated."""
    start = readme.index(README_TABLE_START) + len(README_TABLE_START)
    end = readme.index(README_TABLE_END, start)
    return readme[:start] + "\n" + readme_table(rules) + readme[end:]


def write_generated(rules: list[Rule], root: Path = _CHECKOUT) -> list[Path]:
    """Regenerate docs/rules.md and README.md's rule table in a source checkout;
    return the files that changed."""
    changed = []
    for path, make in (
        (root / "docs" / "rules.md", lambda _old: index_markdown(rules)),
        (root / "README.md", lambda old: with_readme_table(old, rules)),
    ):
        old = path.read_text(encoding="utf-8")
        new = make(old)
        if new != old:
            path.write_text(new, encoding="utf-8")
            changed.append(path)
    return changed
