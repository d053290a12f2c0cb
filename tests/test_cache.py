"""The result cache and --jobs: the same findings with and without the cache and
with 1 or 2 processes; a second run over unchanged files analyses nothing; a change re-checks what it must (the file, the files importing it, all
of them for a configuration change) and nothing else; the astroid adjustments
the command makes (mslint/run/engine.py) agree with astroid."""

from __future__ import annotations

import json
import re
import shutil
import sqlite3
import textwrap
from pathlib import Path

import astroid
import pytest

from mslint.run import cache, cli, compat, engine, pool
from mslint.analysis import imports
from mslint.analysis.project import module_name, package_root

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "fixtures"


@pytest.fixture
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(folder))
    return folder


def lint(capsys: pytest.CaptureFixture, *args: str) -> tuple[list[dict], dict[str, int]]:
    code = cli.main(["--format=json", "--verbose", "--fail-on=never", *args])
    out, err = capsys.readouterr()
    assert code == 0, err
    match = re.search(r"(\d+) files?: (\d+) checked, (\d+) from the cache", err)
    assert match, err
    stats = {"files": int(match[1]), "checked": int(match[2]), "cached": int(match[3])}
    findings = json.loads(out)["findings"]
    return findings, stats


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> Path:
    """Overrides conftest's: the whole fixtures/cli folder, its package included."""
    shutil.copytree(FIXTURES / "cli", tmp_path / "cli")
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_same_findings_with_and_without_cache_and_jobs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path, capsys: pytest.CaptureFixture) -> None:
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    reference, stats = lint(capsys, "--select=all", "--no-cache", "--jobs=1", "fixtures")
    assert stats["files"] >= 40 and len(reference) >= 40
    assert len({item["symbol"] for item in reference}) >= 10
    assert lint(capsys, "--select=all", "--no-cache", "--jobs=2", "fixtures")[0] == reference
    cold, stats = lint(capsys, "--select=all", "--jobs=2", "fixtures")
    assert stats["checked"] == stats["files"] and cold == reference
    warm, stats = lint(capsys, "--select=all", "--jobs=1", "fixtures")
    assert stats["checked"] == 0 and warm == reference


def test_second_run_analyses_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path, capsys: pytest.CaptureFixture) -> None:
    """The second run over unchanged files takes every result from the cache and
    never builds a tree (the time it saves is measured by benchmarks/run.py, not
    asserted here)."""
    corpus = tmp_path / "corpus"
    for copy in range(3):
        for source in sorted((FIXTURES / "graph").glob("*.py")) + sorted((FIXTURES / "layers").glob("*.py")):
            target = corpus / f"copy{copy}" / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy(source, target)
    monkeypatch.chdir(tmp_path)
    cold, stats = lint(capsys, "--jobs=1", "corpus")
    assert stats["checked"] == stats["files"] >= 40

    def no_analysis(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        raise AssertionError("a file was analysed again")

    monkeypatch.setattr(engine.Engine, "check", no_analysis)
    monkeypatch.setattr(astroid.MANAGER, "ast_from_file", no_analysis)
    warm, stats = lint(capsys, "--jobs=1", "corpus")
    assert stats["cached"] == stats["files"] and warm == cold


def test_editing_a_file_rechecks_it_and_its_importers_only(project: Path, capsys: pytest.CaptureFixture) -> None:
    first, stats = lint(capsys, "cli")
    assert stats == {"files": 6, "checked": 6, "cached": 0}
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") in {(f["path"], f["symbol"]) for f in first}

    # a file nothing imports: only it
    other = project / "cli" / "project" / "pkg" / "other.py"
    other.write_text(other.read_text(encoding="utf-8") + "\n# edited\n", encoding="utf-8")
    _, stats = lint(capsys, "cli")
    assert stats["checked"] == 1

    # the base class model.py inherits its Cell-ness from (cross-module inference)
    base = project / "cli" / "project" / "pkg" / "base.py"
    base.write_text("class Base:\n    pass\n", encoding="utf-8")
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == 2  # base.py and model.py
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") not in {(f["path"], f["symbol"]) for f in found}
    base.write_text("from mindspore import nn\n\n\nclass Base(nn.Cell):\n    pass\n", encoding="utf-8")
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == 2
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") in {(f["path"], f["symbol"]) for f in found}

    # one level further: base.py takes its base class from core.py
    (project / "cli" / "project" / "pkg" / "core.py").write_text("from mindspore import nn\n\n\nclass Core(nn.Cell):\n    pass\n", encoding="utf-8")
    base.write_text("from .core import Core\n\n\nclass Base(Core):\n    pass\n", encoding="utf-8")
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == 3  # core.py is new; base.py changed; model.py imports base.py
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") in {(f["path"], f["symbol"]) for f in found}
    (project / "cli" / "project" / "pkg" / "core.py").write_text("class Core:\n    pass\n", encoding="utf-8")
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == 3  # core.py, and base.py and model.py which depend on it
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") not in {(f["path"], f["symbol"]) for f in found}
    # back to a state seen before: taken from the cache
    (project / "cli" / "project" / "pkg" / "core.py").write_text("from mindspore import nn\n\n\nclass Core(nn.Cell):\n    pass\n", encoding="utf-8")
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == 0
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") in {(f["path"], f["symbol"]) for f in found}
    # checking model.py alone: its dependencies still count
    (project / "cli" / "project" / "pkg" / "core.py").write_text("class Core:\n    pass\n\n\nCORE = 1\n", encoding="utf-8")
    found, stats = lint(capsys, "cli/project/pkg/model.py")
    assert stats["checked"] == 1 and found == []


def test_a_dependency_edited_during_the_check_is_not_cached(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """The keys are taken before the files are checked; a file that changes after
    (model.py's base class here, no Cell any more) changes what is found for the
    files that depend on it, and those findings must not be stored under the keys
    of the content before: the stamps taken with the keys tell, and nothing is
    stored for them. Back to that content, they are checked again."""
    base = project / "cli" / "project" / "pkg" / "base.py"
    before = base.read_text(encoding="utf-8")
    checked = cli.lint

    def edited_meanwhile(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        base.write_text("class Base:\n    pass\n", encoding="utf-8")
        return checked(*args, **kwargs)

    monkeypatch.setattr(cli, "lint", edited_meanwhile)
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == 6
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") not in {(f["path"], f["symbol"]) for f in found}
    monkeypatch.setattr(cli, "lint", checked)
    base.write_text(before, encoding="utf-8")
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == 2  # base.py and model.py, whose results were not stored; the others were
    assert ("cli/project/pkg/model.py", "ms-numpy-on-tensor") in {(f["path"], f["symbol"]) for f in found}


def test_a_module_appearing_where_an_import_looks_rechecks(project: Path, capsys: pytest.CaptureFixture) -> None:
    package = project / "cli" / "project" / "pkg"
    (package / "user.py").write_text(
        "import numpy as np\n\nfrom .later import Later\n\n\nclass Net(Later):\n    def construct(self, x):\n        return np.exp(x)\n",
        encoding="utf-8",
    )
    found, _ = lint(capsys, "cli/project/pkg/user.py")
    assert found == []  # .later does not exist: Net is not known to be a Cell
    (package / "later.py").write_text("from mindspore import nn\n\n\nclass Later(nn.Cell):\n    pass\n", encoding="utf-8")
    found, stats = lint(capsys, "cli/project/pkg/user.py")
    assert stats["checked"] == 1
    assert [f["symbol"] for f in found] == ["ms-numpy-on-tensor"]


def test_configuration_changes_recheck_everything(project: Path, capsys: pytest.CaptureFixture) -> None:
    # the settings file from the start: creating it also marks the project's root,
    # which the program model's verdicts hold (a new root rechecks, rightly)
    (project / "pyproject.toml").write_text("[tool.mslint]\n", encoding="utf-8")
    lint(capsys, "cli")
    _, stats = lint(capsys, "--jit-syntax-level=strict", "cli")
    assert stats["checked"] == 6
    _, stats = lint(capsys, "--select=ms-numpy-on-tensor", "cli")
    assert stats["checked"] == 6
    (project / "pyproject.toml").write_text('[tool.mslint]\nenable = ["ms-numpy-in-graph"]\n', encoding="utf-8")
    _, stats = lint(capsys, "cli")
    assert stats["checked"] == 6
    (project / "pyproject.toml").write_text("[tool.mslint]\n", encoding="utf-8")
    _, stats = lint(capsys, "cli")  # back to the first settings: all still cached
    assert stats["cached"] == 6
    # settings that do not change findings do not invalidate
    assert cli.main(["--fail-on=error", "--format=sarif", "--output=out.sarif", "--verbose", "cli"]) == 1
    assert "0 checked, 6 from the cache" in capsys.readouterr().err


def test_no_cache_and_location(project: Path, capsys: pytest.CaptureFixture, cache_dir: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _, stats = lint(capsys, "--no-cache", "cli")
    assert stats["checked"] == 6 and not list(cache_dir.iterdir())
    lint(capsys, "cli")
    assert (cache_dir / cache.DB_NAME).is_file()
    assert not list(project.rglob("*.sqlite3"))  # nothing inside the sources
    monkeypatch.delenv("MSLINT_CACHE_DIR")
    default = cache.cache_dir()
    assert default.name.lower() in ("mslint", "cache") and "mslint" in str(default).lower()
    assert project not in default.parents
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(cache_dir))
    assert cli.main(["clean-cache"]) == 0
    assert not (cache_dir / cache.DB_NAME).exists()


def test_a_broken_cache_does_not_stop_the_run(project: Path, capsys: pytest.CaptureFixture, cache_dir: Path) -> None:
    (cache_dir / cache.DB_NAME).write_bytes(b"this is not a database" * 100)
    code = cli.main(["--format=json", "cli"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "the result cache was damaged" in err and "building it again" in err
    assert json.loads(out)["findings"]


def test_cache_entries_hold_no_absolute_paths_of_findings(project: Path, capsys: pytest.CaptureFixture, cache_dir: Path) -> None:
    lint(capsys, "cli")
    rows = sqlite3.connect(str(cache_dir / cache.DB_NAME)).execute("SELECT findings FROM results").fetchall()
    assert rows and all('"path"' not in row[0] for row in rows)


def test_rows_that_do_not_load_are_misses(project: Path, capsys: pytest.CaptureFixture, cache_dir: Path) -> None:
    """Rows written by another version (or damaged) are checked again, never an error."""
    first, _ = lint(capsys, "cli")
    db = sqlite3.connect(str(cache_dir / cache.DB_NAME), isolation_level=None)
    keys = [row[0] for row in db.execute("SELECT key FROM results ORDER BY key")]
    bad = ['{"not": "a list"}', '[{"line": 1}]', '[{"line": "x", "column": 1, "end_line": null, "end_column": null, '
           '"symbol": "s", "msg_id": "E1", "message": "", "category": "error", "unknown_field": 1}]']
    for key, value in zip(keys, bad):
        db.execute("UPDATE results SET findings=? WHERE key=?", (value, key))
    db.close()
    found, stats = lint(capsys, "cli")
    assert stats["checked"] == len(bad) and found == first


def test_anchors_survive_the_cache(project: Path, cache_dir: Path) -> None:
    """Runtime confirmation plans from the anchors recorded at lint time: a
    finding from the cache carries the same one."""
    files = [str(path) for path in sorted((project / "cli").rglob("*.py"))]
    settings = engine.Settings(enabled=["ms-numpy-on-tensor", "ms-cell-in-construct", "ms-conv-padding-ignored"],
                               jit_syntax_level="lax", roots=cache.project_roots(files, package_root))
    cold = cli.check_files(files, settings, jobs=1, use_cache=True)
    warm = cli.check_files(files, settings, jobs=1, use_cache=True)
    assert cold == warm and [item.anchor for item in cold] == [item.anchor for item in warm]
    assert any(item.anchor and item.anchor.entries for item in warm)


# ---------------------------------------------------------------------------
# The pieces
# ---------------------------------------------------------------------------


def test_scan_imports_is_generous() -> None:
    source = textwrap.dedent(
        """\
        import os, a.b.c as d
        from . import sibling
        from ..up import (x,
            y as z)
        from pkg.mod import *
        try: import optional
        except ImportError: pass
        def f():
            from .inner import thing
        text = '''
        import in_a_docstring
        '''
        from q import r; import s
        """
    ).encode()
    found = imports.scan_imports(source)
    assert [0, "os", None] in found and [0, "a.b.c", None] in found
    assert [1, "", ["sibling"]] in found
    assert [2, "up", ["x", "y"]] in found
    assert [0, "pkg.mod", []] in found
    assert [0, "optional", None] in found
    assert [1, "inner", ["thing"]] in found
    assert [0, "in_a_docstring", None] not in found  # read with Python's parser: a string is no import
    broken = source + b"def oops(:\n"  # what Python cannot parse is scanned generously
    assert [0, "in_a_docstring", None] in imports.scan_imports(broken)
    assert [0, "q", ["r"]] in found and [0, "s", None] in found


def test_dependency_hash_covers_cycles_and_chains(tmp_path: Path) -> None:
    package = tmp_path / "pkg"
    package.mkdir()
    files = {
        "__init__.py": "",
        "a.py": "from .b import B\n",
        "b.py": "from .a import A\nfrom .c import C\n",
        "c.py": "import pkg.d\n",
        "d.py": "",
        "e.py": "",
    }
    for name, text in files.items():
        (package / name).write_text(text, encoding="utf-8")

    def hashes() -> dict[str, str]:
        def read(path: str):
            data = Path(path).read_bytes()
            return cache.digest(data), imports.scan_imports(data)

        hasher = cache.DependencyHasher([str(tmp_path)], read)
        return {name: hasher.closure_hash(str(package / name)) for name in files}

    before = hashes()
    assert before["a.py"] == before["b.py"]  # one cycle, one hash
    (package / "d.py").write_text("x = 1\n", encoding="utf-8")
    after = hashes()
    assert all(after[name] != before[name] for name in ("a.py", "b.py", "c.py", "d.py"))
    assert after["e.py"] == before["e.py"] and after["__init__.py"] == before["__init__.py"]


BINDINGS = '''\
import os.path, json as j
from collections import OrderedDict as OD, deque
from .sibling import *
x = 1
a, (b, *c) = 1, (2, 3)
y: int
z += 1
del x
for loop_var in range(3):
    pass
with open("f") as (handle, other):
    pass
try:
    pass
except ValueError as error:
    pass
squares = [w for w in range(3) if (walrus := w)]
gen = (v for v in [(kept := 1)])
lam = lambda q: (inner := q)
if True:
    def func(p=(default_walrus := 2)):
        global glob, later, imported_global
        glob = 1
        from .other import imported_global, local_only
        import json as local_json
        class Local:
            later = 2
    class Cls:
        attr = 1
        def method(self):
            pass
    async def coro():
        pass
match x:
    case {"k": captured, **rest}:
        pass
    case [first, *others]:
        pass
    case Point(x=px) | px:
        pass
_private = 1
'''


def test_lazy_star_imports_bind_what_astroid_binds(tmp_path: Path) -> None:
    package = tmp_path / "starpkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "mod.py").write_text(BINDINGS, encoding="utf-8")
    (package / "sibling.py").write_text("from .third import *\nsib = 1\n__all__ = ['sib']\n", encoding="utf-8")
    (package / "third.py").write_text("from .sibling import *\nthird = 3\n", encoding="utf-8")  # a star cycle
    (package / "other.py").write_text("imported_global = local_only = 1\n", encoding="utf-8")
    lazy = compat.LazyStarImports([str(tmp_path)])
    import sys

    sys.path.insert(0, str(tmp_path))
    try:
        emulated = {}
        for name in ("mod", "sibling", "third"):
            emulated[name] = lazy._module_names(f"starpkg.{name}", str(package / f"{name}.py"))
            astroid.MANAGER.clear_cache()
            real = astroid.MANAGER.ast_from_file(str(package / f"{name}.py"), f"starpkg.{name}", source=True)
            assert emulated[name] is not None
            assert sorted(emulated[name]) == sorted(real.public_names()), name
        expected = {"walrus", "kept", "default_walrus", "glob", "later", "imported_global", "captured", "rest", "px", "sib", "third"}
        assert expected <= set(emulated["mod"])
        assert "local_only" not in emulated["mod"] and "_private" not in emulated["mod"]
    finally:
        sys.path.remove(str(tmp_path))
        astroid.MANAGER.clear_cache()


def test_lazy_star_imports_agree_on_the_fixtures() -> None:
    files = sorted(str(path) for path in FIXTURES.rglob("*.py"))
    roots = sorted({package_root(path) for path in files})
    lazy = compat.LazyStarImports(roots)
    import sys

    saved = list(sys.path)
    sys.path[:0] = roots
    try:
        compared = 0
        for path in files:
            name = module_name(path)
            emulated = lazy._module_names(name, path)
            try:
                real = astroid.MANAGER.ast_from_file(path, name, source=True)
            except astroid.AstroidBuildingError:
                continue
            assert emulated is not None and sorted(emulated) == sorted(real.public_names()), path
            compared += 1
        assert compared >= 40
    finally:
        sys.path[:] = saved
        astroid.MANAGER.clear_cache()


def test_libraries_are_not_parsed(project: Path, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
    """mindspore and torch stay out of astroid while the command lints (the same
    findings whether or not they are installed)."""
    loaded = []
    original = astroid.builder.AstroidBuilder._data_build  # every tree astroid builds, from a file or a text

    def spy(self, data, modname, path):  # noqa: ANN001, ANN202 - the signature mslint's hooks check
        loaded.append(modname or "")
        return original(self, data, modname, path)

    monkeypatch.setattr(astroid.builder.AstroidBuilder, "_data_build", spy)
    astroid.MANAGER.clear_cache()
    lint(capsys, "--no-cache", "--jobs=1", "cli")
    assert loaded and not [name for name in loaded if name.split(".")[0] in ("mindspore", "torch")]


def test_dropping_astroid_caches_changes_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path, capsys: pytest.CaptureFixture) -> None:
    """Memory stays flat because a process drops astroid's trees when its share
    of the budget is used; the findings must not depend on when that happens."""
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    reference, _ = lint(capsys, "--select=all", "--no-cache", "--jobs=1", "fixtures")
    monkeypatch.setattr(pool, "MEMORY_BUDGET", 0)
    monkeypatch.setattr(pool, "MIN_WORKER_MEMORY", 0)  # drop everything every 8 files
    resets = []
    original = compat.fresh_astroid
    monkeypatch.setattr(compat, "fresh_astroid", lambda **kw: (resets.append(1), original(**kw))[1])
    assert lint(capsys, "--select=all", "--no-cache", "--jobs=1", "fixtures")[0] == reference
    assert len(resets) >= 5


@pytest.mark.parametrize("spent_by", ["trees", "garbage"])
def test_workers_replaced_when_spent_change_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path, capsys: pytest.CaptureFixture, spent_by: str,
) -> None:
    """A worker whose trees reach its share of the budget, or which has grown past
    it by more than the margin (it collects no garbage), ends and a fresh one takes
    up the rest of its batch; every file is still checked exactly once, with the
    findings of one process."""
    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    reference, _ = lint(capsys, "--select=all", "--no-cache", "--jobs=1", "fixtures")
    if spent_by == "trees":
        monkeypatch.setattr(pool, "MEMORY_BUDGET", 0)
        monkeypatch.setattr(pool, "MIN_WORKER_MEMORY", 0)  # spent every 8 files
    else:  # as if each worker had grown by a terabyte since it started
        monkeypatch.setattr(engine, "resident_bytes", lambda: 2**40)
    monkeypatch.setattr(pool, "available_cpus", lambda: 2)
    monkeypatch.setattr(cli, "available_cpus", lambda: 2)
    started = []
    original = pool._Worker.__init__
    monkeypatch.setattr(pool._Worker, "__init__", lambda self, *args: (started.append(1), original(self, *args))[1])
    found, stats = lint(capsys, "--select=all", "--no-cache", "--jobs=2", "fixtures")
    assert found == reference
    checked = len(list((tmp_path / "fixtures").rglob("*.py")))
    assert stats["checked"] == checked
    assert len(started) >= checked // 8  # two at first, then one for each worker spent


def test_files_of_workers_that_died_are_checked_here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path, capsys: pytest.CaptureFixture) -> None:
    """A worker killed in its batch (out of memory) is not replaced; what it and
    the batches nobody took up held are checked in the main process, so that no
    file goes missing from the report even when every worker dies."""
    import os  # noqa: PLC0415

    shutil.copytree(FIXTURES, tmp_path / "fixtures")
    monkeypatch.chdir(tmp_path)
    reference, _ = lint(capsys, "--select=all", "--no-cache", "--jobs=1", "fixtures")
    main_process = os.getpid()
    original = engine.Engine.check

    def dies_in_a_worker(self, *args):  # noqa: ANN001, ANN202
        if os.getpid() != main_process:
            os._exit(9)  # as the kernel's out-of-memory killer would end it
        return original(self, *args)

    monkeypatch.setattr(engine.Engine, "check", dies_in_a_worker)
    monkeypatch.setattr(pool, "available_cpus", lambda: 2)
    monkeypatch.setattr(cli, "available_cpus", lambda: 2)
    found, stats = lint(capsys, "--select=all", "--no-cache", "--jobs=2", "fixtures")
    assert found == reference
    assert stats["checked"] == len(list((tmp_path / "fixtures").rglob("*.py")))


def test_batches_keep_neighbours_together_and_shrink(tmp_path: Path) -> None:
    """Workers take files in path order, long runs first and small ones last, and
    every file exactly once."""
    tasks = []
    for index in range(300):
        path = tmp_path / f"pkg{index // 100}" / f"m{index:03}.py"
        path.parent.mkdir(exist_ok=True)
        path.write_text("x = 1\n" * (1 + index % 7))
        tasks.append((str(path), f"pkg{index // 100}.m{index:03}", None))
    shuffled = tasks[1::2] + tasks[::2]
    found = pool.batches(shuffled, 2)
    assert [task for batch in found for task in batch] == sorted(tasks)
    sizes = [len(batch) for batch in found]
    assert sizes[0] > 50 and sizes[-1] < 10
    assert all(later <= earlier + 8 for earlier, later in zip(sizes, sizes[1:]))
    assert pool.batches(tasks[:1], 2) == [tasks[:1]]


def test_a_constant_read_from_another_module_rechecks_its_readers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path, capsys: pytest.CaptureFixture) -> None:
    # ms-batchnorm-momentum reads BN_MOMENTUM from config.py: editing config.py must
    # re-check model.py, whose finding depends on it
    package = tmp_path / "proj"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "config.py").write_text("BN_MOMENTUM = 0.1\n", encoding="utf-8")
    (package / "model.py").write_text(
        "from mindspore import nn\nfrom proj.config import BN_MOMENTUM\n"
        "def norm(c):\n    return nn.BatchNorm2d(c, momentum=BN_MOMENTUM)\n",
        encoding="utf-8",
    )
    monkeypatch.chdir(tmp_path)
    findings, _ = lint(capsys, "--select=ms-batchnorm-momentum", "proj")
    assert [(item["path"], item["line"]) for item in findings] == [("proj/model.py", 4)]
    (package / "config.py").write_text("BN_MOMENTUM = 0.9\n", encoding="utf-8")
    findings, stats = lint(capsys, "--select=ms-batchnorm-momentum", "proj")
    assert findings == [] and stats["checked"] == 2


def test_editing_where_a_cell_is_called_rechecks_the_cell(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cache_dir: Path, capsys: pytest.CaptureFixture) -> None:
    # post.py's construct is compiled only if heads.py calls it outside ``if not
    # self.training:`` (train.py only trains): editing heads.py must re-check post.py,
    # which imports nothing of it
    (tmp_path / "train.py").write_text(
        "import mindspore as ms\nfrom heads import Head\n"
        "ms.set_context(mode=ms.GRAPH_MODE, device_target=\"Ascend\")\nnet = Head()\nnet.set_train()\nms.train.Model(net).train(1, data)\n",
        encoding="utf-8",
    )
    (tmp_path / "post.py").write_text(
        "from mindspore import nn, ops\n\n\nclass Post(nn.Cell):\n    def construct(self, x):\n"
        "        return ops.nonzero(x)\n",
        encoding="utf-8",
    )
    heads = ("from mindspore import nn\nfrom post import Post\n\n\nclass Head(nn.Cell):\n    def __init__(self):\n"
             "        super().__init__()\n        self.post = Post()\n\n    def construct(self, x):\n"
             "        if not self.training:\n            return self.post(x)\n        return x\n")
    (tmp_path / "heads.py").write_text(heads, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    findings, _ = lint(capsys, "--select=ms-dynamic-shape-in-graph", ".")
    assert findings == []
    (tmp_path / "heads.py").write_text(heads.replace("if not self.training", "if self.training"), encoding="utf-8")
    findings, stats = lint(capsys, "--select=ms-dynamic-shape-in-graph", ".")
    assert [(item["path"], item["line"]) for item in findings] == [("post.py", 6)]
    assert stats["checked"] == 3  # heads.py, train.py, which imports it, and post.py
