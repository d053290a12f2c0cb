"""PyTorch-to-MindSpore API mapping, generated from the official mapping pages and
measured against the installed frameworks (``generate.py`` writes
``torch_to_mindspore.json``; ``measure.py`` is the measurement). This module only
reads the shipped data: no framework, no docs checkout.

An entry per PyTorch API (``entry("torch.nn.Conv2d")``)::

    {"kind": "class" | "function" | "method" | "value",
     "counterpart": "mindspore.mint.nn.Conv2d" | None,
     "status": "same" | "differs" | "missing",
     "docs": {"counterpart": ..., "status": ...} | None,   # what the pages say
     "torch": {"exists": bool, "overloads": [[param, ...], ...], "how": ...},
     "candidates": [{"api", "origin", "status", "signature", "parameters",
                     "differences", "notes", "docs": {...}}, ...],
     "verification": ["what the measurement changed", ...]}

A parameter is ``[name, kind, default text]`` (kind: "p", "pk", "k", "*", "**").
"""

from __future__ import annotations

import json
import re
from functools import lru_cache
from pathlib import Path

from mslint.knowledge.mapping import compare  # noqa: F401 - re-exported for apis.py (literal, positional)

DATA_FILE = Path(__file__).resolve().parent / "torch_to_mindspore.json"
# What the linter's tables take from the data (torch_keywords(), positional_orders()),
# written beside it by generate.py: the rules load this small file, not the data.
LINTER_FILE = Path(__file__).resolve().parent / "linter_tables.json"
STATUSES = ("same", "differs", "missing")
# MindSpore namespaces whose classes and functions the linter's rules judge
# (ms-torch-keyword-args, ms-torch-positional-args); Tensor methods are not
# (what a receiver is is seldom known).
_LINTED_PREFIXES = ("mindspore.nn.", "mindspore.ops.", "mindspore.mint.", "mindspore.experimental.optim.")


@lru_cache(maxsize=1)
def data() -> dict:
    with DATA_FILE.open(encoding="utf-8") as stream:
        return json.load(stream)


def versions() -> dict:
    """Which MindSpore and PyTorch the data was measured on, and which pages it read."""
    loaded = data()
    return {"mindspore": loaded.get("mindspore"), "torch": loaded.get("torch"), "sources": loaded.get("sources", [])}


def entry(torch_api: str) -> dict | None:
    return data()["apis"].get(torch_api)


# PyTorch's modules that define what its public packages re-export (the same
# object, measured in tests/oracle/test_mapping.py): ``from torch.utils.data.dataloader
# import DataLoader`` uses torch.utils.data.DataLoader, which the pages list. Applied
# only when the name as written has no entry and the public one has.
PUBLIC_HOMES: tuple[tuple[str, str], ...] = (
    (r"^torch\.utils\.data\.(dataloader|dataset|sampler)\.", "torch.utils.data."),
    (r"^torch\.nn\.modules(\.\w+)?\.", "torch.nn."),
    (r"^torch\.nn\.parameter\.", "torch.nn."),
    (r"^torch\.optim\.(?!lr_scheduler\.)\w+\.", "torch.optim."),
    (r"^torch\._tensor\.", "torch."),
)


# PyTorch ops whose reduction along a dim returns a named tuple
# (torch.return_types.max: .values, .indices; measured in torch 2.13), where
# MindSpore's counterparts return a plain tuple (ops.topk, mint.topk, measured).
TORCH_NAMED_TUPLE_OPS = frozenset(
    ("max", "min", "topk", "sort", "median", "nanmedian", "mode", "kthvalue", "cummax", "cummin")
)
TORCH_NAMED_TUPLE_FIELDS = ("values", "indices")


def public_name(torch_api: str) -> str:
    """The name the data lists ``torch_api`` under: itself, or its public home
    (``torch.nn.modules.linear.Linear`` is ``torch.nn.Linear``)."""
    known = data()["apis"]
    if torch_api in known:
        return torch_api
    for private, public in PUBLIC_HOMES:
        moved = re.sub(private, public, torch_api, count=1)
        if moved != torch_api and moved in known:
            return moved
    return torch_api


def apis() -> dict[str, dict]:
    return data()["apis"]


def general_parameters() -> frozenset[str]:
    """PyTorch parameters the pages call general differences (``out``, ``device``...)."""
    return frozenset(data().get("general_parameters", ()))


def chosen(entry_: dict) -> dict | None:
    """The candidate an entry names as its counterpart."""
    for candidate in entry_.get("candidates", ()):
        if candidate["api"] == entry_.get("counterpart"):
            return candidate
    return None


def torch_signature(entry_: dict, candidate: dict | None = None) -> list[list] | None:
    """The PyTorch parameters the candidate was compared with."""
    if candidate is not None and candidate.get("torch_signature"):
        return candidate["torch_signature"]
    overloads = (entry_.get("torch") or {}).get("overloads")
    return max(overloads, key=len) if overloads else None


@lru_cache(maxsize=1)
def by_mindspore() -> dict[str, tuple[str, dict]]:
    """MindSpore API -> (the PyTorch API it is the counterpart of, its candidate
    record). Several PyTorch APIs may name one MindSpore API (StepLR and
    MultiStepLR both name piecewise_constant_lr): the one with the same last
    name wins, else the first in order."""
    found: dict[str, tuple[str, dict]] = {}
    for torch_api, entry_ in data()["apis"].items():
        for candidate in entry_.get("candidates", ()):
            if candidate.get("status") == "absent":
                continue
            api = candidate["api"]
            known = found.get(api)
            if known is None or (
                known[0].rsplit(".", 1)[-1] != api.rsplit(".", 1)[-1]
                and torch_api.rsplit(".", 1)[-1] == api.rsplit(".", 1)[-1]
            ):
                found[api] = (torch_api, candidate)
    return found


def _linted(api: str, candidate: dict) -> bool:
    return (
        api.startswith(_LINTED_PREFIXES)
        and candidate.get("kind") in ("class", "function")
        and candidate.get("signature_from") == "inspect"
        and candidate.get("signature") is not None
    )


def torch_keywords() -> dict[str, tuple[str, dict[str, tuple[str | None, str | None, bool]], str]]:
    """For the linter (ms-torch-keyword-args): MindSpore API -> (PyTorch API,
    {PyTorch keyword it does not accept: (MindSpore rename or None, PyTorch's
    default text, whether MindSpore takes it positionally in ``*args``)},
    "class" or "function").

    Only measured signatures (inspect) without ``**kwargs``: a keyword the
    signature lacks then raises TypeError. A rename is a parameter the pages pair
    with the PyTorch one ("same function, different parameter names") and the
    signatures confirm, or the one at the same position where the pages say only
    that the names differ."""
    table = {}
    for api, (torch_api, candidate) in by_mindspore().items():
        if not _linted(api, candidate):
            continue
        signature = candidate["signature"]
        if any(kind == "**" for _, kind, _ in signature):
            continue
        names = {name for name, kind, _ in signature if kind in ("pk", "k")}
        varargs = any(kind == "*" for _, kind, _ in signature)
        torch_params = _every_overload(apis()[torch_api], candidate)
        parameters = candidate.get("parameters") or {}
        keywords = {}
        for name, kind, default in torch_params:
            if kind not in ("pk", "k") or name in names or name.startswith("_") or name in keywords:
                continue  # PyTorch's private parameters (_stacklevel) are never written
            rename = parameters.get(name)
            keywords[name] = (rename if rename in names else None, default, varargs and kind == "pk")
        if keywords:
            table[api] = (torch_api, keywords, candidate["kind"])
    return table


def _every_overload(entry_: dict, candidate: dict) -> list[list]:
    """The PyTorch parameters the candidate was compared with, then those only
    PyTorch's other overloads take (``size`` of ``torch.normal(mean, std, size)``):
    a keyword any overload takes is PyTorch's, and a MindSpore signature without
    it refuses it all the same."""
    found = list(torch_signature(entry_, candidate) or [])
    seen = {name for name, _, _ in found}
    for overload in (entry_.get("torch") or {}).get("overloads") or ():
        for param in overload:
            if param[0] not in seen:
                seen.add(param[0])
                found.append(param)
    return found


def positional_orders() -> dict[str, tuple[str, list[list], list[list], dict[str, str | None]]]:
    """For the linter (ms-torch-positional-args): mindspore.nn class -> (PyTorch
    API, MindSpore parameters, PyTorch parameters, PyTorch name -> MindSpore
    name) for the classes whose positional order differs from PyTorch's."""
    table = {}
    for api, (torch_api, candidate) in by_mindspore().items():
        if not (api.startswith(("mindspore.nn.", "mindspore.experimental.optim.")) and _linted(api, candidate)):
            continue
        if candidate["kind"] != "class":
            continue
        torch_params = torch_signature(apis()[torch_api], candidate)
        if torch_params is None:
            continue
        pairs = candidate.get("parameters") or {}
        slots = zip(compare.positional(torch_params), compare.positional(candidate["signature"]))
        if all(pairs.get(torch_name) == ms_name for torch_name, ms_name in slots):
            continue
        table[api] = (torch_api, candidate["signature"], torch_params, dict(candidate.get("parameters") or {}))
    return table


# Namespaces whose calls ms-torch-positional-args counts positional arguments of
# (mindspore.mint takes PyTorch's signatures and is judged by neither).
_COUNTED_PREFIXES = ("mindspore.nn.", "mindspore.ops.", "mindspore.experimental.optim.")


def positional_limits() -> dict[str, tuple[str, list[str], list[str], str]]:
    """For the linter (ms-torch-positional-args): MindSpore API -> (PyTorch API,
    the names MindSpore's measured signature binds by position, those PyTorch's
    binds, "class" or "function") where PyTorch's takes more positional arguments
    and MindSpore's has no ``*args``: a call with more positional arguments than
    MindSpore's names raises TypeError (``nn.ReLU(True)``: PyTorch's inplace)."""
    table = {}
    for api, (torch_api, candidate) in by_mindspore().items():
        if not (api.startswith(_COUNTED_PREFIXES) and _linted(api, candidate)):
            continue
        ms_slots = compare.positional(candidate["signature"])
        if any(name.startswith("*") for name in ms_slots) or ms_slots[:1] == ["self"]:
            continue  # *args takes any count; a method (Cell.recompute) is not called through its class
        torch_params = torch_signature(apis()[torch_api], candidate)
        if torch_params is None:
            continue
        torch_slots = compare.positional(torch_params)
        if len(torch_slots) > len(ms_slots):
            table[api] = (torch_api, ms_slots, torch_slots, candidate["kind"])
    return table


def namesakes_elsewhere() -> dict[str, dict]:
    """PyTorch API -> its namesake outside mint (``torch.transpose`` ->
    ``mindspore.ops.transpose``, ``torch.gather`` -> ``mindspore.ops.gather``),
    as a candidate record with its measured ``signature``, ``parameters`` and
    ``differences``. These are never the chosen counterpart: the same name may
    mean something else there. For rules about APIs whose same-named counterpart
    differs (issue 25 item 15); ``torch.Tensor.*`` namesakes are ordinary
    candidates (``entry("torch.Tensor.repeat")``)."""
    found = {}
    for torch_api, entry_ in data()["apis"].items():
        for candidate in entry_.get("candidates", ()):
            if candidate.get("origin") == "namesake-elsewhere" and candidate.get("status") != "absent":
                found[torch_api] = candidate
    return found


@lru_cache(maxsize=1)
def linter_tables() -> dict:
    """torch_keywords(), positional_orders() and positional_limits() as generate.py saved them (lists
    where tuples were): what mslint.knowledge.apis builds its rule tables from."""
    with LINTER_FILE.open(encoding="utf-8") as stream:
        return json.load(stream)
