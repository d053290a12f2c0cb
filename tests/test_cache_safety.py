"""The result cache never serves a result of other content (issue 22, item 8):
imports read with Python's parser, results stored under the key of what was
analysed, a damaged database rebuilt. Each test reproduced its defect first."""

from __future__ import annotations

import sqlite3
import textwrap
from pathlib import Path

import pytest

from mslint.analysis import imports
from mslint.run import cache, cli, engine

# The spellings the old regex missed: `helper` is imported in each.
SPELLINGS = {
    "a paren in a comment": "from pkg import (other,  # see (below)\n    helper)\n",
    "a CRLF continuation": "from pkg import other, \\\r\n    helper\r\n",
    "a CRLF continuation of a plain import": "import os, \\\r\n    pkg.helper\r\n",
    "a form feed": "\x0cfrom pkg import helper\n",
    "a continuation after from": "from \\\n    pkg import helper\n",
}


@pytest.mark.parametrize("name", list(SPELLINGS))
def test_every_spelling_of_an_import_is_read(name: str) -> None:
    found = imports.scan_imports(SPELLINGS[name].encode("utf-8"))
    assert [0, "pkg", ["other", "helper"]] in found or [0, "pkg", ["helper"]] in found or [0, "pkg.helper", None] in found, found


@pytest.fixture
def package(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """main.py's finding depends on base.py: np.exp in construct is graph code
    only while Base is an nn.Cell."""
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    root = tmp_path / "project"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "base.py").write_text(CELL_BASE, encoding="utf-8")
    monkeypatch.chdir(root)
    return root


CELL_BASE = "from mindspore import nn\n\n\nclass Base(nn.Cell):\n    pass\n"
PLAIN_BASE = "class Base:\n    pass\n"
MAIN = """\
import numpy as np
from pkg import (  # the module of the shared base (see below)
    base,
)


class Net(base.Base):
    def construct(self, x):
        return np.exp(x)
"""


def findings(capsys: pytest.CaptureFixture, *args: str) -> tuple[list[str], str]:
    cli.main(["--jobs", "1", "--verbose", *args])
    out, err = capsys.readouterr()
    return [line for line in out.splitlines() if "[ms-numpy-on-tensor]" in line], err


def test_editing_a_module_imported_in_an_odd_spelling_rechecks(package: Path, capsys: pytest.CaptureFixture) -> None:
    (package / "pkg" / "main.py").write_text(MAIN, encoding="utf-8")
    assert len(findings(capsys, "pkg/main.py")[0]) == 1
    (package / "pkg" / "base.py").write_text(PLAIN_BASE, encoding="utf-8")
    found, err = findings(capsys, "pkg/main.py")
    assert found == [], "a stale result: base.py's edit did not reach main.py's key"
    assert "1 checked, 0 from the cache" in err


def test_a_dependency_edited_during_the_run_never_keys_a_stale_result(
    package: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """base.py changes while main.py is checked (after the keys were taken):
    the result is not stored under the key of the old base.py, which a later
    run (base.py restored: a git checkout) would otherwise be served."""
    (package / "pkg" / "main.py").write_text(MAIN, encoding="utf-8")
    real = engine.Engine.check

    def edited_meanwhile(self, path, *args, **kwargs):  # noqa: ANN001, ANN002, ANN003, ANN202
        if path.endswith("main.py"):
            (package / "pkg" / "base.py").write_text(PLAIN_BASE, encoding="utf-8")
        return real(self, path, *args, **kwargs)

    monkeypatch.setattr(engine.Engine, "check", edited_meanwhile)
    assert findings(capsys, "pkg/main.py")[0] == []  # what the run saw: base.py already plain
    monkeypatch.setattr(engine.Engine, "check", real)
    (package / "pkg" / "base.py").write_text(CELL_BASE, encoding="utf-8")
    found, err = findings(capsys, "pkg/main.py")
    assert len(found) == 1, "the old key served the findings of the new base.py"
    assert "1 checked, 0 from the cache" in err


def test_a_damaged_database_is_rebuilt_not_a_crash(package: Path, capsys: pytest.CaptureFixture) -> None:
    """One damaged page (the meta table's, read by every run): every run used to
    crash (exit 3) until `mslint clean-cache`."""
    (package / "pkg" / "main.py").write_text(MAIN, encoding="utf-8")
    findings(capsys, "pkg/main.py")
    database = package.parent / "cache" / cache.DB_NAME
    connection = sqlite3.connect(str(database))
    connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    page_size = connection.execute("PRAGMA page_size").fetchone()[0]
    (root_page,) = connection.execute("SELECT rootpage FROM sqlite_master WHERE name='meta'").fetchone()
    connection.close()
    data = bytearray(database.read_bytes())
    data[(root_page - 1) * page_size] ^= 0xFF  # the page's type byte
    database.write_bytes(bytes(data))
    code = cli.main(["--jobs", "1", "pkg/main.py"])
    out, err = capsys.readouterr()
    assert code == cli.EXIT_FINDINGS, err
    assert "the result cache was damaged" in err and "internal error" not in err
    found, err = findings(capsys, "pkg/main.py")
    assert len(found) == 1 and "damaged" not in err and "disabled" not in err


def test_a_damaged_value_is_a_miss_not_a_wrong_result(package: Path, capsys: pytest.CaptureFixture) -> None:
    """A byte changed inside a stored result that still reads as JSON (a line
    number) is caught by the value's checksum."""
    (package / "pkg" / "main.py").write_text(MAIN, encoding="utf-8")
    first, _ = findings(capsys, "pkg/main.py")
    database = package.parent / "cache" / cache.DB_NAME
    connection = sqlite3.connect(str(database))
    (stored,) = connection.execute("SELECT findings FROM results").fetchone()
    assert '"line":9' in stored
    with connection:
        connection.execute("UPDATE results SET findings = ?", (stored.replace('"line":9', '"line":10'),))
    connection.close()
    found, err = findings(capsys, "pkg/main.py")
    assert found == first
    assert "1 checked, 0 from the cache" in err


def test_imports_read_from_a_file_python_cannot_parse_stay_generous() -> None:
    text = textwrap.dedent("""
        from pkg import helper
        def broken(:
            import other
        """).encode()
    found = imports.scan_imports(text)
    assert [0, "pkg", ["helper"]] in found and [0, "other", None] in found
