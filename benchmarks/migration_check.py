"""Check ``mslint migration`` on real PyTorch projects against independent counts.

    python benchmarks/migration_check.py PROJECT_DIR [PROJECT_DIR...]

For each project (a folder of .py files; keep downloaded projects out of this
repository), it runs ``mslint migration --format json`` and then checks:

1. every PyTorch API use an independent count finds is in the report. The count
   reads tokens (``tokenize``), not the syntax tree: a dotted name
   ``a.b.c`` whose first name an import line binds to a PyTorch module or object
   (``import torch.nn as nn``, ``from torch import optim``...) is a use of the
   resolved name, unless the whole name is a module or it sits in an import
   statement. Tensor methods are the report's own (the count cannot see types);
2. every counterpart the report names imports in the installed MindSpore;
3. every API the report calls ``same`` has the same parameters as PyTorch's by
   introspection (``inspect.signature``, or the signature lines the docstrings
   open with): each PyTorch parameter that is not one of the pages' general
   differences (out, device, ...) has a MindSpore parameter of the same name, at
   the same position when PyTorch's is positional (unless a general or private
   parameter comes before it: a call cannot reach that slot without passing one),
   with an equal default, and every extra MindSpore parameter has a default.

It also times the command against linting the same files (``mslint --no-cache``).
Needs the frameworks (checks 2 and 3).
"""

from __future__ import annotations

import ast
import io
import json
import re
import subprocess
import sys
import time
import tokenize
from pathlib import Path

ROOTS = ("torch", "torchvision", "torchaudio", "torchtext")


def _aliases(source: str) -> dict[str, str]:
    found: dict[str, str] = {}
    for match in re.finditer(r"^\s*import\s+((?:torch|torchvision|torchaudio|torchtext)[\w.]*)(?:\s+as\s+(\w+))?",
                             source, re.M):
        module, alias = match.groups()
        found[alias or module.split(".")[0]] = module if alias else module.split(".")[0]
    pattern = r"^\s*from\s+((?:torch|torchvision|torchaudio|torchtext)[\w.]*)\s+import\s+(\([^)]*\)|[^\n]+)"
    for match in re.finditer(pattern, source, re.M):
        module, names = match.groups()
        names = re.sub(r"#[^\n]*", "", names).strip("()")
        for part in names.split(","):
            part = part.strip()
            if not part or part == "*":
                continue
            name, _, alias = part.partition(" as ")
            found[(alias or name).strip()] = f"{module}.{name.strip()}"
    return found


def independent_uses(path: Path, modules: set[str]) -> set[tuple[int, str]]:
    source = path.read_text(encoding="utf-8", errors="replace")
    aliases = _aliases(source)
    if not aliases:
        return set()
    found = set()
    tokens = list(tokenize.generate_tokens(io.StringIO(source).readline))
    statement_is_import = False
    index = 0
    while index < len(tokens):
        token = tokens[index]
        if token.type == tokenize.NEWLINE:  # NL tokens also sit inside brackets
            statement_is_import = False
        elif token.type == tokenize.NAME and token.string in ("import", "from") and (
                index == 0 or tokens[index - 1].type in (tokenize.NEWLINE, tokenize.NL, tokenize.INDENT,
                                                         tokenize.DEDENT)):
            statement_is_import = True
        if token.type == tokenize.NAME and not statement_is_import and token.string in aliases and (
                index == 0 or tokens[index - 1].string != "."):
            parts = [token.string]
            end = index
            while end + 2 < len(tokens) and tokens[end + 1].string == "." and tokens[end + 2].type == tokenize.NAME:
                parts.append(tokens[end + 2].string)
                end += 2
            qname = ".".join([aliases[parts[0]], *parts[1:]])
            if qname not in modules:
                found.add((token.start[0], qname))
            index = end
        index += 1
    return found


def _report(project: Path) -> tuple[dict, float]:
    started = time.perf_counter()
    completed = subprocess.run([sys.executable, "-m", "mslint", "migration", ".", "--format", "json"], cwd=project,
                               capture_output=True, text=True, check=False)
    elapsed = time.perf_counter() - started
    return json.loads(completed.stdout), elapsed


def _lint_time(project: Path) -> float:
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mslint", "--no-cache", "."], cwd=project, capture_output=True, check=False)
    return time.perf_counter() - started


def _same_parameters(torch_api: str, ms_api: str, general: set[str]) -> str | None:
    """None when the parameters match, else why not (or that they cannot be read)."""
    from mslint.knowledge.mapping.measure import signatures  # noqa: PLC0415

    _, torch_overloads, _ = signatures(torch_api)
    _, ms_overloads, _ = signatures(ms_api)
    if torch_overloads is None or ms_overloads is None:
        kind_torch, kind_ms = signatures(torch_api)[0], signatures(ms_api)[0]
        return None if kind_torch == kind_ms == "value" else "not introspectable"
    reasons = []
    for torch_params in torch_overloads:
        best = None
        for ms_params in ms_overloads:
            problems = _differences(torch_params, ms_params, general)
            if best is None or len(problems) < len(best):
                best = problems
        reasons += [p for p in best if p not in reasons]
    return "; ".join(reasons) or None


def _differences(torch_params, ms_params, general) -> list[str]:
    from mslint.knowledge.mapping.compare import same_default  # noqa: PLC0415

    ms_by_name = {p[0]: (i, p) for i, p in enumerate(ms_params)}
    problems = []
    for index, (name, kind, default) in enumerate(torch_params):
        if name in general or kind == "**" or name.startswith("_"):
            continue
        if name not in ms_by_name:
            if kind == "*" and any(k == "*" for _, k, _ in ms_params):
                continue
            problems.append(f"no {name}")
            continue
        ms_index, (_, ms_kind, ms_default) = ms_by_name[name]
        reachable = not any(p[0] in general or p[0].startswith("_") for p in torch_params[:index])
        if kind in ("p", "pk") and ms_index != index and reachable:
            problems.append(f"{name} at {ms_index}, not {index}")
        if default is not None and ms_default is None and ms_kind not in ("*", "**"):
            problems.append(f"{name} required")
        elif default is not None and not same_default(default, ms_default, name):
            problems.append(f"{name}={ms_default}, not {default}")
    names = {p[0] for p in torch_params}
    problems += [f"requires {n}" for n, k, d in ms_params if n not in names and d is None and k in ("p", "pk", "k")]
    return problems


def check(project: Path) -> dict:
    from mslint.knowledge import mapping  # noqa: PLC0415
    from mslint.knowledge.mapping.measure import exists  # noqa: PLC0415

    report, elapsed = _report(project)
    reported = {(use["path"], use["line"], api["api"]) for api in report["apis"] for use in api["uses"]}
    modules = set(mapping.data()["torch_modules"])
    for path in project.rglob("*.py"):
        source = path.read_text(encoding="utf-8", errors="replace")
        for node in ast.walk(ast.parse(source)) if "import" in source else ():
            if isinstance(node, ast.Import):
                modules.update(alias.name for alias in node.names)
    independent = set()
    for path in project.rglob("*.py"):
        relative = path.relative_to(project).as_posix()
        independent |= {(relative, line, qname) for line, qname in independent_uses(path, modules)}
    not_reported = sorted(independent - reported)
    tensor_methods = sum(1 for _, _, api in reported if api.startswith("torch.Tensor."))
    counterparts = {api["counterpart"] for api in report["apis"] if api["counterpart"]}
    not_importing = sorted(c for c in counterparts if not exists(c))
    general = set(mapping.general_parameters())
    same_mismatch = {}
    for api in report["apis"]:
        if api["status"] == "same":
            why = _same_parameters(api["api"], api["counterpart"], general)
            if why:
                same_mismatch[api["api"]] = why
    lint = _lint_time(project)
    return {
        "project": project.name,
        "summary": {k: v for k, v in report["summary"].items() if k != "missing"},
        "independent_uses": len(independent),
        "reported_uses": len(reported),
        "reported_tensor_methods": tensor_methods,
        "independent_not_reported": not_reported,
        "reported_not_independent": len(reported - independent) - tensor_methods,
        "counterparts": len(counterparts),
        "counterparts_not_importing": not_importing,
        "same_apis": sum(1 for api in report["apis"] if api["status"] == "same"),
        "same_with_other_parameters": same_mismatch,
        "seconds_migration": round(elapsed, 2),
        "seconds_lint": round(lint, 2),
    }


def main(argv: list[str]) -> int:
    results = [check(Path(folder).resolve()) for folder in argv]
    print(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
