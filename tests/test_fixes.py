"""Autofix (``mslint --fix``, ``--unsafe-fixes``, ``--diff``; mslint/report/fixes.py).

Every fixable rule has a fixture triple under ``fixtures/fixes/<rule>/``:
``before.py``, ``after_fix.py`` (``--fix``: the safe fixes) and
``after_unsafe_fixes.py`` (``--fix --unsafe-fixes``). The tests assert the exact
text, that fixing twice is fixing once, that re-linting the fixed file reports
none of the fixed findings, that unparseable files are never edited, that files
are unchanged without ``--fix``, and that JSON and SARIF carry the fixes.
Regenerate the expected files with ``MSLINT_UPDATE_FIXTURES=1`` (review the diff).
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from mslint.run import cli
from mslint.analysis import edits
from mslint.report import fixes, patches
from mslint.knowledge import manifest

ROOT = Path(__file__).resolve().parent.parent
FIXES = ROOT / "fixtures" / "fixes"
FIXABLE = [spec for spec in manifest.RULES if spec.fix is not None]
SCHEMA = Path("/work/shared/sarif/sarif-schema-2.1.0.json")
UPDATE = bool(os.environ.get("MSLINT_UPDATE_FIXTURES"))
EXPECTED = {False: "after_fix", True: "after_unsafe_fixes"}


def fixture(symbol: str, kind: str) -> Path:
    """fixtures/fixes/<rule>/<kind>_<rule stem>.py (kind: before, after_fix,
    after_unsafe_fixes); file names unique across the folder, as pylint wants."""
    return FIXES / symbol / f"{kind}_{symbol.replace('-', '_')}.py"


def run(*args: str) -> int:
    return cli.main(["--no-cache", "--jobs", "1", *args])


def lint_json(path: Path, symbol: str, capsys: pytest.CaptureFixture[str]) -> list[dict]:
    capsys.readouterr()
    run("--select", symbol, "--format", "json", str(path))
    return json.loads(capsys.readouterr().out)["findings"]


def test_every_fixable_rule_has_a_fixture_triple() -> None:
    assert {spec.symbol for spec in FIXABLE} == {folder.name for folder in FIXES.iterdir() if folder.is_dir()}
    for spec in FIXABLE:
        for kind in ("before", *EXPECTED.values()):
            assert fixture(spec.symbol, kind).is_file(), f"{fixture(spec.symbol, kind)} is missing"


@pytest.mark.parametrize("unsafe", [False, True], ids=["fix", "unsafe-fixes"])
@pytest.mark.parametrize("spec", FIXABLE, ids=[spec.symbol for spec in FIXABLE])
def test_fix_fixture(spec: manifest.RuleSpec, unsafe: bool, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "module.py"
    shutil.copy(fixture(spec.symbol, "before"), target)
    before = lint_json(target, spec.symbol, capsys)
    assert before, f"{spec.symbol}: before.py raises nothing"
    flags = ["--unsafe-fixes"] if unsafe else []
    run("--select", spec.symbol, "--fix", *flags, str(target))
    fixed = target.read_text(encoding="utf-8")
    expected_file = fixture(spec.symbol, EXPECTED[unsafe])
    if UPDATE:
        expected_file.write_text(fixed, encoding="utf-8")
    assert fixed == expected_file.read_text(encoding="utf-8")
    # every finding whose fix applied is gone; the rest were not offered a fix
    left = lint_json(target, spec.symbol, capsys)
    assert not [item for item in left if edits.applies(edits.Patch.from_data(item["fix"]) if "fix" in item else None, unsafe)]
    applied = spec.fix.applicability == "safe" or unsafe
    if applied:
        assert fixed != fixture(spec.symbol, "before").read_text(encoding="utf-8")
        assert len(left) < len(before)
    else:
        assert fixed == fixture(spec.symbol, "before").read_text(encoding="utf-8")
    # idempotent: fixing the fixed file changes nothing
    run("--select", spec.symbol, "--fix", *flags, str(target))
    assert target.read_text(encoding="utf-8") == fixed


@pytest.mark.parametrize("spec", FIXABLE, ids=[spec.symbol for spec in FIXABLE])
def test_findings_carry_the_declared_fix(spec: manifest.RuleSpec, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # a copy alone: in place, the mode of its Cells would be that of the fixture programs around it
    target = tmp_path / "module.py"
    shutil.copy(fixture(spec.symbol, "before"), target)
    found = lint_json(target, spec.symbol, capsys)
    offered = [item["fix"] for item in found if "fix" in item]
    assert offered, f"{spec.symbol}: no finding offers a fix"
    for fix in offered:
        assert fix["applicability"] == spec.fix.applicability
        assert fix["edits"] and all(edit["line"] >= 1 and edit["column"] >= 1 for edit in fix["edits"])


def test_positional_orders_from_the_data_get_an_unsafe_fix(capsys: pytest.CaptureFixture[str]) -> None:
    """nn.TripletMarginLoss(0.3) builds (p=0.3): naming the argument margin changes what a
    call that runs computes, so the fix of a trap the generated data found is unsafe."""
    found = lint_json(ROOT / "fixtures" / "layers" / "ms_torch_positional_args_data.py", "ms-torch-positional-args", capsys)
    offered = [item["fix"] for item in found if "fix" in item]
    assert offered and {fix["applicability"] for fix in offered} == {"unsafe"}


def test_forward_under_an_inherited_construct_gets_an_unsafe_fix(capsys: pytest.CaptureFixture[str]) -> None:
    """A forward that an inherited construct never calls: ``construct = forward``
    makes the Cell compute the subclass's forward instead of the base's construct,
    so that fix is unsafe; a Cell without construct (it cannot run) keeps the safe one."""
    found = lint_json(ROOT / "fixtures" / "training" / "ms_forward_not_construct.py", "ms-forward-not-construct", capsys)
    applicability = {item["message"].split(" ", 1)[0]: item["fix"]["applicability"] for item in found if "fix" in item}
    assert applicability.pop("MarginLogits") == "unsafe"
    assert applicability and set(applicability.values()) == {"safe"}


def test_without_fix_nothing_changes_and_diff_prints(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "module.py"
    shutil.copy(fixture("ms-torch-keyword-args", "before"), target)
    original = target.read_bytes()
    run(str(target))
    assert target.read_bytes() == original
    capsys.readouterr()
    assert run("--diff", str(target)) == cli.EXIT_FINDINGS
    out = capsys.readouterr().out
    assert target.read_bytes() == original
    assert "-dense = nn.Dense(16, 4, bias=False)" in out and "+dense = nn.Dense(16, 4, has_bias=False)" in out
    assert sorted(path.name for path in tmp_path.iterdir()) == ["module.py"]  # no working copy left behind


def test_text_report_marks_fixable_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "module.py"
    target.write_text("from mindspore import nn\nd = nn.Dense(4, 2, bias=False)\np = nn.MaxPool2d(2)\n", encoding="utf-8")
    capsys.readouterr()
    run("--enable=ms-pool-implicit-stride", str(target))  # off by default
    out = capsys.readouterr().out
    assert "E8001 [*] [ms-torch-keyword-args]" in out
    assert "W7503 [ms-pool-implicit-stride]" in out
    assert "[*] 1 fixable with `mslint --fix`; 1 more with `mslint --fix --unsafe-fixes`." in out


def test_unparseable_files_are_never_edited(tmp_path: Path) -> None:
    target = tmp_path / "broken.py"
    text = "from mindspore import nn\nd = nn.Dense(4, 2, bias=False)\ndef broken(:\n"
    target.write_text(text, encoding="utf-8")
    run("--fix", "--unsafe-fixes", str(target))
    assert target.read_text(encoding="utf-8") == text


def test_a_patch_that_breaks_the_parse_is_dropped() -> None:
    source = patches.Source("f(x=1,)\n", "utf-8", bom=False)
    delete = edits.Patch("delete", edits.SAFE, (edits.Edit(1, 3, 1, 6, ""),))
    assert patches.fixed_text(source, [delete]) == ("f(x=1,)\n", [])


def test_overlapping_patches_wait_and_identical_edits_are_shared() -> None:
    first = edits.Patch("a", edits.SAFE, (edits.Edit(1, 1, 1, 2, "A"), edits.Edit(2, 1, 2, 1, "import x\n")))
    second = edits.Patch("b", edits.SAFE, (edits.Edit(1, 1, 1, 3, "B"),))
    third = edits.Patch("c", edits.SAFE, (edits.Edit(1, 3, 1, 4, "C"), edits.Edit(2, 1, 2, 1, "import x\n")))
    text, taken = patches.apply_patches("abcd\ny\n", [second, first, third])
    assert text == "AbCd\nimport x\ny\n"
    assert taken == [first, third]


def test_line_endings_encoding_and_bom_are_kept(tmp_path: Path) -> None:
    target = tmp_path / "module.py"
    data = "\ufefffrom mindspore import nn\r\n# é\r\nd = nn.Dense(4, 2, bias=False)\r\n".encode("utf-8")
    target.write_bytes(data)
    run("--fix", str(target))
    assert target.read_bytes() == data.replace(b"bias=", b"has_bias=")


def test_fix_reaches_a_stable_file_over_rounds(tmp_path: Path) -> None:
    """``construct = forward`` makes forward's body graph code: the next round
    sees (and reports) what that exposes; the loop ends when nothing applies."""
    target = tmp_path / "module.py"
    shutil.copy(fixture("ms-forward-not-construct", "before"), target)
    def lint(paths: list[str], sources: dict[str, bytes]) -> tuple[list, dict]:
        hashes: dict = {}
        return cli.check_files(paths, _settings([str(target)]), jobs=1, use_cache=False, hashes=hashes), hashes


    found, hashes = lint([str(target)], {})
    outcome = fixes.run(lint, [str(target)], found, unsafe=True, write=True, hashes=hashes)
    assert outcome.fixed == {str(target): 1}
    assert 1 <= outcome.rounds <= fixes.MAX_ROUNDS
    assert "    construct = forward\n" in target.read_text(encoding="utf-8")


def _settings(files: list[str]) -> cli.Settings:
    rules = cli.load_catalogue(False)
    return cli.Settings(
        enabled=cli.enabled_messages(rules, None, [], [], "test"),
        jit_syntax_level="lax",
        roots=[str(Path(files[0]).parent)],
        skipped_libraries=cli.skipped_libraries(files),
    )


def test_json_and_sarif_carry_fixes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    target = tmp_path / "module.py"
    target.write_text("from mindspore import nn\nd = nn.Dense(4, 2, bias=False)\n", encoding="utf-8")
    capsys.readouterr()
    run("--format", "json", str(target))
    finding = json.loads(capsys.readouterr().out)["findings"][0]
    assert finding["fix"] == {
        "description": "write has_bias=False",
        "applicability": "safe",
        "edits": [{"line": 2, "column": 20, "endLine": 2, "endColumn": 24, "text": "has_bias"}],
    }
    sarif_file = tmp_path / "out.sarif"
    run("--format", "sarif", "--output", str(sarif_file), str(target))
    log = json.loads(sarif_file.read_text(encoding="utf-8"))
    (result,) = log["runs"][0]["results"]
    (fix,) = result["fixes"]
    change = fix["artifactChanges"][0]
    assert change["replacements"] == [
        {"deletedRegion": {"startLine": 2, "startColumn": 20, "endLine": 2, "endColumn": 24}, "insertedContent": {"text": "has_bias"}}
    ]
    assert fix["properties"]["applicability"] == "safe"
    if SCHEMA.is_file():
        from mslint.report import sarif  # noqa: PLC0415

        assert sarif.main(["--schema", str(SCHEMA), "--validate", str(sarif_file)]) == 0


@pytest.mark.parametrize("spec", FIXABLE, ids=[spec.symbol for spec in FIXABLE])
def test_rule_page_describes_the_fix(spec: manifest.RuleSpec) -> None:
    page = (ROOT / spec.doc).read_text(encoding="utf-8")
    assert "\n## Fix\n" in page and f"**{spec.fix.applicability}**" in page


def test_precommit_fix_hook_applies_safe_fixes_only() -> None:
    yaml = pytest.importorskip("yaml")
    hooks = yaml.safe_load((ROOT / ".pre-commit-hooks.yaml").read_text(encoding="utf-8"))
    hook = next(hook for hook in hooks if hook["id"] == "mslint-fix")
    assert hook["entry"].split() == ["mslint", "--fix"]
