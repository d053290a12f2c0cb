"""The rule manifest (mslint/knowledge/manifest.py) agrees exactly with the checkers' message
definitions, and every rule has what it needs: a positive and a negative fixture,
oracle tests, a documentation page (or the manifest says why it cannot); the
README rule table and docs/rules.md are generated from the definitions.
Static: needs neither MindSpore nor PyTorch."""

from __future__ import annotations

import ast
import configparser
from pathlib import Path

import pytest

from mslint.report import catalog
from mslint.run.plugin import mslint_rules
from mslint.knowledge import manifest
from mslint.confirm import rules as confirm_rules

ROOT = Path(__file__).resolve().parent.parent
SPECS = manifest.RULES


def _enabled(rc_file: Path) -> set[str]:
    config = configparser.ConfigParser()
    config.read(rc_file, encoding="utf-8")
    listed = config.get("MESSAGES CONTROL", "enable", fallback="")
    return {name.strip() for name in listed.split(",") if name.strip()}


def _expected_symbols(source: Path) -> set[str]:
    """The symbols a fixture's expected-output file lists (pylint's .txt format)."""
    expected = source.with_suffix(".txt")
    if not expected.is_file():
        return set()
    return {line.split(":", 1)[0] for line in expected.read_text(encoding="utf-8").splitlines() if line}


def _test_functions(module: Path) -> list[str]:
    tree = ast.parse(module.read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("test_")]


def test_manifest_matches_the_message_definitions() -> None:
    """Symbol, id, default and checker of every rule: the same in the manifest
    and in the checkers' msgs tables, and no rule in only one of them."""
    registered = {rule.symbol: (rule.msgid, rule.default_enabled, rule.checker) for rule in mslint_rules()}
    declared = {spec.symbol: (spec.msgid, spec.default_enabled, spec.checker) for spec in SPECS}
    assert declared == registered


def test_manifest_is_in_message_number_order() -> None:
    assert len({spec.symbol for spec in SPECS}) == len({spec.msgid[1:] for spec in SPECS}) == len(SPECS)
    assert [spec.msgid[1:] for spec in SPECS] == sorted(spec.msgid[1:] for spec in SPECS)
    assert all(spec.symbol.startswith("ms-") for spec in SPECS)


@pytest.mark.parametrize("spec", SPECS, ids=[spec.symbol for spec in SPECS])
def test_confirmation_and_fix_are_declared(spec: manifest.RuleSpec) -> None:
    assert set(spec.confirm) <= set(manifest.CONFIRMATIONS), spec.confirm
    assert bool(spec.confirm) != bool(spec.unconfirmed.strip()), "give confirm= or the reason it cannot (unconfirmed=), not both"
    if manifest.FALLBACK in spec.confirm:
        assert manifest.GRAPH_ERROR in spec.confirm, "the LAX fallback is checked only for graph-error rules"
    assert spec.fix is None or (spec.fix.description and spec.fix.applicability in ("safe", "unsafe"))


def test_confirmation_sets_come_from_the_manifest() -> None:
    assert confirm_rules.CONFIRMABLE == {spec.symbol for spec in SPECS if spec.confirm}
    assert confirm_rules.COMPILE_ERROR_MSGID == manifest.BY_SYMBOL[confirm_rules.COMPILE_ERROR_SYMBOL].msgid


@pytest.mark.parametrize("spec", SPECS, ids=[spec.symbol for spec in SPECS])
def test_positive_fixture(spec: manifest.RuleSpec) -> None:
    if spec.no_fixtures:
        assert not (ROOT / spec.fixture).exists(), "the rule has fixtures: drop no_fixtures"
        return
    source = ROOT / spec.fixture
    assert source.is_file(), f"{spec.symbol} has no positive fixture {spec.fixture}"
    assert spec.symbol in _enabled(source.with_suffix(".rc")), f"{spec.fixture}'s .rc must enable {spec.symbol}"
    assert spec.symbol in _expected_symbols(source), f"{spec.fixture} raises no {spec.symbol} (its .txt lists none)"


@pytest.mark.parametrize("spec", SPECS, ids=[spec.symbol for spec in SPECS])
def test_negative_fixture(spec: manifest.RuleSpec) -> None:
    if spec.no_fixtures:
        return
    source = ROOT / spec.negative_fixture
    assert source.is_file(), f"{spec.symbol} has no negative fixture {spec.negative_fixture}"
    assert spec.symbol in _enabled(source.with_suffix(".rc")), f"{spec.negative_fixture}'s .rc must enable {spec.symbol}"
    assert spec.symbol not in _expected_symbols(source), f"the negative fixture {spec.negative_fixture} raises {spec.symbol}"


@pytest.mark.parametrize("spec", SPECS, ids=[spec.symbol for spec in SPECS])
def test_oracle_tests(spec: manifest.RuleSpec) -> None:
    if spec.no_oracle:
        assert not (ROOT / spec.oracle_module).is_file() or not any(
            name.startswith(f"test_{spec.stem}_") for name in _test_functions(ROOT / spec.oracle_module)
        ), "the rule has oracle tests: drop no_oracle"
        return
    module = ROOT / spec.oracle_module
    assert module.is_file(), f"{spec.symbol}: no {spec.oracle_module}"
    assert any(name.startswith(f"test_{spec.stem}_") for name in _test_functions(module)), (
        f"{spec.symbol} has no oracle test {spec.oracle}<what>"
    )


@pytest.mark.parametrize("spec", SPECS, ids=[spec.symbol for spec in SPECS])
def test_doc_page(spec: manifest.RuleSpec) -> None:
    assert (ROOT / spec.doc).is_file(), f"{spec.symbol} has no {spec.doc}"


def test_oracle_tests_are_named_after_their_rule() -> None:
    """test_ms_<rule>_<what> in the module of the rule's family; test_table_<what>
    for the tests that keep a shared table of mslint.knowledge.apis equal to the frameworks."""
    for module in sorted((ROOT / "tests" / "oracle").glob("test_*.py")):
        prefixes = tuple(f"test_{spec.stem}_" for spec in SPECS if spec.oracle_module == f"tests/oracle/{module.name}")
        for name in _test_functions(module):
            assert name.startswith((*prefixes, "test_table_")), f"{module.name}::{name} is named after no rule of its family"


def test_rule_fixtures_are_named_after_a_rule() -> None:
    stems = tuple(spec.stem for spec in SPECS)
    for source in sorted((ROOT / "fixtures").rglob("ms_*.py")):
        assert source.stem.startswith(stems), f"{source.relative_to(ROOT)} is named after no rule"
        owner = max((spec for spec in SPECS if source.stem.startswith(spec.stem)), key=lambda spec: len(spec.stem))
        assert source.parent.name == owner.family, f"{source.relative_to(ROOT)} belongs in fixtures/{owner.family}/"


def test_readme_rule_table_is_generated() -> None:
    """(tests/test_docs.py checks docs/rules.md, generated by the same command.)"""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    assert catalog.with_readme_table(readme, mslint_rules()) == readme, (
        "README.md's rule table is stale: run python -m mslint.run.plugin --write"
    )


def test_write_regenerates_a_stale_table_and_index(tmp_path: Path) -> None:
    rules = mslint_rules()
    (tmp_path / "docs").mkdir()
    (tmp_path / "docs" / "rules.md").write_text("stale\n", encoding="utf-8")
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    stale = readme.replace(f"| {rules[0].msgid} |", "| E0000 |")
    assert stale != readme
    (tmp_path / "README.md").write_text(stale, encoding="utf-8")
    assert catalog.write_generated(rules, tmp_path) == [tmp_path / "docs" / "rules.md", tmp_path / "README.md"]
    assert (tmp_path / "README.md").read_text(encoding="utf-8") == readme
    assert (tmp_path / "docs" / "rules.md").read_text(encoding="utf-8") == catalog.index_markdown(rules)
    assert catalog.write_generated(rules, tmp_path) == []
