"""Shared pytest configuration."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

CLI_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "cli"


def pytest_addoption(parser: pytest.Parser) -> None:
    # pylint.testutils.LintModuleTest reads this option (pylint's own conftest defines it).
    parser.addoption(
        "--minimal-messages-config",
        action="store_true",
        default=False,
        help="Run functional tests with only the messages each fixture expects enabled.",
    )


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A folder holding fixtures/cli's bad.py and good.py, the current directory.
    (tests/test_cache.py overrides it with a copy of the whole package.)"""
    shutil.copy(CLI_FIXTURES / "bad.py", tmp_path / "bad.py")
    shutil.copy(CLI_FIXTURES / "good.py", tmp_path / "good.py")
    monkeypatch.chdir(tmp_path)
    return tmp_path


@pytest.fixture(scope="session")
def mslint_findings():  # noqa: ANN201
    """``lint(*paths, enabled=None)``: the findings (mslint.report.findings.Finding, with
    their anchors) the mslint command makes for files and folders, every mslint
    rule enabled by default, fingerprinted, without the result cache."""
    from mslint.report import findings  # noqa: PLC0415
    from mslint.run import cli  # noqa: PLC0415
    from mslint.run.cache import project_roots  # noqa: PLC0415
    from mslint.analysis.project import package_root  # noqa: PLC0415
    from mslint.run.plugin import mslint_rules  # noqa: PLC0415
    from mslint.run.engine import Settings, skipped_libraries  # noqa: PLC0415

    def lint(*paths: Path, enabled: list[str] | None = None) -> list:
        files = sorted({str(file.resolve()) for path in paths for file in ([path] if path.is_file() else path.rglob("*.py"))})
        symbols = enabled or [rule.symbol for rule in mslint_rules() if rule.symbol != "ms-graph-compile-error"]
        settings = Settings(enabled=symbols, jit_syntax_level="lax", roots=project_roots(files, package_root),
                            skipped_libraries=skipped_libraries(files))
        found = cli.check_files(files, settings, jobs=1, use_cache=False)
        return findings.assign_fingerprints(found, findings.repository_root(str(paths[0])))

    return lint
