"""Functional tests: lint every fixture that has a ``.rc`` beside it and compare every
message (symbol, line, column, text) with its ``# [symbol]`` annotations and its
expected-output ``.txt`` file, as pylint's own functional tests do.

Regenerate the ``.txt`` files after an intended message change with
``MSLINT_UPDATE_FIXTURES=1 pytest tests/test_functional.py`` and review the diff.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from pylint.testutils import LintModuleTest
from pylint.testutils.functional import FunctionalTestFile, LintModuleOutputUpdate

from mslint.analysis import programs

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"


def _functional_files() -> list[FunctionalTestFile]:
    found = []
    for rc_file in sorted(FIXTURES.rglob("*.rc")):
        source = rc_file.with_suffix(".py")
        if source.exists():
            found.append(FunctionalTestFile(str(source.parent), source.name))
    return found


FUNCTIONAL_FILES = _functional_files()


def test_fixtures_exist() -> None:
    assert len(FUNCTIONAL_FILES) >= 5


@pytest.mark.parametrize(
    "test_file", FUNCTIONAL_FILES, ids=[str(Path(f.source).relative_to(FIXTURES)) for f in FUNCTIONAL_FILES]
)
def test_functional(test_file: FunctionalTestFile, pytestconfig: pytest.Config, kept_trees) -> None:  # noqa: ANN001
    if os.environ.get("MSLINT_UPDATE_FIXTURES"):
        lint_test: LintModuleTest = LintModuleOutputUpdate(test_file, pytestconfig)
    else:
        lint_test = LintModuleTest(test_file, pytestconfig)
    if "mindspore-mode" not in Path(test_file.option_file).read_text(encoding="utf-8"):
        # a fixture is one file of no program: it states graph code unless its .rc
        # asks mslint to infer the mode (fixtures/mode/)
        programs.use_plugin_option("graph", in_sight=False)
    # a project-shaped fixture is a project of its own: its folder under the family's
    parts = Path(test_file.source).relative_to(FIXTURES).parts
    project = FIXTURES.joinpath(*parts[:2]) if len(parts) > 2 else Path(test_file.source).parent
    finder, programs.project_root = programs.project_root, lambda path: str(project)
    try:
        lint_test.setUp()
        lint_test.runTest()
    finally:
        programs.project_root = finder
        programs.use_plugin_option("auto")  # the default for the tests that follow in this process
        # astroid caches modules (and where they are) by name: the next fixture
        # (fixtures share module names across folders), or a later in-process
        # run over a copy of the fixtures (tests/test_cache.py), must not find
        # these files instead of its own. The installed modules' trees are kept
        # (see conftest.KeptTrees), as a fresh build would make them.
        kept_trees.forget_fixture()
