"""The servers (issue 27): ``mslint server`` driven over standard input and
output as an editor drives it (pygls' own language client: initialize, open,
change, save, code actions, hover, close), and ``mslint mcp`` as an agent
does (the MCP SDK's stdio client: list the tools, call each). Both must agree
with the command's own output on the same files: the same findings, the same
fixes.

The project (fixtures/servers/project) has a program, train.py, that runs
model.py in graph mode, and a [tool.mslint] that ignores a rule: the server
must use both, as ``mslint`` run over the project does.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import shutil
import signal
import subprocess
import sys
try:
    import tomllib
except ImportError:  # pragma: no cover - Python < 3.11
    import tomli as tomllib  # type: ignore[no-redef]
from pathlib import Path

import pytest
from lsprotocol import types
from pygls import uris
from pygls.lsp.client import BaseLanguageClient

from mslint.analysis.edits import Patch
from mslint.report import catalog
from mslint.report.patches import apply_patches
from mslint.run import cli

ROOT = Path(__file__).resolve().parent.parent
PROJECT = ROOT / "fixtures" / "servers" / "project"
WAIT = 60  # seconds: a reply that takes longer is a hang


@pytest.fixture
def cache_dir(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path_factory.mktemp("cache")
    monkeypatch.setenv("MSLINT_CACHE_DIR", str(folder))
    return folder


def copy_project(where: Path) -> Path:
    shutil.copytree(PROJECT, where)
    (where / ".git").mkdir()  # report paths are relative to the repository
    return where


class Command:
    """The mslint command, run in this process as tests/test_cli.py runs it
    (what the servers must agree with)."""

    def __init__(self, capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch) -> None:
        self.capsys, self.monkeypatch = capsys, monkeypatch

    def __call__(self, *args: str, cwd: Path, stdin: str | None = None) -> tuple[int, str, str]:
        """Its exit status, standard output and standard error."""
        self.monkeypatch.chdir(cwd)
        if stdin is not None:
            self.monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(stdin.encode("utf-8")), encoding="utf-8"))
        status = cli.main(list(args))
        out, err = self.capsys.readouterr()
        return status, out, err

    def output(self, *args: str, cwd: Path, stdin: str | None = None) -> str:
        status, out, err = self(*args, cwd=cwd, stdin=stdin)
        assert status in (0, 1), err
        return out

    def report(self, *args: str, cwd: Path, stdin: str | None = None) -> dict:
        return json.loads(self.output("--format=json", *args, cwd=cwd, stdin=stdin))

    def findings(self, project: Path) -> list[dict]:
        """model.py's findings when the command checks the whole project."""
        return [item for item in self.report(".", cwd=project)["findings"] if item["path"] == "model.py"]

    def fixed(self, project: Path, text: str, *options: str) -> str:
        """model.py with the content ``text`` after ``mslint --fix OPTIONS``, in a copy of the project."""
        copy = copy_project(project.parent / f"fixed{len(list(project.parent.iterdir()))}")
        (copy / "model.py").write_text(text, encoding="utf-8")
        self.output("--fix", *options, ".", cwd=copy)
        return (copy / "model.py").read_text(encoding="utf-8")


@pytest.fixture
def command(capsys: pytest.CaptureFixture, monkeypatch: pytest.MonkeyPatch, cache_dir: Path) -> Command:  # noqa: ARG001
    return Command(capsys, monkeypatch)


# ---------------------------------------------------------------------------
# The language server
# ---------------------------------------------------------------------------


def characters(line: str, units: int) -> int:
    """The code point offset of ``units`` UTF-16 code units into ``line``."""
    count = 0
    for index, char in enumerate(line):
        if count >= units:
            return index
        count += 2 if ord(char) > 0xFFFF else 1
    return len(line)


def as_finding(diagnostic: types.Diagnostic, lines: list[str]) -> tuple:
    """(line, column, end line, end column, symbol, message) as the JSON report has them."""
    start, end = diagnostic.range.start, diagnostic.range.end
    return (start.line + 1, characters(lines[start.line], start.character) + 1, end.line + 1,
            characters(lines[end.line], end.character) + 1, diagnostic.code, diagnostic.message)


def applied(text: str, edits: list[types.TextEdit]) -> str:
    """``text`` with the protocol's edits (UTF-16 positions) applied."""
    lines = text.splitlines(keepends=True)

    def offset(position: types.Position) -> int:
        if position.line >= len(lines):
            return len(text)
        return sum(len(line) for line in lines[: position.line]) + characters(lines[position.line], position.character)

    for edit in sorted(edits, key=lambda edit: (edit.range.start.line, edit.range.start.character), reverse=True):
        text = text[: offset(edit.range.start)] + edit.new_text + text[offset(edit.range.end) :]
    return text


def edits_of(action: types.CodeAction, uri: str, version: int) -> list[types.TextEdit]:
    """The edits of an action for the document: versioned (the client said it takes documentChanges)."""
    assert action.edit is not None and action.edit.changes is None
    (change,) = action.edit.document_changes
    assert change.text_document.uri == uri and change.text_document.version == version
    return list(change.edits)


def fixed_by_json(text: str, finding: dict) -> str:
    """``text`` with a JSON finding's fix applied."""
    result, taken = apply_patches(text, [Patch.from_data(finding["fix"])])
    assert taken
    return result


class Editor:
    """pygls' language client with the notifications the server sends, in order."""

    def __init__(self) -> None:
        self.client = BaseLanguageClient("test-editor", "1")
        self.published: asyncio.Queue[types.PublishDiagnosticsParams] = asyncio.Queue()
        self.messages: list[str] = []
        # pygls passes the client to a handler only when its first parameter is named ls
        self.client.feature(types.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS)(lambda ls, params: self.published.put_nowait(params))
        self.client.feature(types.WINDOW_SHOW_MESSAGE)(lambda ls, params: self.messages.append(params.message))

    async def start(self, root: Path) -> types.InitializeResult:
        await self.client.start_io(sys.executable, "-m", "mslint", "server", cwd=str(root))
        capabilities = types.ClientCapabilities(
            workspace=types.WorkspaceClientCapabilities(workspace_edit=types.WorkspaceEditClientCapabilities(document_changes=True)),
            text_document=types.TextDocumentClientCapabilities(code_action=types.CodeActionClientCapabilities(
                resolve_support=types.ClientCodeActionResolveOptions(properties=["edit"]))),
        )
        result = await asyncio.wait_for(self.client.initialize_async(types.InitializeParams(
            capabilities=capabilities, root_uri=uris.from_fs_path(str(root)),
            workspace_folders=[types.WorkspaceFolder(uri=uris.from_fs_path(str(root)), name=root.name)],
        )), WAIT)
        self.client.initialized(types.InitializedParams())
        return result

    async def diagnostics(self, uri: str) -> types.PublishDiagnosticsParams:
        while True:
            params = await asyncio.wait_for(self.published.get(), WAIT)
            if params.uri == uri:
                return params

    def open(self, uri: str, text: str) -> None:
        self.client.text_document_did_open(types.DidOpenTextDocumentParams(
            text_document=types.TextDocumentItem(uri=uri, language_id="python", version=1, text=text)))

    def change(self, uri: str, version: int, text: str) -> None:
        self.client.text_document_did_change(types.DidChangeTextDocumentParams(
            text_document=types.VersionedTextDocumentIdentifier(uri=uri, version=version),
            content_changes=[types.TextDocumentContentChangeWholeDocument(text=text)]))

    async def actions(self, uri: str, diagnostics: list[types.Diagnostic], only: list[str] | None = None) -> list[types.CodeAction]:
        return await asyncio.wait_for(self.client.text_document_code_action_async(types.CodeActionParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            range=types.Range(start=types.Position(line=0, character=0), end=types.Position(line=10_000, character=0)),
            context=types.CodeActionContext(diagnostics=diagnostics, only=only))), WAIT) or []

    async def hover(self, uri: str, position: types.Position) -> types.Hover | None:
        return await asyncio.wait_for(self.client.text_document_hover_async(
            types.HoverParams(text_document=types.TextDocumentIdentifier(uri=uri), position=position)), WAIT)

    async def stop(self) -> int | None:
        """Shut the server down as an editor does; its exit status."""
        await asyncio.wait_for(self.client.shutdown_async(None), WAIT)
        self.client.exit(None)
        status = await asyncio.wait_for(self.client._server.wait(), WAIT)  # noqa: SLF001 - the server process
        await self.client.stop()
        return status

    async def kill(self) -> None:
        """Stop the server if it still runs; print what it wrote on standard error (shown when a test fails)."""
        server = self.client._server  # noqa: SLF001
        if server is not None and server.returncode is None:
            server.kill()
            await server.wait()
        if server is not None and server.stderr is not None:
            print((await server.stderr.read()).decode("utf-8", "replace"))
        await self.client.stop()


def run(session) -> None:  # noqa: ANN001
    asyncio.run(session())


def test_language_server_session_agrees_with_the_command(tmp_path: Path, command: Command) -> None:
    project = copy_project(tmp_path / "project")
    model = project / "model.py"
    text = model.read_text(encoding="utf-8")
    lines = text.splitlines()
    expected = command.findings(project)
    assert {item["symbol"] for item in expected} == {
        "ms-conv-padding-ignored", "ms-dropout-keep-prob", "ms-numpy-on-tensor", "ms-forward-not-construct",
        "ms-layer-default-differs"}  # a port rule: model.py carries PyTorch idioms mslint flags
    # the mode comes from the project's program, which builds Net (linted alone,
    # model.py would be assumed graph code, and ms-numpy-on-tensor's message would
    # say so); Head, which no program builds, takes the mode of the program importing it
    moded = [item for item in expected if item["symbol"] not in ("ms-forward-not-construct", "ms-layer-default-differs")]
    assert {item["modeBasis"] for item in moded} == {"train.py sets GRAPH_MODE"}
    assert all(item["reached"] for item in moded)
    uri = uris.from_fs_path(str(model))

    async def session() -> None:
        editor = Editor()
        try:
            started = await editor.start(project)
            assert started.capabilities.position_encoding == types.PositionEncodingKind.Utf16

            # open: exactly the command's findings, with the rule as code and a link to its page
            editor.open(uri, text)
            published = await editor.diagnostics(uri)
            assert published.version == 1
            diagnostics = list(published.diagnostics)
            assert [as_finding(item, lines) for item in diagnostics] == [
                (item["line"], item["column"], item["endLine"], item["endColumn"], item["symbol"], item["message"]) for item in expected]
            for diagnostic, item in zip(diagnostics, expected):
                assert diagnostic.source == "mslint"
                assert diagnostic.code_description.href == f"{catalog.DOCS_BASE_URL}{item['symbol']}.md"
                severity = {"error": types.DiagnosticSeverity.Error, "warning": types.DiagnosticSeverity.Warning}.get(
                    item["category"], types.DiagnosticSeverity.Information)
                assert diagnostic.severity == severity
            numpy = next(item for item in diagnostics if item.code == "ms-numpy-on-tensor")
            assert numpy.range.start.character == lines[numpy.range.start.line].index("np.exp") + 1  # 😋: two units

            # code actions: each finding's fix as the command gives it; safe ones preferred
            actions = await editor.actions(uri, diagnostics)
            quick = [action for action in actions if action.kind == types.CodeActionKind.QuickFix]
            fixable = [item for item in expected if "fix" in item]  # ms-layer-default-differs has none
            assert [action.diagnostics[0].code for action in quick] == [item["symbol"] for item in fixable]
            for action, item in zip(quick, fixable):
                safe = item["fix"]["applicability"] == "safe"
                assert bool(action.is_preferred) == safe and ("unsafe" in action.title) != safe
                assert applied(text, edits_of(action, uri, 1)) == fixed_by_json(text, item)
            # ... and the whole file as `mslint --fix` leaves it, computed when chosen
            (fix_all,) = [action for action in actions if action.kind == "source.fixAll.mslint"]
            assert fix_all.edit is None
            resolved = await asyncio.wait_for(editor.client.code_action_resolve_async(fix_all), WAIT)
            after_fix = applied(text, edits_of(resolved, uri, 1))
            assert after_fix == command.fixed(project, text) != text
            assert "pad_mode=" in after_fix and "def construct" in after_fix and "nn.Dropout(0.1)" in after_fix
            only = await editor.actions(uri, diagnostics, only=["source.fixAll"])
            assert [action.kind for action in only] == ["source.fixAll.mslint"]

            # hover on a flagged span: the finding and its rule's page; elsewhere nothing
            hover = await editor.hover(uri, numpy.range.start)
            assert hover is not None and hover.range == numpy.range
            assert numpy.message in hover.contents.value
            assert catalog.doc_text("ms-numpy-on-tensor").strip() in hover.contents.value
            assert await editor.hover(uri, types.Position(line=0, character=0)) is None

            # two quick changes: linted once, after the last (debounced), the buffer never written
            before = sorted(str(path) for path in project.rglob("*"))
            changed = text.replace("padding=1)", 'pad_mode="pad", padding=1)')
            changed = changed.replace("self.dense = nn.Dense(4, 4)", "self.dense = nn.Dense(4, 4)\n        self.pool = nn.MaxPool2d(2)")
            changed = changed.replace("ops.relu(self.dropout(", "ops.relu(self.pool(self.dropout(").replace("(z))), label", "(z)))), label")
            editor.change(uri, 2, changed.replace("np.exp", "ops.exp"))
            editor.change(uri, 3, changed)
            published = await editor.diagnostics(uri)
            assert published.version == 3
            assert model.read_text(encoding="utf-8") == text and sorted(str(path) for path in project.rglob("*")) == before
            # ... what the command finds in the file with that content
            model.write_text(changed, encoding="utf-8")
            now = command.findings(project)
            # the port rules stay on: the module still carries a PyTorch idiom (forward)
            assert {item["symbol"] for item in now} == {"ms-dropout-keep-prob", "ms-numpy-on-tensor", "ms-forward-not-construct",
                                                       "ms-pool-implicit-stride", "ms-layer-default-differs"}
            changed_lines = changed.splitlines()
            assert [as_finding(item, changed_lines) for item in published.diagnostics] == [
                (item["line"], item["column"], item["endLine"], item["endColumn"], item["symbol"], item["message"]) for item in now]

            # save, with a rule turned on in [tool.mslint] meanwhile: the server reads it again
            (project / "pyproject.toml").write_text(
                '[tool.mslint]\nignore = ["ms-cell-in-construct"]\nenable = ["ms-pool-implicit-stride"]\n', encoding="utf-8")
            editor.client.text_document_did_save(types.DidSaveTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
            published = await editor.diagnostics(uri)
            saved = command.findings(project)
            assert "ms-pool-implicit-stride" in {item["symbol"] for item in saved}
            assert [as_finding(item, changed_lines) for item in published.diagnostics] == [
                (item["line"], item["column"], item["endLine"], item["endColumn"], item["symbol"], item["message"]) for item in saved]

            # close: the diagnostics go
            editor.client.text_document_did_close(types.DidCloseTextDocumentParams(text_document=types.TextDocumentIdentifier(uri=uri)))
            assert list((await editor.diagnostics(uri)).diagnostics) == []
            assert editor.messages == []
            assert await editor.stop() == 0
        finally:
            await editor.kill()

    run(session)


def test_language_server_says_what_is_wrong_with_the_configuration_and_stops_on_sigterm(tmp_path: Path, command: Command) -> None:
    project = copy_project(tmp_path / "project")
    (project / "pyproject.toml").write_text('[tool.mslint]\nignore = ["ms-no-such-rule"]\n', encoding="utf-8")
    status, _, error = command(".", cwd=project)
    assert status == 2
    uri = uris.from_fs_path(str(project / "model.py"))

    async def session() -> None:
        editor = Editor()
        try:
            await editor.start(project)
            editor.open(uri, (project / "model.py").read_text(encoding="utf-8"))
            assert list((await editor.diagnostics(uri)).diagnostics) == []
            assert editor.messages == [error.strip()]
            # an editor that stops its server with SIGTERM, keeping the pipes open, gets it stopped
            editor.client._server.send_signal(signal.SIGTERM)  # noqa: SLF001
            assert await asyncio.wait_for(editor.client._server.wait(), WAIT) == 128 + signal.SIGTERM  # noqa: SLF001
        finally:
            await editor.kill()

    run(session)


# ---------------------------------------------------------------------------
# The MCP server
# ---------------------------------------------------------------------------


@pytest.mark.skipif(sys.version_info < (3, 10), reason="the MCP SDK needs Python 3.10 (CI runs 3.11)")
def test_mcp_server_tools_agree_with_the_command(tmp_path: Path, cache_dir: Path, command: Command) -> None:
    from mcp import ClientSession  # noqa: PLC0415
    from mcp.client.stdio import StdioServerParameters, stdio_client  # noqa: PLC0415

    project = copy_project(tmp_path / "project")
    model = project / "model.py"
    text = model.read_text(encoding="utf-8")
    buffer = text.replace("nn.Dropout(0.1)", "nn.Dropout(0.5)")
    # what the command says, before the agent fixes anything
    lint_paths = command.output("--format=json", ".", cwd=project)
    lint_code = command.report("-", "--stdin-filename=model.py", cwd=project, stdin=buffer)
    diff = command.output("--diff", "--unsafe-fixes", "model.py", cwd=project)
    migration = command.output("migration", "--format=json", ".", cwd=project)
    assert diff and lint_code["findings"]

    async def session() -> dict:
        server = StdioServerParameters(command=sys.executable, args=["-m", "mslint", "mcp"], cwd=str(project),
                                       env={"MSLINT_CACHE_DIR": str(cache_dir)})
        results = {}
        async with stdio_client(server, errlog=log) as (read, write), ClientSession(read, write) as agent:
            await asyncio.wait_for(agent.initialize(), WAIT)
            results["tools"] = {tool.name: tool for tool in (await agent.list_tools()).tools}

            async def call(name: str, arguments: dict) -> tuple[bool, str]:
                result = await asyncio.wait_for(agent.call_tool(name, arguments), WAIT)
                (content,) = result.content
                return bool(result.is_error), content.text

            results["lint"] = await call("lint", {"paths": ["."]})
            results["lint code"] = await call("lint", {"code": buffer, "filename": "model.py"})
            results["explain"] = await call("explain", {"rule": "E7101"})
            results["explain typo"] = await call("explain", {"rule": "ms-numpy-on-tensr"})
            results["migration"] = await call("migration", {"paths": ["."]})
            results["diff"] = await call("fix", {"paths": ["model.py"], "unsafe": True})
            results["unchanged"] = model.read_text(encoding="utf-8")
            results["fix"] = await call("fix", {"paths": ["model.py"], "unsafe": True, "write": True})
        return results

    # the server's standard error goes to a file (pytest's captured stream has no descriptor)
    with (tmp_path / "mcp-server.log").open("w", encoding="utf-8") as log:
        results = asyncio.run(session())
    tools = results["tools"]
    assert set(tools) == {"lint", "explain", "fix", "migration"}
    assert tools["lint"].annotations.read_only_hint and not tools["fix"].annotations.read_only_hint
    assert tools["migration"].annotations.read_only_hint
    assert {"paths", "code", "filename"} <= set(tools["lint"].input_schema["properties"])

    # lint: the JSON report of the command, for paths and for code given with a file name
    assert results["lint"] == (False, lint_paths)
    error, output = results["lint code"]
    assert not error and json.loads(output) == lint_code
    assert "ms-dropout-keep-prob" not in output and "ms-numpy-on-tensor" in output
    # migration: the JSON report of `mslint migration`
    assert results["migration"] == (False, migration)
    assert json.loads(migration)["tool"] == "mslint"
    # explain: the rule's page; an unknown rule is an error that suggests the close name
    assert results["explain"] == (False, catalog.doc_text("ms-numpy-on-tensor"))
    error, output = results["explain typo"]
    assert error and "did you mean 'ms-numpy-on-tensor'" in output
    # fix: the diff --diff prints, written only when asked, then as `mslint --fix` writes it
    assert results["diff"] == (False, diff)
    assert results["unchanged"] == text
    error, output = results["fix"]
    assert not error and output.startswith(results["diff"][1]) and "mslint: fixed 4 findings in 1 file" in output
    assert model.read_text(encoding="utf-8") == command.fixed(project, text, "--unsafe-fixes") != text


@pytest.mark.skipif(sys.version_info < (3, 10), reason="the MCP SDK needs Python 3.10 (CI runs 3.11)")
def test_mcp_tools_of_a_subcommand_are_offered_only_where_the_command_has_it() -> None:
    """A tool that runs a subcommand (``migration``) is offered only by a
    command that has it (mslint/run/mcp_server.py, TOOLS)."""
    from mslint.run import mcp_server  # noqa: PLC0415

    def offered(commands: list[str]) -> dict:
        return {tool.name: tool for tool in asyncio.run(mcp_server.create(commands).list_tools())}

    assert "migration" in cli.COMMANDS
    assert set(offered(list(cli.COMMANDS))) == {"lint", "explain", "fix", "migration"}
    without = [name for name in cli.COMMANDS if name != "migration"]
    assert set(offered(without)) == {"lint", "explain", "fix"}


# ---------------------------------------------------------------------------
# Packaging: optional extras
# ---------------------------------------------------------------------------

WITHOUT_SERVER_LIBRARIES = r"""
import importlib.abc, sys

class Missing(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.split(".")[0] in ("pygls", "lsprotocol", "mcp", "mcp_types"):
            raise ModuleNotFoundError(f"No module named {name!r}", name=name)
        return None

sys.meta_path.insert(0, Missing())
from mslint.run.cli import main
sys.exit(main(sys.argv[1:]))
"""


@pytest.mark.parametrize("subcommand", ["server", "mcp"])
def test_servers_without_the_extra_exit_2_naming_it(subcommand: str, tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", WITHOUT_SERVER_LIBRARIES, subcommand], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, check=False)
    assert done.returncode == 2, done.stderr
    assert f"mslint {subcommand} needs the server extra" in done.stderr and 'pip install "mslint[server]"' in done.stderr
    assert "Traceback" not in done.stderr


def test_the_server_libraries_are_an_extra_the_tests_install() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    core = " ".join(project["dependencies"]).lower()
    assert "pygls" not in core and "mcp" not in core
    extras = project["optional-dependencies"]
    assert {requirement.split(">")[0].split(";")[0] for requirement in extras["server"]} == {"pygls", "mcp"}
    assert "mslint[server]" in extras["test"]  # CI installs .[test]: the tests above run there
    # the static command runs without them
    done = subprocess.run([sys.executable, "-c", WITHOUT_SERVER_LIBRARIES, "rules"], capture_output=True, text=True, timeout=120,
                          check=False, env={**os.environ})
    assert done.returncode == 0 and "ms-numpy-on-tensor" in done.stdout
