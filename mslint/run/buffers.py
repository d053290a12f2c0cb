"""Linting and fixing an editor's unsaved buffer as the ``mslint`` command
lints and fixes the file it stands for, in-process (``mslint server``,
mslint/run/lsp.py).

A :class:`Project` is what ``mslint`` run over a whole project lints each file
with: its ``[tool.mslint]`` configuration, the files it checks, and the
:class:`~mslint.run.engine.Settings` made from them (rules, import roots, each
file's mode decision). The command builds it (mslint.run.cli.editor_project);
:class:`Projects` keeps one per project root while the files on disk stay as
they were, and builds it again when one changes, appears or goes.

A buffer is linted as ``mslint - --stdin-filename PATH`` lints standard input:
its text is written to a temporary folder outside the project and checked
under ``PATH``'s module name and mode decision, one in-process run per buffer
(mslint.run.pool.lint, which gives every run fresh astroid caches). Nothing is
written into the project, and nothing is cached.
"""

from __future__ import annotations

import contextlib
import io
import os
import shutil
import tempfile
import tokenize
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from mslint.analysis.project import module_name
from mslint.report import fixes
from mslint.report.findings import Finding
from mslint.report.patches import Source
from mslint.run import pool
from mslint.run.engine import Settings


@dataclass
class Project:
    """What ``mslint`` run over the project at ``root`` lints each file with."""

    root: str
    files: list[str]  # absolute, as the command finds them (notebooks as their shadow modules)
    settings: Settings
    excluded: Callable[[str], bool]  # the exclude patterns of [tool.mslint] and the command line
    config_source: str | None = None  # the pyproject.toml read, if any
    stamp: tuple = field(default=(), compare=False)  # see on_disk
    # the findings the command shows of those found in some files (the port rules
    # only where the code reads as a port: mslint.report.ports)
    shown: Callable[[list[Finding], list[str]], list[Finding]] | None = field(default=None, compare=False)

    def decision(self, path: str) -> tuple | None:
        """The mode decision of the file at ``path`` (Decision.row()), if the project has it."""
        return self.settings.decisions.get(os.path.abspath(path))


def on_disk(project: Project) -> tuple:
    """What the project model depends on, as it is on disk now: the size and
    time of change of each file, of the folders holding them (a file added or
    removed changes its folder's) and of the configuration."""
    folders = {project.root, *(os.path.dirname(path) for path in project.files)}
    stamp = []
    for path in sorted({*project.files, *folders, *([project.config_source] if project.config_source else [])}):
        try:
            info = os.stat(path)
        except OSError:
            stamp.append((path, None))
            continue
        stamp.append((path, info.st_mtime_ns, info.st_size))
    return tuple(stamp)


class Projects:
    """One :class:`Project` per root, built by ``build(path, extra)`` and built
    again when the files on disk have changed since. ``extra``: the files asked
    for in that project so far, which the project must hold even where the
    command would not find them by itself (a script without the .py suffix)."""

    def __init__(self, build: Callable[[str, Sequence[str]], Project]) -> None:
        self._build = build
        self._by_root: dict[str, Project] = {}
        self._root_of: dict[str, str] = {}  # a file's folder -> its project's root
        self._asked: dict[str, set[str]] = {}  # root -> the files asked for

    def project_of(self, path: str) -> Project:
        path = os.path.abspath(path)
        root = self._root_of.get(os.path.dirname(path), "")
        project = self._by_root.get(root)
        if project is not None and (path in project.files or project.excluded(path)) and project.stamp == on_disk(project):
            return project
        project = self._build(path, sorted(self._asked.get(root, set()) | {path}))
        project.stamp = on_disk(project)
        self._asked.setdefault(project.root, set()).add(path)
        self._by_root[project.root] = project
        self._root_of[os.path.dirname(path)] = project.root
        return project

    def forget(self) -> None:
        """Build every project again when next asked (its configuration changed)."""
        self._by_root.clear()
        self._root_of.clear()


# ---------------------------------------------------------------------------
# Buffers
# ---------------------------------------------------------------------------


def lint(project: Project, path: str, text: str) -> list[Finding]:
    """The findings ``mslint`` reports for the file at ``path`` when its content
    is ``text`` (none when the project excludes it), at ``path``."""
    path = os.path.abspath(path)
    if project.excluded(path):
        return []
    with _copy_of(path, text) as copy:
        found = _check(project, path, [copy])
    for item in found:
        item.path = path
    return found


def fixed(project: Project, path: str, text: str, *, unsafe: bool, found: list[Finding] | None = None) -> str:
    """``text`` as ``mslint --fix`` (``--unsafe-fixes`` when ``unsafe``) leaves
    the file at ``path`` with that content: the same loop (mslint.report.fixes),
    run on a copy outside the project. ``found``: the findings :func:`lint`
    gave for ``text``, if at hand (else it is linted first)."""
    path = os.path.abspath(path)
    if project.excluded(path):
        return text
    with _copy_of(path, text) as copy:
        first = [replace(item, path=copy) for item in found] if found is not None else _check(project, path, [copy])

        def again(paths: list[str], _sources: dict[str, bytes]) -> tuple[list[Finding], dict[str, str | None]]:
            # the copy is mslint's own: what it holds is what was linted
            return _check(project, path, paths), {item: fixes.content_hash(Path(item).read_bytes()) for item in paths}

        fixes.run(again, [copy], first, unsafe=unsafe, write=True,
                  hashes={copy: fixes.content_hash(Path(copy).read_bytes())})
        source = Source.read(copy)
    return source.text if source is not None else text


def _check(project: Project, path: str, copies: list[str]) -> list[Finding]:
    """Lint ``copies`` of the file at ``path``, each under its module name and mode decision."""
    decisions = dict(project.settings.decisions)
    decision = project.decision(path)
    if decision is not None:
        decisions.update(dict.fromkeys(copies, decision))
    settings = replace(project.settings, decisions=decisions)
    modname = module_name(path)
    results = pool.lint([(copy, modname, None) for copy in copies], settings, jobs=1)
    found = [item for copy in copies for item in results.get(copy, ([], None))[0]]
    return project.shown(found, copies) if project.shown is not None else found


@contextlib.contextmanager
def _copy_of(path: str, text: str) -> Iterator[str]:
    """``text`` in a file named as ``path`` (a .py name) in a temporary folder of its own."""
    folder = tempfile.mkdtemp(prefix="mslint-buffer-")
    name = os.path.basename(path)
    copy = os.path.join(folder, name if name.endswith((".py", ".pyi")) else "buffer.py")
    try:
        Path(copy).write_bytes(encoded(text))
        yield copy
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def encoded(text: str) -> bytes:
    """``text`` in the encoding it declares (PEP 263), else UTF-8, as the file would be saved."""
    data = text.encode("utf-8", errors="surrogatepass")
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError:
        return data
    if encoding in ("utf-8", "utf-8-sig"):
        return data
    try:
        return text.encode(encoding)
    except (LookupError, UnicodeEncodeError):
        return data
