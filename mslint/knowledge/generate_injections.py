"""Generate :mod:`mslint.knowledge.injections`: the MindSpore names a library
rebinds when it is imported.

    python -m mslint.knowledge.generate_injections mindnlp --releases 0.2,0.3 \\
        d0b2151=/path/to/injection.py ee8dcd1=/path/to/other/injection.py

reads saved copies of the library's injection module (mindnlp 0.3.x:
``mindnlp/injection.py``, run by ``mindnlp/__init__.py``; ``git show
<commit>:mindnlp/injection.py`` of a clone of mindspore-lab/mindnlp) and
writes, for each, every name of MindSpore it assigns at import: ``nn.Dropout =
CustomDropout``, ``Tensor.unflatten = unflatten``, ``nn.Cell.half = _half``,
also under a module-level ``if`` (``if DEVICE_TARGET == 'Ascend':``), which the
analysis cannot decide. Names are written as mslint spells them (``nn`` ->
``mindspore.nn``, ``Tensor``/``StubTensor`` -> ``mindspore.Tensor``) and the
table keeps the union of the versions read: which version a user has installed
cannot be seen. Nothing of the library's code is copied: only the names.
``--releases``: the release series whose tags carry the injection module (mindnlp:
0.2 and 0.3; 0.1.1 has none, 0.4 on replaced it): a project that pins another
release (``mindnlp==0.1.1`` in its requirements) gets none of these names.

Left out: assignments inside functions and classes (``self.p = p``), and
replacements that keep MindSpore's meaning: an alias of MindSpore's own name
(``mindspore.tensor = mindspore.Tensor``) and a wrapper that only forwards every
argument to the saved original (``mindspore.set_context``, which calls
``old_set_context(**kwargs)``); mode detection must keep reading those.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
TABLE_FILE = HERE / "injections.py"

# the import-bound names of the injection module -> mslint's spelling
_SPELLINGS = {"StubTensor": "mindspore.Tensor", "Tensor": "mindspore.Tensor", "Parameter": "mindspore.Parameter",
              "ParameterTuple": "mindspore.ParameterTuple"}


def _bound_names(tree: ast.Module) -> dict[str, str]:
    """Local name -> MindSpore qualified name, from the module's imports."""
    names: dict[str, str] = {}
    for node in tree.body:
        if isinstance(node, ast.Import):
            for alias in node.names:
                if alias.name.split(".")[0] == "mindspore":
                    if alias.asname:
                        names[alias.asname] = alias.name
                    else:
                        names["mindspore"] = "mindspore"
        elif isinstance(node, ast.ImportFrom) and not node.level and (node.module or "").split(".")[0] == "mindspore":
            for alias in node.names:
                local = alias.asname or alias.name
                names[local] = _SPELLINGS.get(alias.name, f"{node.module}.{alias.name}")
    return names


def _spelled(target: ast.expr, names: dict[str, str]) -> str | None:
    parts: list[str] = []
    while isinstance(target, ast.Attribute):
        parts.append(target.attr)
        target = target.value
    if not (isinstance(target, ast.Name) and parts and target.id in names):
        return None
    return ".".join([names[target.id], *reversed(parts)])


def _forwards_to_original(func: ast.FunctionDef, originals: set[str]) -> bool:
    """``def f(**kwargs): ...; old(**kwargs)``: the body calls a saved original
    with the same arguments (and does nothing else to them)."""
    for node in ast.walk(func):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in originals:
            passed = [ast.dump(arg) for arg in node.args] + [ast.dump(kw) for kw in node.keywords]
            accepted = [ast.dump(ast.Starred(ast.Name(a.arg, ast.Load()), ast.Load())) for a in ([func.args.vararg] if func.args.vararg else [])]
            accepted += [ast.dump(ast.keyword(None, ast.Name(func.args.kwarg.arg, ast.Load())))] if func.args.kwarg else []
            return bool(passed) and passed == accepted and not func.args.args
    return False


def patched_names(source: str) -> set[str]:
    """Every MindSpore name ``source`` (an injection module) assigns at import."""
    tree = ast.parse(source)
    names = _bound_names(tree)
    functions = {node.name: node for node in tree.body if isinstance(node, ast.FunctionDef)}
    originals = {
        target.id for node in tree.body if isinstance(node, ast.Assign)
        for target in node.targets if isinstance(target, ast.Name) and _spelled(node.value, names) is not None
    }
    found: set[str] = set()

    def visit(body: list[ast.stmt]) -> None:
        for node in body:
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            if isinstance(node, ast.Assign):
                for target in node.targets:
                    name = _spelled(target, names)
                    if name is None or _spelled(node.value, names) is not None:
                        continue  # not MindSpore's, or an alias of MindSpore's own name
                    value = node.value
                    if isinstance(value, ast.Name) and value.id in functions and _forwards_to_original(functions[value.id], originals):
                        continue
                    found.add(name)
            elif isinstance(node, ast.Expr) and isinstance(node.value, ast.Call) and isinstance(node.value.func, ast.Name) \
                    and node.value.func.id == "setattr" and len(node.value.args) == 3:
                owner, attr = node.value.args[:2]
                owner_name = _spelled(owner, names) if isinstance(owner, ast.Attribute) else names.get(getattr(owner, "id", ""))
                if owner_name and isinstance(attr, ast.Constant) and isinstance(attr.value, str):
                    found.add(f"{owner_name}.{attr.value}")
            for field in ("body", "orelse", "finalbody", "handlers"):
                inner = getattr(node, field, None)
                if isinstance(inner, list):
                    visit([item for item in inner if isinstance(item, ast.stmt)] + [
                        stmt for handler in inner if isinstance(handler, ast.ExceptHandler) for stmt in handler.body
                    ])

    visit(tree.body)
    return found


def render(library: str, sources: list[tuple[str, str]], releases: tuple[str, ...] = ()) -> str:
    union: set[str] = set()
    for _, text in sources:
        union |= patched_names(text)
    read = ", ".join(label for label, _ in sources)
    lines = [
        f'"""Generated by ``python -m mslint.knowledge.generate_injections {library} ...``: do not edit.',
        "",
        f"The MindSpore names {library}'s injection module rebinds on import (the union",
        f"over the versions read: {read}). See generate_injections for what is left out.",
        '"""',
        "",
        "from __future__ import annotations",
        "",
        f"{library.upper()}_PATCHED: frozenset[str] = frozenset({{",
    ]
    lines += [f'    "{name}",' for name in sorted(union)]
    lines += ["})", ""]
    lines += [
        "# the release series whose tags carry the injection module",
        f"{library.upper()}_PATCHING_RELEASES: tuple[str, ...] = ("
        + ", ".join(f'"{release}"' for release in releases) + ("," if len(releases) == 1 else "") + ")",
        "",
    ]
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) < 2:
        print(__doc__, file=sys.stderr)
        return 2
    library = args[0]
    releases: tuple[str, ...] = ()
    rest = args[1:]
    if rest[:1] == ["--releases"] and len(rest) > 1:
        releases = tuple(part.strip() for part in rest[1].split(",") if part.strip())
        rest = rest[2:]
    sources = []
    for arg in rest:
        label, path = arg.split("=", 1)
        sources.append((label, Path(path).read_text(encoding="utf-8")))
    TABLE_FILE.write_text(render(library, sources, releases), encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
