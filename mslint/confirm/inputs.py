"""Worker side: example inputs for a Cell nobody declared inputs for.

From the first layer the Cell holds (its first sub-Cell in registration order,
which is as a rule the first one ``construct`` applies to its argument): a
convolution's ``in_channels`` and its rank give ``float32[2, C, S, S]`` for a
few spatial sizes S, a Dense layer ``float32[2, C]``, an Embedding
``int32[2, 8]``; then a few generic shapes. Each required argument of
``construct`` gets the same spec. The worker compiles with each candidate in
turn until one compiles, or fails for a reason no input changes (see
:func:`input_dependent`); the verdict names the inputs used, or says what was
tried.

Pure Python on the Cell objects (no mindspore import here).
"""

from __future__ import annotations

import re

SPATIAL_SIZES = (32, 64, 224)
GENERIC = ("float32[2,3,32,32]", "float32[2,16]", "float32[2,8,16]")
MAX_CANDIDATES = 5

# layer class name -> (spatial rank, attribute holding its input width, dtype);
# rank None: an index input (Embedding)
_RANKS = (1, 2, 3)
FIRST_LAYERS: dict[str, tuple[int | None, str, str]] = {
    **{f"Conv{rank}d": (rank, "in_channels", "float32") for rank in _RANKS},
    **{f"Conv{rank}dTranspose": (rank, "in_channels", "float32") for rank in _RANKS},
    **{f"ConvTranspose{rank}d": (rank, "in_channels", "float32") for rank in _RANKS},
    # BatchNorm1d normalises (N, C): no spatial dimension
    **{f"BatchNorm{rank}d": (rank if rank > 1 else 0, "num_features", "float32") for rank in _RANKS},
    "Dense": (0, "in_channels", "float32"),
    "Linear": (0, "in_features", "float32"),
    "Embedding": (None, "vocab_size", "int32"),
}


def first_layer(net) -> tuple[str, int] | None:
    """(class name, input width) of the first known layer the Cell holds."""
    try:
        cells = list(net.cells_and_names())
    except Exception:  # noqa: BLE001 - a Cell the user broke
        return None
    for _name, cell in cells:
        if cell is net:
            continue
        known = FIRST_LAYERS.get(type(cell).__name__)
        if known is None:
            continue
        width = getattr(cell, known[1], None)
        if isinstance(width, int) and not isinstance(width, bool):
            return type(cell).__name__, width
    return None


def candidates(net, count: int) -> list[tuple[list[str], str]]:
    """Up to MAX_CANDIDATES (specs for ``count`` arguments, where they come from)."""
    found: list[tuple[list[str], str]] = []
    layer = first_layer(net) if net is not None else None
    if layer is not None:
        name, width = layer
        rank, attribute, dtype = FIRST_LAYERS[name]
        source = f"from its first layer, {name} with {attribute}={width}"
        if rank is None:
            specs = [f"{dtype}[2,8]"]
        elif rank == 0:
            specs = [f"{dtype}[2,{width}]"]
        else:
            specs = [f"{dtype}[2,{width},{','.join([str(size)] * rank)}]" for size in SPATIAL_SIZES]
        found.extend(([spec] * count, source) for spec in specs)
    for spec in GENERIC:
        if all(spec not in specs for specs, _ in found):
            found.append(([spec] * count, "a generic guess"))
    return found[:MAX_CANDIDATES]


_INPUT_DEPENDENT = re.compile(r"^For '\w+'|shape|dimension|rank|dtype|must be (?:equal|greater|less)|broadcast", re.IGNORECASE)


def input_dependent(error: dict) -> bool:
    """Whether a compile error (the worker's error record) may come from
    unsuitable inputs (an operator's shape or dtype check), rather than from
    code MindSpore cannot compile whatever it is fed."""
    first = error.get("first") or ""
    return error.get("type") in ("ValueError", "TypeError", "IndexError") and bool(_INPUT_DEPENDENT.search(first))


def rank(spec: str) -> int | None:
    """The number of dimensions of a tensor spec (``float32[2,3,32,32]``: 4), None for a literal."""
    match = re.fullmatch(r"\s*\w+\[([^\]]*)\]\s*", spec)
    if match is None:
        return None
    return len([part for part in match[1].split(",") if part.strip()])


def other_shape(net, count: int, used: list[str]) -> tuple[list[str], str, bool] | None:
    """Inputs of another shape than ``used`` that the Cell's first layer still
    takes (a Dense layer's width last, at another rank; a convolution's at
    another spatial size), else a generic guess of another rank: a compile
    error they give the same way is not the inputs' doing. (specs, where they
    come from, whether the rank is the same); None when there is none."""
    first = rank(used[0]) if used else None
    layer = first_layer(net) if net is not None else None
    if layer is not None:
        name, width = layer
        layer_rank, attribute, dtype = FIRST_LAYERS[name]
        source = f"another shape for its first layer, {name} with {attribute}={width}"
        if layer_rank is None:  # indices: any shape
            shaped = [f"{dtype}[2,3,8]" if first == 2 else f"{dtype}[2,8]"]
        elif layer_rank == 0:  # Dense, Linear: the width last; BatchNorm1d: (N, C) or (N, C, L)
            shaped = [f"{dtype}[2,{width},8]" if name.startswith("BatchNorm") else f"{dtype}[2,8,{width}]"] if first == 2 else [f"{dtype}[2,{width}]"]
        else:
            shaped = [f"{dtype}[2,{width},{','.join([str(size)] * layer_rank)}]" for size in SPATIAL_SIZES]
        for spec in shaped:
            if spec not in used:
                return [spec] * count, source, rank(spec) == first
    for spec in GENERIC:
        if rank(spec) != first:
            return [spec] * count, "a generic guess", False
    return None
