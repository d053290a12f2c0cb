"""How the ``mslint`` command lints one file: a configured PyLinter per
process (:class:`Engine`), used inside mslint.run.compat's astroid adjustments,
that turns pylint's messages into findings (mslint.report.findings) with the anchors
runtime confirmation needs, recorded while the file's tree is alive. The
worker processes that share the files out are mslint.run.pool's.
"""

from __future__ import annotations

import ast
import contextlib
import errno
import gc
import io
import os
import re
import signal
import stat
import sys
import threading
import tokenize
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from mslint.run import cache as result_cache
from mslint.analysis import edits, programs
from mslint.analysis.forked import resident_bytes
from mslint.analysis.project import module_name
from mslint.checkers import pylint_hooks
from mslint.report import findings, notebooks
from mslint.run import compat
from mslint.report.findings import Finding

# Libraries astroid is kept out of (see mslint.run.compat.SkipLibraries).
SKIPPED_LIBRARIES = frozenset({"mindspore", "torch", "torchvision", "torchaudio", "tensorflow", "jax", "paddle"})
RESET_EVERY = 2000  # files; also drop astroid's caches this often whatever the memory
# what a replaceable worker's garbage may add to its share before it ends (Engine._grown_past)
GARBAGE_MARGIN = 100 * 2**20
# What an astroid tree costs in memory, about: measured on mindone, 300 MiB of
# trees for 6 to 7 MB of source as pylint builds them, 900 MiB for 43 MB as
# LeanTrees builds them (35, not 21: a process's resident size also holds what
# freed trees leave fragmented; at 25 the full corpus peaked at 1013 MiB).
TREE_BYTES_PER_SOURCE_BYTE = 45
LEAN_TREE_BYTES_PER_SOURCE_BYTE = 35
TREE_COST_WITHOUT_SOURCE = 200_000
# pylint's messages that say a file could not be analysed: no mode applies to them
UNANALYSED = frozenset({"syntax-error", "fatal", "astroid-error", "parse-error"})
# what follows ``pylint:`` in a pragma: its actions and the names of messages
_PRAGMA_TEXT = re.compile(rb"pylint:([^\n]*)")
_PRAGMA_WORD = re.compile(rb"[A-Za-z][\w-]*")
_PRAGMA_ACTIONS = frozenset({"disable", "enable", "disable-next"})


@dataclass
class Settings:
    """What a process needs to lint files exactly like every other one."""

    enabled: list[str]
    jit_syntax_level: str
    roots: list[str]
    skipped_libraries: list[str] = field(default_factory=list)
    # bytes of astroid trees this process may hold before it drops them (see
    # Engine.after_file); None: no limit. mslint.run.pool.lint sets each process's share.
    memory_limit: int | None = None
    # seconds per file (0: none); a file over it is reported and its result not cached
    timeout: float = 0.0
    # only mslint's rules (and pylint's fatal messages) are enabled, no other pylint
    # message: astroid can skip work only pylint's own checkers use
    only_mslint: bool = False
    # how the programs run (mslint.analysis.programs): the setting ("auto", "graph",
    # "pynative"), where it was set, each file's verdict (path -> Model.verdict()),
    # made from the programs in sight before the files are shared out, and the
    # framework names the project rebinds (Model.override_groups())
    mode: str = "auto"
    mode_where: str = "[tool.mslint]"
    decisions: dict[str, dict] = field(default_factory=dict)
    overrides: list[dict] = field(default_factory=list)
    # path -> the bytes to check instead of the file's (``mslint --diff``: the
    # fixed text, which is never written anywhere); never cached
    sources: dict[str, bytes] = field(default_factory=dict)

    def cache_fields(self) -> dict[str, Any]:
        """What the findings depend on, for the cache key. The roots are not in
        it: they change findings only through the dependency files, which are
        (see mslint/run/cache.py)."""
        return {
            "enabled": self.enabled,
            "jit_syntax_level": self.jit_syntax_level,
            "skipped": self.skipped_libraries,
            "mode": self.mode,
        }

    def adjusted_astroid(self) -> compat.adjusted_astroid:
        """mslint.run.compat's astroid adjustments for these settings (a ``with`` block)."""
        return compat.adjusted_astroid(self.skipped_libraries, self.roots, self.only_mslint)

def skipped_libraries(files: Iterable[str]) -> list[str]:
    """SKIPPED_LIBRARIES, except a library being checked itself."""
    checked = {module_name(path).split(".", 1)[0] for path in files}
    return sorted(SKIPPED_LIBRARIES - checked)


# ---------------------------------------------------------------------------
# The engine
# ---------------------------------------------------------------------------


def decoding_problem(data: bytes) -> str | None:
    """Why the bytes are not decodable Python source, or None."""
    try:
        encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    except SyntaxError as error:
        if "encoding" not in str(error):
            return str(error)
        encoding = "utf-8"  # a non-UTF-8 byte in the first two lines
    try:
        data.decode(encoding)
    except UnicodeDecodeError as error:
        line = data[: error.start].count(b"\n") + 1
        return (
            f"cannot decode the file as {encoding} (byte 0x{data[error.start]:02x} on line {line}) and it declares "
            "no other encoding; save it as UTF-8 or add a coding declaration (PEP 263)"
        )
    except LookupError:
        return f"the file declares an unknown encoding {encoding!r}"
    return None


MAX_SOURCE_BYTES = 16 * 2**20  # larger files are not read (a link to /dev/zero would be endless)


def read_source(path: str) -> bytes:
    """A file's bytes: a regular file only, of at most MAX_SOURCE_BYTES (OSError else)."""
    with open(path, "rb") as stream:
        info = os.fstat(stream.fileno())
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "not a regular file")
        data = stream.read(MAX_SOURCE_BYTES + 1)
    if len(data) > MAX_SOURCE_BYTES:
        raise OSError(errno.EFBIG, f"larger than {MAX_SOURCE_BYTES // 2**20} MiB")
    return data


def decoded_source(data: bytes) -> str:
    """Source bytes as text, as Python reads them (PEP 263 declaration, a BOM)."""
    encoding, _ = tokenize.detect_encoding(io.BytesIO(data).readline)
    return data.decode(encoding)


COMPILE_FAILURE = "the file does not compile: "


def compile_errors(path: str, text: str, lines: list[str], parsed: ast.Module | None = None) -> list[Finding]:
    """A ``syntax-error`` finding when CPython refuses to compile a file that
    parses: a repeated keyword argument, ``return`` outside a function, a late
    ``from __future__`` import... (astroid builds such a file, and pylint would
    report nothing for it: "No findings" for a file that cannot run).
    ``parsed``: the file's ``ast`` tree, when astroid's build kept it: only the
    compiler's own checks are left to run, parsing is half of compile()'s time."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            # top-level ``await`` is allowed: a notebook's cells may use it
            compile(text if parsed is None else parsed, path, "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT, dont_inherit=True)
    except SyntaxError as error:
        finding = file_finding(path, "syntax-error", "E0001", f"{COMPILE_FAILURE}{error.msg} (line {error.lineno})", lines)
        if error.lineno and 0 < error.lineno <= max(len(lines), 1):
            finding.line = error.lineno
            finding.column = max(error.offset or 1, 1)
        return [finding]
    except (ValueError, RecursionError, MemoryError):  # pylint reports those files itself
        return []
    return []


def is_compile_failure(item: Finding) -> bool:
    """A finding of :func:`compile_errors` (not one of pylint's parse errors)."""
    return item.symbol == "syntax-error" and item.message.startswith(COMPILE_FAILURE)


def cell_compile_errors(path: str, shadow: notebooks.Shadow) -> list[Finding]:
    """The compile check of a notebook as Jupyter runs it: each code cell is
    compiled on its own, so a ``from __future__`` import opening a later cell is
    legal there, though not in the shadow module of all cells together. The
    first cell that does not compile gives the finding, at its shadow line (each
    cell is compiled behind blank lines up to its place)."""
    lines = findings.source_lines(shadow.text.encode("utf-8"))
    text_lines = shadow.text.split("\n")
    for first, end in shadow.cell_spans():
        found = compile_errors(path, "\n" * first + "\n".join(text_lines[first:end]) + "\n", lines)
        if found:
            return found
    return []


def file_finding(path: str, symbol: str, msg_id: str, message: str, lines: list[str]) -> Finding:
    """A finding about a whole file (it could not be read, decoded or analysed)."""
    return findings.located(
        path=path,
        line=1,
        byte_column=0,
        end_line=None,
        end_byte_column=None,
        symbol=symbol,
        msg_id=msg_id,
        message=message,
        module=module_name(path),
        lines=lines,
    )


class Engine:
    """A configured PyLinter that checks one file at a time and returns findings.
    Use it inside :meth:`Settings.adjusted_astroid`."""

    # A worker process that a fresh one can replace: when its trees reach its
    # share of memory it is ``spent`` (ending frees them at once) instead of
    # dropping them itself.
    replaceable = False
    spent = False
    resident_at_start = 0  # bytes, a replaceable worker's when it started

    def __init__(self, settings: Settings, stars: compat.LazyStarImports | None = None, inherited: bool = False) -> None:
        """``inherited``: a worker forked by the command for this run (programs.configure)."""
        self.settings = settings
        self.stars = stars
        self._sizes: dict[str, int] = {}
        # (message, the node it was added for) of the file being checked
        self._reported: list[tuple[Any, Any]] = []
        for root in reversed(settings.roots):
            if root not in sys.path:
                sys.path.insert(0, root)
        programs.configure(settings.mode, settings.decisions, settings.mode_where, settings.overrides, inherited=inherited)
        self._build()

    def _build(self) -> None:
        from pylint import reporters  # noqa: PLC0415

        linter = compat.linter_class()()
        linter.load_default_plugins()
        linter.load_plugin_modules(["mslint"])
        reporter = reporters.CollectingReporter()
        enabled = self.settings.enabled or ["syntax-error"]
        arguments = [
            "--disable=all",
            f"--enable={','.join(enabled)}",
            f"--jit-syntax-level={self.settings.jit_syntax_level}",
            "--persistent=n",
            "--score=n",
            "--reports=n",
        ]
        compat.configure(linter, arguments, reporter)
        linter.set_reporter(reporter)
        linter.initialize()
        linter.open()
        self._reported.clear()
        pylint_hooks.record_message_nodes(linter, lambda message, node: self._reported.append((message, node)))
        edits.start_recording()  # the fixes checkers offer, taken with each message's node
        self.linter = linter
        self.reporter = reporter
        self._enabled = frozenset(enabled)
        # the names of every message a pragma could turn on or off for this run: mslint's
        # (enabled or not: a pragma may enable one) and those enabled
        self._ours = frozenset(
            name for checker in linter.get_checkers() if not type(checker).__module__.startswith("pylint.")
            for message in checker.messages for name in (message.msgid, message.symbol)
        ) | {name for symbol in enabled for name in _message_names(linter, symbol)}
        self._known_message: dict[str, bool] = {}
        self.checked_since_reset = 0

    def check(self, path: str, modname: str, expected_hash: str | None = None) -> tuple[list[Finding], str | None]:
        """Findings for one file, and the hash of the content they are for (None
        when the file changed since ``expected_hash`` was taken: not cacheable)."""
        from pylint.typing import FileItem  # noqa: PLC0415
        from pylint.utils import LinterStats  # noqa: PLC0415

        data = self.settings.sources.get(path)
        if data is None:
            try:
                data = read_source(path)
            except OSError as error:
                return [file_finding(path, "fatal", "F0001", f"cannot read the file ({error.strerror})", [])], None
        content_hash = result_cache.digest(data)
        lines = findings.source_lines(data)
        problem = decoding_problem(data)
        if problem is not None:
            return [file_finding(path, "syntax-error", "E0001", problem, lines)], content_hash
        # pylint analyses exactly these bytes (not the file read again, which another
        # program may have changed meanwhile): the findings, their fixes and the
        # cache entry are all for the content whose hash is returned
        text = decoded_source(data)
        self.linter.analysed_source = (path, text, content_hash)
        edits.forget()
        self.linter.stats = LinterStats()
        # what every pragma contains; one naming only pylint's own messages, none of
        # which this run enables, changes nothing it reports (the tokens are skipped)
        self.linter.may_have_pragmas = b"pylint:" in data and not (
            self.settings.only_mslint and self._pragmas_name_only_others(data))
        crash = None
        # pylint prints a traceback when a checker fails; the file is reported
        # as astroid-error instead (MSLINT_DEBUG=1 shows the traceback)
        stderr, sys.stderr = sys.stderr, io.StringIO()
        try:
            with _time_limit(self.settings.timeout):
                self.linter.check_single_file_item(FileItem(modname, path, path))
        except FileTimeout:
            crash = (
                f"checking this file took longer than {self.settings.timeout:g} s, so it was not checked; "
                "raise --timeout (or [tool.mslint] timeout) to check it"
            )
            content_hash = None  # depends on the machine's speed: never cached
            compat.fresh_astroid()  # the interrupted build may have left half a tree behind
        except Exception as error:  # noqa: BLE001 - one file's crash must not stop the run
            cause = error.__cause__ or error
            if isinstance(cause, RecursionError):
                crash = "the file nests too deeply for the analysis (RecursionError); it was not checked"
            else:
                crash = f"mslint could not analyse this file ({type(cause).__name__}: {cause}); please report it"
        finally:
            written, sys.stderr = sys.stderr.getvalue(), stderr
            self.linter.analysed_source = None
        if written and (crash is None or os.environ.get("MSLINT_DEBUG")):
            sys.stderr.write(written)
        reported, self._reported[:] = list(self._reported), []
        self.reporter.reset()
        if crash is not None:
            self._build()  # a crash can leave checkers half-open
            return [file_finding(path, "astroid-error", "F0002", crash, lines)], content_hash
        found = self._findings(reported, path, lines)
        parsed = compat.take_parsed(content_hash)
        if not any(item.symbol == "syntax-error" for item in found):
            found.extend(compile_errors(path, text, lines, parsed))
        self.after_file()
        if expected_hash is not None and content_hash != expected_hash:
            return found, None
        return found, content_hash

    def _pragmas_name_only_others(self, data: bytes) -> bool:
        """Whether every word after each ``pylint:`` in ``data`` (in comments or
        not) is a pragma's action or a message pylint knows that is not one of
        this run's (_ours): then the pragmas change nothing this run reports, and
        pylint's tokenizing the file to read them can be skipped (mindformers
        writes ``# pylint: disable=C0103`` in 470 files; tokenizing them was 3% of
        the cold run). ``all``, ``skip-file``, a deprecated action, an unknown
        name or any other word: False."""
        for found in _PRAGMA_TEXT.finditer(data):
            for word in _PRAGMA_WORD.findall(found.group(1)):
                name = word.decode("ascii")
                if name in _PRAGMA_ACTIONS:
                    continue
                if name in self._ours:
                    return False
                known = self._known_message.get(name)
                if known is None:
                    known = self._known_message[name] = bool(_message_names(self.linter, name))
                if not known:
                    return False
        return True

    def _findings(self, reported: list[tuple[Any, Any]], path: str, lines: list[str]) -> list[Finding]:
        """The findings of pylint's messages, with their anchors, while the
        file's tree is alive."""
        # pylint reports some of its own messages whatever is enabled (an inline
        # `# pylint: disable=` of a removed message gives useless-option-value);
        # a pragma naming no known message is kept: the command warns about it
        enabled = self._enabled | {"unknown-option-value"}
        found = []
        for message, node in reported:
            if message.symbol not in enabled:
                continue
            item = findings.from_message(message, lines, _anchor(message.symbol, node))
            item.path = path  # pylint may spell it differently
            patch = edits.take(message.symbol, node)
            if patch is not None:
                item.fix = patch.in_characters(lines)
            if message.symbol not in UNANALYSED:
                # how the programs run the code the finding is in, and whether one reaches it
                name = programs.top_level_name(node)
                decision = programs.decision_for(path, name) if name != programs.MODULE else programs.module_decision(path)
                item.mode = decision.mode
                item.mode_basis = f"assumed: {decision.basis}" if decision.assumed else decision.basis
                item.reached = programs.reached_at(path, programs.reach_name(node))
            item.units = _units(node)
            found.append(item)
        edits.forget()
        return found

    def after_file(self) -> None:
        """Keep memory flat: once this process holds about its share of the
        budget in astroid's trees, drop them, or, in a replaceable worker, mark
        it ``spent`` so that it ends (findings do not depend on what is cached).
        The trees held are counted, not the resident size: memory freed by
        Python stays with the process and is reused, so the resident size does
        not fall after a reset and would say nothing (a replaceable worker never
        resets, and its resident size also bounds its garbage: _grown_past)."""
        self.checked_since_reset += 1
        if self.checked_since_reset < RESET_EVERY:
            limit = self.settings.memory_limit
            if limit is None or self.checked_since_reset % 8:
                return
            import astroid  # noqa: PLC0415

            held = sum(self._tree_cost(module) for module in list(astroid.MANAGER.astroid_cache.values()))
            if held < limit and not self._grown_past(limit):
                return
        if self.replaceable:  # a worker process: it ends, and its trees with it (mslint.run.pool)
            self.spent = True
            return
        compat.fresh_astroid(same_files=True)
        # the names star imports bring stay known: they depend only on files a run
        # does not change, and reading them again parsed the same modules anew
        self._build()
        gc.collect()  # astroid trees are cycles: free them now

    def _grown_past(self, limit: int) -> bool:
        """Whether a replaceable worker, which collects no garbage (mslint.run.pool),
        has grown by more than its share and a margin since it started: its trees
        are counted above, this bounds what the cycles it leaves behind take (on the
        benchmark a worker grew by 240 to 310 MiB while its trees reached a 310 MiB
        share)."""
        return self.replaceable and resident_bytes() - self.resident_at_start > limit + GARBAGE_MARGIN

    def _tree_cost(self, module) -> int:  # noqa: ANN001
        """What astroid's tree of ``module`` costs in memory, about: a multiple
        of its source size (measured on mindone), a fixed amount without one."""
        path = getattr(module, "file", None)
        if not path:
            return TREE_COST_WITHOUT_SOURCE
        size = self._sizes.get(path)
        if size is None:
            size = self._sizes[path] = source_size(path)
        per_byte = LEAN_TREE_BYTES_PER_SOURCE_BYTE if self.settings.only_mslint else TREE_BYTES_PER_SOURCE_BYTE
        return per_byte * size


class FileTimeout(BaseException):
    """Raised in the middle of a file's check when its time is up. A BaseException,
    so that no ``except Exception`` in pylint or astroid swallows it."""


@contextlib.contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Interrupt the block with FileTimeout after ``seconds`` (0: never). Uses a
    real-time timer signal, so only where one can be set: POSIX, main thread."""
    usable = (
        seconds > 0
        and hasattr(signal, "setitimer")
        and threading.current_thread() is threading.main_thread()
    )
    if not usable:
        yield
        return

    def expire(signum, frame):  # noqa: ANN001, ANN202, ARG001
        raise FileTimeout

    previous = signal.signal(signal.SIGALRM, expire)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _message_names(linter: Any, name: str) -> tuple[str, ...]:
    """The id and symbol of the message pylint knows as ``name`` (an id or a
    symbol); () when it knows none (or it was deleted or moved)."""
    try:
        definitions = linter.msgs_store.get_message_definitions(name)
    except Exception:  # noqa: BLE001 - UnknownMessageError, DeletedMessageError, ...
        return ()
    return tuple(found for definition in definitions for found in (definition.msgid, definition.symbol))


def source_size(path: str) -> int:
    try:
        return os.path.getsize(path)
    except OSError:
        return 0


def _anchor(symbol: str, node: Any) -> findings.Anchor | None:
    """What runtime confirmation needs of a finding of ``symbol`` at ``node``,
    for the rules it can check (none in an installation without it)."""
    try:
        from mslint.confirm import anchors, rules  # noqa: PLC0415
    except ImportError:
        return None
    if symbol not in rules.CONFIRMABLE:
        return None
    return anchors.anchor_of(symbol, node)


def _units(node: Any) -> tuple[str, ...]:
    """The compiled units a finding at ``node`` is in (mslint --graph-report)."""
    if node is None:
        return ()
    from mslint.analysis import compiled  # noqa: PLC0415

    try:
        return compiled.compiled_units(node)
    except Exception:  # noqa: BLE001 - the finding stands without its unit
        return ()
