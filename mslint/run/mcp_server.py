"""``mslint mcp``: the Model Context Protocol server for coding agents (over
standard input and output, with the official ``mcp`` SDK; the ``server`` extra).

Each tool runs the ``mslint`` command itself (``python -m mslint``, in the
folder the server was started in, which is where relative paths start), so an
agent gets exactly what the command gives: the same configuration, cache,
worker processes and guarantees, and a crash or a long run of the command
never takes the server down.

- ``lint``: the JSON report of ``mslint --format json PATHS``, or of
  ``mslint - --stdin-filename FILENAME --format json`` for code given as text;
- ``explain``: a rule's page (``mslint explain RULE``);
- ``fix``: the unified diff ``mslint --diff`` prints; with ``write`` true it
  then applies it (``mslint --fix``: only the flagged characters change, a file
  that would not parse is never written, writes are atomic).

A tool that needs a subcommand (``Tool.command``) is offered only where the
command has it; see :data:`TOOLS` for how to add one.
"""

from __future__ import annotations

import json
import os
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Annotated

import anyio
from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from mslint.knowledge.version import VERSION

INSTRUCTIONS = (
    "mslint finds MindSpore code that fails to compile in graph mode or trains wrong (gradients silently zero, "
    "layers ported from PyTorch with different defaults). Use `lint` on the files you changed, `explain` for a "
    "rule's page (why it is harmful, what to write instead), and `fix` to see (and, with write=true, apply) the "
    "fixes mslint knows: safe ones by default, unsafe=true also those that change what the code computes."
)


async def run_mslint(*arguments: str, stdin: str = "") -> tuple[int, str, str]:
    """Run the ``mslint`` command; its exit status, standard output and standard error."""
    done = await anyio.run_process(
        [sys.executable, "-m", "mslint", *arguments], input=stdin.encode("utf-8"), check=False, cwd=os.getcwd()
    )
    return done.returncode, done.stdout.decode("utf-8", "replace"), done.stderr.decode("utf-8", "replace")


def _report(status: int, output: str, errors: str) -> str:
    """The command's report, or a ToolError with what it said when it gave none
    (a usage or configuration error, exit 2; an internal error, exit 3)."""
    if status in (0, 1) or (status == 2 and output.strip()):  # 2 with a report: some inputs could not be read
        return output
    raise ToolError(errors.strip() or f"mslint exited with status {status}")


# ---------------------------------------------------------------------------
# The tools
# ---------------------------------------------------------------------------

Paths = Annotated[list[str], Field(description="files and folders to check, relative to the server's folder (default: the whole folder)")]


async def lint(
    paths: Paths = [],  # noqa: B006 - never mutated; the schema's default
    code: Annotated[str | None, Field(description="source code to check instead of files (an unsaved buffer)")] = None,
    filename: Annotated[str | None, Field(description="with code: the path the code stands for (its configuration, module name and report path)")] = None,
) -> str:
    """Check MindSpore code with mslint. Returns the JSON report `mslint --format json` prints: each finding's path,
    line, column, rule symbol and id, category, message, and its fix (edits) when it has one."""
    if code is not None:
        if paths:
            raise ToolError("give either paths or code, not both")
        return _report(*await run_mslint("--format=json", f"--stdin-filename={filename or 'stdin.py'}", "-", stdin=code))
    return _report(*await run_mslint("--format=json", "--", *(paths or ["."])))


async def explain(
    rule: Annotated[str, Field(description="a rule symbol (ms-numpy-on-tensor) or id (E7101), as lint reports them")],
) -> str:
    """A rule's documentation page (markdown): what it flags, why it is harmful, an example, what to write instead,
    when it stays silent, and its fix."""
    return _report(*await run_mslint("explain", "--", rule))


async def fix(
    paths: Paths = [],  # noqa: B006 - never mutated; the schema's default
    unsafe: Annotated[bool, Field(description="also the unsafe fixes, which change what the code computes (toward PyTorch's meaning)")] = False,
    write: Annotated[bool, Field(description="apply the fixes to the files; false (the default) only shows them")] = False,
) -> str:
    """The fixes mslint would apply, as the unified diff `mslint --diff` prints (safe fixes; unsafe=true adds the
    unsafe ones). Changes no file unless write=true: then applies exactly that (`mslint --fix`: only the flagged
    characters change, a file that would not parse is never written)."""
    options = ["--unsafe-fixes"] if unsafe else []
    status, diff, errors = await run_mslint("--diff", *options, "--", *(paths or ["."]))
    if status not in (0, 1):
        raise ToolError(errors.strip() or f"mslint exited with status {status}")
    if not diff:
        return "No fix applies: `mslint --diff` prints nothing, and nothing was written."
    if not write:
        return diff
    status, output, errors = await run_mslint("--fix", *options, "--format=json", "--", *(paths or ["."]))
    report = json.loads(_report(status, output, errors))
    fixed = next((line for line in errors.splitlines() if line.startswith("mslint: fixed")), "mslint: fixed nothing")
    left = report["summary"]["findings"]
    return f"{diff}\n{fixed}; {left} finding{'s' * (left != 1)} left (call lint to see them).\n"


@dataclass(frozen=True)
class Tool:
    """A tool the server offers: its function (name, description and arguments
    come from its signature and docstring), whether it can change files, and
    the ``mslint`` subcommand it runs where that is not the check itself (the
    tool is offered only when the command has that subcommand)."""

    function: Callable[..., object]
    writes: bool = False
    command: str | None = None


async def migration(
    paths: Paths = [],  # noqa: B006 - never mutated; the schema's default
) -> str:
    """Before porting a PyTorch project: every PyTorch API the code uses, where, its MindSpore 2.10 counterpart and
    whether it is the same, differs (how, for the arguments this code passes, and which mslint rule checks the
    ported code) or is missing. Returns the JSON report `mslint migration --format json` prints. Imports nothing."""
    return _report(*await run_mslint("migration", "--format=json", "--", *(paths or ["."])))


# A tool for another subcommand: an async function like ``migration`` that runs
# ``run_mslint(subcommand, ...)`` and returns its output through ``_report``, and
# ``Tool(function, command=subcommand)`` here; ``writes=True`` if it can change files.
TOOLS = (Tool(lint), Tool(explain), Tool(fix, writes=True), Tool(migration, command="migration"))


def create(commands: Sequence[str]) -> MCPServer:
    """The server with the tools whose subcommand the command has (``commands``)."""
    server = MCPServer("mslint", version=VERSION, instructions=INSTRUCTIONS, log_level="WARNING")
    for tool in TOOLS:
        if tool.command is not None and tool.command not in commands:
            continue
        hints = ToolAnnotations(read_only_hint=not tool.writes, destructive_hint=False, idempotent_hint=True, open_world_hint=False)
        server.add_tool(tool.function, annotations=hints, structured_output=False)
    return server


def serve(commands: Sequence[str]) -> int:
    """Serve an agent on standard input and output until it closes them."""
    create(commands).run("stdio")
    return 0
