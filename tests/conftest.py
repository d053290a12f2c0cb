"""Shared pytest configuration."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CLI_FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "cli"


def pytest_configure(config: pytest.Config) -> None:  # noqa: ARG001
    """Stop at once, saying why, where mslint is not installed in the interpreter
    running the tests: every test imports mslint, and mslint.checkers only exists
    once the package is installed (pyproject.toml maps it from checkers/), with
    pylint and astroid, mslint's own dependencies. MindSpore and PyTorch are not
    needed: ``-m "not frameworks"`` runs the rest without them."""
    import importlib.util  # noqa: PLC0415

    missing = [name for name in ("pylint", "astroid") if importlib.util.find_spec(name) is None]
    if not missing and importlib.util.find_spec("mslint.checkers") is None:
        missing.append("mslint itself (mslint.checkers)")
    if missing:
        pytest.exit(
            f"mslint is not installed in this interpreter ({', '.join(missing)} missing): install it first, "
            'as README.md says: python3 -m venv .venv && .venv/bin/pip install -e ".[test]" (MindSpore and '
            'PyTorch included), or .venv/bin/pip install -e ".[server]" pytest pytest-xdist hypothesis jsonschema '
            'pre-commit wheel for the static suite (-m "not frameworks"); then run .venv/bin/python -m pytest',
            returncode=4,
        )


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


class KeptTrees:
    """Between the functional tests: astroid keeps the trees of installed modules
    (the standard library, site-packages, builtins) and drops every other one.

    ``compat.fresh_astroid()`` after each fixture made astroid build the same
    library trees again for the next (numpy, the standard library, and with the
    frameworks installed about 60 mindspore and 15 torch modules: nearly all of
    a fixture's time). Fixtures are dropped, since they share module names
    across folders. A kept tree must stay as a fresh build would make it, but
    building a fixture can add to it: astroid's ``delayed_assattr`` appends the
    fixture's ``x.attr = ...`` nodes to the locals or instance attributes of
    whatever ``x`` infers to (``nn.Dropout = X``, ``Tensor.size = ...``,
    ``layer.foo = 1`` on an instance of a library class). While active, each
    such append into a kept tree is recorded, and :meth:`forget_fixture` takes
    exactly those back out, with astroid's and mslint's inference caches.
    What building a kept module adds to other kept trees stays with it (a
    stdlib module setting ``exc.__traceback__`` adds to builtins' BaseException),
    as in one pylint run over many files, where such a module is built once."""

    def __init__(self) -> None:
        import sys  # noqa: PLC0415
        import sysconfig  # noqa: PLC0415

        paths = sysconfig.get_paths()
        roots = {paths[key] for key in ("stdlib", "platstdlib", "purelib", "platlib")}
        self.roots = tuple(os.path.join(os.path.realpath(root), "") for root in roots)
        self.builtin_names = frozenset(sys.builtin_module_names)
        self.appended: list[tuple[dict, str, object]] = []  # (locals or instance_attrs, name, node)
        self._kept_files: dict[str, bool] = {}
        self._original = None

    def kept(self, module: object) -> bool:
        """Whether astroid's tree ``module`` is an installed module's (kept)."""
        name = getattr(module, "name", "")
        path = getattr(module, "file", None)
        if not path:
            return name in self.builtin_names
        found = self._kept_files.get(path)
        if found is None:
            found = self._kept_files[path] = os.path.realpath(path).startswith(self.roots)
        return found

    def __enter__(self) -> KeptTrees:
        from astroid.builder import AstroidBuilder  # noqa: PLC0415

        original = self._original = AstroidBuilder.delayed_assattr
        appended = self.appended
        trees = self

        # named as astroid names them: mslint checks the signatures it patches
        def delayed_assattr(self, node):  # noqa: ANN001, ANN202
            # astroid appends `node` to the mappings of what node.expr infers
            # to (or to their classes): watch what it infers, then look there
            expr = node.expr
            seen: list = []
            infer = expr.infer

            def watched(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
                for inferred in infer(*args, **kwargs):
                    seen.append(inferred)
                    yield inferred

            expr.infer = watched
            try:
                original(self, node)
            finally:
                del expr.infer
            if not seen or trees.kept(node.root()):
                return  # a kept module's own build: a fresh build makes the same appends
            for inferred in seen:
                for owner in (inferred, getattr(inferred, "_proxied", None)):
                    for mapping in (getattr(owner, "instance_attrs", None), getattr(owner, "locals", None)):
                        values = mapping.get(node.attrname) if isinstance(mapping, dict) else None
                        if values and any(value is node for value in values) and trees.kept(owner.root()):
                            appended.append((mapping, node.attrname, node))

        AstroidBuilder.delayed_assattr = delayed_assattr
        return self

    def __exit__(self, *exc: object) -> None:
        from astroid.builder import AstroidBuilder  # noqa: PLC0415

        AstroidBuilder.delayed_assattr = self._original
        self.forget_fixture()

    def forget_fixture(self) -> None:
        """Drop every tree but the kept ones, undo the fixture's appends to them,
        and clear every other cache astroid's ``clear_cache`` clears, as well as
        mslint's and pylint's per-node memos."""
        import astroid  # noqa: PLC0415

        from mslint.run import compat  # noqa: PLC0415

        while self.appended:  # last appended first taken out
            mapping, name, node = self.appended.pop()
            values = mapping.get(name)
            if values is None:
                continue
            for index in range(len(values) - 1, -1, -1):
                if values[index] is node:
                    del values[index]
                    break
            if not values:  # astroid's setdefault made the entry for this node
                del mapping[name]
        manager = astroid.MANAGER
        cache = manager.astroid_cache
        for name in [name for name, module in cache.items() if not self.kept(module)]:
            del cache[name]
        compat.clear_astroid_memos()
        compat._clear_checker_caches()  # noqa: SLF001


@pytest.fixture(scope="module")
def kept_trees():  # noqa: ANN201
    """A :class:`KeptTrees`, active for a test module; astroid starts over fully
    after it, so that later tests see astroid as the test module found it."""
    from mslint.run import compat  # noqa: PLC0415

    with KeptTrees() as trees:
        yield trees
    compat.fresh_astroid()


def pytest_collection_finish(session: pytest.Session) -> None:  # noqa: ARG001
    """Once the tests are collected, what this process holds (pytest, the test
    modules, pylint, astroid and its brains, about 50,000 objects) is left out
    of the cyclic garbage collector's full collections: the command collects
    at the end of each run (cli._program_verdicts), a few hundred times in a
    test process, each time walking all of it. What a test creates is
    collected as before."""
    import gc  # noqa: PLC0415

    gc.collect()
    gc.freeze()
