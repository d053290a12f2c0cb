"""Compare a PyTorch signature with its MindSpore counterpart's.

Pure functions on stored parameters (``[name, kind, default text]``, see
``measure.py``): no framework is imported, so the generator's tests run without
them. The result says which MindSpore parameter takes each PyTorch one (the same
name; a rename the mapping page states and the signatures confirm; or, where the
page says only "parameter names are inconsistent", the parameter at the same
position), and what differs: missing or renamed parameters, positions, defaults.
"""

from __future__ import annotations

import ast
import re

# Notes of a difference table's row that state a rename, English and Chinese.
_RENAME_WORDS = ("name", "参数名", "名称", "名不同")
# Parameters a call cannot name: a rename changes nothing for them.
_UNNAMED_KINDS = ("p", "*")
# MindSpore spells a default dtype as float32 where PyTorch writes None (the
# default dtype): the same layer either way.
_DEFAULT_DTYPES = {"None", "mindspore.float32", "mstype.float32", "float32", "Float32"}


def literal(text: str | None) -> object:
    """A default's value where it is a literal, else its text."""
    if text is None:
        return None
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return text


def _type_class(value: object) -> str:
    if value is None:
        return "none"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, (int, float)):
        return "number"
    if isinstance(value, str):
        return "str"
    if isinstance(value, (tuple, list)):
        return "sequence"
    return "other"


def _dtype_name(text: str | None) -> str | None:
    """``torch.int64``, ``mindspore.int64``, ``mstype.int64`` -> ``int64``."""
    if text is None:
        return None
    for prefix in ("torch.", "mindspore.common.dtype.", "mindspore.", "mstype.", "ms."):
        if text.startswith(prefix) and text[len(prefix):].isidentifier():
            return text[len(prefix):]
    return None


def same_default(torch_text: str | None, ms_text: str | None, name: str = "") -> bool:
    if torch_text == ms_text:
        return True
    if _dtype_name(torch_text) is not None and _dtype_name(torch_text) == _dtype_name(ms_text):
        return True
    if name == "dtype" and {torch_text, ms_text} <= _DEFAULT_DTYPES:
        return True
    enum = re.fullmatch(r"<\w+\.(\w+): -?\d+>", torch_text or "")
    if enum and isinstance(literal(ms_text), str):
        return enum.group(1).lower() == literal(ms_text).lower()  # <RedOpType.SUM: 0> and 'sum'
    left, right = literal(torch_text), literal(ms_text)
    if isinstance(left, bool) or isinstance(right, bool):
        return type(left) is type(right) and left == right
    if isinstance(left, (int, float)) and isinstance(right, (int, float)):
        return float(left) == float(right)
    if isinstance(left, (tuple, list)) and isinstance(right, (tuple, list)):
        return list(left) == list(right)
    return left == right


def compatible_defaults(torch_text: str | None, ms_text: str | None) -> bool:
    """Whether one value can mean the same for both parameters: their defaults
    are of one kind (numbers, bools, strings...) where both have one that is not
    None. ``betas=(0.9, 0.999)`` against ``beta1=0.9`` is not a rename."""
    if torch_text is None or ms_text is None:
        return True
    left, right = _type_class(literal(torch_text)), _type_class(literal(ms_text))
    return "none" in (left, right) or left == right


def positional(params: list[list]) -> list[str]:
    """The names a positional argument can bind, in order (a ``*args`` ends them)."""
    names = []
    for name, kind, _ in params:
        if kind in ("p", "pk"):
            names.append(name)
        elif kind == "*":
            names.append("*" + name)
            break
    return names


def _by_name(params: list[list]) -> dict[str, list]:
    return {param[0]: param for param in params}


def compare(
    torch_params: list[list],
    ms_params: list[list],
    doc_rows: list[dict] | None = None,
    general: frozenset[str] | set[str] = frozenset(),
    pair_by_position: bool = False,
) -> dict:
    """What a call written for ``torch_params`` meets in ``ms_params``.

    ``doc_rows`` are the page's parameter rows ({"torch", "mindspore", "note"}).
    Returns {"parameters": {torch name: MindSpore name or None}, "sources":
    {torch name: "name" | "docs" | "position"}, "differences": [...],
    "general": [torch names the page calls general differences], "rejected":
    [doc pairings the signatures contradict]}.
    """
    ms_named = _by_name(ms_params)
    torch_named = _by_name(torch_params)
    mapping: dict[str, str | None] = {}
    sources: dict[str, str] = {}
    rejected: list[str] = []
    taken: set[str] = set()
    general_found: list[str] = []
    for name, kind, _ in torch_params:
        if name in ms_named:
            mapping[name] = name
            sources[name] = "name"
            taken.add(name)
    for row in doc_rows or ():
        torch_name, ms_name, note = row.get("torch"), row.get("mindspore"), row.get("note", "")
        if not torch_name or not ms_name or torch_name == ms_name:
            continue
        torch_name, ms_name = torch_name.lstrip("*"), ms_name.lstrip("*")
        if torch_name not in torch_named or torch_name in mapping:
            continue
        lowered = note.lower()
        if not any(word in lowered for word in _RENAME_WORDS):
            continue  # a row pairing two slots ("Different position"), or two parameters that differ in use
        if ms_name not in ms_named:
            rejected.append(f"{torch_name} -> {ms_name}: MindSpore has no parameter {ms_name}")
            continue
        if ms_name in taken:
            rejected.append(f"{torch_name} -> {ms_name}: {ms_name} is the counterpart of PyTorch's own {ms_name}")
            continue
        if not compatible_defaults(torch_named[torch_name][2], ms_named[ms_name][2]):
            rejected.append(
                f"{torch_name} -> {ms_name}: not a rename (defaults {torch_named[torch_name][2]} "
                f"and {ms_named[ms_name][2]} are different kinds of value)"
            )
            continue
        mapping[torch_name] = ms_name
        sources[torch_name] = "docs"
        taken.add(ms_name)
    if pair_by_position:
        ms_positional = positional(ms_params)
        for index, name in enumerate(positional(torch_params)):
            if name.startswith("*") or name in mapping or index >= len(ms_positional):
                continue
            candidate = ms_positional[index]
            if candidate.startswith("*") or candidate in taken or candidate in torch_named:
                continue
            if not compatible_defaults(torch_named[name][2], ms_named[candidate][2]):
                continue
            mapping[name] = candidate
            sources[name] = "position"
            taken.add(candidate)
    differences: list[dict] = []
    for name, kind, default in torch_params:
        if name in mapping:
            continue
        if kind == "**":
            continue
        if name in general or name.startswith("_"):  # _stacklevel, _ranks: PyTorch's private parameters
            general_found.append(name)
            mapping[name] = None
            continue
        ms_var = next((n for n, k, _ in ms_params if k == "*"), None)
        if kind == "*" and ms_var is not None:
            mapping[name] = ms_var
            sources[name] = "variadic"
            continue
        if kind in ("p", "pk") and ms_var is not None:
            # mint.randint(*args, ...): low, high, size go into *args, by position only
            mapping[name] = None
            differences.append({"kind": "positional_only", "torch": name, "mindspore": "*" + ms_var})
            continue
        mapping[name] = None
        differences.append({"kind": "missing", "torch": name, "torch_default": default})
    for name, kind, default in torch_params:
        ms_name = mapping.get(name)
        if ms_name is None:
            continue
        ms_param = ms_named[ms_name]
        if ms_name != name and kind not in _UNNAMED_KINDS and ms_param[1] not in _UNNAMED_KINDS:
            differences.append({"kind": "renamed", "torch": name, "mindspore": ms_name})
        if ms_param[1] == "p" and kind in ("pk", "k"):
            differences.append({"kind": "positional_only", "torch": name, "mindspore": ms_name})
        if default is not None and ms_param[2] is None and ms_param[1] not in ("*", "**"):
            differences.append({"kind": "required", "torch": name, "mindspore": ms_name, "torch_default": default})
        elif default is not None and not same_default(default, ms_param[2], name):
            differences.append({"kind": "default", "torch": name, "mindspore": ms_name,
                                "torch_default": default, "mindspore_default": ms_param[2]})
    torch_slots, ms_slots = positional(torch_params), positional(ms_params)
    for index, name in enumerate(torch_slots):
        if name.startswith("*"):
            break
        ms_name = mapping.get(name)
        if ms_name is None:
            break  # a call that reaches this slot already passes what MindSpore lacks
        there = ms_slots[index] if index < len(ms_slots) else None
        if there != ms_name and not (there or "").startswith("*"):
            differences.append({"kind": "position", "torch": name, "mindspore": ms_name, "index": index,
                                "mindspore_at_index": there})
    mapped = {value for value in mapping.values() if value}
    for name, kind, default in ms_params:
        if name not in mapped and default is None and kind in ("p", "pk", "k"):
            differences.append({"kind": "extra", "mindspore": name})
    return {"parameters": mapping, "sources": sources, "differences": differences,
            "general": general_found, "rejected": rejected}


def compare_overloads(
    torch_overloads: list[list[list]],
    ms_overloads: list[list[list]],
    doc_rows: list[dict] | None = None,
    general: frozenset[str] | set[str] = frozenset(),
    pair_by_position: bool = False,
) -> tuple[list[list], list[list], dict]:
    """Every PyTorch overload against its closest MindSpore overload; the
    differences of all, once each. A default MindSpore sets to None where
    another PyTorch overload lacks the parameter is no difference (the pages'
    exception 4: ``torch.median(input)`` and ``torch.median(input, dim=-1)``
    are ``mint.median(input, dim=None)``). Returns the richest PyTorch overload,
    its MindSpore match, and the merged result."""
    merged: dict | None = None
    primary: tuple[list[list], list[list]] | None = None
    differences: list[dict] = []
    for torch_params in sorted(torch_overloads, key=len, reverse=True):
        best = None
        for ms_params in ms_overloads:
            result = compare(torch_params, ms_params, doc_rows, general, pair_by_position)
            if best is None or len(result["differences"]) < len(best[1]["differences"]):
                best = (ms_params, result)
        ms_params, result = best
        if merged is None:
            merged, primary = result, (torch_params, ms_params)
        for difference in result["differences"]:
            if difference not in differences:
                differences.append(difference)
    names_in_all = set.intersection(*({p[0] for p in params} for params in torch_overloads))
    ms_names_in_all = set.intersection(*({p[0] for p in params} for params in ms_overloads))
    merged = dict(merged)
    merged["differences"] = [
        d for d in differences
        if not (d["kind"] == "default" and d.get("mindspore_default") == "None" and d["torch"] not in names_in_all)
        and not (d["kind"] == "required" and d["mindspore"] not in ms_names_in_all)
    ]
    return primary[0], primary[1], merged


def describe(difference: dict) -> str:
    """One difference as a sentence for the report."""
    kind = difference["kind"]
    if kind == "missing":
        return f"no parameter for PyTorch's {difference['torch']}"
    if kind == "renamed":
        return f"{difference['torch']} is called {difference['mindspore']}"
    if kind == "positional_only":
        return f"{difference['mindspore']} (PyTorch's {difference['torch']}) cannot be passed by keyword"
    if kind == "required":
        return f"{difference['mindspore']} (PyTorch's {difference['torch']}={difference['torch_default']}) has no default"
    if kind == "default":
        ms_name = difference["mindspore"]
        torch_name = difference["torch"]
        shown = ms_name if ms_name == torch_name else f"{ms_name} (PyTorch's {torch_name})"
        return f"{shown} defaults to {difference['mindspore_default']}, PyTorch's to {difference['torch_default']}"
    if kind == "position":
        there = difference.get("mindspore_at_index")
        slot = f"{there}" if there else "nothing (keyword only)"
        return (f"positional argument {difference['index'] + 1} is PyTorch's {difference['torch']}, "
                f"MindSpore's {slot}")
    if kind == "extra":
        return f"MindSpore requires {difference['mindspore']}, which PyTorch does not have"
    if kind == "docs":
        return difference["text"]
    return str(difference)
