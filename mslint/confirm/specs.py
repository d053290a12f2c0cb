"""Example inputs and build instructions for runtime confirmation.

An input spec is a string:

* ``DTYPE[D1,D2,...]``: a tensor, e.g. ``float32[2,3,32,32]``; ``DTYPE[]`` is a
  scalar tensor. A dimension ``None`` is dynamic: the Cell is compiled with
  ``set_inputs`` declaring it unknown, and fed a tensor where it is 2.
* a Python literal, e.g. ``3``, ``True``, ``(2, 3)``: passed as is (a constant).

Build instructions come from ``[tool.mslint.confirm]`` in pyproject.toml::

    [tool.mslint.confirm]
    "pkg.model:Net" = { factory = "pkg.model:make_net", inputs = ["float32[2,3,32,32]", "int32[2]"] }

or from an inline hint, a comment on the ``class``/``def`` line or on the comment
and decorator lines right above it::

    # mslint: inputs=float32[2,3,32,32], int32[2]; factory=make_net
    class Net(nn.Cell):

Pure Python (no mindspore): the parent reads hints and config, the worker builds.
"""

from __future__ import annotations

import ast
import re

DTYPES = (
    "float16", "float32", "float64", "bfloat16",
    "int8", "int16", "int32", "int64", "uint8", "bool",
)
_TENSOR_SPEC = re.compile(r"^\s*(?P<dtype>[A-Za-z0-9_]+)\s*\[(?P<dims>[^\]]*)\]\s*$")
# "# mslint: inputs=..." or "# mslint: factory=...": other "# mslint:" comments are not hints
HINT_MARK = re.compile(r"#\s*mslint:\s*(?P<body>(?:inputs|factory)\s*=.*)$")
HINT_KEYS = ("inputs", "factory")


class SpecError(ValueError):
    """A malformed input spec, hint or config entry (reported as 'not run')."""


def parse_input(spec: object) -> dict:
    """``{"kind": "tensor", "dtype": "float32", "dims": [2, None]}`` or
    ``{"kind": "literal", "value": 3}``."""
    if not isinstance(spec, str):
        if isinstance(spec, (int, float, bool)) or spec is None:
            return {"kind": "literal", "value": spec}
        raise SpecError(f"input spec {spec!r} is neither a string nor a number")
    match = _TENSOR_SPEC.match(spec)
    if match is not None:
        dtype = match["dtype"]
        if dtype not in DTYPES:
            raise SpecError(f"unknown dtype {dtype!r} in input spec {spec!r} (one of {', '.join(DTYPES)})")
        dims: list[int | None] = []
        body = match["dims"].strip()
        for part in body.split(",") if body else []:
            part = part.strip()
            if part in ("None", "none", "?", "-1"):
                dims.append(None)
            elif part.isdigit():
                dims.append(int(part))
            else:
                raise SpecError(f"bad dimension {part!r} in input spec {spec!r}")
        return {"kind": "tensor", "dtype": dtype, "dims": dims}
    try:
        return {"kind": "literal", "value": ast.literal_eval(spec.strip())}
    except (ValueError, SyntaxError) as error:
        raise SpecError(f"input spec {spec!r} is neither DTYPE[dims] nor a Python literal") from error


def parse_inputs(specs: object) -> list[dict]:
    if isinstance(specs, str):
        specs = split_top_level(specs, ",")
    if not isinstance(specs, (list, tuple)):
        raise SpecError(f"inputs must be a list of specs, not {specs!r}")
    return [parse_input(spec) for spec in specs]


def split_top_level(text: str, separators: str) -> list[str]:
    """Split at separators outside brackets and quotes."""
    parts, depth, quote, current = [], 0, "", []
    for char in text:
        if quote:
            current.append(char)
            if char == quote:
                quote = ""
            continue
        if char in "'\"":
            quote = char
        elif char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        elif char in separators and depth == 0:
            parts.append("".join(current).strip())
            current = []
            continue
        current.append(char)
    parts.append("".join(current).strip())
    return [part for part in parts if part]


def parse_hint(body: str) -> dict:
    """``inputs=float32[2,3], int32[2]; factory=make_net`` -> dict.

    Items are separated by ``,`` or ``;``; ``key=value`` starts a key, an item
    without ``=`` adds one more input to ``inputs``. ``inputs=`` with nothing
    after it means no inputs."""
    result: dict = {}
    key = None
    for item in split_top_level(body, ",;"):
        name, sep, value = item.partition("=")
        name = name.strip()
        if sep and name in HINT_KEYS:
            key = name
            value = value.strip()
            if key == "inputs":
                result["inputs"] = [value] if value else []
            else:
                result[key] = value
        elif sep and re.fullmatch(r"[A-Za-z_-]+", name):
            raise SpecError(f"unknown key {name!r} in '# mslint:' hint (known: {', '.join(HINT_KEYS)})")
        elif key == "inputs":
            result["inputs"].append(item)
        else:
            raise SpecError(f"cannot read {item!r} in '# mslint:' hint")
    if "inputs" in result:
        parse_inputs(result["inputs"])  # validate early
    return result


def hint_for(source_lines: list[str], def_line: int) -> tuple[dict | None, str | None]:
    """The ``# mslint:`` hint of the class or function whose ``class``/``def``
    statement is at 1-based ``def_line``: on that line, or on the comment and
    decorator lines right above it. Returns (hint, error)."""
    bodies = []
    index = def_line - 1
    if 0 <= index < len(source_lines):
        match = HINT_MARK.search(source_lines[index])
        if match:
            bodies.append(match["body"])
    index -= 1
    while index >= 0:
        stripped = source_lines[index].strip()
        if not (stripped.startswith("#") or stripped.startswith("@")):
            break
        match = HINT_MARK.search(stripped)
        if match:
            bodies.append(match["body"])
        index -= 1
    # hints that are pylint-style pragmas for other tools are not ours
    bodies = [body for body in bodies if body.strip()]
    if not bodies:
        return None, None
    try:
        merged: dict = {}
        for body in reversed(bodies):
            merged.update(parse_hint(body))
        return merged, None
    except SpecError as error:
        return None, str(error)


def parse_config_entry(key: str, value: object) -> dict:
    """One ``[tool.mslint.confirm]`` entry -> {"factory": ..., "inputs": [...]}."""
    if not isinstance(value, dict):
        raise SpecError(f"[tool.mslint.confirm] {key!r} must be a table with 'factory' and/or 'inputs'")
    unknown = set(value) - set(HINT_KEYS)
    if unknown:
        raise SpecError(f"[tool.mslint.confirm] {key!r}: unknown keys {', '.join(sorted(unknown))}")
    entry: dict = {}
    if "factory" in value:
        if not isinstance(value["factory"], str):
            raise SpecError(f"[tool.mslint.confirm] {key!r}: factory must be a string 'module:function'")
        entry["factory"] = value["factory"]
    if "inputs" in value:
        parse_inputs(value["inputs"])
        entry["inputs"] = list(value["inputs"]) if not isinstance(value["inputs"], str) else split_top_level(
            value["inputs"], ","
        )
    return entry
