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
