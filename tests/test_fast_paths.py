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


def test_indexes_offered_by_another_process_are_the_indexes_read(tmp_path: Path) -> None:
    """What index_words reads (the command's background process) and the index
    read here give the same files for every name; an offered folder is taken once."""
    paths = _project(tmp_path, 12)
    names = [{f"Net{index}"} for index in range(5)] + [{"Base1"}, {"Block3", "Other7"}, {"head2"}, {"nothing"}]
    sites.forget()
    read_here = [sites.files_mentioning(paths[0], set(each)) for each in names]
    sites.forget()
    words = sites.index_words(paths)
    assert list(words) == [str(tmp_path)] and words[str(tmp_path)][0]  # one folder, complete
    sites.offer_indexes(words)
    assert [sites.files_mentioning(paths[0], set(each)) for each in names] == read_here
    assert not sites._OFFERED  # taken by the index
    sites.forget()


def test_a_forked_worker_keeps_the_tables_of_the_process_it_was_forked_from() -> None:
    """The command's main process holds what ended workers worked out
    (forked.carried): a worker's engine keeps it (programs.configure(inherited=True));
    a run of its own starts from nothing."""
    from mslint.run.engine import Engine, Settings  # noqa: PLC0415

    key = ("/some/project", "dropout")
    try:
        programs._VISIBLE[key] = [0.9]
        programs._GIVEN[("/some/project/a.py", "dropout")] = (0.9,)
        Engine(Settings(enabled=["syntax-error"], jit_syntax_level="strict", roots=[]), inherited=True)
        assert programs._VISIBLE[key] == [0.9]
        assert programs._GIVEN
        Engine(Settings(enabled=["syntax-error"], jit_syntax_level="strict", roots=[]))
        assert key not in programs._VISIBLE and not programs._GIVEN
    finally:
        programs.release()


def test_background_work_comes_back_from_the_child(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "FORK_AT_MOST", 2**62)  # fork, however large the test process has grown
    import os  # noqa: PLC0415

    parent = os.getpid()
    work = forked.Background(lambda: {"pid": os.getpid(), "words": frozenset({"Net"})})
    value = work.result()
    assert value["words"] == frozenset({"Net"})
    assert value["pid"] != parent  # computed in the child
    assert work.result() is value  # once


def test_background_work_that_fails_or_is_cancelled_gives_none(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "FORK_AT_MOST", 2**62)

    def fails() -> None:
        raise ValueError("unreadable")

    assert forked.Background(fails).result() is None  # the caller reads it itself then
    import time  # noqa: PLC0415

    slow = forked.Background(lambda: time.sleep(60))
    slow.cancel()  # killed, not waited for
    assert slow.result() is None
    monkeypatch.setattr(forked, "FORK_AT_MOST", 0)  # too large to fork: nothing is computed
    assert forked.Background(lambda: 1).result() is None


def test_work_in_a_child_comes_back_and_announces_itself(monkeypatch: pytest.MonkeyPatch) -> None:
    """forked.in_child: the value the child computes (the program model's verdicts),
    with ``started`` called here when the child announces a cold build; (False, None)
    where the child fails or no child may be forked (the caller computes it then)."""
    monkeypatch.setattr(forked, "FORK_AT_MOST", 2**62)
    import os  # noqa: PLC0415

    parent = os.getpid()
    started: list[int] = []

    def build(announce) -> dict:  # noqa: ANN001
        announce()
        announce()  # (once is what counts)
        return {"pid": os.getpid(), "verdicts": {"net.py": {"mode": "graph"}}}

    done, value = forked.in_child(build, lambda: started.append(os.getpid()))
    assert done and value["verdicts"] == {"net.py": {"mode": "graph"}}
    assert value["pid"] != parent and started == [parent]  # computed there, announced here
    assert forked.in_child(lambda announce: {"served": True}, lambda: started.append(0)) == (True, {"served": True})
    assert started == [parent]  # a warm run announces nothing

    def fails(announce) -> None:  # noqa: ANN001
        announce()
        raise ValueError("a model that cannot be built")

    assert forked.in_child(fails, lambda: started.append(1)) == (False, None)
    assert started == [parent, 1]
    monkeypatch.setattr(forked, "FORK_AT_MOST", 0)  # too large to fork
    assert forked.in_child(build) == (False, None)


def test_a_cold_run_reads_in_the_background_what_it_would_read_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture,
) -> None:
    """The command's background reading (cli.Prefetch: the project indexes and the
    port view's originals) gives the findings the run gives without it, cached or not."""
    import json  # noqa: PLC0415

    from mslint.run import cli  # noqa: PLC0415

    monkeypatch.setattr(forked, "FORK_AT_MOST", 2**62)
    paths = _project(tmp_path, forked.PARALLEL_AT_LEAST + 4)
    (tmp_path / "pkg" / "model.py").write_text(
        "import numpy as np\nfrom mindspore import nn\n\n\nclass Net0(nn.Cell):\n"
        "    def __init__(self, rate):\n        super().__init__()\n        self.drop = nn.Dropout(0.1)\n"
        "        self.conv = nn.Conv2d(3, 8, 3)\n\n    def construct(self, x):\n"
        "        return np.sum(self.conv(self.drop(x)).asnumpy())\n",
    )
    (tmp_path / "torch_model").mkdir()
    (tmp_path / "torch_model" / "model.py").write_text("import torch\n\n\nclass Net0(torch.nn.Module):\n    pass\n")
    assert paths
    offered = []
    monkeypatch.setattr(sites, "offer_indexes", lambda words: (offered.append(words), sites._OFFERED.update(words)))

    def run(*options: str) -> list:
        monkeypatch.setenv("MSLINT_CACHE_DIR", str(tmp_path / f"cache{len(runs)}"))
        code = cli.main(["--format=json", "--fail-on=never", *options, str(tmp_path)])
        out, err = capsys.readouterr()
        assert code == 0, err
        return json.loads(out)["findings"]

    runs: list = []
    runs.append(run())
    assert offered and str(tmp_path) in offered[-1]  # read in the background, and taken
    runs.append(run("--no-cache"))
    assert len(offered) == 2
    monkeypatch.setattr(forked, "FORK_AT_MOST", 0)  # no background: the run reads it all itself
    runs.append(run())
    assert len(offered) == 2
    assert runs[0] == runs[1] == runs[2]
    assert {item["symbol"] for item in runs[0]} >= {"ms-numpy-on-tensor"}


def test_pragmas_naming_only_pylints_own_messages_are_not_read() -> None:
    from mslint.run.engine import Engine, Settings  # noqa: PLC0415

    engine = Engine(Settings(enabled=["ms-numpy-on-tensor"], jit_syntax_level="strict", roots=[], only_mslint=True))
    others = engine._pragmas_name_only_others
    assert others(b"x = 1  # pylint: disable=C0103\n# pylint: disable = invalid-name, W0212\n")
    assert others(b"# pylint: disable-next=protected-access\n")
    assert not others(b"# pylint: disable=C0103,ms-numpy-on-tensor\n")  # one of mslint's
    assert not others(b"# pylint: enable=ms-dropout-keep-prob\n")  # not enabled here, but a pragma may enable it
    assert not others(b"# pylint: disable=syntax-error\n")  # enabled in every run
    assert not others(b"# pylint: disable=all\n")
    assert not others(b"# pylint: skip-file\n")
    assert not others(b"# pylint: disable=no-such-message\n")  # pylint would say so (unknown-option-value)
    assert not others(b"# pylint: disable=C0103  # noqa: F401\n")  # any other word
    assert not others(b"# pylint: disable-msg=C0103\n")  # a deprecated action


def test_a_pragma_still_decides_where_it_names_the_runs_messages(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Whether pylint reads a file's pragmas or not, what it reports is the same."""
    import json  # noqa: PLC0415

    from mslint.run import cli  # noqa: PLC0415

    body = ("import numpy as np\nfrom mindspore import nn\n\n\nclass Net(nn.Cell):\n"
            "    def construct(self, x):\n        return np.sum(x)  {pragma}\n")
    expected = {"": 1, "# pylint: disable=C0103": 1, "# pylint: disable=ms-numpy-on-tensor": 0,
                "# pylint: disable=C0103,ms-numpy-on-tensor": 0, "# pylint: disable=W0212  # keep": 1}
    for number, pragma in enumerate(expected):
        (tmp_path / f"net{number}.py").write_text(body.format(pragma=pragma))
    code = cli.main(["--format=json", "--fail-on=never", "--no-cache", "--select=ms-numpy-on-tensor", str(tmp_path)])
    out, err = capsys.readouterr()
    assert code == 0, err
    found = [Path(item["path"]).name for item in json.loads(out)["findings"]]
    assert [found.count(f"net{number}.py") for number in range(len(expected))] == list(expected.values())


def test_torch_classes_read_for_the_port_view_serve_the_port_rules(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The torch classes pytorch_originals reads for each folder (in the command's
    background process) are the ones the port rules ask (_torch_classes), read once."""
    from mslint.analysis import port  # noqa: PLC0415

    (tmp_path / "torch_net.py").write_text("import torch\n\n\nclass Net(torch.nn.Module):\n    pass\n")
    (tmp_path / "net.py").write_text("from mindspore import nn\n\n\nclass Net(nn.Cell):\n    pass\n\n\nclass Head(nn.Cell):\n    pass\n")
    port.forget()
    cache: dict = {}
    port.pytorch_originals([str(tmp_path / "net.py")], cache)
    assert cache == {str(tmp_path): {"Net": str(tmp_path / "torch_net.py")}}
    port.offer_torch_classes(cache)
    read = []
    monkeypatch.setattr(sites, "read_source", lambda path: read.append(path))  # reading again would show here
    assert port._original_file(str(tmp_path / "net.py"), "Net") == str(tmp_path / "torch_net.py")
    assert read == []
    port.forget()
    assert not port._ORIGINALS


def test_the_carried_tables_are_registered() -> None:
    from mslint.run import compat  # noqa: F401, PLC0415 - registers its table on import

    assert {"programs.visible", "programs.given", "compat.star_names", "port.originals"} <= set(forked._CARRIED)


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
