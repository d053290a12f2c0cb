"""mslint.checkers.pylint_hooks and mslint.run.compat: the pylint and astroid functions mslint patches, overrides or
calls privately must have the signatures it was written against; a mismatch
fails loudly, naming the versions, instead of quietly switching a patch off."""

from __future__ import annotations

from pathlib import Path

import pytest

from mslint.run import cli, compat
from mslint.checkers import pylint_hooks


def test_the_installed_versions_fit() -> None:
    pylint_hooks.check_signatures(pylint_hooks.EXPECTED)  # raises otherwise
    for (module, name), parameters in pylint_hooks.EXPECTED.items():
        assert module.startswith(("pylint", "astroid")) and name and isinstance(parameters, tuple)


def test_a_mismatched_signature_fails_loudly() -> None:
    wrong = {("astroid.builder", "AstroidBuilder.add_from_names_to_locals"): ("self", "node", "global_name", "extra")}
    with pytest.raises(pylint_hooks.IncompatibleVersions) as raised:
        pylint_hooks.check_signatures(wrong)
    text = str(raised.value)
    assert "astroid.builder.AstroidBuilder.add_from_names_to_locals(self, node, global_name)" in text
    assert "expected (self, node, global_name, extra)" in text
    assert pylint_hooks.versions() in text and "pylint " in text and "astroid " in text
    missing = {("pylint.lint", "PyLinter.no_such_method"): ("self",)}
    with pytest.raises(pylint_hooks.IncompatibleVersions, match="PyLinter.no_such_method is missing"):
        pylint_hooks.check_signatures(missing)


def test_a_changed_astroid_stops_the_command(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """As if astroid had changed a patched method: the command exits 2 with the
    reason, before linting anything (the patch is not silently skipped)."""
    from astroid.builder import AstroidBuilder

    def add_from_names_to_locals(self, node, global_name, new_parameter=None):  # noqa: ANN001, ANN202, ARG001
        raise AssertionError("never called")

    monkeypatch.setattr(AstroidBuilder, "add_from_names_to_locals", add_from_names_to_locals)
    monkeypatch.setattr(pylint_hooks, "_CHECKED", [])
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "m.py").write_text("x = 1\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--no-cache", "m.py"]) == 2
    err = capsys.readouterr().err
    assert "does not work with the installed pylint" in err and "add_from_names_to_locals" in err
    with pytest.raises(pylint_hooks.IncompatibleVersions):
        compat.adjusted_astroid([], [], lean=True).__enter__()


def _caches_cleared(action) -> set[int]:  # noqa: ANN001
    """The functools caches ``action()`` clears (their ids)."""
    import sys  # noqa: PLC0415

    cleared: set[int] = set()

    def profile(frame, event, arg):  # noqa: ANN001, ANN202, ARG001
        if event == "c_call" and getattr(arg, "__name__", "") == "cache_clear":
            cleared.add(id(arg.__self__))

    sys.setprofile(profile)
    try:
        action()
    finally:
        sys.setprofile(None)
    return cleared


def test_fresh_astroid_keeps_an_untouched_builtins_tree_only() -> None:
    """fresh_astroid keeps astroid's builtins tree (a third of a second to build)
    while nothing was added to it, and clears every other cache astroid's own
    clear_cache clears; a tree added to is built again."""
    import astroid

    compat.fresh_astroid()
    kept = astroid.MANAGER.astroid_cache["builtins"]
    astroid.parse("import os\nos.path.join('a', 'b')\n").body[1].value.inferred()
    assert _caches_cleared(compat.clear_astroid_memos) >= _caches_cleared(astroid.MANAGER.clear_cache)
    compat.fresh_astroid()  # clear_cache above built a new builtins tree: a full clear
    kept = astroid.MANAGER.astroid_cache["builtins"]
    compat.fresh_astroid()
    assert astroid.MANAGER.astroid_cache["builtins"] is kept
    assert set(astroid.MANAGER.astroid_cache) == {"builtins"}
    astroid.parse("error = ValueError()\nerror.mslint_attribute = 1\n", "added")
    assert "mslint_attribute" in kept.getattr("ValueError")[0].instance_attrs
    compat.fresh_astroid()
    fresh = astroid.MANAGER.astroid_cache["builtins"]
    assert fresh is not kept and "mslint_attribute" not in fresh.getattr("ValueError")[0].instance_attrs


def test_in_process_runs_leave_no_linter_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """pylint caches get_message_definitions per message store (functools.cache
    on a method): every linter's store stayed alive, two per run, and the
    language server (or a test process) grew with each run."""
    import gc

    from pylint.message.message_definition_store import MessageDefinitionStore

    monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / "cache"))
    (tmp_path / "m.py").write_text("import numpy as np\nx = np.exp(1)\n", encoding="utf-8")
    monkeypatch.chdir(tmp_path)

    def stores() -> int:
        gc.collect()
        return sum(isinstance(item, MessageDefinitionStore) for item in gc.get_objects())

    assert cli.main(["--no-cache", "m.py"]) == 0
    before = stores()
    for _ in range(3):
        assert cli.main(["--no-cache", "m.py"]) == 0
    capsys.readouterr()
    assert stores() <= before
