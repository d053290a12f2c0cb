"""A linter must never damage a file (issue 22): ``--fix`` and ``--diff`` under
concurrency and hostile conditions. Each test reproduced its defect first; the
concurrent ones are made deterministic by running the other party (a second
``mslint --fix``, an editor saving) at a fixed point of the run, through a hook.
The stress test with real processes is benchmarks/fix_stress.py."""

from __future__ import annotations

import errno
import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from mslint.analysis import edits
from mslint.report import fixes, notebooks, patches
from mslint.run import cli

ROOT = Path(__file__).resolve().parent.parent
BEFORE = "from mindspore import nn\n\nd = nn.Dense(16, 4, bias=False)\nc = nn.Conv2d(3, 8, 3, padding=1)\n"
AFTER = 'from mindspore import nn\n\nd = nn.Dense(16, 4, has_bias=False)\nc = nn.Conv2d(3, 8, 3, pad_mode="pad", padding=1)\n'


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(folder))
    return folder


def run(capsys: pytest.CaptureFixture, *args: str) -> tuple[int, str, str]:
    code = cli.main(["--jobs", "1", *args])
    out, err = capsys.readouterr()
    return code, out, err


def compiles(text: str) -> bool:
    try:
        compile(text, "fixed", "exec")
    except SyntaxError:
        return False
    return True


def between_lint_and_fix(monkeypatch: pytest.MonkeyPatch, action) -> None:  # noqa: ANN001
    """Run ``action`` once, after the command linted its files and before its
    fix loop starts: the instant another program's write hurts."""
    real = fixes.run

    def interleaved(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        monkeypatch.setattr(fixes, "run", real)
        action()
        return real(*args, **kwargs)

    monkeypatch.setattr(fixes, "run", interleaved)


# ---------------------------------------------------------------------------
# 1, 2: another mslint --fix, an editor, writing meanwhile
# ---------------------------------------------------------------------------


def test_two_fix_runs_at_once_fix_each_file_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """Item 1: the second run linted the file before the first one fixed it."""
    target = tmp_path / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    other: list[int] = []
    between_lint_and_fix(monkeypatch, lambda: other.append(cli.main(["--jobs", "1", "--fix", str(target)])))
    code, _, err = run(capsys, "--fix", str(target))
    text = target.read_text(encoding="utf-8")
    assert text == AFTER, text  # not `has_biasbias=False`, not `pad_mode="pad", pad_mode="pad"`
    assert compiles(text)
    assert other == [cli.EXIT_OK]
    assert code == cli.EXIT_OK, err  # the file already holds this run's fixes: nothing to report


def test_a_file_saved_during_the_fix_is_left_and_reported(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """Item 2: an editor (a formatter on save, git checkout) wrote the file
    after it was checked: its new content gets no edit computed on the old."""
    target = tmp_path / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    saved = 'NAME = "dense_head_from_imagenet_checkpoint"\n' + BEFORE
    between_lint_and_fix(monkeypatch, lambda: target.write_text(saved, encoding="utf-8"))
    code, out, err = run(capsys, "--fix", str(target))
    assert target.read_text(encoding="utf-8") == saved
    assert "model.py: not fixed: it changed since mslint checked it" in err
    assert code == cli.EXIT_ERROR
    assert "model.py:4:21: E8001" in out  # the report is of what the file holds now (its findings moved a line down)


@pytest.mark.parametrize("how", ["in place", "renamed over"])
def test_an_editor_saving_while_the_new_content_is_written_keeps_its_save(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, how: str
) -> None:
    """Item 2, the last moment: the editor saves after mslint compared the
    content and while it flushes its new file (an editor that writes a new file
    and renames it over the old one leaves the old inode's content unchanged)."""
    target = tmp_path / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    saved = 'NAME = "saved by the editor"\n' + BEFORE
    real_fsync = os.fsync
    done: list[bool] = []

    def editor_saves(fd: int) -> None:
        real_fsync(fd)
        if not done:
            done.append(True)
            if how == "in place":
                target.write_text(saved, encoding="utf-8")
            else:
                (tmp_path / ".model.py.swp").write_text(saved, encoding="utf-8")
                os.replace(tmp_path / ".model.py.swp", target)

    monkeypatch.setattr(os, "fsync", editor_saves)
    code, _, err = run(capsys, "--fix", "--no-cache", str(target))
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert done and target.read_text(encoding="utf-8") == saved
    assert "model.py: not fixed:" in err and code == cli.EXIT_ERROR


def test_a_write_under_the_lock_compares_the_content_again(tmp_path: Path) -> None:
    """patches.rewrite writes only over the expected bytes, and says so when
    another run wrote the same bytes first."""
    target = tmp_path / "model.py"
    target.write_bytes(b"old\n")
    with pytest.raises(patches.FileChanged):
        patches.rewrite(str(target), b"other\n", b"new\n")
    assert target.read_bytes() == b"old\n"
    assert patches.rewrite(str(target), b"old\n", b"new\n") is True
    assert patches.rewrite(str(target), b"old\n", b"new\n") is False  # already there: not written twice
    assert target.read_bytes() == b"new\n"


# ---------------------------------------------------------------------------
# 3: fixes that would not compile
# ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("line", "given"),
    [
        ("d = nn.Dense(4, 4, bias=False, has_bias=True)", "has_bias"),  # a PyTorch keyword renamed
        ("n = nn.LayerNorm((4,), eps=1e-5, epsilon=1e-5)", "epsilon"),
        ("d = nn.Dense(4, 4, False, has_bias=True)", "has_bias"),  # PyTorch positionals as keywords
        ('c = nn.Conv2d(3, 8, 3, 1, 1, pad_mode="pad")', "pad_mode"),
    ],
)
def test_a_fix_never_repeats_a_keyword(tmp_path: Path, capsys: pytest.CaptureFixture, line: str, given: str) -> None:
    """Item 3: ast.parse accepts `f(a=1, a=2)`, CPython does not compile it:
    neither the fix nor the message's suggestion repeats a keyword."""
    target = tmp_path / "model.py"
    target.write_text(f"from mindspore import nn\n{line}\n", encoding="utf-8")
    _, out, _ = run(capsys, "--format", "json", str(target))
    # (the port rule ms-layer-default-differs may speak too: the module reads as a port)
    (finding,) = [item for item in json.loads(out)["findings"] if item["symbol"] != "ms-layer-default-differs"]
    assert "fix" not in finding
    assert f"{given} is already given" in finding["message"]
    run(capsys, "--fix", "--unsafe-fixes", str(target))
    assert compiles(target.read_text(encoding="utf-8")), target.read_text(encoding="utf-8")


def test_the_message_does_not_suggest_a_repeated_keyword(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "model.py"
    target.write_text("from mindspore import nn\nd = nn.Dense(4, 4, bias=False, has_bias=True)\n", encoding="utf-8")
    _, out, _ = run(capsys, "--select", "ms-torch-keyword-args", str(target))
    assert "[ms-torch-keyword-args]" in out
    assert "write has_bias=False" not in out
    assert "has_bias is already given" in out


def test_a_file_that_does_not_compile_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Item 3: not "No findings"; and --fix never edits it."""
    target = tmp_path / "model.py"
    text = "from mindspore import nn\nd = nn.Dense(4, 2, bias=False)\nprint(end='', end='')\n"
    target.write_text(text, encoding="utf-8")
    code, out, _ = run(capsys, "--fix", str(target))
    assert "model.py:3:" in out and "[syntax-error] the file does not compile: keyword argument repeated" in out
    assert code == cli.EXIT_FINDINGS
    assert target.read_text(encoding="utf-8") == text


def test_the_compile_check_compiles_the_checked_file_itself(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """``helper.flag = ...`` makes astroid's build of the file import (and parse)
    helper.py: the compile check still compiles the checked file's own tree."""
    (tmp_path / "helper.py").write_text("flag = 0\n", encoding="utf-8")
    target = tmp_path / "main.py"
    target.write_text("import os\nfrom __future__ import division\nimport helper\nhelper.flag = 2\n", encoding="utf-8")
    code, out, _ = run(capsys, "--no-cache", str(target))
    assert "main.py:2:1: E0001 [syntax-error] the file does not compile: from __future__ imports" in out
    assert code == cli.EXIT_FINDINGS


def test_a_fix_patch_that_does_not_compile_is_dropped() -> None:
    source = patches.Source("f(a=1, b=2)\n", "utf-8", bom=False)
    rename = edits.Patch("rename", "safe", (edits.Edit(1, 8, 1, 9, "a"),))
    assert patches.fixed_text(source, [rename]) == ("f(a=1, b=2)\n", [])


# ---------------------------------------------------------------------------
# 4, 5: forward -> construct, numpy -> ops
# ---------------------------------------------------------------------------


def test_forward_callers_in_other_modules_keep_working(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Item 4: `.forward(...)` and `super().forward(...)` elsewhere in the
    project still find a method after the fix."""
    package = tmp_path / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("", encoding="utf-8")
    (package / "model.py").write_text(textwrap.dedent("""
        from mindspore import nn


        class Net(nn.Cell):
            def __init__(self):
                super().__init__()
                self.fc = nn.Dense(4, 2)

            def forward(self, x):
                return self.fc(x)
        """), encoding="utf-8")
    (package / "use.py").write_text(textwrap.dedent("""
        from pkg.model import Net


        class Wider(Net):
            def construct(self, x):
                return super().forward(x) * 2


        def features(net, x):
            return net.forward(x)


        def plain(x):
            return Net()(x)  # Net itself is built and called: its missing construct matters
        """), encoding="utf-8")
    run(capsys, "--fix", str(package))
    fixed = (package / "model.py").read_text(encoding="utf-8")
    namespace = _class_namespace(fixed, "Net")
    assert "construct" in namespace and "forward" in namespace, fixed
    assert namespace["construct"] == namespace["forward"]  # one method under both names


def _class_namespace(text: str, name: str) -> dict[str, str]:
    """What each name of class ``name``'s body is bound to, from the text alone:
    a def binds its own name, ``a = b`` binds a to what b is bound to."""
    import ast  # noqa: PLC0415

    cls = next(node for node in ast.parse(text).body if isinstance(node, ast.ClassDef) and node.name == name)
    bound: dict[str, str] = {}
    for statement in cls.body:
        if isinstance(statement, ast.FunctionDef):
            bound[statement.name] = statement.name
        elif isinstance(statement, ast.Assign) and isinstance(statement.value, ast.Name):
            for target in statement.targets:
                if isinstance(target, ast.Name):
                    bound[target.id] = bound.get(statement.value.id, statement.value.id)
    return bound


def test_the_numpy_fix_never_binds_to_a_local_ops(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Item 5: `ops` in the function is a parameter, not mindspore.ops."""
    target = tmp_path / "model.py"
    text = textwrap.dedent("""
        import numpy as np
        from mindspore import nn


        class Net(nn.Cell):
            def construct(self, x, ops=None):
                return np.exp(x)


        class Other(nn.Cell):
            def construct(self, x):
                ops = [x]
                return np.exp(ops[0])
        """)
    target.write_text(text, encoding="utf-8")
    run(capsys, "--fix", "--unsafe-fixes", str(target))
    fixed = target.read_text(encoding="utf-8")
    assert "ops.exp" not in fixed.replace("mindspore.ops.exp", ""), fixed
    assert compiles(fixed)


def test_an_import_added_to_a_crlf_file_ends_in_crlf(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Item 5: the added `from mindspore import ops` line keeps the file CRLF."""
    target = tmp_path / "model.py"
    text = "import numpy as np\r\nfrom mindspore import nn\r\n\r\n\r\nclass Net(nn.Cell):\r\n    def construct(self, x):\r\n        return np.exp(x)\r\n"
    target.write_bytes(text.encode("utf-8"))
    run(capsys, "--fix", "--unsafe-fixes", str(target))
    data = target.read_bytes()
    assert b"from mindspore import ops\r\n" in data and b"ops.exp(x)" in data
    assert data.count(b"\n") == data.count(b"\r\n")


# ---------------------------------------------------------------------------
# 6: links, owners, modes, attributes, partial files
# ---------------------------------------------------------------------------


def test_a_symlink_stays_a_link_and_its_target_is_fixed(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    real = tmp_path / "real" / "model.py"
    real.parent.mkdir()
    real.write_text(BEFORE, encoding="utf-8")
    link = tmp_path / "model.py"
    link.symlink_to(real)
    run(capsys, "--fix", str(link))
    assert link.is_symlink() and os.readlink(link) == str(real)
    assert real.read_text(encoding="utf-8") == AFTER


def test_hard_links_all_see_the_fix(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    first = tmp_path / "model.py"
    first.write_text(BEFORE, encoding="utf-8")
    second = tmp_path / "other" / "copy.py"
    second.parent.mkdir()
    os.link(first, second)
    inode = first.stat().st_ino
    run(capsys, "--fix", str(first))
    assert first.stat().st_ino == inode == second.stat().st_ino
    assert second.read_text(encoding="utf-8") == AFTER


def test_owner_mode_and_extended_attributes_are_kept(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    target = tmp_path / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    os.chmod(target, 0o640)
    os.setxattr(target, "user.origin", b"mslint-test")
    owner = (1234, 1234) if os.geteuid() == 0 else (os.getuid(), os.getgid())
    os.chown(target, *owner)
    run(capsys, "--fix", str(target))
    info = target.stat()
    assert target.read_text(encoding="utf-8") == AFTER
    assert (info.st_uid, info.st_gid) == owner
    assert info.st_mode & 0o7777 == 0o640
    assert os.getxattr(target, "user.origin") == b"mslint-test"


def test_a_read_only_file_is_never_rewritten(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    """Item 6 (and 14): even where the folder is writable, even as root."""
    target = tmp_path / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    os.chmod(target, 0o444)
    code, _, err = run(capsys, "--fix", str(target))
    assert target.read_text(encoding="utf-8") == BEFORE
    assert "model.py: not fixed: cannot write it: the file is read-only" in err
    assert code == cli.EXIT_ERROR


def test_a_failed_write_leaves_the_whole_old_file_and_no_temporary_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Items 6 and 14: a full disk in the middle of writing (a write that
    fails after part of the new content went out)."""
    target = tmp_path / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    real_write = os.write

    def full_disk(fd: int, data) -> int:  # noqa: ANN001
        if len(data) > 8:
            real_write(fd, bytes(data[:8]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", full_disk)
    code, _, err = run(capsys, "--fix", "--no-cache", str(target))
    monkeypatch.setattr(os, "write", real_write)
    assert target.read_text(encoding="utf-8") == BEFORE
    assert sorted(path.name for path in tmp_path.iterdir()) == ["model.py"]
    assert "model.py: not fixed: cannot write it: no space to write it" in err
    assert code == cli.EXIT_ERROR


def test_a_file_too_large_for_the_disk_is_reported_and_the_rest_fixed(tmp_path: Path) -> None:
    """Item 14: a real write error (the file-size limit, as a full disk):
    the file is named, the other files are fixed, the exit status is 2."""
    small = tmp_path / "small.py"
    small.write_text("from mindspore import nn\nd = nn.Dense(4, 2, bias=False)\n", encoding="utf-8")
    large = tmp_path / "large.py"
    large.write_text("from mindspore import nn\n" + "#" * 300 + "\nd = nn.Dense(4, 2, bias=False)\n", encoding="utf-8")
    limit = 200  # bytes: small.py fits after its fix, large.py never did
    script = (
        "import resource, signal, sys\n"
        "signal.signal(signal.SIGXFSZ, signal.SIG_IGN)\n"
        f"resource.setrlimit(resource.RLIMIT_FSIZE, ({limit}, {limit}))\n"
        "from mslint.run import cli\n"
        "sys.exit(cli.main(sys.argv[1:]))\n"
    )
    result = subprocess.run(  # noqa: S603
        [sys.executable, "-c", script, "--no-cache", "--fix", str(small), str(large)],
        cwd=tmp_path, capture_output=True, text=True, timeout=300, check=False,
    )
    assert "has_bias" in small.read_text(encoding="utf-8")
    assert "bias=False" in large.read_text(encoding="utf-8") and "has_bias" not in large.read_text(encoding="utf-8")
    assert "large.py: not fixed: cannot write it: no space to write it" in result.stderr, result.stderr
    assert "internal error" not in result.stderr
    assert result.returncode == cli.EXIT_ERROR
    assert sorted(path.name for path in tmp_path.iterdir()) == ["large.py", "small.py"]


def test_no_temporary_file_is_ever_visible_beside_the_sources(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """Item 9: a --fix killed while writing leaves nothing in the folder: the
    new content is written to an unnamed file (looked at while it is flushed)."""
    target = tmp_path / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    seen: list[list[str]] = []
    real_fsync = os.fsync

    def fsync(fd: int) -> None:
        seen.append(sorted(os.listdir(tmp_path)))
        real_fsync(fd)

    monkeypatch.setattr(os, "fsync", fsync)
    run(capsys, "--fix", "--no-cache", str(target))
    monkeypatch.setattr(os, "fsync", real_fsync)
    assert target.read_text(encoding="utf-8") == AFTER
    assert seen and all(names == ["model.py"] for names in seen), seen


# ---------------------------------------------------------------------------
# 7: notebook shadows through planted links
# ---------------------------------------------------------------------------


def test_notebook_shadows_are_never_written_through_a_planted_link(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture
) -> None:
    """The cache folder cannot be written; another local user planted links at
    the shared temporary path mslint used to write shadows to."""
    blocker = tmp_path / "not-a-folder"
    blocker.write_text("", encoding="utf-8")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(blocker / "cache"))
    shared = tmp_path / "shared-tmp"
    shared.mkdir()
    monkeypatch.setenv("TMPDIR", str(shared))
    monkeypatch.setattr("tempfile.tempdir", None)
    notebook = tmp_path / "train.ipynb"
    notebook.write_text(json.dumps({"cells": [{"cell_type": "code", "metadata": {}, "outputs": [], "execution_count": 1,
                                               "source": ["import numpy as np\n", "x = np.ones(2)"]}],
                                    "metadata": {}, "nbformat": 4, "nbformat_minor": 5}), encoding="utf-8")
    victim = tmp_path / "victim.txt"
    victim.write_text("precious\n", encoding="utf-8")
    uid = os.getuid()
    for base in (shared / f"mslint-{uid}", shared):
        planted = Path(notebooks.shadow_path(str(notebook), base))
        planted.parent.mkdir(parents=True, exist_ok=True)
        planted.symlink_to(victim)
    code, _, err = run(capsys, str(notebook))
    assert victim.read_text(encoding="utf-8") == "precious\n"
    assert code == cli.EXIT_OK, err


# ---------------------------------------------------------------------------
# 9: --diff writes nothing
# ---------------------------------------------------------------------------


def test_diff_writes_nothing_in_the_project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """Item 9: no working copy beside the sources, not even while the fixed
    text is checked again (where a killed run used to leave it, and a
    concurrent `mslint .` linted it)."""
    project = tmp_path / "project"
    project.mkdir()
    target = project / "model.py"
    target.write_text(BEFORE, encoding="utf-8")
    listings: list[list[str]] = []
    real = cli._check_with_notebooks  # noqa: SLF001

    def relint(*args, **kwargs):  # noqa: ANN002, ANN003, ANN202
        listings.append(sorted(os.listdir(project)))
        return real(*args, **kwargs)

    monkeypatch.setattr(cli, "_check_with_notebooks", relint)
    code, out, _ = run(capsys, "--diff", str(target))
    assert code == cli.EXIT_FINDINGS
    assert "+d = nn.Dense(16, 4, has_bias=False)" in out
    assert listings and all(names == ["model.py"] for names in listings), listings
    assert target.read_text(encoding="utf-8") == BEFORE


# ---------------------------------------------------------------------------
# 10: notebooks keep their own JSON
# ---------------------------------------------------------------------------

_NOTEBOOK = {
    "cells": [
        {"cell_type": "markdown", "metadata": {}, "source": ["# Net ü\n"]},
        {"cell_type": "code", "execution_count": 1, "metadata": {"lr": 1.0e-5}, "outputs": [],
         "source": ["from mindspore import nn\n", "dense = nn.Dense(16, 4, bias=False)\n", "conv = nn.Conv2d(3, 8, 3, padding=1)"]},
    ],
    "metadata": {"kernelspec": {"name": "python3"}},
    "nbformat": 4,
    "nbformat_minor": 5,
}


def _styles() -> dict[str, str]:
    base = json.dumps(_NOTEBOOK, indent=1, ensure_ascii=False)
    return {
        "crlf": base.replace("\n", "\r\n") + "\r\n",
        "one-line": json.dumps(_NOTEBOOK, ensure_ascii=True),
        "tabs": json.dumps(_NOTEBOOK, indent="\t", ensure_ascii=False) + "\n",
        "float-as-written": base.replace('"lr": 1e-05', '"lr": 1.0e-5'),
    }


@pytest.mark.parametrize("style", list(_styles()))
def test_a_notebook_fix_changes_only_the_changed_source_strings(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture, style: str
) -> None:
    raw = _styles()[style]
    target = tmp_path / "train.ipynb"
    target.write_bytes(raw.encode("utf-8"))
    monkeypatch.chdir(tmp_path)
    run(capsys, "--fix", "train.ipynb")
    fixed = target.read_bytes().decode("utf-8")
    expected = raw.replace('nn.Dense(16, 4, bias=False)', 'nn.Dense(16, 4, has_bias=False)').replace(
        "nn.Conv2d(3, 8, 3, padding=1)", 'nn.Conv2d(3, 8, 3, pad_mode=\\"pad\\", padding=1)')
    assert fixed == expected


def test_a_notebook_fix_that_adds_a_line_keeps_the_style(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture) -> None:
    """An unsafe numpy fix adds `from mindspore import ops` as a new source line."""
    document = {"cells": [{"cell_type": "code", "execution_count": 1, "metadata": {}, "outputs": [], "source": [
        "import numpy as np\n", "from mindspore import nn\n", "class Net(nn.Cell):\n", "    def construct(self, x):\n", "        return np.exp(x)"]}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}
    raw = json.dumps(document, indent="\t") + "\n"
    target = tmp_path / "net.ipynb"
    target.write_text(raw, encoding="utf-8")
    monkeypatch.chdir(tmp_path)
    # --mode graph: the notebook itself sets no mode, so its Cell would run PyNative
    run(capsys, "--fix", "--unsafe-fixes", "--mode", "graph", "net.ipynb")
    fixed = target.read_text(encoding="utf-8")
    source = json.loads(fixed)["cells"][0]["source"]
    assert source[2] == "from mindspore import ops\n" and source[-1] == "        return ops.exp(x)"
    expected = dict(document)
    expected["cells"] = [dict(document["cells"][0], source=source)]
    assert fixed == json.dumps(expected, indent="\t") + "\n"  # tabs everywhere, the new line too


def test_the_source_writer_shares_nothing_with_json_dumps() -> None:
    """The splice never re-serialises the document (how `1.0e-5` used to become `1e-05`)."""
    raw = '{"cells": [{"cell_type": "code", "metadata": {"x": 1.0e-5}, "source": ["a = 1\\n", "b = 2"]}], "nbformat": 4}'
    assert notebooks._splice_sources(raw, {0: "a = 1\nb = 3"}) == raw.replace('"b = 2"', '"b = 3"')  # noqa: SLF001


def test_fixed_notebooks_and_files_leave_no_shadow_in_the_project(tmp_path: Path, capsys: pytest.CaptureFixture) -> None:
    project = tmp_path / "project"
    project.mkdir()
    shutil.copy(ROOT / "fixtures" / "fixes" / "ms-torch-keyword-args" / "before_ms_torch_keyword_args.py", project / "model.py")
    run(capsys, "--fix", str(project))
    assert sorted(path.name for path in project.iterdir()) == ["model.py"]
