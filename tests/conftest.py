"""Shared pytest configuration."""

from __future__ import annotations

import pytest


def pytest_addoption(parser: pytest.Parser) -> None:
    # pylint.testutils.LintModuleTest reads this option (pylint's own conftest defines it).
    parser.addoption(
        "--minimal-messages-config",
        action="store_true",
        default=False,
        help="Run functional tests with only the messages each fixture expects enabled.",
    )
