"""The faster ways of answering the same questions give the same answers: text
patterns written to start with a literal, alternations searched part by part,
project indexes read before the workers are forked, what a worker worked out
carried back to the process that forks the next one, and the collector's
policies. Static: no mindspore, no user code run."""

from __future__ import annotations

import gc
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from mslint.analysis import forked, mode, programs, sites
from mslint.checkers import pylint_hooks

# fragments that make the patterns' edge cases likely: names that contain each
# other, word characters before a name, quotes, annotations, signs, numbers
_FRAGMENTS = [
    "dropout", "drop", "p", "attention_dropout", "x", "_", "self.", "cfg.", "=", "==", " = ", ": float ", ":",
    "\"", "'", "(", ")", ",", "-", "0.1", ".5", "1e-3", "0", "7", " ", "\n", "\t", "#", "if", "else", "def f(",
    "{", "}", "None", "a",
]
_texts = st.lists(st.sampled_from(_FRAGMENTS), max_size=40).map("".join)
_names = st.sampled_from(["dropout", "drop", "p", "attention_dropout", "_", "x"])


def _reference_gives_a_number(name: str) -> re.Pattern:
    """The pattern as first written: ``\\b`` and an alternation up front."""
    key = re.escape(name.encode())
    number = rb"\s*[-(\s]*\.?[0-9]"
    return re.compile(rb"\b" + key + rb"\s*(?::[^=\n]*)?=" + number + rb"|[\"']" + key + rb"[\"']\s*:" + number)


@settings(max_examples=400, deadline=None)
@given(text=_texts, name=_names)
def test_number_pattern_starting_with_the_name_finds_the_same_lines(text: str, name: str) -> None:
    data = text.encode()
    assert programs._match_lines(data, programs._gives_a_number(name)) == \
        programs._match_lines(data, _reference_gives_a_number(name))


@settings(max_examples=400, deadline=None)
@given(text=_texts, name=_names)
def test_copy_pattern_starting_with_the_name_finds_the_same_lines(text: str, name: str) -> None:
    data = text.encode()
    reference = re.compile(rb"\b" + re.escape(name.encode()) + rb"\s*=\s*[A-Za-z_][\w.]*\s*(?:#.*)?$", re.MULTILINE)
    assert programs._match_lines(data, programs._copy_pattern(name)) == programs._match_lines(data, reference)


def test_copied_names_in_a_file(tmp_path: Path) -> None:
    """The literal-first pattern still finds ``name = other`` and ``cfg.name = cfg.other``,
    and not ``other_name = x`` (a longer name ending in the name)."""
    source = tmp_path / "module.py"
    source.write_text("dropout = cfg.drop_rate\nhidden_dropout = rate\nself.dropout = cfg.keep  # kept\n")
    assert programs._copied_into([str(source)], "dropout") == ["drop_rate", "keep"]


_ALTERNATION_TEXTS = st.lists(st.sampled_from([
    "eval", "(", ")", "x.", "set_train", "False", "True", "mode=", " ", "predict", "infer", "export", "_", "a",
    "load_checkpoint", "from_pretrained", "Adam", "W", "train", "Trainer", "grad", "stop_", "no_", ".fit", "=",
    ".training", "Momentum", "\n",
]), max_size=30).map(lambda parts: "".join(parts).encode())


@settings(max_examples=400, deadline=None)
@given(data=_ALTERNATION_TEXTS)
def test_alternatives_found_part_by_part_as_by_the_alternation(data: bytes) -> None:
    for alternatives in (mode.TRAINS_FOUND, mode.INFERS, mode.LOADS_WEIGHTS, mode.MAY_EVALUATE):
        joined = re.compile(b"|".join(part.pattern for part in alternatives.parts))
        assert alternatives.found(data) == (joined.search(data) is not None)
    assert mode.TRAINS_FOUND.found(data) == (mode.TRAINS.search(data) is not None)


def _project(root: Path, count: int) -> list[str]:
    (root / ".git").mkdir(parents=True)
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    paths = []
    for index in range(count):
        path = root / "pkg" / f"m{index}.py"
        path.write_text(
            f"from functools import partial\nclass Net{index}(Base{index % 3}):\n"
            f"    pass\nblock = Block{index} if flag else Other{index}\nmake = partial(head{index}, p=0.1)\n"
            f"net = Net{index}(Bottleneck{index}, [1])\n"
        )
        paths.append(str(path))
    (root / "pkg" / "broken.py").write_bytes(b"\xff\xfe not text")
    return paths


def test_indexes_read_before_forking_are_the_indexes_read_lazily(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """sites.read_indexes (forked readers) and the index a worker would read
    itself give the same files for every name."""
    monkeypatch.setattr(forked, "FORK_AT_MOST", 2**62)  # fork, however large the test process has grown
    paths = _project(tmp_path, forked.PARALLEL_AT_LEAST + 4)
    names = [{f"Net{index}"} for index in range(5)] + [{"Base1"}, {"Block3", "Other7"}, {"head2"}, {"Bottleneck9"}, {"nothing"}]
    sites.forget()
    lazy = [sites.files_mentioning(paths[0], set(each)) for each in names]
    sites.forget()
    sites.read_indexes(paths, jobs=2)
    assert len(sites._INDEXES) == 1
    index = next(iter(sites._INDEXES.values()))
    assert index.is_read  # read now, not when first asked
    assert [sites.files_mentioning(paths[0], set(each)) for each in names] == lazy
    assert lazy[5] and lazy[6] and lazy[7] and lazy[8] and lazy[9] == []  # bases, aliases, partial, passed classes
    sites.forget()


def test_read_indexes_keeps_every_folder_of_the_run(tmp_path: Path) -> None:
    """More project folders than the lazy cache keeps: none is dropped before the workers use it."""
    paths = []
    for number in range(20):
        paths += _project(tmp_path / f"project{number}", 1)
    sites.forget()
    sites.read_indexes(paths, jobs=1)
    assert len(sites._INDEXES) == 20
    sites.forget()


def test_a_workers_additions_reach_the_next_fork(monkeypatch: pytest.MonkeyPatch) -> None:
    table: dict = {("root", "old"): [0.5]}
    monkeypatch.setattr(forked, "_CARRIED", {"test.table": table})
    forked.mark_start()  # (as a fresh worker does)
    table[("root", "new")] = [0.9]
    sent = forked.added_since_start()
    assert sent == {"test.table": {("root", "new"): [0.9]}}  # only what it added
    main_table = {("root", "old"): [0.5]}
    monkeypatch.setattr(forked, "_CARRIED", {"test.table": main_table})
    forked.take(sent)
    forked.take("not a dict")  # another shape: ignored
    forked.take({"unknown.table": {1: 2}})
    assert main_table == {("root", "old"): [0.5], ("root", "new"): [0.9]}


def test_the_carried_tables_are_registered() -> None:
    from mslint.run import compat  # noqa: F401, PLC0415 - registers its table on import

    assert {"programs.visible", "programs.given", "compat.star_names"} <= set(forked._CARRIED)


def test_collector_paused_restores_its_state() -> None:
    assert gc.isenabled()
    with forked.collector_paused():
        assert not gc.isenabled()
    assert gc.isenabled()
    gc.disable()
    try:
        with forked.collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()  # it was off: it stays off
    finally:
        gc.enable()


def test_survivors_of_full_collections_are_frozen_while_pylint_checks_and_handed_back() -> None:
    gc.unfreeze()
    kept = [[index] for index in range(1000)]
    with pylint_hooks.survivors_frozen():
        with pylint_hooks.survivors_frozen():  # nested: one policy
            assert gc.callbacks.count(pylint_hooks._freeze_survivors) == int(pylint_hooks.FREEZES_SURVIVORS)
        gc.collect()
        if pylint_hooks.FREEZES_SURVIVORS:
            assert gc.get_freeze_count() >= len(kept)  # what survived is out of the collector's sight
        else:  # (CPython 3.14's incremental collector: left alone)
            assert gc.get_freeze_count() == 0
        cycle: list = []
        cycle.append(cycle)
        del cycle
        assert gc.collect() >= 1  # garbage formed after the freeze is still collected
    assert pylint_hooks._freeze_survivors not in gc.callbacks
    assert gc.get_freeze_count() == 0  # handed back at the end of the run
    assert kept[999] == [999]


def test_the_plugin_applies_the_policy_while_pylint_checks(tmp_path: Path) -> None:
    """pylint with mslint loaded: the policy is on while ``check`` runs and off after."""
    from pylint.lint import PyLinter  # noqa: PLC0415

    import mslint  # noqa: PLC0415

    (tmp_path / "module.py").write_text("x = 1\n")
    during = []
    check = PyLinter.check

    def spy(self, files_or_modules):  # noqa: ANN001, ANN202 - pylint's own check, inside the plugin's wrapper
        during.append(pylint_hooks._freeze_survivors in gc.callbacks)
        return check(self, files_or_modules)

    PyLinter.check = spy
    try:
        linter = PyLinter()
        mslint.register(linter)
        linter.check([str(tmp_path / "module.py")])
    finally:
        PyLinter.check = check
    assert during == [pylint_hooks.FREEZES_SURVIVORS]
    assert pylint_hooks._freeze_survivors not in gc.callbacks
