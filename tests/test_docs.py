"""Rule documentation matches the message definitions: one page per registered
mslint rule (docs/rules/<symbol>.md, titled `# <symbol> (<msgid>)`, with the
sections of the template), no page for a rule that does not exist, and the
generated index docs/rules.md up to date."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from mslint.report import catalog
from mslint.run.plugin import mslint_rules

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs" / "rules"
SECTIONS = ("## What it flags", "## Why is this bad?", "## Example", "## Use instead", "## When it stays silent")
RULES = mslint_rules()


def test_rules_are_registered() -> None:
    assert len(RULES) >= 8
    assert all(rule.symbol.startswith("ms-") for rule in RULES)
    assert len({rule.msgid for rule in RULES}) == len(RULES)


@pytest.mark.parametrize("rule", RULES, ids=[rule.symbol for rule in RULES])
def test_every_rule_has_its_page(rule: catalog.Rule) -> None:
    page = DOCS / f"{rule.symbol}.md"
    assert page.is_file(), f"{rule.symbol} ({rule.msgid}) has no docs/rules/{rule.symbol}.md"
    text = page.read_text(encoding="utf-8")
    lines = text.splitlines()
    assert lines[0] == f"# {rule.symbol} ({rule.msgid})", "the title must name the symbol and its message id"
    default = next((line for line in lines if line.startswith("**Default:**")), None)
    assert default is not None, "a **Default:** line is missing"
    assert default.startswith("**Default:** enabled") == rule.default_enabled, (
        f"the page says {default!r} but the rule is {'on' if rule.default_enabled else 'off'} by default"
    )
    for section in SECTIONS:
        assert section in lines, f"section {section!r} is missing"
    assert catalog.doc_text(rule.symbol) == text  # what `mslint explain` and SARIF help show


def test_no_page_for_a_rule_that_does_not_exist() -> None:
    known = {rule.symbol: rule for rule in RULES}
    for page in sorted(DOCS.glob("*.md")):
        assert page.stem in known, f"{page.relative_to(ROOT)} documents no registered rule"
        title = page.read_text(encoding="utf-8").splitlines()[0]
        match = re.fullmatch(r"# (\S+) \(([CEFIRW]\d{4})\)", title)
        assert match, f"{page.name}: bad title {title!r}"
        assert match.groups() == (page.stem, known[page.stem].msgid)


def test_pages_name_only_existing_rules() -> None:
    """Cross-references between pages (`ms-...` in backticks) name real rules."""
    known = {rule.symbol for rule in RULES}
    for page in sorted(DOCS.glob("*.md")):
        for name in re.findall(r"`(ms-[a-z0-9-]+)`", page.read_text(encoding="utf-8")):
            assert name in known, f"{page.name} mentions `{name}`, which is not a rule"


def test_index_is_generated_from_the_definitions() -> None:
    index = ROOT / "docs" / "rules.md"
    expected = catalog.index_markdown(RULES)
    assert index.is_file(), "run: python -m mslint.run.plugin --write"
    assert index.read_text(encoding="utf-8") == expected, "docs/rules.md is stale: python -m mslint.run.plugin --write"
    for rule in RULES:
        assert f"[{rule.symbol}](rules/{rule.symbol}.md) | {rule.msgid} |" in expected
