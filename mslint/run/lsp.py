"""``mslint server``: the language server (the Language Server Protocol over
standard input and output, with pygls; the ``server`` extra).

What an editor gets, for each Python file it opens:

- diagnostics when the file is opened, changed (after :data:`DEBOUNCE` seconds
  without typing) and saved: exactly the findings ``mslint`` run over the
  project reports for the file with that content (mslint.run.buffers), with
  source ``mslint``, the rule symbol as code, a link to the rule's page, the
  flagged span and a severity by category; cleared when the file is closed;
- code actions: each finding's fix, the edit ``mslint --fix`` makes for it
  (safe fixes as preferred quick fixes, unsafe ones labelled so), and
  ``source.fixAll.mslint``: the file as ``mslint --fix`` leaves it;
- hover on a flagged span: the finding and its rule's page.

Threads: pygls talks to the editor on a thread of its own; the linting runs
on the main thread, one buffer at a time, in the order asked (so the command's
per-file time limit, a timer signal, works as in the command, and SIGTERM
stops the server there).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import queue
import re
import sys
import threading
import traceback
from concurrent.futures import Executor, Future
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from typing import Any

from lsprotocol import types
from pygls import uris
from pygls.lsp.server import LanguageServer

from mslint.analysis.edits import SAFE, Edit
from mslint.checkers.pylint_hooks import IncompatibleVersions
from mslint.knowledge.manifest import BY_SYMBOL
from mslint.knowledge.version import VERSION
from mslint.report import catalog, fixes
from mslint.report.findings import Finding
from mslint.report.patches import Source, fixed_text
from mslint.run import buffers
from mslint.run.config import ConfigError

DEBOUNCE = 0.3  # seconds without a change before a changed buffer is linted
SOURCE = "mslint"
FIX_ALL = f"{types.CodeActionKind.SourceFixAll.value}.mslint"
SEVERITY = {
    "fatal": types.DiagnosticSeverity.Error,
    "error": types.DiagnosticSeverity.Error,
    "warning": types.DiagnosticSeverity.Warning,
    "convention": types.DiagnosticSeverity.Information,
    "refactor": types.DiagnosticSeverity.Information,
    "info": types.DiagnosticSeverity.Information,
}
PYTHON_SUFFIXES = (".py", ".pyi")
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+$")  # the LSP's lines: only \r\n, \r and \n end one

logger = logging.getLogger(__name__)

# build(path, extra files, workspace folders): the project of a file, as mslint.run.cli.editor_project
Build = Callable[[str, Sequence[str], Sequence[str]], buffers.Project]


@dataclass
class Linted:
    """A buffer's findings and the text and version they are for."""

    version: int | None
    text: str
    findings: list[Finding]


def lines_of(text: str) -> list[str]:
    """The lines of ``text`` with their ends, as the protocol counts lines."""
    return _LINE.findall(text)


class DaemonThreads(Executor):
    """Each call on a daemon thread of its own, for pygls' reads of standard
    input: a read blocks until the editor writes, and a daemon thread does not
    keep the process alive once the server is done (exit, SIGTERM) while the
    editor still holds the pipe open (pygls' own pool is joined at exit)."""

    def submit(self, fn: Callable[..., Any], /, *args: Any, **kwargs: Any) -> Future:
        future: Future = Future()

        def call() -> None:
            if not future.set_running_or_notify_cancel():
                return
            try:
                future.set_result(fn(*args, **kwargs))
            except BaseException as error:  # noqa: BLE001 - handed to the waiting reader
                future.set_exception(error)

        threading.Thread(target=call, name="mslint-lsp-read", daemon=True).start()
        return future


class Server(LanguageServer):
    """pygls' server with mslint's documents: what was linted, what is pending."""

    _reads = DaemonThreads()

    @property
    def thread_pool(self) -> Executor:  # type: ignore[override]
        return self._reads

    def __init__(self, build: Build, jobs: queue.Queue) -> None:
        super().__init__("mslint", VERSION)
        # the workspace folders, as last read on pygls' thread (the main thread builds projects with them)
        self.workspace_folders: list[str] = []
        self.projects = buffers.Projects(lambda path, extra: build(path, extra, self.workspace_folders))
        self.jobs = jobs
        self.linted: dict[str, Linted] = {}
        self.pending: dict[str, asyncio.Task] = {}
        self.python: set[str] = set()  # the open documents mslint lints
        self.shut_down = False
        self.reported: set[str] = set()  # messages already shown (once each)

    def folders(self) -> list[str]:
        """The workspace folders (the root the editor gave, without any)."""
        folders = [uris.to_fs_path(folder.uri) for folder in self.workspace.folders.values()]
        return [folder for folder in folders if folder] or [folder for folder in [self.workspace.root_path] if folder]

    # -- running on the main thread ----------------------------------------

    async def on_main_thread(self, work: Callable[[], Any]) -> Any:
        """``work()`` run by the main thread's loop (serve), its result or exception here."""
        loop = asyncio.get_running_loop()
        future = loop.create_future()

        def settle(value: Any, error: BaseException | None) -> None:
            if future.done():
                return
            if error is not None:
                future.set_exception(error)
            else:
                future.set_result(value)

        def job() -> None:
            try:
                value = work()
            except Exception as error:  # noqa: BLE001 - handed to the waiting handler
                loop.call_soon_threadsafe(settle, None, error)
            else:
                loop.call_soon_threadsafe(settle, value, None)

        self.jobs.put(job)
        return await future

    # -- linting ----------------------------------------------------------

    def schedule(self, uri: str, delay: float) -> None:
        """Lint the document ``delay`` seconds from now (a newer request replaces this one)."""
        if uri not in self.python:
            return
        previous = self.pending.pop(uri, None)
        if previous is not None:
            previous.cancel()
        self.pending[uri] = asyncio.get_running_loop().create_task(self._lint_later(uri, delay))

    async def _lint_later(self, uri: str, delay: float) -> None:
        if delay:
            await asyncio.sleep(delay)
        try:
            await self.lint(uri)
        finally:
            if self.pending.get(uri) is asyncio.current_task():
                del self.pending[uri]

    async def lint(self, uri: str) -> None:
        document = self.workspace.get_text_document(uri)
        text, version, path = document.source, document.version, uris.to_fs_path(uri)
        if path is None:
            return
        self.workspace_folders = self.folders()

        def run() -> list[Finding] | None:
            current = self.workspace.text_documents.get(uri)  # a look, not pygls' get_text_document, which may add one
            if uri not in self.python or current is None or current.version != version:
                return None  # closed or changed since: a newer request follows
            return buffers.lint(self.projects.project_of(path), path, text)

        try:
            found = await self.on_main_thread(run)
        except (ConfigError, IncompatibleVersions) as error:
            self.tell(f"mslint: {error}")
            found = []
        except Exception as error:  # noqa: BLE001 - one buffer's crash must not stop the server
            logger.error("mslint could not lint %s:\n%s", path, "".join(traceback.format_exception(type(error), error, error.__traceback__)))
            self.tell(f"mslint: internal error while linting {os.path.basename(path)} ({type(error).__name__}: {error}); "
                      "the traceback is in the server's log")
            found = []
        if found is None or uri not in self.python or self.workspace.get_text_document(uri).version != version:
            return
        self.linted[uri] = Linted(version, text, found)
        lines = lines_of(text)
        self.text_document_publish_diagnostics(
            types.PublishDiagnosticsParams(uri=uri, version=version, diagnostics=[self.diagnostic(item, lines) for item in found])
        )

    def tell(self, message: str) -> None:
        """Show ``message`` to the user, once."""
        if message in self.reported:
            return
        self.reported.add(message)
        self.window_show_message(types.ShowMessageParams(type=types.MessageType.Error, message=message))

    def forget(self, uri: str) -> None:
        """The document is closed: nothing pending, no diagnostics left."""
        self.python.discard(uri)
        task = self.pending.pop(uri, None)
        if task is not None:
            task.cancel()
        self.linted.pop(uri, None)
        self.text_document_publish_diagnostics(types.PublishDiagnosticsParams(uri=uri, diagnostics=[]))

    # -- what the editor is sent --------------------------------------------

    def position(self, lines: list[str], line: int, character: int) -> types.Position:
        """The protocol position of 0-based ``line`` and character ``character``."""
        return self.workspace.position_codec.position_to_client_units(lines, types.Position(line=line, character=character))

    def span(self, lines: list[str], item: Finding) -> types.Range:
        """A finding's span; to the end of its line when it has no end."""
        start = self.position(lines, item.line - 1, item.column - 1)
        if item.end_line is not None and item.end_column is not None:
            end = self.position(lines, item.end_line - 1, item.end_column - 1)
        else:
            text = lines[item.line - 1] if 0 < item.line <= len(lines) else ""
            end = self.position(lines, item.line - 1, len(text.rstrip("\r\n")))
        return types.Range(start=start, end=end)

    def diagnostic(self, item: Finding, lines: list[str]) -> types.Diagnostic:
        related = None
        place = item.related
        if place is not None:  # reported at a call: where in the other module the problem is
            related = [
                types.DiagnosticRelatedInformation(
                    location=types.Location(uri=uris.from_fs_path(place.path) or place.path, range=types.Range(
                        start=types.Position(line=place.line - 1, character=0), end=types.Position(line=place.line, character=0))),
                    message=f"the problem, in {place.function}",
                )
            ]
        return types.Diagnostic(
            range=self.span(lines, item),
            message=item.message,
            severity=SEVERITY.get(item.category, types.DiagnosticSeverity.Information),
            code=item.symbol,
            code_description=types.CodeDescription(href=rule_page_url(item.symbol, item.category)),
            source=SOURCE,
            related_information=related,
        )

    def text_edits(self, lines: list[str], edits: Sequence[Edit]) -> list[types.TextEdit]:
        """A fix's edits (1-based lines and character columns, end exclusive) as the protocol's."""
        return [
            types.TextEdit(
                range=types.Range(start=self.position(lines, edit.line - 1, edit.column - 1),
                                  end=self.position(lines, edit.end_line - 1, edit.end_column - 1)),
                new_text=edit.text,
            )
            for edit in sorted(edits)
        ]

    def workspace_edit(self, uri: str, version: int | None, edits: list[types.TextEdit]) -> types.WorkspaceEdit:
        """The edits, tied to the document's version where the editor can check it."""
        capabilities = self.client_capabilities.workspace
        if capabilities and capabilities.workspace_edit and capabilities.workspace_edit.document_changes:
            return types.WorkspaceEdit(document_changes=[types.TextDocumentEdit(
                text_document=types.OptionalVersionedTextDocumentIdentifier(uri=uri, version=version), edits=edits)])
        return types.WorkspaceEdit(changes={uri: edits})

    def fix_actions(self, uri: str, linted: Linted, wanted: types.Range | None) -> list[types.CodeAction]:
        """One quick fix per finding with a fix in ``wanted``: exactly the edits
        ``mslint --fix`` (``--unsafe-fixes``) makes for that finding alone."""
        lines = lines_of(linted.text)
        source = Source(linted.text, "utf-8", False)
        actions = []
        for item in linted.findings:
            if not fixes.fixable(item, True):
                continue
            diagnostic = self.diagnostic(item, lines)
            if wanted is not None and not _overlap(diagnostic.range, wanted):
                continue
            _, taken = fixed_text(source, [item.fix])
            if not taken:  # the edit does not apply or the result would not parse: --fix skips it too
                continue
            safe = item.fix.applicability == SAFE
            title = (f"Fix {item.symbol}: {item.fix.description}" if safe
                     else f"Fix {item.symbol} (unsafe fix: it changes what the code computes): {item.fix.description}")
            actions.append(types.CodeAction(
                title=title,
                kind=types.CodeActionKind.QuickFix,
                diagnostics=[diagnostic],
                is_preferred=safe,
                edit=self.workspace_edit(uri, linted.version, self.text_edits(lines, item.fix.edits)),
            ))
        return actions

    def fix_all_edit(self, uri: str, linted: Linted) -> types.WorkspaceEdit:
        """The main thread's work for ``source.fixAll.mslint``: the buffer as
        ``mslint --fix`` leaves it, as edits of the lines that change."""
        path = uris.to_fs_path(uri) or uri
        after = buffers.fixed(self.projects.project_of(path), path, linted.text, unsafe=False, found=linted.findings)
        return self.workspace_edit(uri, linted.version, self.line_edits(linted.text, after))

    def line_edits(self, before: str, after: str) -> list[types.TextEdit]:
        """Edits of whole lines that turn ``before`` into ``after``."""
        old, new = lines_of(before), lines_of(after)
        edits = []
        for tag, first, last, start, end in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
            if tag == "equal":
                continue
            edits.append(types.TextEdit(
                range=types.Range(start=self._line_start(old, first), end=self._line_start(old, last)),
                new_text="".join(new[start:end]),
            ))
        return edits

    def _line_start(self, lines: list[str], index: int) -> types.Position:
        """Where line ``index`` starts; past the last line, the end of the text."""
        if index < len(lines):
            return types.Position(line=index, character=0)
        if not lines:
            return types.Position(line=0, character=0)
        last = lines[-1]
        if last.endswith(("\n", "\r")):
            return types.Position(line=len(lines), character=0)
        return self.position(lines, len(lines) - 1, len(last))


def rule_page_url(symbol: str, category: str) -> str:
    """The page of a rule: mslint's own, or pylint's for its messages."""
    if symbol in BY_SYMBOL:
        return f"{catalog.DOCS_BASE_URL}{symbol}.md"
    return catalog.PYLINT_DOCS_URL.format(category=category, symbol=symbol)


def hover_text(item: Finding) -> str:
    """A finding and its rule's page, as markdown."""
    page = catalog.doc_text(item.symbol)
    if page is None:
        page = f"See [{item.symbol}]({rule_page_url(item.symbol, item.category)})."
    return f"**{item.symbol}** ({item.msg_id}): {item.message}\n\n---\n\n{page.strip()}\n"


def _overlap(first: types.Range, second: types.Range) -> bool:
    def key(position: types.Position) -> tuple[int, int]:
        return (position.line, position.character)

    return key(first.start) <= key(second.end) and key(second.start) <= key(first.end)


def _inside(position: types.Position, span: types.Range) -> bool:
    point = (position.line, position.character)
    return (span.start.line, span.start.character) <= point <= (span.end.line, span.end.character)


def _resolves_edits(server: Server) -> bool:
    """Whether the editor asks for a code action's edit only when it is chosen (codeAction/resolve)."""
    capabilities = server.client_capabilities.text_document
    action = capabilities.code_action if capabilities else None
    support = action.resolve_support if action else None
    return bool(support and "edit" in support.properties)


def create(build: Build, jobs: queue.Queue) -> Server:
    """The server with its features."""
    server = Server(build, jobs)

    @server.feature(types.TEXT_DOCUMENT_DID_OPEN)
    def did_open(ls: Server, params: types.DidOpenTextDocumentParams) -> None:
        document = params.text_document
        path = uris.to_fs_path(document.uri)
        if path and (document.language_id == "python" or path.endswith(PYTHON_SUFFIXES)):
            ls.python.add(document.uri)
            ls.schedule(document.uri, 0)

    @server.feature(types.TEXT_DOCUMENT_DID_CHANGE)
    def did_change(ls: Server, params: types.DidChangeTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, DEBOUNCE)

    @server.feature(types.TEXT_DOCUMENT_DID_SAVE)
    def did_save(ls: Server, params: types.DidSaveTextDocumentParams) -> None:
        ls.schedule(params.text_document.uri, 0)
        for uri in ls.python - {params.text_document.uri}:  # their findings may follow calls into it
            ls.schedule(uri, DEBOUNCE)
        if params.text_document.uri.endswith("pyproject.toml"):
            ls.jobs.put(ls.projects.forget)  # on the main thread, which uses them

    @server.feature(types.TEXT_DOCUMENT_DID_CLOSE)
    def did_close(ls: Server, params: types.DidCloseTextDocumentParams) -> None:
        ls.forget(params.text_document.uri)

    @server.feature(types.WORKSPACE_DID_CHANGE_WATCHED_FILES)
    def did_change_watched_files(ls: Server, params: types.DidChangeWatchedFilesParams) -> None:  # noqa: ARG001
        ls.jobs.put(ls.projects.forget)  # on the main thread, which uses them
        for uri in ls.python:
            ls.schedule(uri, DEBOUNCE)

    @server.feature(types.WORKSPACE_DID_CHANGE_CONFIGURATION)
    def did_change_configuration(ls: Server, params: types.DidChangeConfigurationParams) -> None:  # noqa: ARG001
        did_change_watched_files(ls, None)

    @server.feature(types.SHUTDOWN)
    def shutdown(ls: Server, params: None) -> None:  # noqa: ARG001
        ls.shut_down = True

    @server.feature(
        types.TEXT_DOCUMENT_CODE_ACTION,
        types.CodeActionOptions(code_action_kinds=[types.CodeActionKind.QuickFix, FIX_ALL], resolve_provider=True),
    )
    async def code_action(ls: Server, params: types.CodeActionParams) -> list[types.CodeAction]:
        uri = params.text_document.uri
        linted = ls.linted.get(uri)
        if linted is None or ls.workspace.get_text_document(uri).source != linted.text:
            return []  # not linted yet, or changed since: the edits would be stale
        only = params.context.only
        actions: list[types.CodeAction] = []
        if only is None or any(types.CodeActionKind.QuickFix.value.startswith(kind) for kind in only):
            actions.extend(ls.fix_actions(uri, linted, params.range))
        if (only is None or any(FIX_ALL.startswith(kind) for kind in only)) and any(fixes.fixable(item, False) for item in linted.findings):
            action = types.CodeAction(
                title="Fix all safe mslint findings in this file (as `mslint --fix`)",
                kind=FIX_ALL,
                data={"uri": uri, "version": linted.version},
            )
            if not _resolves_edits(ls):
                action.edit = await ls.on_main_thread(lambda: ls.fix_all_edit(uri, linted))
            actions.append(action)
        return actions

    @server.feature(types.CODE_ACTION_RESOLVE)
    async def resolve_code_action(ls: Server, action: types.CodeAction) -> types.CodeAction:
        data = action.data if isinstance(action.data, dict) else {}
        uri = data.get("uri")
        linted = ls.linted.get(uri) if isinstance(uri, str) else None
        if action.kind == FIX_ALL and linted is not None and linted.version == data.get("version"):
            action.edit = await ls.on_main_thread(lambda: ls.fix_all_edit(uri, linted))
        return action

    @server.feature(types.TEXT_DOCUMENT_HOVER)
    def hover(ls: Server, params: types.HoverParams) -> types.Hover | None:
        uri = params.text_document.uri
        linted = ls.linted.get(uri)
        if linted is None or ls.workspace.get_text_document(uri).source != linted.text:
            return None
        lines = lines_of(linted.text)
        found = [(item, ls.span(lines, item)) for item in linted.findings]
        found = [(item, span) for item, span in found if _inside(params.position, span)]
        if not found:
            return None
        return types.Hover(
            contents=types.MarkupContent(kind=types.MarkupKind.Markdown, value="\n---\n\n".join(hover_text(item) for item, _ in found)),
            range=found[0][1],
        )

    return server


@contextlib.contextmanager
def _protocol_streams() -> Iterator[tuple[Any, Any]]:
    """Standard input and output for the protocol alone: while it runs, file
    descriptor 1 is standard error and 0 the null device, so that nothing
    printed or read by the linting (pylint, a checker) reaches the wire."""
    sys.stdout.flush()
    saved_in, saved_out = os.dup(0), os.dup(1)
    reader, writer = os.fdopen(os.dup(0), "rb"), os.fdopen(os.dup(1), "wb")
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(2, 1)
    os.dup2(null, 0)
    os.close(null)
    try:
        yield reader, writer
    finally:
        sys.stdout.flush()
        os.dup2(saved_in, 0)
        os.dup2(saved_out, 1)
        os.close(saved_in)
        os.close(saved_out)


def serve(build: Build) -> int:
    """Serve the editor on standard input and output until it says exit; the
    exit status (0 after a shutdown request, 1 without, as the protocol says)."""
    jobs: queue.Queue[Callable[[], None] | None] = queue.Queue()
    server = create(build, jobs)
    with _protocol_streams() as (reader, writer):

        def talk() -> None:
            try:
                server.start_io(reader, writer)
            finally:
                jobs.put(None)

        threading.Thread(target=talk, name="mslint-lsp", daemon=True).start()
        while (job := jobs.get()) is not None:
            job()
    return 0 if server.shut_down else 1
