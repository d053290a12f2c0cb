"""The ``mslint`` command: pylint with only mslint's rules, configured from
``[tool.mslint]``, with CI-friendly formats, exit codes, a baseline and a result
cache.

    mslint [PATHS...]            check files and folders (default: the current folder)
    mslint rules                 list every rule
    mslint explain SYMBOL        print a rule's documentation
    mslint clean-cache           delete the result cache
    mslint migration [PATHS...]  the PyTorch APIs the code uses and their MindSpore counterparts

Exit codes: 0 no finding at or above ``--fail-on``; 1 findings; 2 a usage,
configuration or input error (a path that does not exist, cannot be read or is
not Python; the other paths are still checked and reported); 3 an internal
error of mslint (the traceback is saved to a file the message names); 130
interrupted (Ctrl-C), 143 terminated (SIGTERM), 129 hung up (SIGHUP).
"""

from __future__ import annotations

import argparse
import dataclasses
import errno
import fnmatch
import gc
import io
import json
import math
import os
import re
import signal
import stat
import sys
import tempfile
import threading
import time
import traceback
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from mslint.knowledge.version import VERSION
from mslint.run import cache as result_cache
from mslint.report import catalog, findings, notebooks
from mslint.checkers.pylint_hooks import IncompatibleVersions
from mslint.analysis.project import module_name, package_root
from mslint.run.engine import MAX_SOURCE_BYTES, Settings, cell_compile_errors, is_compile_failure, skipped_libraries
from mslint.report.findings import Finding
from mslint.run.pool import TERMINATING_SIGNALS, available_cpus, default_jobs, lint
from mslint.run.config import DEFAULT_EXCLUDE, FAIL_ON, FORMATS, JIT_SYNTAX_LEVELS, Config, ConfigError, load
from mslint.analysis import edits, forked
from mslint.analysis.imports import scan_imports
from mslint.analysis import mode as run_mode
from mslint.analysis import programs as run_programs
from mslint.run import plugin
from mslint.confirm.rules import DEFAULT_TIMEOUT as DEFAULT_CONFIRM_TIMEOUT

EXIT_OK, EXIT_FINDINGS, EXIT_ERROR, EXIT_INTERNAL = 0, 1, 2, 3
CONFIRM_TIMEOUT = DEFAULT_CONFIRM_TIMEOUT  # seconds per module for --confirm (the plugin's default too)
# pylint's own messages that say a file could not be analysed: always on.
ALWAYS_ON = ("syntax-error", "fatal", "astroid-error", "parse-error")
RANK = {"fatal": 3, "error": 3, "warning": 2, "convention": 1, "refactor": 1, "info": 1}
THRESHOLD = {"error": 3, "warning": 2, "convention": 1, "never": 99}


@dataclass
class Problem:
    """An input that could not be checked."""

    path: str
    message: str

    def as_dict(self) -> dict[str, Any]:
        return {"path": display_path(self.path), "message": self.message, "absolutePath": os.path.abspath(self.path)}


# ---------------------------------------------------------------------------
# Paths
# ---------------------------------------------------------------------------


def display_path(path: str) -> str:
    """A path as the text report and messages show it: relative to the current
    folder when inside it, its control characters and undecodable bytes escaped
    (:func:`printable`)."""
    try:
        relative = os.path.relpath(path)
    except ValueError:
        relative = path
    return printable(path if relative.startswith(os.pardir) else relative)


# Characters a terminal or a CI log acts on: C0/C1 controls, DEL, line and
# paragraph separators, bidirectional overrides (which reorder what is shown).
_UNPRINTABLE = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def printable(text: str) -> str:
    """``text`` with what could act on a terminal or forge a CI log line (a
    newline in a file name followed by ``::error ...``) written as Python
    escapes; a byte a file name could not decode (``\\udcff``) as ``\\xff``."""
    def escape(match: re.Match) -> str:
        code = ord(match.group())
        if 0xDC80 <= code <= 0xDCFF:
            return f"\\x{code - 0xDC00:02x}"
        return match.group().encode("unicode_escape").decode("ascii") if code < 0xD800 else f"\\u{code:04x}"

    return _UNPRINTABLE.sub(escape, text)


def _json_text(text: str) -> str:
    """JSON text that is valid UTF-8: a lone surrogate (a file name's
    undecodable byte) written as its ``\\uXXXX`` escape."""
    return re.sub("[\ud800-\udfff]", lambda match: f"\\u{ord(match.group()):04x}", text)


def _python_shebang(path: str) -> bool:
    try:
        with open(path, "rb") as handle:
            first = handle.readline(200)
    except OSError:
        return False
    return first.startswith(b"#!") and b"python" in first


class Excluder:
    """``exclude`` patterns, relative to the project root. A pattern without a
    slash matches any path component (``build``, ``*_pb2.py``); with one, it
    matches the path from the root or a folder above it (``tools/legacy/``)."""

    def __init__(self, root: Path, patterns: Sequence[str]) -> None:
        self.root = str(root)
        self.anchored = []
        self.anywhere = []
        for pattern in patterns:
            pattern = pattern.strip().replace("\\", "/").rstrip("/")
            if pattern.startswith("./"):
                pattern = pattern[2:]
            if not pattern:
                continue
            (self.anchored if "/" in pattern else self.anywhere).append(pattern.lstrip("/"))

    def __call__(self, path: str) -> bool:
        relative = os.path.relpath(os.path.abspath(path), self.root).replace(os.sep, "/")
        parts = relative.split("/")
        inside = not relative.startswith("..")
        if inside and self.anchored:
            prefixes = ["/".join(parts[: end + 1]) for end in range(len(parts))]
            if any(fnmatch.fnmatchcase(prefix, pattern) for prefix in prefixes for pattern in self.anchored):
                return True
        if not inside:
            parts = os.path.abspath(path).replace(os.sep, "/").split("/")
        return any(fnmatch.fnmatchcase(part, pattern) for part in parts for pattern in self.anywhere)


def _stat_problem(raw: str, error: OSError) -> Problem:
    if error.errno == errno.ELOOP:
        return Problem(raw, "symbolic link loop; skipped")
    if os.path.islink(raw):
        return Problem(raw, "broken symbolic link; skipped")
    if error.errno == errno.ENOENT:
        return Problem(raw, "no such file or directory")
    return Problem(raw, f"cannot read it ({error.strerror}); skipped")


def _file_kind(info: os.stat_result) -> str:
    mode = info.st_mode
    for test, name in ((stat.S_ISFIFO, "a FIFO"), (stat.S_ISCHR, "a character device"), (stat.S_ISBLK, "a block device"),
                       (stat.S_ISSOCK, "a socket")):
        if test(mode):
            return name
    return "not a file"


def _within_limit(path: str, info: os.stat_result, problems: list[Problem]) -> bool:
    if info.st_size <= MAX_SOURCE_BYTES:
        return True
    problems.append(Problem(path, f"larger than {MAX_SOURCE_BYTES // 2**20} MiB ({info.st_size // 2**20} MiB); skipped"))
    return False


def discover(paths: Sequence[str], excluded: Excluder) -> tuple[list[str], list[Problem]]:
    """The Python files under ``paths``, sorted, and the paths that could not be used."""
    files: dict[str, str] = {}  # real path -> path as found
    problems: list[Problem] = []
    for raw in paths:
        path = os.path.abspath(raw)
        try:
            info = os.stat(path)
        except OSError as error:
            problems.append(_stat_problem(raw, error))
            continue
        if stat.S_ISDIR(info.st_mode):
            _walk(path, excluded, files, problems)
        elif not stat.S_ISREG(info.st_mode):
            problems.append(Problem(raw, f"not a regular file ({_file_kind(info)}); skipped"))
        elif path.endswith((".py", ".pyi", notebooks.SUFFIX)) or _python_shebang(path):
            if not excluded(path) and _within_limit(raw, info, problems):
                files.setdefault(os.path.realpath(path), path)
        else:
            problems.append(Problem(raw, "not a Python file (no .py suffix or python shebang); skipped"))
    return sorted(set(files.values())), problems


def default_excluded(name: str) -> bool:
    """Whether a folder of this name is never searched (.git, .venv, build, ...).
    Its name only: the folders above the one searched do not count (a clone in
    /home/travis/build/OWNER/REPO, as Travis CI makes one, is searched)."""
    return any(fnmatch.fnmatchcase(name, pattern) for pattern in DEFAULT_EXCLUDE)


def _walk(top: str, excluded: Excluder, files: dict[str, str], problems: list[Problem]) -> None:
    seen: set[tuple[int, int]] = set()

    def on_error(error: OSError) -> None:
        problems.append(_stat_problem(error.filename or top, error))

    for folder, dirnames, filenames in os.walk(top, followlinks=True, onerror=on_error):
        try:
            info = os.stat(folder)
        except OSError as error:
            problems.append(_stat_problem(folder, error))
            dirnames[:] = []
            continue
        if (info.st_dev, info.st_ino) in seen:  # a symlink back up the tree
            dirnames[:] = []
            continue
        seen.add((info.st_dev, info.st_ino))
        dirnames[:] = sorted(
            name
            for name in dirnames
            if not default_excluded(name) and not excluded(os.path.join(folder, name))
        )
        for name in sorted(filenames):
            if not name.endswith((".py", notebooks.SUFFIX)):
                continue
            path = os.path.join(folder, name)
            if excluded(path):
                continue
            try:
                real = os.path.realpath(path, strict=True) if sys.version_info >= (3, 10) else os.path.realpath(path)
                info = os.stat(path)
            except OSError as error:
                problems.append(_stat_problem(path, error))
                continue
            if not stat.S_ISREG(info.st_mode):  # a FIFO would block the run, /dev/zero fill the memory
                problems.append(Problem(path, f"not a regular file ({_file_kind(info)}); skipped"))
                continue
            if _within_limit(path, info, problems):
                files.setdefault(real, path)


# ---------------------------------------------------------------------------
# The run: cache, lint, fingerprints
# ---------------------------------------------------------------------------


def run_settings(
    rules: list[catalog.Rule], enabled: list[str], files: list[str], sources: list[str], *,
    jit_syntax_level: str, timeout: float, mode: str, mode_where: str, real: dict[str, str] | None = None,
    use_cache: bool = True, jobs: int = 1, folders: Sequence[str] = (), when_building: Callable[[], None] | None = None,
) -> Settings:
    """The settings every process lints ``files`` with (``sources``: the files
    they stand for, a notebook for its shadow module, a path for standard
    input), with the verdict of each file from the programs in sight of its
    project (mslint.analysis.programs: the same for `mslint .`, `mslint net.py`,
    standard input, the editor and the plugin), read where the user's file is
    (``real``: a checked copy -> the file it stands for; ``folders``: the
    folders named, which bound a project nothing marks; ``when_building``: called
    before the first program model the cache does not serve is built)."""
    settings = Settings(
        enabled=enabled,
        jit_syntax_level=jit_syntax_level,
        roots=result_cache.project_roots(sources, package_root),
        skipped_libraries=skipped_libraries(files),
        timeout=timeout,
        only_mslint=set(enabled) <= {rule.symbol for rule in rules if rule.mslint} | set(ALWAYS_ON),
        mode=mode,
        mode_where=mode_where,
    )
    settings.decisions, settings.overrides = _program_verdicts(files, real or {}, use_cache, jobs, folders, when_building)
    return settings


def check_files(
    files: list[str],
    settings: Settings,
    *,
    jobs: int,
    use_cache: bool,
    stats: dict[str, int] | None = None,
    module_names: dict[str, str] | None = None,
    pragma_warnings: list[Finding] | None = None,
    hashes: dict[str, str | None] | None = None,
    prefetch: Prefetch | None = None,
) -> list[Finding]:
    """Findings for ``files``, from the cache where it is valid (``module_names``:
    a file's module name where its path does not tell it, as standard input's).
    Pragmas naming no known rule (pylint's unknown-option-value, unless enabled)
    are not findings: they go to ``pragma_warnings`` when given. ``hashes``, when
    given, receives each file's content hash: of the bytes its findings were
    found in (None: not known), for the fix loop. ``prefetch``: what a
    background process read of the files meanwhile (Prefetch)."""
    stats = stats if stats is not None else {}
    hashes = hashes if hashes is not None else {}
    from mslint.analysis import port  # noqa: PLC0415

    # what an earlier run in this process read of the files (the workers inherit
    # these tables, and the background's reading is added to them): they may have changed
    port.forget()
    run_programs.forget_given()
    tasks = [(path, (module_names or {}).get(path) or module_name(path), None) for path in files]
    progress = Progress()
    store = result_cache.ResultCache() if use_cache and not settings.sources else None
    try:
        if store is None or not store.enabled:
            if prefetch is not None:  # (no result keys: the indexes and originals are still of use)
                prefetch.take(len(tasks) >= forked.PARALLEL_AT_LEAST)
            progress.start(len(tasks))
            results = {}
            for path, (found, content_hash) in lint(tasks, settings, jobs, progress).items():
                results[path] = found
                hashes[path] = content_hash
            stats.update(checked=len(files), cached=0)
        else:
            results = _check_cached(tasks, settings, jobs, store, stats, progress, hashes, prefetch)
    finally:
        progress.close()
        if store is not None:
            store.close()
    found = [item for path in files for item in results.get(path, [])]
    if UNKNOWN_OPTION_VALUE in settings.enabled:
        return found
    if pragma_warnings is not None:
        pragma_warnings.extend(item for item in found if item.symbol == UNKNOWN_OPTION_VALUE)
    return [item for item in found if item.symbol != UNKNOWN_OPTION_VALUE]


def _check_cached(
    tasks: list[tuple[str, str, str | None]], settings: Settings, jobs: int, store: result_cache.ResultCache, stats: dict[str, int],
    progress: Progress | None = None, hashes: dict[str, str | None] | None = None, prefetch: Prefetch | None = None,
) -> dict[str, list[Finding]]:
    hashes = hashes if hashes is not None else {}
    stamps: dict[str, tuple[int, ...] | None] = {}
    keys, content = _result_keys(tasks, settings, store, jobs, stamps)
    results = store.get_findings(keys)
    hashes.update((path, content.get(path)) for path in results)
    misses = [(path, modname, content.get(path)) for path, modname, _ in tasks if path not in results]
    if prefetch is not None:  # many to check: a cold run, which the background's reading was for
        prefetch.take(len(misses) >= forked.PARALLEL_AT_LEAST)
    if progress is not None:
        progress.start(len(misses))
    fresh = []
    for path, (items, content_hash) in lint(misses, settings, jobs, progress).items():
        results[path] = items
        hashes[path] = content_hash
        if content_hash is not None and path in keys:  # None: the file changed while it was checked
            fresh.append((path, items))
    if fresh:
        # A result is stored under the key of what was analysed: the file's own
        # bytes are (the engine checks the bytes whose hash it returns), and its
        # dependencies must not have changed while it was checked, so the keys
        # are taken again now and a result whose key moved is not stored (else
        # the old key would later serve findings of the new content). Where no
        # file the keys read has a new stamp (size, modification time, inode),
        # none changed: the keys stand (taking them again was a second of the
        # cold run on the benchmark).
        if any(_stamp(path) != stamp for path, stamp in stamps.items()):
            again, _ = _result_keys([task for task in misses if task[0] in dict(fresh)], settings, store)
        else:
            again = keys
        store.put_findings([(keys[path], items) for path, items in fresh if again.get(path) == keys[path]])
    store.prune()
    stats.update(checked=len(misses), cached=len(tasks) - len(misses))
    return results


class Progress:
    """``mslint: 120/3297 files (45 files/s)`` on standard error while files are
    checked, rewritten in place at most 5 times a second, erased at the end;
    only when standard error is a terminal (nothing in CI logs or pipes)."""

    INTERVAL = 0.2
    DELAY = 1.0  # short runs show nothing

    def __init__(self) -> None:
        stream = sys.stderr
        self.active = bool(getattr(stream, "isatty", lambda: False)())
        self.total = self.done = 0
        self.started = self.shown = 0.0
        self.width = 0

    def start(self, total: int) -> None:
        self.total, self.done, self.started = total, 0, time.monotonic()

    def __call__(self, finished: int) -> None:
        self.done += finished
        now = time.monotonic()
        if not self.active or now - self.started < self.DELAY or (now - self.shown < self.INTERVAL and self.done < self.total):
            return
        self.shown = now
        rate = self.done / max(now - self.started, 1e-6)
        text = f"mslint: {self.done}/{self.total} files ({rate:.0f} files/s)"
        sys.stderr.write("\r" + text.ljust(self.width))
        sys.stderr.flush()
        self.width = len(text)

    def close(self) -> None:
        if self.active and self.width:
            sys.stderr.write("\r" + " " * self.width + "\r")
            sys.stderr.flush()
            self.width = 0


def _scanned_file(path: str) -> tuple[str, list] | None:
    """A file's content hash and imports, read together (the imports belong to
    the bytes hashed); None: unreadable."""
    try:
        data = Path(path).read_bytes()
    except OSError:
        return None
    return result_cache.digest(data), scan_imports(data)


def _stamp(path: str) -> tuple[int, ...] | None:
    """What tells that a file changed without reading it: its size, modification
    time and inode (None: gone)."""
    try:
        info = os.stat(path)
    except OSError:
        return None
    return (info.st_size, info.st_mtime_ns, info.st_ino)


class Prefetch:
    """What a cold run will ask of the files' text alone, read by a background
    process at the lowest priority (mslint.analysis.forked.Background) while the
    program model is built, on the CPU time the model leaves idle: the project
    indexes (sites.index_words) and the port view's PyTorch originals. Started
    when the first model is built (a warm run builds none: it reads nothing
    more); taken, or stopped, once the files to check are known. (The import
    scans of the result keys are not read here: the model's reading stores most
    of them.)"""

    def __init__(self, files: list[str], sources: list[str], originals_wanted: bool) -> None:
        self.files, self.sources, self.originals_wanted = files, sources, originals_wanted
        self.background: forked.Background | None = None
        self.originals: dict[str, str] | None = None  # pytorch_originals(sources), once taken

    def start(self) -> None:
        if self.background is None and len(self.files) >= forked.PARALLEL_AT_LEAST:
            self.background = forked.Background(self._read)

    def _read(self) -> tuple[dict, dict[str, str] | None, dict[str, dict[str, str]]]:
        from mslint.analysis import port, sites  # noqa: PLC0415

        torch_classes: dict[str, dict[str, str]] = {}  # (what the port rules ask again in the workers)
        originals = port.pytorch_originals(self.sources, torch_classes) if self.originals_wanted else None
        return sites.index_words(self.files), originals, torch_classes

    def take(self, wanted: bool) -> None:
        """Offer the indexes read to mslint.analysis.sites and keep the originals;
        when the reading is not ``wanted``, stop it."""
        background, self.background = self.background, None
        if background is None:
            return
        if not wanted:
            background.cancel()
            return
        value = background.result()
        if isinstance(value, tuple) and len(value) == 3 and isinstance(value[0], dict):
            from mslint.analysis import port, sites  # noqa: PLC0415

            sites.offer_indexes(value[0])
            self.originals = value[1]
            port.offer_torch_classes(value[2])

    def cancel(self) -> None:
        if self.background is not None:
            self.background.cancel()
            self.background = None


def _result_keys(
    tasks: list[tuple[str, str, str | None]], settings: Settings, store: result_cache.ResultCache, jobs: int = 1,
    stamps: dict[str, tuple[int, ...] | None] | None = None,
) -> tuple[dict[str, str], dict[str, str]]:
    """The cache key of every readable file (its content, its settings and the
    content of the project modules it imports, transitively) and its content
    hash; the imports scanned are stored. ``stamps``, when given, receives the
    stamp (_stamp) of every file read, taken before it was read. A function of
    its own so that the import graph is freed before the workers are forked: a
    worker inherits the memory of the process it is forked from."""
    stamps = stamps if stamps is not None else {}
    contents: dict[str, tuple[str, list] | None] = {}
    new_imports: list[tuple[str, Any]] = []
    hashes: dict[str, str] = {}

    def record(path: str, data: bytes, content_hash: str, known: dict[str, Any]) -> None:
        imports = known.get(content_hash)
        if imports is None:
            imports = known[content_hash] = scan_imports(data)
            new_imports.append((content_hash, imports))
        contents[path] = (content_hash, imports)

    # the checked files: hashed, their imports fetched from the cache at once,
    # the files of unknown content scanned (parsed) by ``jobs`` forked readers:
    # in a cold run that is every file, before any is checked
    for path, _, _ in tasks:
        stamps[path] = _stamp(path)
        try:
            hashes[path] = result_cache.digest(Path(path).read_bytes())
        except OSError:
            contents[path] = None
    known = store.get_imports(sorted(set(hashes.values())))
    unknown = sorted({path for path, content_hash in hashes.items() if content_hash not in known})
    for path, scanned in zip(unknown, forked.read_all(_scanned_file, unknown, jobs)):
        if scanned is None:  # gone since it was hashed
            contents[path] = None
            del hashes[path]
            continue
        hashes[path], imports = scanned  # the hash of the bytes scanned
        if hashes[path] not in known:
            known[hashes[path]] = imports
            new_imports.append(scanned)
    for path, content_hash in hashes.items():
        contents[path] = (content_hash, known[content_hash])

    def read_imports(path: str) -> tuple[str, list] | None:
        # also the project modules the checked files import
        if path not in contents:
            stamps[path] = _stamp(path)
            try:
                data = Path(path).read_bytes()
            except OSError:
                contents[path] = None
                return None
            content_hash = result_cache.digest(data)
            record(path, data, content_hash, store.get_imports([content_hash]))
        return contents[path]

    deps = result_cache.DependencyHasher(settings.roots, read_imports)
    analysis = result_cache.analysis_key(settings.cache_fields())
    # how a file's code runs depends on the programs in sight (mslint.analysis.programs):
    # its verdict, and the framework names rebound for it, are part of its key
    def program_key(path: str) -> str:
        verdict = settings.decisions.get(os.path.abspath(path))
        rebound = [settings.overrides[index] for index in (verdict or {}).get("overrides", ())]
        return json.dumps([verdict, rebound, builders(verdict)], sort_keys=True)

    def builders(verdict: dict | None) -> list[tuple[str, str]]:
        # the files that build its classes, by content: whether graph mode compiles
        # a Cell depends on where they call it (a post-processor called only under
        # ``if not self.training:``: mslint.analysis.compiled.never_compiled)
        files = {site[0] for built in (verdict or {}).get("built", {}).values() for site in built.get("sites", ())}
        return [(file, (read_imports(file) or ("",))[0]) for file in sorted(files)]

    keys = {
        path: result_cache.digest_text(
            analysis, os.path.abspath(path), modname, deps.closure_hash(os.path.abspath(path)), program_key(path),
        )
        for path, modname, _ in tasks
        if path in hashes
    }
    store.put_imports(new_imports)
    return keys, hashes


# ---------------------------------------------------------------------------
# Rules and selection
# ---------------------------------------------------------------------------


def load_catalogue(use_cache: bool = True) -> list[catalog.Rule]:
    """Every message pylint and mslint define (cached with the results: building
    it imports all of pylint's checkers)."""
    store = result_cache.ResultCache(warn=lambda _text: None) if use_cache else None
    try:
        identity = result_cache.code_identity()
        if store is not None and store.enabled:
            saved = store.get_meta("catalogue")
            if saved and saved.get("identity") == identity:
                return [catalog.Rule(**rule) for rule in saved["rules"]]
        rules = catalog.rules_of(plugin.mslint_linter(default_plugins=True))
        if store is not None and store.enabled:
            store.put_meta("catalogue", {"identity": identity, "rules": [rule.as_dict() for rule in rules]})
        return rules
    finally:
        if store is not None:
            store.close()


def _resolve_names(names: Iterable[str], rules: list[catalog.Rule], where: str) -> set[str]:
    by_symbol = {rule.symbol: rule for rule in rules}
    by_id = {rule.msgid: rule for rule in rules}
    chosen: set[str] = set()
    for name in names:
        name = name.strip()
        if not name:
            continue
        if name.lower() == "all":
            chosen.update(rule.symbol for rule in rules if rule.mslint)
        elif name in by_symbol or name.lower() in by_symbol:
            chosen.add(name if name in by_symbol else name.lower())
        elif name.upper() in by_id:
            chosen.add(by_id[name.upper()].symbol)
        else:
            raise ConfigError(f"{where}: {catalog.unknown_rule(name, rules)} (`mslint rules` lists them)")
    return chosen


def enabled_messages(rules: list[catalog.Rule], select: list[str] | None, enable: list[str], ignore: list[str], where: str) -> list[str]:
    if select is None:
        chosen = {rule.symbol for rule in rules if rule.mslint and rule.default_enabled}
    else:
        chosen = _resolve_names(select, rules, f"{where} select")
    chosen |= _resolve_names(enable, rules, f"{where} enable")
    ignored = _resolve_names(ignore, rules, f"{where} ignore")
    chosen |= set(ALWAYS_ON) & {rule.symbol for rule in rules}
    return sorted(chosen - ignored)


def counted(count: int, word: str, many: str | None = None) -> str:
    """``1 module``, ``2 modules`` (``many``: the plural when it is not word + s)."""
    return f"{count} {word if count == 1 else many or word + 's'}"


# ---------------------------------------------------------------------------
# Conventions of the field (issue 27): per-file-ignores, --statistics,
# --show-source, unknown rules in pragmas, modes decided where files are
# ---------------------------------------------------------------------------


def resolve_per_file_ignores(table: dict[str, list[str]], rules: list[catalog.Rule], where: str) -> dict[str, set[str]]:
    """``[tool.mslint] per-file-ignores`` with its rules resolved (an unknown one is an error, exit 2)."""
    return {pattern: _resolve_names(names, rules, f'{where} per-file-ignores "{pattern}"') for pattern, names in table.items()}


def _expand_braces(pattern: str) -> list[str]:
    """``{a,b}`` alternatives (globset's syntax, which ruff uses) as separate patterns."""
    start = pattern.find("{")
    end = pattern.find("}", start + 1)
    if start < 0 or end < 0:
        return [pattern]
    return [expanded for choice in pattern[start + 1 : end].split(",") for expanded in _expand_braces(pattern[:start] + choice + pattern[end + 1 :])]


class PerFileIgnores:
    """``per-file-ignores`` as ruff reads it: a pattern is a glob (``*``, ``**``,
    ``?``, ``[...]``, ``{a,b}``; ``*`` also matches ``/``) matched against the
    file's path (the pattern taken relative to the project root) and against
    its name; a pattern starting with ``!`` applies to the files it does not match."""

    def __init__(self, root: Path, table: dict[str, set[str]]) -> None:
        self.entries: list[tuple[bool, list[str], list[str], set[str]]] = []
        for pattern, symbols in table.items():
            negated = pattern.startswith("!")
            pattern = pattern[1:] if negated else pattern
            absolute = [os.path.normpath(os.path.join(str(root), part)).replace(os.sep, "/") for part in _expand_braces(pattern)]
            self.entries.append((negated, absolute, _expand_braces(pattern), symbols))

    def ignored(self, path: str) -> set[str]:
        """The rules ignored in the file at ``path``."""
        full = os.path.abspath(path).replace(os.sep, "/")
        name = os.path.basename(path)
        found: set[str] = set()
        for negated, absolute, names, symbols in self.entries:
            matches = any(fnmatch.fnmatchcase(full, item) for item in absolute) or any(fnmatch.fnmatchcase(name, item) for item in names)
            if matches != negated:
                found |= symbols
        return found

    def keep(self, found: list[Finding]) -> list[Finding]:
        """``found`` without the findings their file ignores."""
        if not self.entries:
            return found
        ignored: dict[str, set[str]] = {}
        kept = []
        for item in found:
            if item.path not in ignored:
                ignored[item.path] = self.ignored(item.path)
            if item.symbol not in ignored[item.path]:
                kept.append(item)
        return kept


STATISTICS_FORMATS = ("text", "json")


def format_statistics(report: dict[str, Any], fmt: str) -> str:
    """``--statistics``, ruff's: the number of findings of each rule, most first,
    and whether ``--fix`` (with ``--unsafe-fixes``: that) would fix some of them;
    as text (then the summary line) or as a JSON list."""
    unsafe = report.get("unsafe_fixes", False)
    rows: dict[str, list] = {}
    for item in report["findings"]:
        row = rows.setdefault(item.symbol, [item.msg_id, 0, False])
        row[1] += 1
        row[2] = row[2] or edits.applies(item.fix, unsafe)
    ordered = sorted(rows.items(), key=lambda pair: (-pair[1][1], pair[1][0], pair[0]))
    if fmt == "json":
        entries = [{"code": code, "name": symbol, "count": count, "fixable": fixable} for symbol, (code, count, fixable) in ordered]
        return json.dumps(entries, indent=2) + "\n"
    any_fixable = any(fixable for _, (_, _, fixable) in ordered)
    count_width = max((len(str(count)) for _, (_, count, _) in ordered), default=1)
    code_width = max((len(code) for _, (code, _, _) in ordered), default=1)
    out = [
        f"{count:>{count_width}}\t{code:<{code_width}}\t{('[*] ' if fixable else '[ ] ') if any_fixable else ''}{symbol}"
        for symbol, (code, count, fixable) in ordered
    ]
    out.append(summary_line(report))
    return "\n".join(out) + "\n"


class SourceLines:
    """The source lines findings point at, as the user sees them (``--show-source``):
    the file's, standard input's buffer (``buffers``: path -> lines), a notebook's
    cell (``shadows``: notebook path -> its shadow module)."""

    def __init__(self, buffers: dict[str, list[str]], shadows: dict[str, notebooks.Shadow]) -> None:
        self.buffers = dict(buffers)
        self.shadows = shadows
        self.cell_lines: dict[str, dict[tuple[int, int], str]] = {}

    def _line(self, item: Finding) -> tuple[int, str, int] | None:
        """(line number shown, its text, the 1-based column of the span)."""
        if item.cell and item.path in self.shadows:
            if item.path not in self.cell_lines:
                shadow = self.shadows[item.path]
                self.cell_lines[item.path] = dict(zip(shadow.origin, shadow.text.split("\n")))
            text = self.cell_lines[item.path].get(item.cell[:2])
            return (item.cell[1], text, item.cell[2]) if text is not None else None
        if item.path not in self.buffers:
            self.buffers[item.path] = findings.read_source_lines(item.path)
        lines = self.buffers[item.path]
        return (item.line, lines[item.line - 1], item.column) if 1 <= item.line <= len(lines) else None

    def excerpt(self, item: Finding) -> list[str]:
        """The flagged line under the finding, a caret under its span (to the end
        of the line when it goes on), in ruff's manner; nothing when unknown."""
        found = self._line(item)
        if found is None:
            return []
        number, text, column = found
        start = min(max(column - 1, 0), len(text))
        if item.end_line == item.line and item.end_column is not None:
            end = start + max(item.end_column - item.column, 1)
        else:
            end = len(text) if item.end_line and item.end_line > item.line else start + 1
        gutter = " " * len(str(number))
        pad = "".join(char if char == "\t" else " " * _width(char) for char in text[:start])
        carets = "^" * max(sum(_width(char) for char in text[start:end]), 1)
        return [f"{gutter} |", f"{number} | {text}", f"{gutter} | {pad}{carets}"]


def _width(char: str) -> int:
    """Columns a character takes in a terminal: 2 for East Asian wide ones."""
    import unicodedata  # noqa: PLC0415

    return 2 if unicodedata.east_asian_width(char) in ("W", "F") else 1


UNKNOWN_OPTION_VALUE = "unknown-option-value"  # pylint's W0012: a pragma names no known message
_UNKNOWN_OPTION = re.compile(r"for '(?P<action>[^']*)', expected .* got '(?P<name>.*)'$")


def warn_unknown_pragmas(pragmas: list[Finding], rules: list[catalog.Rule]) -> None:
    """A ``# pylint: disable=`` (or enable) naming no rule mslint or pylint knows:
    a warning on standard error with the closest rule, the exit status unchanged
    (the name may be a message of a pylint plugin mslint does not load)."""
    for item in sorted(pragmas, key=Finding.sort_key):
        match = _UNKNOWN_OPTION.search(item.message)
        if match is None:
            continue
        action, name = match["action"], match["name"]
        close = catalog.close_rules(name, rules)
        hint = f"; did you mean {' or '.join(repr(each) for each in close)}?" if close else ""
        where = f"cell {item.cell[0]}:line {item.cell[1]}" if item.cell else str(item.line)
        effect = "enables" if action.startswith("enable") else "silences"
        print(
            f"mslint: {display_path(item.path)}:{where}: warning: `# pylint: {action}={name}` names no rule mslint or pylint "
            f"knows, so it {effect} nothing{hint}",
            file=sys.stderr,
        )
PORT_FROM_CONFIG = '[tool.mslint] port-from = "pytorch"'


def with_port_rules(
    rules: list[catalog.Rule], select: list[str] | None, enabled: list[str], ignore: list[str], forced: str, where: str
) -> tuple[list[str], frozenset[str]]:
    """``enabled`` with the port rules the run adds, and those of them it shows only
    where the code reads as a port (mslint.report.ports): all of them when the user
    said the code is a port (``forced``: the option or setting that says so), none
    when they chose rules with ``select`` (a selected port rule is shown everywhere)
    or turned one off; a port rule the user enabled is theirs, shown everywhere."""
    from mslint.knowledge.manifest import PORT_RULES  # noqa: PLC0415

    known = {rule.symbol for rule in rules}
    ignored = _resolve_names(ignore, rules, f"{where} ignore")
    candidates = [symbol for symbol in PORT_RULES if symbol in known and symbol not in ignored and symbol not in enabled]
    if select is not None:
        return enabled, frozenset()  # the rules the user chose, shown everywhere
    return sorted([*enabled, *candidates]), frozenset() if forced else frozenset(candidates)


# ---------------------------------------------------------------------------
# Baselines
# ---------------------------------------------------------------------------


BASELINE_LIMIT = 512 * 2**20  # bytes: a SARIF log of a huge project is tens of MiB


def read_baseline(path: str) -> dict[tuple[str, str], list[str]]:
    """The findings a SARIF log or an mslint JSON report records: (rule symbol,
    fingerprint without its occurrence number) -> the context hash of each
    ("" when it has none), for findings.match_baseline."""
    from mslint.report import sarif  # noqa: PLC0415

    try:
        with open(path, "rb") as stream:
            info = os.fstat(stream.fileno())
            if not stat.S_ISREG(info.st_mode):  # /dev/zero would be read until memory ran out
                raise ConfigError(f"cannot read the baseline {path}: not a regular file")
            if info.st_size > BASELINE_LIMIT:
                raise ConfigError(f"cannot read the baseline {path}: larger than {BASELINE_LIMIT // 2**20} MiB")
            data = json.loads(stream.read(BASELINE_LIMIT + 1).decode("utf-8"))
    except (OSError, ValueError) as error:
        raise ConfigError(f"cannot read the baseline {path}: {error}") from error
    except RecursionError as error:
        raise ConfigError(f"cannot read the baseline {path}: its JSON nests too deeply") from error
    recorded: dict[tuple[str, str], list[str]] = {}

    def add(symbol: Any, fingerprint: Any, context: Any) -> None:
        if isinstance(symbol, str) and isinstance(fingerprint, str) and fingerprint:
            recorded.setdefault((symbol, fingerprint.rsplit(":", 1)[0]), []).append(context if isinstance(context, str) else "")

    shape = ConfigError(f"{path} is neither a SARIF log nor an mslint JSON report")
    if isinstance(data, dict) and "runs" in data:
        for run in _dicts(data.get("runs"), shape):
            for result in _dicts(run.get("results"), shape):
                fingerprints = result.get("partialFingerprints")
                fingerprints = fingerprints if isinstance(fingerprints, dict) else {}
                add(result.get("ruleId"), fingerprints.get(sarif.FINGERPRINT_KEY), fingerprints.get(sarif.CONTEXT_KEY))
    elif isinstance(data, dict) and "findings" in data:
        contexts = data.get("contexts") if isinstance(data.get("contexts"), dict) else {}
        for item in _dicts(data.get("findings"), shape):
            add(item.get("symbol"), item.get("fingerprint"), contexts.get(f"{item.get('symbol')} {item.get('fingerprint')}"))
    else:
        raise shape
    return recorded


def _dicts(value: Any, error: ConfigError) -> list[dict[str, Any]]:
    """A list of JSON objects (None: empty), else ``error``: a baseline of the wrong shape."""
    if value is None:
        return []
    if not isinstance(value, list) or not all(isinstance(item, dict) for item in value):
        raise error
    return value


def check_output_path(option: str, path: str, inputs: Sequence[str]) -> None:
    """Before the run: ``path`` can be written and is none of the files checked."""
    target = os.path.realpath(path)
    if target in {os.path.realpath(item) for item in inputs}:
        raise ConfigError(f"{option} {path} is one of the files being checked; refusing to overwrite it")
    if os.path.isdir(target):
        raise ConfigError(f"cannot write {option} {path}: it is a folder")
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise ConfigError(f"cannot write {option} {path}: the folder {os.path.dirname(path) or '.'} does not exist")
    if not os.access(folder, os.W_OK) or (os.path.exists(target) and not os.access(target, os.W_OK)):
        raise ConfigError(f"cannot write {option} {path}: permission denied")


# ---------------------------------------------------------------------------
# Output
# ---------------------------------------------------------------------------


def _confirmation_suffix(item: Finding) -> str:
    confirmation = item.confirmation
    if not confirmation:
        return ""
    detail = confirmation.get("detail") or ""
    return f" [{confirmation.get('status', 'not run')}{': ' + detail if detail else ''}]"


def summary_counts(found: list[Finding], new: list[Finding] | None) -> dict[str, int] | None:
    if new is None:
        return None
    counts = {"confirmed": 0, "not reproduced": 0, "not run": 0, "new": len(new)}
    for item in found:
        status = (item.confirmation or {}).get("status", "not run")
        counts[status] = counts.get(status, 0) + 1
    return counts


def summary_line(report: dict[str, Any]) -> str:
    found = report["findings"]
    by_category: dict[str, int] = {}
    for item in found:
        by_category[item.category] = by_category.get(item.category, 0) + 1
    files = report["files"]
    plural = {"error": "errors", "warning": "warnings", "convention": "conventions", "refactor": "refactors"}
    parts = [
        f"{count} {name if count == 1 else plural.get(name, name)}"
        for name, count in sorted(by_category.items(), key=lambda kv: (-RANK.get(kv[0], 0), kv[0]))
    ]
    text = (
        f"Found {len(found)} finding{'s' * (len(found) != 1)} ({', '.join(parts)}) in {files} file{'s' * (files != 1)}"
        if found
        else f"No findings in {files} file{'s' * (files != 1)}"
    )
    unreached = sum(1 for item in found if item.reached is False)
    if unreached:
        text += f"; {unreached} in code no program in sight reaches"
    if report.get("baselined"):
        text += f"; {report['baselined']} in the baseline not shown"
    if report["problems"]:
        text += f"; {len(report['problems'])} input error{'s' * (len(report['problems']) != 1)}"
    text += "."
    port = report.get("port")
    port_text = port.summary(display_path) if port is not None else ""
    if port_text:
        text += " " + port_text
    counts = report.get("confirmation")
    if counts is not None:
        text += (
            f"\nRuntime confirmation: {counts.get('confirmed', 0)} confirmed, {counts.get('not reproduced', 0)} not reproduced, "
            f"{counts.get('not run', 0)} not run, {counts.get('new', 0)} new compile error{'s' * (counts.get('new', 0) != 1)}"
        )
        if "cells_compiled" in counts:  # so that "0 new compile errors" never means "nothing ran"
            text += f"; {counted(counts['cells_compiled'], 'Cell')} compiled in {counted(counts.get('modules', 0), 'module')}"
        if counts.get("not_checked"):  # and why: an import that failed, MindSpore that could not start
            more = counts["not_checked"] - 1
            text += (f"; {counted(counts['not_checked'], 'module')} could not be checked ({counts.get('not_checked_first', '')}"
                     f"{f'; and {more} more' if more else ''})")
        text += "."
    return text


def mode_lines(found: list[Finding]) -> list[str]:
    """How the files with findings were taken to run, once per mode and reason."""
    files: dict[tuple[str, str], set[str]] = {}
    for item in found:
        if item.mode:
            files.setdefault((item.mode, item.mode_basis), set()).add(item.path)
    lines = []
    for (mode, basis), paths in sorted(files.items(), key=lambda pair: (-len(pair[1]), pair[0])):
        count = len(paths)
        shown = display_path(next(iter(paths))) if count == 1 else f"{count} files"
        lines.append(f"Mode: {shown} run{'s' * (count == 1)} in {mode} mode ({basis}).")
    return lines


def format_text(report: dict[str, Any]) -> str:
    out = []
    unsafe = report.get("unsafe_fixes", False)
    for item in report["findings"]:
        where = f"cell {item.cell[0]}:line {item.cell[1]}:{item.cell[2]}" if item.cell else f"{item.line}:{item.column}"  # a notebook: as it shows
        out.append(
            f"{display_path(item.path)}:{where}: {item.msg_id} {fix_marker(item, unsafe)}[{item.symbol}] "
            f"{printable(item.message + _confirmation_suffix(item))}"
        )
        if report.get("sources") is not None:
            out.extend(report["sources"].excerpt(item))
    out.extend(mode_lines(report["findings"]))
    note = fixable_note(report["findings"], unsafe)
    if note:
        out.append(note)
    out.append(summary_line(report))
    return "\n".join(out) + "\n"


def _json_finding(item: Finding, root: str) -> dict[str, Any]:
    entry = {
        "path": findings.relative_path(item.path, root) or item.path,
        "absolutePath": item.path,
        "line": item.line,
        "column": item.column,
        "endLine": item.end_line,
        "endColumn": item.end_column,
        "symbol": item.symbol,
        "msgId": item.msg_id,
        "category": item.category,
        "message": item.message,
        "obj": item.obj,
        "fingerprint": item.fingerprint,
    }
    if item.confirmation:
        entry["confirmation"] = item.confirmation
    place = item.related
    if place is not None:  # reported at a call: where in the callee's module the problem is
        entry["related"] = {
            "path": findings.relative_path(place.path, root) or place.path,
            "absolutePath": place.path,
            "line": place.line,
            "function": place.function,
        }
    if item.mode:
        entry["mode"] = item.mode
        entry["modeBasis"] = item.mode_basis
    if item.reached is not None:
        entry["reached"] = item.reached
    if item.fix is not None and not item.cell:
        entry["fix"] = item.fix.data()
    if item.cell:  # a notebook: line is the .ipynb file's, cell/cellLine as the notebook shows it
        entry["cell"], entry["cellLine"], entry["cellColumn"] = item.cell
    return entry


def format_json(report: dict[str, Any]) -> str:
    root = report["root"]
    document = {
        "tool": "mslint",
        "version": VERSION,
        "root": root,
        "findings": [_json_finding(item, root) for item in report["findings"]],
        "problems": [problem.as_dict() for problem in report["problems"]],
        "summary": {
            "files": report["files"],
            "findings": len(report["findings"]),
            "baselined": report.get("baselined", 0),
            "byCategory": _by(report["findings"], "category"),
            "bySymbol": _by(report["findings"], "symbol"),
            "summary": summary_line(report),
        },
    }
    if report.get("confirmation") is not None:
        document["summary"]["confirmation"] = report["confirmation"]
    # "symbol fingerprint" -> the hash of the lines around it: as a baseline, tells repeated lines apart
    document["contexts"] = {f"{item.symbol} {item.fingerprint}": item.context for item in report["findings"] if item.context}
    return _json_text(json.dumps(document, indent=2, ensure_ascii=False)) + "\n"


def _by(found: list[Finding], key: str) -> dict[str, int]:
    counts: dict[str, int] = {}
    for item in found:
        value = getattr(item, key)
        counts[value] = counts.get(value, 0) + 1
    return dict(sorted(counts.items()))


def format_sarif(report: dict[str, Any]) -> str:
    from mslint.report import sarif  # noqa: PLC0415

    properties = {"summary": summary_line(report)}
    if report.get("confirmation") is not None:
        properties["confirmation"] = report["confirmation"]
    log = sarif.build_log(
        report["findings"],
        report["rules"],
        root=report["root"],
        notifications=[{"path": problem.path, "message": f"{problem.path}: {problem.message}"} for problem in report["problems"]],
        successful=not report["problems"],
        properties=properties,
    )
    return _json_text(sarif.dumps(log))


def _escape_data(text: str) -> str:
    return printable(text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A"))


def _escape_property(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def format_github(report: dict[str, Any]) -> str:
    """GitHub Actions workflow commands: one annotation per finding."""
    from mslint.report import sarif  # noqa: PLC0415

    out = []
    levels = {"error": "error", "warning": "warning", "note": "notice"}
    for item in report["findings"]:
        level = levels[sarif.LEVELS.get(item.category, "note")]
        # relative to the repository root, as SARIF: GitHub attaches annotations by repository path
        where = [f"file={_escape_property(findings.relative_path(item.path, report.get('root') or os.getcwd()) or item.path)}", f"line={item.line}", f"col={item.column}"]
        if item.end_line:
            where += [f"endLine={item.end_line}", f"endColumn={item.end_column}"]
        where.append(f"title={_escape_property(item.symbol + ' (' + item.msg_id + ')')}")
        cell = f"cell {item.cell[0]}, line {item.cell[1]}: " if item.cell else ""
        out.append(f"::{level} {','.join(where)}::{_escape_data(cell + item.message + _confirmation_suffix(item))}")
    for problem in report["problems"]:
        path = findings.relative_path(os.path.abspath(problem.path), report.get("root") or os.getcwd()) or problem.path
        out.append(f"::error file={_escape_property(path)}::{_escape_data(problem.message)}")
    out.append(summary_line(report))
    return "\n".join(out) + "\n"


FORMATTERS = {"text": format_text, "json": format_json, "sarif": format_sarif, "github": format_github}


# ---------------------------------------------------------------------------
# Runtime confirmation (mslint.confirm, optional)
# ---------------------------------------------------------------------------


def run_confirmation(found: list[Finding], options: dict[str, Any]) -> tuple[list[Finding], list[Finding]]:
    """mslint.confirm.confirm_findings, or a ConfigError (exit 2) when the
    runtime mode is missing or cannot start."""
    try:
        from mslint.confirm import confirm_findings  # noqa: PLC0415
    except ModuleNotFoundError as error:
        if error.name and error.name.startswith("mslint.confirm"):
            raise ConfigError("--confirm needs mslint's runtime mode (mslint.confirm), which this installation lacks") from error
        raise ConfigError(f"--confirm cannot start: {error}") from error
    except ImportError as error:
        raise ConfigError(f"--confirm cannot start: {error}") from error
    try:
        confirmed, new = confirm_findings(found, options)
    except (RuntimeError, ValueError) as error:  # RuntimeModeUnavailable, an unknown device
        raise ConfigError(f"--confirm: {error}") from error
    return list(confirmed), list(new)


# ---------------------------------------------------------------------------
# Autofix: --fix, --unsafe-fixes, --diff (mslint.report.fixes)
# ---------------------------------------------------------------------------


def add_fix_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--fix", action="store_true", help="apply the safe fixes, then report what is left")
    parser.add_argument("--unsafe-fixes", action="store_true", help="with --fix or --diff: also the unsafe fixes (they change what the code computes)")
    parser.add_argument("--diff", action="store_true", help="print a unified diff of what --fix would change, change nothing (exit 1 when there is a change)")


def run_fixes(
    args: argparse.Namespace,
    files: list[str],
    found: list[Finding],
    lint: Callable[[list[str], dict[str, bytes]], tuple[list[Finding], dict[str, str | None]]],
    hashes: dict[str, str | None],
) -> tuple[list[Finding], int | None, list[Problem]]:
    """Apply the fixes (``--fix``) or print their diff (``--diff``: then the
    exit status, 1 when something would change). Returns the findings left,
    that status, and the files that could not be fixed (changed meanwhile by
    another program, or not writable) as problems: the run exits with 2."""
    from mslint.report import fixes  # noqa: PLC0415

    outcome = fixes.run(lint, files, found, unsafe=args.unsafe_fixes, write=not args.diff, hashes=hashes)
    problems = [Problem(path, f"not fixed: {reason}; run mslint --fix again") for path, reason in sorted(outcome.changed.items())]
    problems += [Problem(path, f"not fixed: cannot write it: {reason}") for path, reason in sorted(outcome.unwritable.items())]
    for problem in problems:
        print(f"mslint: {display_path(problem.path)}: {problem.message}", file=sys.stderr)
    if args.diff:
        _write_stdout("".join(outcome.diffs))
        count = sum(outcome.fixed.values())
        print(f"mslint: {count} fix{'es' * (count != 1)} in {len(outcome.diffs)} file{'s' * (len(outcome.diffs) != 1)} would be applied", file=sys.stderr)
        return outcome.findings, EXIT_ERROR if problems else EXIT_FINDINGS if outcome.diffs else EXIT_OK, problems
    count = sum(outcome.fixed.values())
    if count:
        print(f"mslint: fixed {count} finding{'s' * (count != 1)} in {len(outcome.fixed)} file{'s' * (len(outcome.fixed) != 1)}", file=sys.stderr)
    return outcome.findings, None, problems


def _fix_entry(symbol: str) -> dict[str, str] | None:
    """A rule's autofix as mslint/knowledge/manifest.py declares it (``mslint rules --format json``)."""
    from mslint.knowledge.manifest import BY_SYMBOL  # noqa: PLC0415

    spec = BY_SYMBOL.get(symbol)
    if spec is None or spec.fix is None:
        return None
    return {"description": spec.fix.description, "applicability": spec.fix.applicability}


def fix_marker(item: Finding, unsafe: bool) -> str:
    """``[*] `` before the rule of a finding ``--fix`` (with ``--unsafe-fixes``: that) would fix."""
    return "[*] " if edits.applies(item.fix, unsafe) else ""


def fixable_note(found: list[Finding], unsafe: bool) -> str:
    """How many findings ``--fix`` and ``--unsafe-fixes`` would fix, or ""."""

    safe = sum(1 for item in found if edits.applies(item.fix, False))
    more = sum(1 for item in found if edits.applies(item.fix, True)) - safe
    if not safe and not more:
        return ""
    if unsafe and more:  # the markers count the unsafe fixes too
        return f"[*] {safe + more} fixable with `mslint --fix --unsafe-fixes`."
    if not safe:  # "more" only after something --fix would fix
        return f"{more} fixable with `mslint --fix --unsafe-fixes`."
    if not more:
        return f"[*] {safe} fixable with `mslint --fix`."
    return f"[*] {safe} fixable with `mslint --fix`; {more} more with `mslint --fix --unsafe-fixes`."


# ---------------------------------------------------------------------------
# Commands
# ---------------------------------------------------------------------------


def _csv(values: Sequence[str] | None) -> list[str]:
    return [part.strip() for value in values or () for part in value.split(",") if part.strip()]


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="mslint",
        description="Find MindSpore code that fails to compile in graph mode or trains wrong. "
        "Subcommands: `mslint rules`, `mslint explain SYMBOL`, `mslint clean-cache`, `mslint migration PATH...`.",
        epilog="Exit codes: 0 nothing at or above --fail-on, 1 findings, 2 usage, configuration or input error, "
        "3 internal error (traceback saved to a file), 130/143/129 interrupted/terminated/hung up.",
    )
    parser.add_argument("paths", nargs="*", metavar="PATH", help="files and folders to check (default: .); - reads one file from standard input")
    parser.add_argument("--stdin-filename", metavar="PATH", help="with the path -: the name of the file read from standard input (for configuration and messages)")
    parser.add_argument("--format", choices=FORMATS, help="output format (default: text, or [tool.mslint] format)")
    parser.add_argument("--output", "-o", metavar="FILE", help="write the report to FILE instead of standard output")
    parser.add_argument("--select", action="append", metavar="RULES", help="check only these rules (comma-separated symbols or ids)")
    parser.add_argument("--ignore", action="append", metavar="RULES", help="never report these rules")
    parser.add_argument("--enable", action="append", metavar="RULES", help="also check these (rules off by default, pylint messages)")
    parser.add_argument("--port", action="store_true", help='the code is ported from PyTorch: turn the port rules on everywhere (or [tool.mslint] port-from = "pytorch")')
    parser.add_argument("--mode", choices=run_mode.MODES, help="how the programs run: auto (read set_context(mode=...) from the entry scripts; default), graph or pynative")
    parser.add_argument("--explain", action="store_true", help="print the programs of the project of each PATH, their modes with the evidence, and what each builds; check nothing")
    parser.add_argument("--jit-syntax-level", choices=JIT_SYNTAX_LEVELS, help="the level the project compiles with (default: lax)")
    parser.add_argument("--fail-on", choices=FAIL_ON, help="lowest category that fails the run (default: convention, i.e. any finding)")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", help="worker processes (0: one per CPU, at most 8; default 0)")
    parser.add_argument("--timeout", type=float, metavar="SECONDS", help="time limit per file; a file that takes longer is reported as not checked (0: none; default 60)")
    parser.add_argument("--baseline", metavar="FILE", help="report only findings not in this SARIF log or JSON report")
    parser.add_argument("--write-baseline", metavar="FILE", help="write every current finding to FILE (.sarif: SARIF, else JSON) and exit 0")
    parser.add_argument("--config", metavar="FILE", help="the pyproject.toml to read [tool.mslint] from")
    parser.add_argument("--exclude", action="append", metavar="PATTERNS", help="also skip paths matching these globs")
    parser.add_argument("--no-cache", action="store_true", help="neither read nor write the result cache")
    parser.add_argument("--statistics", action="store_true", help="print how many findings each rule has instead of the findings (text or json)")
    parser.add_argument("--verbose", "-v", action="store_true", help="print how many files were checked and taken from the cache, and how many rules are enabled, on standard error")
    parser.add_argument("--show-source", action="store_true", help="text format: show each finding's source line with a caret under the flagged span")
    parser.add_argument("--confirm", action="store_true", help="confirm findings by compiling the flagged code with MindSpore (runtime mode)")
    parser.add_argument("--device", choices=("CPU", "GPU", "Ascend"), help="device for --confirm (default: CPU)")
    parser.add_argument("--confirm-timeout", type=float, metavar="SECONDS", help=f"time limit per module for --confirm (0: none; default {CONFIRM_TIMEOUT:g})")
    parser.add_argument("--confirm-all-cells", action="store_true", help="with --confirm: compile every Cell of the checked files, not only those with findings")
    # -- graph report (issue 28) --
    parser.add_argument("--graph-report", action="store_true",
                        help="instead of the findings, print one screen per compiled Cell or @jit function: its compile "
                        "errors, graph breaks, recompile triggers and dynamic-shape ops, counted, worst first")
    add_fix_arguments(parser)
    parser.add_argument("--version", action="version", version=f"mslint {VERSION}")
    return parser


def _notebook_shadows(files: list[str], problems: list[Problem]) -> tuple[list[str], dict[str, notebooks.Shadow]]:
    """``files`` with each notebook replaced by its shadow module (written under
    the cache folder, see mslint/report/notebooks.py), and the shadows by path; a
    notebook that cannot be read is a problem."""
    shadows: dict[str, notebooks.Shadow] = {}
    checked = []
    own = tuple(os.path.join(os.path.realpath(folder), "notebooks") + os.sep for folder in (result_cache.cache_dir(), *_PRIVATE))
    for path in files:
        if os.path.realpath(path).startswith(own):  # a shadow of an earlier run, found in a folder
            continue
        if not notebooks.is_notebook(path):
            checked.append(path)
            continue
        try:
            shadow = notebooks.shadow_of(path)
        except notebooks.NotebookError as error:
            problems.append(Problem(path, f"{error}; skipped"))
            print(f"mslint: {display_path(path)}: {error}; skipped", file=sys.stderr)
            continue
        for folder in (result_cache.cache_dir(), None):
            folder = folder or _private_folder()
            target = notebooks.shadow_path(path, folder)
            try:
                notebooks.write_shadow(shadow, target, folder)
                break
            except OSError:
                continue
        else:
            problems.append(Problem(path, "cannot write its shadow module (the cache folder and a private temporary folder failed); skipped"))
            continue
        shadows[target] = shadow
        checked.append(target)
    return checked, shadows


_PRIVATE: list[Path] = []


def _private_folder() -> Path:
    """A folder of this run's own (``mkdtemp``: only this user can enter it, at
    a name no one can guess), removed at exit: where notebook shadows go when
    the cache folder cannot be written. Never a shared, predictable path, where
    another user could plant a link."""
    if not _PRIVATE:
        import atexit  # noqa: PLC0415
        import shutil  # noqa: PLC0415

        _PRIVATE.append(Path(tempfile.mkdtemp(prefix="mslint-")))
        atexit.register(shutil.rmtree, _PRIVATE[0], True)
    return _PRIVATE[0]


def _shadow_folder() -> Path:
    """Where notebook shadows go: the cache folder when it can be written, else
    a private one (see :func:`_private_folder`)."""
    folder = result_cache.cache_dir()
    try:
        folder.mkdir(parents=True, exist_ok=True, mode=0o700)
        if os.access(folder, os.W_OK | os.X_OK):
            return folder
    except OSError:
        pass
    return _private_folder()


def _check_with_notebooks(
    paths: list[str], settings: Settings, sources: dict[str, bytes] | None = None, **options: Any
) -> tuple[list[Finding], dict[str, str | None]]:
    """``check_files`` where a path may be a notebook (the fix loop's re-lint):
    its shadow module is checked and the findings moved back to it. ``sources``:
    path -> the bytes to check instead of the file's (``--diff``'s fixed text,
    kept in memory). Returns the findings and each path's content hash."""
    sources = sources or {}
    shadows: dict[str, notebooks.Shadow] = {}
    checked: list[str] = []
    overlay: dict[str, bytes] = {}
    plain = [path for path in paths if not notebooks.is_notebook(path)]
    for path in plain:
        if path in sources:
            overlay[path] = sources[path]
    in_memory = [path for path in paths if notebooks.is_notebook(path) and path in sources]
    on_disk = [path for path in paths if notebooks.is_notebook(path) and path not in sources]
    disk_checked, disk_shadows = _notebook_shadows(on_disk, [])
    shadows.update(disk_shadows)
    for path in in_memory:
        try:
            shadow = notebooks.shadow_from(sources[path].decode("utf-8"), path)
        except (UnicodeDecodeError, notebooks.NotebookError):
            continue
        target = notebooks.shadow_path(path, _shadow_folder())
        shadows[target] = shadow
        overlay[target] = shadow.text.encode("utf-8")  # checked from memory, never written
        checked.append(target)
    checked = plain + disk_checked + checked
    if overlay:
        settings = dataclasses.replace(settings, sources={**settings.sources, **overlay})
    hashes: dict[str, str | None] = {}
    found = check_files(checked, settings, module_names={path: module_name(shadow.notebook) for path, shadow in shadows.items()},
                        hashes=hashes, **options)
    found = _in_notebooks(found, shadows)
    return found, {_source_of(path, shadows): value for path, value in hashes.items()}


def _in_notebooks(found: list[Finding], shadows: dict[str, notebooks.Shadow]) -> list[Finding]:
    """``found`` with each finding of a shadow module moved to its notebook's
    cell. The shadow's compile failure is judged again cell by cell, as Jupyter
    compiles them (a ``from __future__`` import opening a later cell is legal)."""
    kept: list[Finding] = []
    for item in found:
        shadow = shadows.get(item.path)
        if shadow is None:
            kept.append(item)
        elif is_compile_failure(item):
            kept.extend(notebooks.relocate(again, shadow) for again in cell_compile_errors(item.path, shadow))
        else:
            kept.append(notebooks.relocate(item, shadow))
    return kept


def _source_of(path: str, shadows: dict[str, notebooks.Shadow]) -> str:
    shadow = shadows.get(path)
    return shadow.notebook if shadow else path


@dataclass
class StdinFile:
    """Standard input's source, copied to a temporary file to be checked under
    the name ``path`` (``--stdin-filename``; its configuration, module name and
    report path); ``copy`` is None when that name is excluded."""

    path: str
    copy: str | None
    data: bytes = b""
    shadow: notebooks.Shadow | None = None  # a notebook (its --stdin-filename ends in .ipynb)

    def remove(self) -> None:
        if self.copy:
            Path(self.copy).unlink(missing_ok=True)
            os.rmdir(os.path.dirname(self.copy))


def _read_stdin(args: argparse.Namespace, excluded: Excluder) -> StdinFile:
    path = os.path.abspath(args.stdin_filename or "stdin.py")
    data = sys.stdin.buffer.read()
    if excluded(path):
        return StdinFile(path, None, data)
    shadow = None
    if notebooks.is_notebook(path):  # checked as the notebook it says it is: its shadow module
        try:
            shadow = notebooks.shadow_from(data.decode("utf-8"), path)
        except (UnicodeDecodeError, notebooks.NotebookError) as error:
            raise ConfigError(f"{display_path(path)}: standard input is not a notebook: {_notebook_problem(error)}") from error
        data = shadow.text.encode("utf-8")
    folder = tempfile.mkdtemp(prefix="mslint-stdin-")
    name = os.path.basename(path)
    copy = os.path.join(folder, name if name.endswith((".py", ".pyi")) else "notebook.py" if shadow else "stdin.py")
    Path(copy).write_bytes(data)
    return StdinFile(path, copy, data, shadow)


def _notebook_problem(error: Exception) -> str:
    return str(error) if isinstance(error, notebooks.NotebookError) else f"not a readable notebook ({error})"


def _strip_cwd_from_sys_path() -> None:
    """As pylint does: `python -m mslint` must not see modules in the current
    folder that `mslint` would not."""
    cwd = os.getcwd()
    if sys.path and sys.path[0] in ("", ".", cwd):
        sys.path.pop(0)


def cmd_check(argv: Sequence[str]) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    _strip_cwd_from_sys_path()
    try:
        config = load(Path(args.config) if args.config else None)
    except ConfigError as error:
        print(f"mslint: {error}", file=sys.stderr)
        return EXIT_ERROR
    try:
        return _check(args, config)
    except (ConfigError, IncompatibleVersions) as error:
        print(f"mslint: {error}", file=sys.stderr)
        return EXIT_ERROR


def _program_verdicts(
    files: list[str], stand_ins: dict[str, str], use_cache: bool, jobs: int = 1, folders: Sequence[str] = (),
    when_building: Callable[[], None] | None = None,
) -> tuple[dict[str, dict], list[dict]]:
    """mslint.analysis.programs' verdicts of the checked files, with the facts of
    the files it reads cached by content; the model is freed before the workers
    are forked (a worker inherits the memory of the process it is forked from)."""
    def build(announce: Callable[[], None] | None) -> tuple[dict[str, dict], list[dict]]:
        store = result_cache.ResultCache(warn=lambda _text: None) if use_cache else None
        try:
            return run_programs.verdicts(files, stand_ins, store if store is not None and store.enabled else None, jobs,
                                         folders, announce)
        finally:
            if store is not None:
                store.close()

    if jobs > 1 and len(files) >= forked.PARALLEL_AT_LEAST:
        # many files (the workers will be forked from this process): the model is
        # built in a child, so that none of its garbage is in the workers (forked.in_child)
        started: list[bool] = []

        def starting() -> None:
            started.append(True)
            if when_building is not None:
                when_building()

        done, value = forked.in_child(build, starting)
        if done:
            return value
        if started:
            when_building = None  # (the background reading was started already)
    try:
        return build(when_building)
    finally:
        gc.collect()


def _explain(args: argparse.Namespace) -> int:
    """``mslint --explain PATH...``: the program model of each PATH's project."""
    shown = set()
    for path in args.paths or ["."]:
        if not os.path.exists(path):
            print(f"mslint: {path}: no such file or folder", file=sys.stderr)
            return EXIT_ERROR
        text = run_programs.explain(path)
        if text not in shown:
            shown.add(text)
            _write_stdout(text)
    return EXIT_OK


def _check(args: argparse.Namespace, config: Config) -> int:  # noqa: PLR0912, PLR0915
    if args.explain:
        return _explain(args)
    use_cache = config.cache and not args.no_cache
    where = str(config.source) if config.source else "command line"
    rules = load_catalogue(use_cache)
    select = _csv(args.select) if args.select is not None else config.select
    if args.select is not None and not select:
        raise ConfigError("--select names no rule (an empty --select would check nothing); `mslint rules` lists them")
    if not args.confirm and (args.device is not None or args.confirm_timeout is not None):
        raise ConfigError("--device and --confirm-timeout apply only with --confirm")
    if args.confirm_timeout is not None and args.confirm_timeout < 0:
        raise ConfigError("--confirm-timeout must be >= 0")
    # --select on the command line means only these: the configured enable does not add to it (--enable does)
    enable = _csv(args.enable) if args.select is not None else [*config.enable, *_csv(args.enable)]
    enabled = enabled_messages(rules, select, enable, [*config.ignore, *_csv(args.ignore)], where)
    per_file = PerFileIgnores(config.root, resolve_per_file_ignores(config.per_file_ignores, rules, where))
    port_forced = "--port" if args.port else (PORT_FROM_CONFIG if config.port_from == "pytorch" else "")
    enabled, port_conditional = with_port_rules(rules, select, enabled, [*config.ignore, *_csv(args.ignore)], port_forced, where)
    fmt = args.format or config.format
    if args.statistics and fmt not in STATISTICS_FORMATS:
        raise ConfigError(f"--statistics prints counts per rule as text or json, not {fmt}; drop one of them")
    fail_on = args.fail_on or config.fail_on
    jobs = args.jobs if args.jobs is not None else config.jobs
    if jobs < 0:
        raise ConfigError("--jobs must be >= 0")
    # never more processes than CPUs to run them (--jobs 1000 forked 385 workers, out of memory)
    jobs = min(jobs or default_jobs(), available_cpus())
    timeout = args.timeout if args.timeout is not None else config.timeout
    if not math.isfinite(timeout) or timeout < 0:
        raise ConfigError("--timeout must be a finite number of seconds >= 0 (0: no limit)")
    if args.confirm_timeout is not None and not math.isfinite(args.confirm_timeout):
        raise ConfigError("--confirm-timeout must be a finite number of seconds >= 0 (0: no limit)")
    if args.unsafe_fixes and not (args.fix or args.diff):
        print("mslint: --unsafe-fixes changes nothing without --fix or --diff; here it only marks with [*] the findings "
              "`mslint --fix --unsafe-fixes` would fix", file=sys.stderr)
    if not args.output and not _stdout_usable():
        raise ConfigError("standard output is closed: the report has nowhere to go; write it to a file with --output FILE")
    from mslint.run import pool  # noqa: PLC0415

    if pool.MEMORY_BUDGET_ERROR:
        raise ConfigError(pool.MEMORY_BUDGET_ERROR)
    baseline_file = args.baseline or config.baseline
    baseline = read_baseline(baseline_file) if baseline_file else None
    root = findings.repository_root(str(config.root))  # report paths and fingerprints are relative to it

    excluded = Excluder(config.root, [*config.exclude, *_csv(args.exclude)])
    stdin = _read_stdin(args, excluded) if args.paths == ["-"] else None
    if stdin is not None:  # `mslint - --stdin-filename PATH`, as editors call linters
        use_cache = False
        files, problems = ([stdin.copy] if stdin.copy else []), []
    else:
        if args.stdin_filename:
            raise ConfigError("--stdin-filename goes with the path - (read the file from standard input)")
        files, problems = discover(args.paths or ["."], excluded)
    for problem in problems:
        print(f"mslint: {display_path(problem.path)}: {problem.message}", file=sys.stderr)
    files, shadows = _notebook_shadows(files, problems)
    if stdin is not None and stdin.shadow is not None and stdin.copy:
        shadows[stdin.copy] = stdin.shadow  # relocated to the notebook's cells like any other
    if not files and not problems and stdin is None:
        print(f"mslint: no Python files in {', '.join(args.paths or ['.'])}; nothing checked", file=sys.stderr)
    for option, path in (("--output", args.output), ("--write-baseline", args.write_baseline)):
        if path:
            check_output_path(option, path, files)
    # (standard input is one file: nothing to read in the background)
    prefetch = None if stdin is not None else Prefetch(
        files, [_source_of(path, shadows) for path in files], bool(port_conditional) and not port_forced)
    settings = run_settings(
        rules, enabled, files, [stdin.path] if stdin else [_source_of(path, shadows) for path in files],
        jit_syntax_level=args.jit_syntax_level or config.jit_syntax_level,
        timeout=timeout,
        mode=args.mode or config.mode,
        mode_where="--mode" if args.mode else "[tool.mslint]",
        real={**{path: shadow.notebook for path, shadow in shadows.items()},
              **({stdin.copy: stdin.path} if stdin and stdin.copy else {})},
        use_cache=use_cache,
        jobs=jobs,
        folders=[] if stdin else [path for path in args.paths or ["."] if os.path.isdir(path)],
        when_building=prefetch.start if prefetch is not None else None,
    )
    stats: dict[str, int] = {}
    pragma_warnings: list[Finding] = []
    hashes: dict[str, str | None] = {}
    try:
        checked = check_files(files, settings, jobs=jobs, use_cache=use_cache, stats=stats, pragma_warnings=pragma_warnings,
                              hashes=hashes,
                              module_names={stdin.copy: module_name(stdin.path)} if stdin and stdin.copy else
                              {path: module_name(shadow.notebook) for path, shadow in shadows.items()},
                              prefetch=prefetch)
    finally:
        if stdin is not None:
            stdin.remove()
        if prefetch is not None:
            prefetch.cancel()  # (not taken: the cache was off, or the run failed)
    if stdin is not None:
        for item in [*checked, *pragma_warnings]:
            if item.path not in shadows:  # a notebook's findings are relocated below
                item.path = stdin.path
        files = [stdin.path] if stdin.copy else []
    checked = _in_notebooks(checked, shadows)
    for item in pragma_warnings:
        if item.path in shadows:
            notebooks.relocate(item, shadows[item.path])
    files = [_source_of(path, shadows) for path in files]
    warn_unknown_pragmas(pragma_warnings, rules)
    from mslint.report import ports  # noqa: PLC0415

    # the port rules where the code is a port
    port_view = ports.view(files, port_conditional, port_forced, prefetch.originals if prefetch is not None else None)
    found = port_view.filter(findings.assign_fingerprints(per_file.keep(checked), root))
    if args.fix or args.diff:
        if stdin is not None:
            raise ConfigError("--fix and --diff edit files: they cannot take standard input")
        hashes = {_source_of(path, shadows): value for path, value in hashes.items()}

        def relint(paths: list[str], sources: dict[str, bytes]) -> tuple[list[Finding], dict[str, str | None]]:
            again, again_hashes = _check_with_notebooks(paths, settings, sources, jobs=jobs, use_cache=use_cache)
            return port_view.filter(per_file.keep(again), paths), again_hashes

        found, diff_exit, fix_problems = run_fixes(args, files, found, relint, hashes)
        problems.extend(fix_problems)
        if diff_exit is not None:
            return diff_exit
        found = findings.assign_fingerprints(found, root)
    baselined: list[Finding] = []
    if baseline is not None:
        found, baselined = findings.match_baseline(found, baseline)
    confirmation_counts = None
    if args.confirm:
        options = {
            "device": args.device or "CPU",
            "timeout": CONFIRM_TIMEOUT if args.confirm_timeout is None else (args.confirm_timeout or None),  # 0: no limit, as --timeout
            "jobs": jobs,
            "project_root": str(config.root),
            "config": dict(config.confirm),
            "syntax_level": settings.jit_syntax_level,
            "all_cells": files if args.confirm_all_cells else None,
            "stats": {},
        }
        confirmed, new = run_confirmation(found, options)  # sets each finding's confirmation
        new = findings.assign_fingerprints(per_file.keep(new), root)
        if baseline is not None:
            new, _ = findings.match_baseline(new, baseline)
        found = sorted(confirmed + new, key=Finding.sort_key)
        confirmation_counts = summary_counts(confirmed, new)
        confirmation_counts.update(options["stats"])  # Cells compiled, modules
    if args.verbose:  # pylint's always-on messages (syntax-error, ...) are not rules anyone enabled
        print(
            f"mslint: {counted(len(files), 'file')}: {stats.get('checked', 0)} checked, {stats.get('cached', 0)} from the cache"
            f"{'' if use_cache else ' (cache off)'}; {counted(len(set(enabled) - set(ALWAYS_ON)), 'rule')} enabled",
            file=sys.stderr,
        )
    if args.write_baseline:
        everything = sorted(found + baselined, key=Finding.sort_key)
        report = {"findings": everything, "problems": problems, "files": len(files), "root": root, "rules": rules}
        text = format_sarif(report) if args.write_baseline.endswith(".sarif") else format_json(report)
        try:
            Path(args.write_baseline).write_text(text, encoding="utf-8")
        except OSError as error:
            raise ConfigError(f"cannot write {args.write_baseline}: {error.strerror}") from error
        print(f"mslint: wrote {counted(len(everything), 'finding')} to the baseline {args.write_baseline}", file=sys.stderr)
        return EXIT_ERROR if problems else EXIT_OK
    report = {
        "findings": found,
        "problems": problems,
        "files": len(files),
        "root": root,
        "rules": rules,
        "baselined": len(baselined),
        "confirmation": confirmation_counts,
        "unsafe_fixes": args.unsafe_fixes,
        "sources": SourceLines({stdin.path: findings.source_lines(stdin.data)} if stdin is not None else {},
                               {shadow.notebook: shadow for shadow in shadows.values()}) if args.show_source else None,
        "port": port_view,
    }
    text = format_statistics(report, fmt) if args.statistics else FORMATTERS[fmt](report)
    if args.graph_report:  # -- graph report (issue 28) --
        from mslint.report.graph_report import format_graph_report  # noqa: PLC0415

        text = format_graph_report(found, root)
    if args.output:
        try:
            Path(args.output).write_text(text, encoding="utf-8")
        except OSError as error:
            raise ConfigError(f"cannot write {args.output}: {error.strerror}") from error
        print(summary_line(report), file=sys.stderr)
    else:
        _write_stdout(text)
    if problems:
        return EXIT_ERROR
    threshold = THRESHOLD[fail_on]
    if any(RANK.get(item.category, 1) >= threshold for item in found):
        return EXIT_FINDINGS
    return EXIT_OK


def _stdout_usable() -> bool:
    """Whether standard output is open (``mslint . >&-`` closes it)."""
    if sys.stdout is None:
        return False
    try:
        os.fstat(sys.stdout.fileno())
    except (AttributeError, ValueError, io.UnsupportedOperation):
        return True  # not a file descriptor (a test's capture): writable
    except OSError:
        return False
    return True


def _write_stdout(text: str) -> None:
    if sys.stdout is None:
        raise ConfigError("standard output is closed: the report has nowhere to go; write it to a file with --output FILE")
    try:
        try:
            sys.stdout.write(text)
        except UnicodeEncodeError:
            sys.stdout.buffer.write(text.encode("utf-8", errors="replace"))
        sys.stdout.flush()
    except BrokenPipeError:
        raise
    except OSError as error:  # closed (EBADF), a full disk behind a redirection
        raise ConfigError(f"cannot write the report to standard output ({error.strerror or error}); use --output FILE") from error


def cmd_rules(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="mslint rules", description="List every mslint rule.")
    parser.add_argument("--format", choices=("text", "json", "markdown"), default="text")
    args = parser.parse_args(argv)
    rules = [rule for rule in plugin.mslint_rules()]
    if args.format == "json":
        _write_stdout(json.dumps([rule.as_dict() | {"summary": rule.summary, "fix": _fix_entry(rule.symbol)} for rule in rules], indent=2) + "\n")
    elif args.format == "markdown":
        _write_stdout(catalog.index_markdown(rules))
    else:
        width = max(len(rule.symbol) for rule in rules)
        lines = [f"{'rule'.ljust(width)}  id     default  fix     what it flags"]
        for rule in rules:
            fix = catalog.fix_applicability(rule.symbol) or "-"
            lines.append(f"{rule.symbol.ljust(width)}  {rule.msgid}  {'on ' if rule.default_enabled else 'off'}      {fix.ljust(6)}  {rule.summary}")
        _write_stdout("\n".join(lines) + "\n")
    return EXIT_OK


def cmd_explain(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(prog="mslint explain", description="Print a rule's documentation.")
    parser.add_argument("rule", metavar="SYMBOL", help="a rule symbol (ms-numpy-on-tensor) or id (E7101); `all`: every rule's page")
    args = parser.parse_args(argv)
    rules = plugin.mslint_rules()
    try:
        symbols = _resolve_names([args.rule], rules, "mslint explain")  # `all`: every page, in catalogue order
    except ConfigError as error:
        print(error, file=sys.stderr)  # "mslint explain: unknown rule ..."
        return EXIT_ERROR
    pages = []
    for rule in rules:
        if rule.symbol in symbols:
            text = catalog.doc_text(rule.symbol) or f"# {rule.symbol} ({rule.msgid})\n\n{rule.description}\n\nSee {rule.help_uri}\n"
            pages.append(text if text.endswith("\n") else text + "\n")
    _write_stdout("\n".join(pages))
    return EXIT_OK


def cmd_clean_cache(argv: Sequence[str]) -> int:
    argparse.ArgumentParser(prog="mslint clean-cache", description="Delete the result cache.").parse_args(argv)
    try:
        folder, removed = result_cache.clean()
    except OSError as error:
        print(f"mslint: cannot remove the result cache in {result_cache.cache_dir()}: {error.strerror or error}", file=sys.stderr)
        return EXIT_ERROR
    if removed:
        print(f"mslint: removed the result cache in {folder}", file=sys.stderr)
    else:
        print(f"mslint: no result cache in {folder}; nothing to remove", file=sys.stderr)
    return EXIT_OK


# ---------------------------------------------------------------------------
# mslint migration (issue 26): what a PyTorch project needs to run on MindSpore
# ---------------------------------------------------------------------------
MIGRATION_FORMATS = ("text", "json", "csv", "markdown")


def cmd_migration(argv: Sequence[str]) -> int:
    """Report every PyTorch API the files use, with its MindSpore counterpart,
    status and the differences that matter for the arguments passed. Reads the
    files with ``ast`` (never imports them); needs neither framework."""
    from mslint.analysis import migration  # noqa: PLC0415 - only this command needs them
    from mslint.report import migration as migration_report  # noqa: PLC0415

    parser = argparse.ArgumentParser(
        prog="mslint migration",
        description="List every PyTorch API the code uses, its MindSpore counterpart and how it differs.",
    )
    parser.add_argument("paths", nargs="*", default=["."], help="files and folders (.py, .ipynb)")
    parser.add_argument("--format", choices=MIGRATION_FORMATS, default="text")
    parser.add_argument("--output", help="write the report to this file instead of standard output")
    parser.add_argument("--exclude", action="append", default=[], help="paths (globs) to skip, as [tool.mslint] exclude")
    parser.add_argument("--config", help="the pyproject.toml whose [tool.mslint] exclude applies")
    args = parser.parse_args(argv)
    try:
        config = load(Path(args.config) if args.config else None)
    except ConfigError as error:
        print(f"mslint: {error}", file=sys.stderr)
        return EXIT_ERROR
    excluded = Excluder(config.root, [*config.exclude, *_csv(args.exclude)])
    files, problems = discover(args.paths or ["."], excluded)
    if args.output:
        check_output_path("--output", args.output, files)
    uses: list[migration.Use] = []
    with_torch = 0
    for path in files:
        shadow = None
        try:
            if notebooks.is_notebook(path):
                shadow = notebooks.shadow_of(path)
                text = shadow.text
            else:
                text = Path(path).read_text(encoding="utf-8", errors="replace")
        except (OSError, notebooks.NotebookError) as error:
            problems.append(Problem(path, f"{error}; skipped"))
            continue
        if not migration.uses_torch(text):
            continue
        try:
            found = migration.scan(text, path)
        except (SyntaxError, ValueError, RecursionError) as error:
            problems.append(Problem(path, f"does not parse ({type(error).__name__}: {error}); skipped"))
            continue
        if shadow is not None:
            for use in found:
                index = use.line - 1
                if 0 <= index < len(shadow.origin):
                    use.cell = (*shadow.origin[index], use.column)
                    if shadow.file_lines[index]:
                        use.column += shadow.file_columns[index]
                        use.line = shadow.file_lines[index]
                use.path = shadow.notebook
        with_torch += bool(found)
        uses += found
    for problem in problems:
        print(f"mslint: {display_path(problem.path)}: {problem.message}", file=sys.stderr)
    root = findings.repository_root(str(config.root))
    document = migration_report.document(migration.judge(uses), with_torch, len(files), root, problems)
    text = migration_report.FORMATTERS[args.format](document)
    if args.output:
        Path(args.output).write_text(text, encoding="utf-8")
        print("\n".join(migration_report.summary_lines(document)), file=sys.stderr)
    else:
        _write_stdout(text)
    return EXIT_ERROR if problems else EXIT_OK


COMMANDS = {"rules": cmd_rules, "explain": cmd_explain, "clean-cache": cmd_clean_cache, "migration": cmd_migration}


# ---------------------------------------------------------------------------
# The servers, optional extras (pip install "mslint[server]"): `mslint server`
# for editors (the Language Server Protocol, mslint/run/lsp.py) and `mslint mcp`
# for coding agents (the Model Context Protocol, mslint/run/mcp_server.py)
# ---------------------------------------------------------------------------


def editor_project(path: str, extra: Sequence[str] = (), folders: Sequence[str] = ()) -> Any:
    """The project of the file at ``path`` as ``mslint`` run over all of it
    lints each file (a mslint.run.buffers.Project): the configuration nearest
    to the file (its folder, the root), else the innermost workspace folder of
    ``folders`` holding it (else its folder) as root; the files ``mslint ROOT``
    checks, and ``extra`` (files of it that are asked for and not found by a
    walk, like a script without the .py suffix); the settings _check makes.
    Raises ConfigError."""
    from mslint.run import buffers  # noqa: PLC0415
    from mslint.run.config import find_config  # noqa: PLC0415

    path = os.path.abspath(path)
    source = find_config(Path(path).parent)
    if source is not None:
        config = load(source)
    else:
        holding = [folder for folder in folders if not os.path.relpath(path, folder).startswith(os.pardir)]
        config = Config(root=Path(max(holding, key=len) if holding else os.path.dirname(path)).resolve())
    where = str(config.source) if config.source else "command line"
    rules = load_catalogue(config.cache)
    enabled = enabled_messages(rules, config.select, config.enable, config.ignore, where)
    # the port rules as the command turns them on (mslint.report.ports)
    port_forced = PORT_FROM_CONFIG if config.port_from == "pytorch" else ""
    enabled, port_conditional = with_port_rules(rules, config.select, enabled, config.ignore, port_forced, where)
    configured = Excluder(config.root, config.exclude)

    def excluded(item: str) -> bool:
        """Excluded by the configuration, or in a folder `mslint ROOT` skips
        (.venv, build, ...; a library's file, opened from a definition)."""
        parents = Path(os.path.relpath(os.path.abspath(item), config.root)).parts[:-1]
        return configured(item) or any(default_excluded(name) for name in parents) or bool(
            {"site-packages", "dist-packages"} & set(Path(item).parts))

    found, _ = discover([str(config.root)], configured)
    files = sorted({*found, *(os.path.abspath(item) for item in extra if not excluded(item))})
    files, shadows = _notebook_shadows(files, [])
    sources = [_source_of(item, shadows) for item in files]
    settings = run_settings(rules, enabled, files, sources, jit_syntax_level=config.jit_syntax_level, timeout=config.timeout,
                            mode=config.mode, mode_where="[tool.mslint]", use_cache=config.cache, folders=[str(config.root)])
    from mslint.report import ports  # noqa: PLC0415

    port_view = ports.view(files, port_conditional, port_forced)
    return buffers.Project(root=str(config.root), files=sources, settings=settings, excluded=excluded,
                           config_source=str(config.source) if config.source else None,
                           shown=lambda found, paths: port_view.filter(found, paths))


def _missing_extra(command: str, error: ImportError) -> int:
    """Exit 2 saying what to install, when a server's library is missing."""
    missing = (error.name or "").split(".")[0]
    if not missing or missing == "mslint":
        raise error  # not a missing extra: mslint's own import failed
    where = " (it needs Python 3.10 or later)" if command == "mslint mcp" and sys.version_info < (3, 10) else ""
    print(f'mslint: {command} needs the server extra{where}, which is not installed here (no module {missing!r}): '
          f'pip install "mslint[server]"', file=sys.stderr)
    return EXIT_ERROR


def cmd_server(argv: Sequence[str]) -> int:
    parser = argparse.ArgumentParser(
        prog="mslint server",
        description="The language server: diagnostics, quick fixes and rule pages in an editor (LSP over standard input and output).",
    )
    parser.add_argument("--stdio", action="store_true", help="talk over standard input and output (the only way; editors' clients pass it)")
    parser.parse_args(argv)
    try:
        from mslint.run import lsp  # noqa: PLC0415
    except ImportError as error:
        return _missing_extra("mslint server", error)
    _strip_cwd_from_sys_path()
    return lsp.serve(editor_project)


def cmd_mcp(argv: Sequence[str]) -> int:
    argparse.ArgumentParser(
        prog="mslint mcp",
        description="The Model Context Protocol server for coding agents: tools lint, explain and fix (over standard input and output). "
        "Paths are relative to the folder it is started in.",
    ).parse_args(argv)
    try:
        from mslint.run import mcp_server  # noqa: PLC0415
    except ImportError as error:
        return _missing_extra("mslint mcp", error)
    return mcp_server.serve(list(COMMANDS))


COMMANDS.update({"server": cmd_server, "mcp": cmd_mcp})


class Terminated(BaseException):
    """SIGTERM or SIGHUP arrived: unwound like Ctrl-C (the worker pool ends its
    workers on the way out, see pool.lint)."""

    def __init__(self, number: int) -> None:
        super().__init__(number)
        self.number = number


def _terminate(number: int, frame: Any) -> None:  # noqa: ARG001
    raise Terminated(number)


def _save_traceback() -> str:
    """Write the current exception's traceback to a file (the cache folder, else
    the temporary folder); returns where."""
    text = f"mslint {VERSION}, Python {sys.version.split()[0]}, argv {sys.argv!r}\n\n{traceback.format_exc()}"
    name = f"crash-{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}.txt"
    for folder in (result_cache.cache_dir(), Path(tempfile.gettempdir())):
        try:
            folder.mkdir(parents=True, exist_ok=True)
            (folder / name).write_text(text, encoding="utf-8")
            return str(folder / name)
        except OSError:
            continue
    sys.stderr.write(text)
    return "standard error (above)"


def _run(argv: list[str]) -> int:
    if argv and argv[0] in COMMANDS:
        return COMMANDS[argv[0]](argv[1:])
    return cmd_check(argv)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    previous = {}
    if threading.current_thread() is threading.main_thread():
        previous = {number: signal.signal(number, _terminate) for number in TERMINATING_SIGNALS}
    try:
        return _run(argv)
    except KeyboardInterrupt:
        print("mslint: interrupted", file=sys.stderr)
        return 130
    except Terminated as stop:
        print(f"mslint: stopped by {signal.Signals(stop.number).name}", file=sys.stderr)
        return 128 + stop.number
    except BrokenPipeError:
        return EXIT_OK
    except ConfigError as error:  # a subcommand's (standard output closed)
        print(f"mslint: {error}", file=sys.stderr)
        return EXIT_ERROR
    except Exception as error:  # noqa: BLE001 - a crash must not pass for findings (exit 1) in CI
        where = _save_traceback()
        print(f"mslint: internal error ({type(error).__name__}: {error}); please report it with the traceback saved in {where}", file=sys.stderr)
        return EXIT_INTERNAL
    finally:
        for number, handler in previous.items():
            signal.signal(number, handler)


if __name__ == "__main__":
    sys.exit(main())
