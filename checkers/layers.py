"""Layers ported from PyTorch whose arguments mean something else in mindspore.nn.

Every fact is measured on MindSpore 2.10 and PyTorch 2.13 (FACTS.md, and
tests/oracle/test_layers.py proves each premise): ``nn.Conv2d`` pads "same" by
default and rejects ``padding`` without ``pad_mode="pad"``; pooling strides by 1;
``nn.Dropout``'s first argument is keep_prob; BatchNorm's momentum is the weight
of the running average; ``nn.Dense``'s third positional argument is weight_init.

The signatures, defaults and PyTorch counterparts are data in
:data:`mslint.knowledge.apis.LAYER_APIS`. A call is judged only when it resolves to a
mindspore.nn layer listed there (``torch.nn.Conv2d``, ``mindspore.mint.nn.*`` and
user classes named like MindSpore's are other names), and never when ``*args``
or ``**kwargs`` hide arguments. Values known before anything runs are judged:
literals, module constants (``momentum=BN_MOMENTUM``) and the defaults of a
helper's parameters (``def bn(c, momentum=0.1)``); ``momentum=1 - m`` or
``nn.Dropout(1 - rate)`` are conversions already done.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from astroid import nodes
from pylint.checkers import BaseChecker
from pylint.checkers.utils import only_required_for_messages

from mslint.knowledge import apis
from mslint.analysis import astutil, edits, port, programs, resolve, scope, sites, values, versions
from mslint.analysis.astutil import UNKNOWN, is_number, literal
from mslint.analysis.training_code import SKIP_NESTED
from mslint.checkers.messages import may_report, place, spelled

if TYPE_CHECKING:
    from pylint.lint import PyLinter

_ORDINALS = ("first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth")

# The last component of every layer in the table: calls named otherwise are
# skipped before any name resolution.
_LAYER_SHORT_NAMES = frozenset(qname.rsplit(".", 1)[1] for qname in (
    *apis.LAYER_APIS, *apis.POSITIONAL_APIS, *apis.FUNCTIONAL_POOLS_STRIDE_ONE))
# The classes and functions ms-torch-positional-args counts the positional arguments of.
_LIMIT_SHORT_NAMES = frozenset(qname.rsplit(".", 1)[1] for qname in apis.POSITIONAL_LIMITS)

# Positional names that say "this is a drop rate" (ms-dropout-keep-prob).
_RATE_WORDS = ("drop", "rate")
_RATE_NAMES = frozenset({"p"})


# ---------------------------------------------------------------------------
# Values
# ---------------------------------------------------------------------------


def _ints(value: object) -> tuple[int, ...] | None:
    """An int or a tuple of ints as a tuple, else None."""
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,)
    if isinstance(value, tuple) and value and all(isinstance(v, int) and not isinstance(v, bool) for v in value):
        return value
    return None


def _is_numeric_expression(node: nodes.NodeNG) -> bool:
    """A number, a tuple of numbers, or arithmetic with a number in it (``k // 2``)."""
    if _number_or_numbers(literal(node)):
        return True
    if astutil.is_binary_arithmetic(node):
        return _is_numeric_expression(node.left) or _is_numeric_expression(node.right)
    return False


def _numeric_in_every_way(node: nodes.NodeNG) -> bool:
    """A name whose every value in sight is a number or a tuple of numbers: a list or
    tuple display or numeric arithmetic the assignment reaching it gives, what each call
    passes a parameter (its default where a call leaves it out), or every constant a
    local is bound to; False when any is unknown or something else."""
    if not isinstance(node, nodes.Name):
        return False
    assigned = values.reaching_value(node)
    if isinstance(assigned, (nodes.List, nodes.Tuple)) or (assigned is not None and _is_numeric_expression(assigned)):
        return True  # ``padding = ((k[0] - 1) // 2, 0)`` just above: a tuple display, never a string
    flows = values.received(node)
    found = [flow.value for flow in flows] if flows else values.local_constants(node)
    return bool(found) and all(_number_or_numbers(value) for value in found)


def _number_or_numbers(value: object) -> bool:
    """A number, or a non-empty tuple of numbers (a literal's value)."""
    return is_number(value) or (isinstance(value, tuple) and bool(value) and all(is_number(item) for item in value))


def _one_minus(node: nodes.NodeNG) -> bool:
    """``1 - rate`` (or ``1.0 - rate``): an expression that converts a drop rate."""
    return (
        isinstance(node, nodes.BinOp) and node.op == "-"
        and isinstance(node.left, nodes.Const) and node.left.value == 1
        and not isinstance(node.right, nodes.Const)
    )


def _identifier(node: nodes.NodeNG) -> str | None:
    if isinstance(node, nodes.Name):
        return node.name
    if isinstance(node, nodes.Attribute):
        return node.attrname
    return None


def _looks_like(node: nodes.NodeNG, kind: str) -> bool:
    """Whether a positional value is what PyTorch expects in that slot (PositionalTrap.looks_like)."""
    value = literal(node)
    if kind == "padding":
        # a list or tuple display is never the pad_mode string MindSpore expects there
        # (``[k[0] // 2, k[1] // 2]``: TypeError at construction, measured), nor a name
        # that holds a number or a tuple of numbers in every way it is given one
        # (``def conv(c, k, s, padding=1)`` whose callers leave the default)
        return _is_numeric_expression(node) or isinstance(node, (nodes.List, nodes.Tuple)) \
            or _numeric_in_every_way(node)
    if kind == "bool":
        if isinstance(value, bool):
            return True
        name = _identifier(node)
        return name is not None and "bias" in name.lower() and "init" not in name.lower()
    if kind == "float":
        return isinstance(value, float)
    if kind == "int":
        return isinstance(value, int) and not isinstance(value, bool)
    if kind == "fraction":  # 0.3, not 1.0: a float no int parameter takes
        return isinstance(value, float) and not value.is_integer()
    if kind == "str":
        return isinstance(value, str)
    return False


def _literal_kind(value: object) -> str | None:
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, str):
        return "str"
    if isinstance(value, int):
        return "int"
    if isinstance(value, float):
        return "float"
    return None


def _first_moved(api: apis.LayerApi) -> int:
    """The first positional slot where MindSpore's parameter is not PyTorch's."""
    for index, (torch_name, ms_name) in enumerate(zip(api.torch_params, api.params)):
        if api.torch_to_ms.get(torch_name, torch_name) != ms_name:
            return index
    return min(len(api.torch_params), len(api.params))


def _mindspore_ordered(bound: _Bound, index: int) -> bool:
    """Whether a literal before ``index`` sits in a slot where PyTorch's and
    MindSpore's parameters differ and fits only MindSpore's (``"pad"`` in
    nn.Conv2d's fifth slot, PyTorch's padding): the call follows MindSpore's order."""
    api = bound.api
    for position, node in enumerate(bound.call.args[:index]):
        if position >= len(api.torch_params) or position >= len(api.params):
            break
        torch_name, ms_name = api.torch_params[position], api.params[position]
        if api.torch_to_ms.get(torch_name) == ms_name:
            continue
        kind = _literal_kind(literal(node))
        ms_kind = _literal_kind(api.defaults.get(ms_name))
        torch_kind = _literal_kind(api.torch_defaults.get(torch_name))
        if kind is not None and kind == ms_kind and ms_kind != torch_kind and torch_kind is not None:
            return True
    return False


def _percent(fraction: float) -> str:
    return f"{fraction * 100:g}%"


def _number_text(value: float) -> str:
    return repr(round(value, 10))


_SOURCE_CACHE: dict[str, list[str]] = {}


def _source_lines(module: nodes.Module) -> list[str] | None:
    # keyed by the tree (and the hash of the text it was built from, which the
    # command records): the same file checked again after a fix has new text
    key = f"{module.file}:{module.name}:{id(module)}:{getattr(module, 'mslint_content_hash', '')}"
    lines = _SOURCE_CACHE.get(key)
    if lines is None:
        try:
            with module.stream() as stream:
                lines = stream.read().decode("utf-8", "replace").splitlines()
        except Exception:  # noqa: BLE001 - a module built from a string, an unreadable file
            return None
        if len(_SOURCE_CACHE) > 64:
            _SOURCE_CACHE.clear()
        _SOURCE_CACHE[key] = lines
    return lines


def _segment(node: nodes.NodeNG) -> str | None:
    """The argument exactly as written, when it sits on one line."""
    if node.lineno is None or node.end_lineno != node.lineno or node.end_col_offset is None:
        return None
    lines = _source_lines(node.root())
    if lines is None or node.lineno > len(lines):
        return None
    line = lines[node.lineno - 1]
    segment = line[node.col_offset:node.end_col_offset]
    return segment if segment.strip() == segment and segment else None


def _text(node: nodes.NodeNG) -> str:
    """An argument as the user wrote it (else its normalised text, string literals
    in double quotes)."""
    segment = _segment(node)
    if segment is not None:
        return segment
    if isinstance(node, nodes.Const) and isinstance(node.value, str):
        if '"' not in node.value and "\\" not in node.value and "\n" not in node.value:
            return f'"{node.value}"'
    if isinstance(node, nodes.Tuple):
        inner = ", ".join(_text(element) for element in node.elts)
        return f"({inner},)" if len(node.elts) == 1 else f"({inner})"
    return spelled(node)


def _quoted(value: str) -> str:
    return f'"{value}"'


# ---------------------------------------------------------------------------
# Calls
# ---------------------------------------------------------------------------


class _Bound:
    """A call's arguments by MindSpore parameter name."""

    def __init__(
        self, call: nodes.Call, api: apis.LayerApi, args: dict[str, nodes.NodeNG], subclass: nodes.ClassDef | None = None
    ) -> None:
        self.call = call
        self.api = api
        self.args = args
        # the user's subclass of the layer when the call is its super().__init__(...)
        self.subclass = subclass
        self.positional = {name: index for index, name in enumerate(api.params[: len(call.args)])}

    def __contains__(self, name: str) -> bool:
        return name in self.args

    def get(self, name: str) -> nodes.NodeNG | None:
        return self.args.get(name)

    def value(self, name: str) -> object:
        """The constant value of an argument; the MindSpore default when absent."""
        if name in self.args:
            return values.constant(self.args[name])
        return self.api.defaults.get(name, UNKNOWN)


def _bind(call: nodes.Call, api: apis.LayerApi) -> _Bound | None:
    """None for calls whose arguments cannot all be seen (``*args``, ``**kwargs``)
    or that are not valid calls of this signature."""
    args = astutil.bind_by_name(call, api.params)
    return _Bound(call, api, args) if args is not None else None


def _partial_layer(call: nodes.Call) -> _Bound | None:
    """``functools.partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)``: the arguments
    it fixes for every layer built from it, bound to the layer's parameters (its
    positional ones after the class). None for another partial, for arguments that
    cannot all be seen, or for one held in a local name nothing reads (it builds no
    layer)."""
    if not (call.args and isinstance(call.func, (nodes.Name, nodes.Attribute))
            and resolve.qualified_name(call.func) == "functools.partial"):
        return None
    layer = call.args[0]
    qname = resolve.qualified_name(layer) if isinstance(layer, (nodes.Name, nodes.Attribute)) else None
    api = apis.LAYER_APIS.get(qname) if qname else None
    if api is None:
        return None
    rest = call.args[1:]
    if any(isinstance(arg, nodes.Starred) for arg in rest) or len(rest) > len(api.params):
        return None
    if any(keyword.arg is None for keyword in call.keywords or ()):
        return None
    args = dict(zip(api.params, rest))
    args.update((keyword.arg, keyword.value) for keyword in call.keywords or ())
    if astutil.held_by_unread_local(call):
        return None
    bound = _Bound(call, api, args)
    bound.positional = {name: index + 1 for index, name in enumerate(api.params[: len(rest)])}
    return bound


def _base_layer_init(call: nodes.Call) -> _Bound | None:
    """``super().__init__(...)`` in ``__init__`` of a user subclass of a layer in the
    table, whose next ``__init__`` is the layer's: the layer built with these arguments."""
    func = call.func
    receiver = func.expr if isinstance(func, nodes.Attribute) else None
    if not (isinstance(receiver, nodes.Call) and isinstance(receiver.func, nodes.Name) and receiver.func.name == "super"):
        return None
    found = astutil.enclosing_method(call)
    if found is None or found[0].name != "__init__":
        return None
    cls = found[1]
    user, external = resolve.class_hierarchy(cls)
    if any(astutil.own_method(base, "__init__") is not None for base in user[1:]):
        return None  # a user base's __init__ comes first
    layers = [apis.LAYER_APIS[qname] for qname in external if qname in apis.LAYER_APIS]
    if len(layers) != 1:
        return None
    args = astutil.bind_by_name(call, layers[0].params)
    return _Bound(call, layers[0], args, cls) if args is not None else None


_FORWARD_METHODS = frozenset({apis.CELL_FORWARD_METHOD, apis.TORCH_FORWARD_METHOD})


def _built_from_inputs(bound: _Bound) -> bool:
    """A "layer" built inside construct/forward whose first argument (the channels or
    features every layer starts with) is an input of that method or a Parameter the
    class holds (``nn.Conv3d(x, self.weight, padding=1)``, a port of PyTorch's
    functional ``F.conv3d(x, weight, padding=1)``): no layer with these arguments
    exists, so no default of one can differ."""
    found = astutil.enclosing_method(bound.call)
    first = bound.get(bound.api.params[0]) if bound.api.params else None
    if found is None or found[0].name not in _FORWARD_METHODS or first is None:
        return False
    method, cls = found
    if isinstance(first, nodes.Name):
        bindings = method.locals.get(first.name, [])
        return first.name != "self" and bool(bindings) and all(
            isinstance(binding, nodes.AssignName) and isinstance(binding.parent, nodes.Arguments) for binding in bindings
        )
    attr = astutil.self_attribute(first)
    return attr is not None and scope.analysis(cls.root()).class_facts(cls).kind(attr) == values.PARAMETER


# ``# self.bn = nn.BatchNorm2d(c, momentum=0.9)``: a momentum written in a comment
_COMMENTED_MOMENTUM = re.compile(r"#.*?\bmomentum\s*=\s*(\d*\.?\d+(?:[eE][-+]?\d+)?)")
# how far above the call a comment block may hold the original
_COMMENT_LINES_ABOVE = 3


def _converted_from_comment(call: nodes.Call, value: object) -> bool:
    """The PyTorch line kept as a comment beside the port, its momentum the complement
    of this one (``# nn.BatchNorm2d(c, momentum=0.9)`` above ``nn.BatchNorm2d(c,
    momentum=0.1)``): the port converted it on purpose, from a momentum that is not
    PyTorch's default. Read in the comment lines right above the statement and after
    the call on its own lines."""
    lines = _source_lines(call.root())
    statement = call.statement()
    if lines is None or statement.lineno is None or call.end_lineno is None or not is_number(value):
        return False
    candidates = lines[statement.lineno - 1:call.end_lineno]
    above = statement.lineno - 2
    while above >= 0 and statement.lineno - 2 - above < _COMMENT_LINES_ABOVE and lines[above].lstrip().startswith("#"):
        candidates.append(lines[above])
        above -= 1
    for line in candidates:
        for found in _COMMENTED_MOMENTUM.finditer(line):
            try:
                original = float(found.group(1))
            except ValueError:
                continue
            if abs((1 - original) - value) < 1e-9:
                return True
    return False


def _statistics_unused(bound: _Bound) -> bool:
    """A BatchNorm subclass whose own ``construct`` neither calls the layer's
    (``super().construct``) nor reads ``self.momentum``: the statistics are not
    updated with that momentum (a frozen BatchNorm normalising with fixed statistics)."""
    if bound.subclass is None:
        return False
    construct = resolve.find_method(bound.subclass, "construct")
    if construct is None:
        return False
    for node in construct.nodes_of_class(nodes.Attribute):
        if node.attrname == "momentum" and astutil.is_self(node.expr):
            return False
        if node.attrname == "construct" and isinstance(node.expr, nodes.Call) and getattr(node.expr.func, "name", "") == "super":
            return False
    return True


class _CallText:
    """The call as the user wrote it, edited into the fixed call."""

    def __init__(self, call: nodes.Call) -> None:
        self.func = spelled(call.func)
        self.items: list[tuple[str | None, str]] = [(None, _text(arg)) for arg in call.args]
        self.items += [(keyword.arg, _text(keyword.value)) for keyword in call.keywords or ()]

    def _index(self, name: str) -> int | None:
        for index, (item_name, _) in enumerate(self.items):
            if item_name == name:
                return index
        return None

    def set(self, bound: _Bound, name: str, text: str, before: str | None = None, after: str | None = None) -> None:
        """Give ``name`` the value ``text``: in place when present (positional or
        keyword), else as a keyword before/after another argument, or at the end."""
        if name in bound.positional:
            self.items[bound.positional[name]] = (None, text)
            return
        index = self._index(name)
        if index is not None:
            self.items[index] = (name, text)
            return
        if after is not None:
            anchor = bound.positional.get(after, self._index(after))
            if anchor is not None:
                self.items.insert(anchor + 1, (name, text))
                return
        if before is not None:
            anchor = self._index(before)
            if anchor is not None:
                self.items.insert(anchor, (name, text))
                return
        self.items.append((name, text))

    def remove(self, name: str) -> None:
        index = self._index(name)
        if index is not None:
            del self.items[index]

    def keywords_from(self, index: int, names: list[tuple[str, str]]) -> None:
        """Replace the positional arguments from ``index`` on by keywords."""
        positional_end = sum(1 for name, _ in self.items if name is None)
        self.items[index:positional_end] = names

    def __str__(self) -> str:
        parts = [text if name is None else f"{name}={text}" for name, text in self.items]
        return f"{self.func}({', '.join(parts)})"


def _short(qname: str) -> str:
    """``torch.nn.Conv2d`` -> ``Conv2d``."""
    return qname.rsplit(".", 1)[-1]


def _padding_for_mindspore(node: nodes.NodeNG, dims: int, displays: bool = False) -> str | None:
    """PyTorch's padding as a MindSpore Conv's padding argument: per-side tuples for
    2-D/3-D layers (``(1, 2)`` -> ``(1, 1, 2, 2)``), a plain int for 1-D ones. With
    ``displays``, a list or tuple display of any expressions too (``[a, b]`` ->
    ``(a, a, b, b)``), and None for a list it cannot convert (a Conv takes no list).
    ``dims`` 0: a pooling layer, whose padding is one value per dimension, as PyTorch's
    (measured: MaxPool2d/AvgPool2d take (1, 0) or [1, 0], and refuse 4 values)."""
    if not dims:
        return _text(node)
    value = _ints(literal(node))
    if value is not None and isinstance(literal(node), tuple) and len(value) == dims:
        return _per_side(value, dims)
    if displays and isinstance(node, (nodes.List, nodes.Tuple)):
        items = [_text(item) for item in node.elts]
        if len(items) == dims:
            return _per_side(items, dims)
        if isinstance(node, nodes.List):
            return None
    return _text(node)


def _per_side_dims(api: apis.LayerApi) -> int:
    """The dimensions whose padding MindSpore takes per side (Conv*), 0 for a pooling layer."""
    return 0 if api.family == "pool" else api.spatial_dims


def _same_size(first: nodes.NodeNG, second: nodes.NodeNG, dims: int) -> bool:
    """Whether two size arguments are visibly equal: equal literals (``2`` and
    ``(2, 2)``), or the same expression (``patch_size`` and ``patch_size``)."""
    left, right = _ints(literal(first)), _ints(literal(second))
    if left is not None and right is not None:
        return (left * dims if len(left) == 1 else left) == (right * dims if len(right) == 1 else right)
    if left is not None or right is not None:
        return False
    return first.as_string() == second.as_string()


def _mentions_shape(node: nodes.NodeNG, depth: int = 1) -> bool:
    """Whether an expression reads a shape (``x.shape[2]``, ``shape[2:]``, ``ops.shape(x)``),
    directly or through a local name bound from one (``size = self.shape(x)``, then ``size[2]``)."""
    for child in node.nodes_of_class((nodes.Name, nodes.Attribute)):
        name = child.name if isinstance(child, nodes.Name) else child.attrname
        if name.lower().endswith("shape"):
            return True
    if depth == 0:
        return False
    for name in node.nodes_of_class(nodes.Name):
        frame = name.frame()
        for binding in frame.locals.get(name.name, ()) if isinstance(frame, nodes.FunctionDef) else ():
            statement = binding.statement()
            if isinstance(statement, nodes.Assign) and _mentions_shape(statement.value, depth - 1):
                return True
    return False


def _layer_aliases(module: nodes.Module) -> frozenset[str]:
    """Module-level names bound by ``from ... import <layer> as <name>``."""
    found = set()
    for name, bound in module.locals.items():
        for node in bound:
            if isinstance(node, nodes.ImportFrom) and any(
                alias == name and imported in _LAYER_SHORT_NAMES for imported, alias in node.names
            ):
                found.add(name)
    return frozenset(found)


def _default_note(node: nodes.NodeNG) -> tuple[object, str]:
    """The value of an argument that reads a helper's parameter with a default
    (``momentum=momentum`` in ``def bn(c, momentum=0.1)``), with a note saying so;
    (UNKNOWN, "") otherwise."""
    found = values.parameter_default(node)
    if found is None:
        return UNKNOWN, ""
    func, default = found
    value = values.constant(default)
    if value is UNKNOWN or _default_of_unseen_caller(default):
        return UNKNOWN, ""
    if values.guarded_off_by_defaults(node):
        return UNKNOWN, ""  # ``nn.Dropout(p=1 - rate) if rate > 0.0 else None``: the default builds no layer
    return value, f" ({spelled(node)} defaults to {_text(default)} in {func.name}(), line {func.lineno})"


def _default_of_unseen_caller(written: nodes.NodeNG | None) -> bool:
    """``written`` is a parameter's default (``dropout: float = 0.0`` in
    ``DualRecModel.__init__``) whose function mslint sees no call of, while another
    file of the project calls it by name (``DualRecModel(dropout=args.dropout)``
    behind an import mslint cannot resolve): the value that call passes is out of
    sight, the default is not known to reach the layer."""
    if written is None or not isinstance(written.parent, nodes.Arguments):
        return False
    func = written.parent.parent
    if not isinstance(func, nodes.FunctionDef):
        return False
    owner = func.parent
    name = owner.name if func.name == "__init__" and isinstance(owner, nodes.ClassDef) else func.name
    # the program model's answer first (rarely yes): the sites are looked for only then
    return programs.called_out_of_sight(func.root().file, name) and not sites.calls_of(func)


def _site_text(call: nodes.Call) -> str:
    text = spelled(call)
    return text if len(text) <= 60 else spelled(call.func) + "(...)"


def _flow_note(node: nodes.NodeNG, found: values.Received) -> str:
    """Where the value ``node`` takes comes from, for the message: a site that
    passes it, a site that keeps the default, or an assignment above."""
    written = found.written
    if found.site is None:
        if written is None or written is node or written.lineno is None:
            return ""
        return f" ({spelled(node)} is {_text(written)}, {place(written, node)})"
    site = f"{_site_text(found.site)}, {place(found.site, node)}"
    if written is node:  # ``width * 2``: computed from what that site passes
        return f" ({site})"
    if written is None or isinstance(written.parent, nodes.Arguments):
        default = f" {_text(written)}" if written is not None else ""
        return f" ({site}, keeps the default{default})"
    return f" ({site}, passes {_text(written)})"


_NEVER_BUILT = object()  # no way in sight builds the layer (its guard is false at every site)


def _judged(node: nodes.NodeNG, harmful: Callable[[object], bool]) -> tuple[object, str]:
    """The value of an argument to judge, and a note saying where it comes from:
    a constant; else the value the program gives it (mslint.analysis.values.received):
    one that ``harmful`` accepts when a way in sight gives one (a value proven at
    some sites is judged at those), else a known harmless one; else a helper
    parameter's default. (_NEVER_BUILT, "") when no way in sight builds the layer,
    (UNKNOWN, "") when nothing is known."""
    value = values.constant(node)
    if value is not UNKNOWN:
        return value, ""
    return _judged_flows(node, values.received(node), harmful)


def _judged_flows(node: nodes.NodeNG, flows: list | None, harmful: Callable[[object], bool]) -> tuple[object, str]:
    if flows is not None:
        if not flows:
            return _NEVER_BUILT, ""
        known = [found for found in flows if found.value is not UNKNOWN and not _default_of_unseen_caller(found.written)]
        for found in known:
            if harmful(found.value):
                return found.value, _flow_note(node, found)
        if known:
            return known[0].value, _flow_note(node, known[0])
        return UNKNOWN, ""  # every way in sight passes a value of its own: the default reaches none
    return _default_note(node)


def _every_way_one(node: nodes.NodeNG) -> bool:
    """Every way in sight gives ``node`` (a kernel size) 1 or all ones: what each
    construction passes (mslint.analysis.values.received); False when no way is
    in sight or one cannot be read."""
    flows = values.received(node)
    if not flows:
        return False
    for found in flows:
        sizes = _ints(found.value) if found.value is not UNKNOWN else None
        if sizes is None or not all(size == 1 for size in sizes):
            return False
    return True


def _is_complement(node: nodes.NodeNG | None) -> bool:
    """``1 - rate`` (or ``1.0 - rate``): a keep probability, whatever the name it lands in."""
    return (
        isinstance(node, nodes.BinOp) and node.op == "-"
        and isinstance(node.left, nodes.Const) and node.left.value in (1, 1.0)
        and not isinstance(node.left.value, bool)
    )


def _zero_selects_other_layer(call: nodes.Call, names: set[str]) -> bool:
    """The layer is built under a test of one of ``names`` that 0 makes false
    (``nn.Identity() if self.dropout == 0.0 else nn.Dropout(self.dropout)``,
    ``if drop > 0: ...``, ``if drop: ...``): a 0 never reaches it."""
    child: nodes.NodeNG = call
    for parent in call.node_ancestors():
        if isinstance(parent, (nodes.FunctionDef, nodes.ClassDef, nodes.Module)):
            return False
        if isinstance(parent, (nodes.If, nodes.IfExp)) and child is not parent.test:
            test = parent.test
            mentioned = {_identifier(item) for item in test.nodes_of_class((nodes.Name, nodes.Attribute))}
            if mentioned & names:
                zero = any(isinstance(item, nodes.Const) and item.value == 0 and not isinstance(item.value, bool)
                           for item in test.nodes_of_class(nodes.Const))
                if zero or _identifier(test) in names:
                    return True
        child = parent
    return False


def _reaches_unseen_default(node: nodes.NodeNG) -> bool:
    """The argument's value in sight is only a parameter's default whose function
    is called where mslint cannot follow (_default_of_unseen_caller): directly,
    or through every construction in sight."""
    found = values.parameter_default(node)
    if found is not None and _default_of_unseen_caller(found[1]):
        return True
    flows = values.received(node)
    return bool(flows) and all(_default_of_unseen_caller(flow.written) for flow in flows)


def _visible_keep_probabilities(node: nodes.NodeNG, assigned: nodes.NodeNG | None, call: nodes.Call) -> bool:
    """Every number the project writes for the name the argument reads (and the
    parameter it was assigned from: ``self.dropout = dropout``), as a default, a
    keyword, a dict or JSON/YAML key, is a keep probability (>= 0.5), or 0 where 0
    builds no Dropout, or where 0 is only the default of a function whose callers
    are out of sight (_reaches_unseen_default: then the whole project's numbers
    are read): the name says rate, the values say keep probability."""
    names = {_identifier(node)}
    if assigned is not None and _identifier(assigned) is not None:
        names.add(_identifier(assigned))
    # and the names the constructions pass it (``MultiHeadAttention(dim, heads, dropout)``
    # building ``nn.Dropout(dropout_rate)``: the project writes numbers for ``dropout``)
    for found in (values.received(node) if isinstance(node, nodes.Name) else None) or ():
        if isinstance(found.written, (nodes.Name, nodes.Attribute)) and found.written is not node:
            names.add(_identifier(found.written))
    names.discard(None)
    path = node.root().file
    seen = [value for name in sorted(names) for value in programs.visible_values(path, name)]
    if not seen:
        return False
    if all(value >= 0.5 or (value == 0 and _zero_selects_other_layer(call, names)) for value in seen):
        return True
    if not any(value == 0 for value in seen) or not _reaches_unseen_default(node):
        return False
    seen = [value for name in sorted(names) for value in programs.visible_values(path, name, whole=True)]
    return all(value >= 0.5 or value == 0 for value in seen)


def _configured_keep_probabilities(node: nodes.NodeNG, depth: int = 0) -> bool:
    """:func:`_module_config_keep_probabilities` for the argument, or for what every way
    in sight passes the parameter it names (``Encoder(..., config.dropout)`` building
    ``nn.Dropout(dropout)``, through a few constructions)."""
    if _module_config_keep_probabilities(node):
        return True
    if depth > 3 or not isinstance(node, nodes.Name):
        return False
    flows = values.received(node)
    return bool(flows) and all(
        found.written is not None and found.written is not node and _configured_keep_probabilities(found.written, depth + 1)
        for found in flows
    )


def _module_config_keep_probabilities(node: nodes.NodeNG) -> bool:
    """``nn.Dropout(config.dropout)`` with ``config`` a parameter of the function, in a
    module whose classes other than Cells set ``self.dropout`` in their ``__init__`` only to numbers, every
    one a keep probability (>= 0.5): the configuration the module defines for its model
    (``class Config: def __init__(...): self.dropout = 0.5``, as ports of one PyTorch text
    classification project write it). Any other store of the attribute there: unsure."""
    if not isinstance(node, nodes.Attribute) or not isinstance(node.expr, nodes.Name):
        return False
    func = node.frame()
    if not isinstance(func, nodes.FunctionDef) or node.expr.name not in func.argnames() or node.expr.name == "self":
        return False
    numbers = []
    for cls in node.root().nodes_of_class(nodes.ClassDef):
        if resolve.is_cell_class(cls):
            continue  # the model itself (self.dropout = nn.Dropout(...)), not its configuration
        init = cls.locals.get("__init__")
        init = init[0] if init else None
        if not isinstance(init, nodes.FunctionDef):
            continue
        for assign in init.nodes_of_class(nodes.Assign):
            for target in assign.targets:
                if astutil.self_attribute(target) != node.attrname:
                    continue
                value = values.constant(assign.value)
                if not is_number(value):
                    return False
                numbers.append(value)
    return bool(numbers) and all(value >= 0.5 for value in numbers)


def _sites_pass_complements(node: nodes.NodeNG) -> bool:
    """Every way in sight gives the parameter ``node`` names ``1 - x``
    (``_VDropout(1 - drop_rate)`` building ``nn.Dropout(drop_rate)``): the name
    says rate, the value is a keep probability."""
    flows = values.received(node)
    return bool(flows) and all(_is_complement(found.written) for found in flows)


# an initialisation default and the Parameter it fills
_INITIALISED_PARAMETER = {"embedding_table": "embedding_table"}
# the Parameter methods that replace its data
_SETTERS = frozenset({"set_data", "assign_value"})


def _weights_replaced(call: nodes.Call, parameter: str) -> bool:
    """The layer built by ``call`` is held as ``self.<name>`` and its module replaces
    that Parameter's data anywhere (``net.<name>.<parameter>.set_data(...)``, as when
    pretrained vectors are loaded into an embedding), or the Parameter itself
    (``self.<name>.<parameter> = Parameter(table, requires_grad=False)``, a fixed
    sinusoidal table): its initial values never matter."""
    statement = call.parent
    if not (isinstance(statement, nodes.Assign) and len(statement.targets) == 1
            and isinstance(statement.targets[0], nodes.AssignAttr)):
        return False
    name = statement.targets[0].attrname
    module = call.root()
    for use in astutil.module_nodes(module, nodes.Call):
        func = use.func
        if (isinstance(func, nodes.Attribute) and func.attrname in _SETTERS
                and isinstance(func.expr, nodes.Attribute) and func.expr.attrname == parameter
                and isinstance(func.expr.expr, nodes.Attribute) and func.expr.expr.attrname == name):
            return True
    return any(
        target.attrname == parameter and isinstance(target.expr, nodes.Attribute) and target.expr.attrname == name
        for target in astutil.module_nodes(module, nodes.AssignAttr)
    )


# The method a Hugging Face-style PreTrainedModel runs on each of its sub-cells
# (post_init -> init_weights -> apply): it draws their weights again.
_INIT_WEIGHTS_METHOD = "_init_weights"


def _reinitialised(call: nodes.Call, parameter: str) -> bool:
    """The layer built by ``call`` has its ``parameter`` drawn again by an
    ``_init_weights(self, cell)`` that resets every layer of its class
    (``elif isinstance(cell, nn.Embedding): cell.embedding_table.set_data(...)``):
    the ``_init_weights`` of the class that builds it or of one of its bases, or,
    for a sub-cell of a Hugging Face-style model, of a Cell of the same module
    that names this class elsewhere (builds it, or lists it in a table of classes)."""
    cls = astutil.enclosing_class(call)
    layer = resolve.qualified_name(call.func)
    if cls is None or layer is None:
        return False
    own = resolve.find_method(cls, _INIT_WEIGHTS_METHOD)
    if own is not None and _resets_every(own, layer, parameter):
        return True
    if any(_resets_every(applied, layer, parameter, cell_index=0) for applied in _applied_functions(cls)):
        return True  # ``self.apply(lambda m: init_params(m, n_layers))`` draws the table again
    module = cls.root()
    if not any(read.name == cls.name and astutil.enclosing_class(read) is not cls
               for read in astutil.module_nodes(module, nodes.Name)):
        return False  # a class the module's models never name: it may be used alone
    return any(
        resolve.is_cell_class(model) and _resets_every(method, layer, parameter)
        for model in astutil.module_nodes(module, nodes.ClassDef)
        for method in [astutil.own_method(model, _INIT_WEIGHTS_METHOD)] if method is not None
    )


def _applied_functions(cls: nodes.ClassDef) -> list[nodes.FunctionDef]:
    """The project functions the class's ``__init__`` hands every sub-cell to with
    ``self.apply(init_fn)`` or ``self.apply(lambda m: init_fn(m, ...))``."""
    init = astutil.own_method(cls, "__init__")
    found = []
    for call in init.nodes_of_class(nodes.Call) if init is not None else ():
        func = call.func
        if not (isinstance(func, nodes.Attribute) and func.attrname == "apply" and astutil.is_self(func.expr)
                and len(call.args) == 1 and not call.keywords):
            continue
        given = call.args[0]
        if isinstance(given, nodes.Lambda):
            body = given.body
            params = given.args.args or []
            if not (isinstance(body, nodes.Call) and len(params) == 1 and body.args
                    and isinstance(body.args[0], nodes.Name) and body.args[0].name == params[0].name):
                continue
            given = body.func
        if isinstance(given, (nodes.Name, nodes.Attribute)):
            target = resolve.project_callee(given)
            if target is not None and not isinstance(target.parent, nodes.ClassDef):
                found.append(target)
    return found


def _resets_every(method: nodes.FunctionDef, layer: str, parameter: str, cell_index: int = 1) -> bool:
    """Whether ``method(self, cell)`` (a function ``fn(cell, ...)`` for ``cell_index``
    0) sets ``cell.<parameter>`` for every ``cell`` of the class ``layer``: a branch
    ``isinstance(cell, <layer>)`` (in an if/elif chain whose earlier tests are
    isinstance tests of other classes than Cell) whose own statements call
    ``cell.<parameter>.set_data(...)`` or assign ``cell.<parameter>``."""
    params = astutil.positional_params(method)
    if (len(params) != 2 if cell_index else not params):
        return False
    cell = params[cell_index].name
    for branch in method.nodes_of_class(nodes.If):
        if isinstance(branch.parent, nodes.If) and branch in branch.parent.orelse:
            continue  # an elif: walked from the head of its chain
        current: nodes.If | None = branch
        while current is not None:
            tested = _isinstance_classes(current.test, cell)
            if tested is None or tested & apis.CELL_ROOT_CLASSES:
                break  # another kind of test, or one every Cell passes: the rest may never run
            if layer in tested and any(_sets(statement, cell, parameter) for statement in current.body):
                return True
            following = current.orelse
            current = following[0] if len(following) == 1 and isinstance(following[0], nodes.If) else None
    return False


def _isinstance_classes(test: nodes.NodeNG, name: str) -> set[str] | None:
    """The qualified names ``isinstance(<name>, A)`` / ``(A, B)`` tests; None for any
    other test."""
    if not (isinstance(test, nodes.Call) and isinstance(test.func, nodes.Name) and test.func.name == "isinstance"
            and len(test.args) == 2 and isinstance(test.args[0], nodes.Name) and test.args[0].name == name):
        return None
    classes = test.args[1].elts if isinstance(test.args[1], nodes.Tuple) else [test.args[1]]
    return {resolve.qualified_name(each) or "" for each in classes}


def _sets(statement: nodes.NodeNG, cell: str, parameter: str) -> bool:
    """``cell.<parameter>.set_data(...)`` or ``cell.<parameter> = ...`` as a statement."""
    if isinstance(statement, nodes.Expr) and isinstance(statement.value, nodes.Call):
        func = statement.value.func
        return isinstance(func, nodes.Attribute) and func.attrname in _SETTERS \
            and astutil.attribute_path(func.expr) == f"{cell}.{parameter}"
    if isinstance(statement, nodes.Assign):
        return any(isinstance(target, nodes.AssignAttr) and target.attrname == parameter
                   and isinstance(target.expr, nodes.Name) and target.expr.name == cell
                   for target in statement.targets)
    return False


def _all_zero(node: nodes.NodeNG) -> bool:
    value = _ints(literal(node))
    return value is not None and all(v == 0 for v in value)


# The rules whose harm happens only when the layer runs (what it drops, how its
# statistics move, the size it outputs, its initial weights); the others name a
# layer that raises at construction, which happens whether it runs or not.
_HARMFUL_WHEN_RUN = frozenset({
    "ms-conv-implicit-pad-mode", "ms-pool-implicit-stride", "ms-dropout-keep-prob",
    "ms-batchnorm-momentum", "ms-layer-default-differs",
})


# The rules whose harm happens only while the layer is trained: the share a
# Dropout drops (with the training flag off it drops nothing, FACTS.md), the
# weight a BatchNorm gives its running statistics (with the flag off they never
# move: tests/oracle/test_layers.py). Silent where programs build the
# layer and none of them may train it (mslint.analysis.programs.trained_at).
_HARMFUL_WHEN_TRAINED = frozenset({"ms-dropout-keep-prob", "ms-batchnorm-momentum"})


def _only_evaluated(call: nodes.Call) -> bool:
    """The programs in sight build the code holding ``call`` and none of them may
    train it: they load weights and evaluate, serve or export it."""
    # (the top-level class or function holding it, or the file's main guard: reach_name's MAIN)
    name = programs.reach_name(call).partition(".")[0]
    return programs.trained_at(getattr(call.root(), "file", None), name) is False


def _layer_never_read(call: nodes.Call) -> bool:
    """``self.<name> = <layer>(...)`` in a method of a Cell, and nothing in sight ever
    reads ``<instance>.<name>`` (mslint.analysis.sites.attribute_never_read): the
    layer is built and never called (a dropout left over from the original)."""
    statement = call.parent
    if not (isinstance(statement, (nodes.Assign, nodes.AnnAssign)) and statement.value is call):
        return False
    targets = statement.targets if isinstance(statement, nodes.Assign) else [statement.target]
    attr = astutil.self_attribute(targets[0]) if len(targets) == 1 else None
    found = astutil.enclosing_method(call)
    if attr is None or found is None:
        return False
    return sites.attribute_never_read(found[1], attr)


# ---------------------------------------------------------------------------
# The checker
# ---------------------------------------------------------------------------


_MESSAGES = (
    "ms-conv-padding-ignored",
    "ms-conv-implicit-pad-mode",
    "ms-pool-implicit-stride",
    "ms-dropout-keep-prob",
    "ms-batchnorm-momentum",
    "ms-torch-positional-args",
    "ms-layer-default-differs",
    "ms-torch-argument-type",
)


class LayersChecker(BaseChecker):
    name = "mindspore-layers"
    msgs = {
        "E7501": (
            "%s raises %s at construction: %s; write %s",
            "ms-conv-padding-ignored",
            "A mindspore.nn Conv*/Conv*Transpose given `padding` other than 0 without "
            'pad_mode="pad" (the default pad_mode is "same"), or PyTorch\'s string padding: '
            "MindSpore refuses the layer at construction.",
        ),
        "W7502": (
            "%s %s; write %s",
            "ms-conv-implicit-pad-mode",
            'A mindspore.nn Conv*/Conv*Transpose without `pad_mode`: the default "same" pads, '
            "PyTorch's default does not, so output sizes differ (8x8 vs 6x6 for a 3x3 kernel). "
            'Migration hint, disabled by default: native MindSpore code means "same".',
            {"default_enabled": False},
        ),
        "W7503": (
            "%s moves with stride 1 (the default) and barely downsamples, where PyTorch's %s strides by "
            "kernel_size; write %s",
            "ms-pool-implicit-stride",
            "A mindspore.nn MaxPool*/AvgPool* or ops.avg_pool1d/2d/3d with a kernel_size other than 1 and no `stride`: "
            "MindSpore's stride defaults to 1, PyTorch's to kernel_size (7x7 vs 4x4 for MaxPool2d(2) on 8x8). "
            "Migration hint, disabled by default: native MindSpore code mostly pools globally or means stride 1.",
            {"default_enabled": False},
        ),
        "W7509": (
            "%s = %s after the layer is built changes nothing: MindSpore's BatchNorm hands %s to its operator "
            "when it is built, so %s; %s",
            "ms-batchnorm-set-after-build",
            "momentum or eps assigned to a mindspore.nn BatchNorm layer after it is built (PyTorch's "
            "m.momentum = 0.03 in a weight-init loop): the operator keeps the values it was built with.",
        ),
        "W7504": (
            "%s %s; write %s",
            "ms-dropout-keep-prob",
            "mindspore.nn.Dropout given a drop rate where it expects keep_prob (its first "
            "argument): nn.Dropout(0.1) drops 90% of the activations, PyTorch's drops 10%.",
        ),
        "W7505": (
            "%s %s; write %s",
            "ms-batchnorm-momentum",
            "BatchNorm momentum in the other framework's meaning: mindspore.nn BatchNorm*/SyncBatchNorm "
            "(and Conv2dBnAct/DenseBnAct with has_bn=True) weight the running average by momentum "
            "(default 0.9), PyTorch and mindspore.mint.nn weight the new batch (default 0.1).",
        ),
        "E7506": (
            "%s: the %s positional argument of %s is %s, not PyTorch's %s: %s; write %s",
            "ms-torch-positional-args",
            "A PyTorch positional signature that means something else in mindspore.nn: "
            "nn.Dense(a, b, False) (the third positional is weight_init: the weights start at 0 "
            "and the bias stays), nn.Conv2d(a, b, k, s, p) (the fifth positional is pad_mode).",
        ),
        "C7507": (
            "%s uses %s=%s where PyTorch's %s uses %s=%s (%s); to match PyTorch write %s",
            "ms-layer-default-differs",
            "Migration hint, disabled by default: a mindspore.nn default that silently differs "
            "from PyTorch's (LayerNorm epsilon, LeakyReLU alpha, InstanceNorm affine, Embedding "
            "init, Conv has_bias, GELU approximate).",
            {"default_enabled": False},
        ),
        "E7508": (
            "%s raises %s at construction: %s; write %s",
            "ms-torch-argument-type",
            "A PyTorch argument of a type the mindspore.nn layer refuses at construction: "
            "nn.LayerNorm(d_model) with an int (normalized_shape must be a tuple or list: TypeError).",
        ),
    }

    @only_required_for_messages(*_MESSAGES)
    def visit_module(self, node: nodes.Module) -> None:
        # ``from mindspore.nn import Conv2d as C2d``: names that alias a layer
        self._aliases = _layer_aliases(node)
        self._parameter_layers: dict[tuple[nodes.FunctionDef, str], str | None] = {}

    @only_required_for_messages("ms-batchnorm-set-after-build")
    def visit_assignattr(self, node: nodes.AssignAttr) -> None:
        attribute = node.attrname
        assign = node.parent
        if attribute not in apis.BATCHNORM_BUILT_ATTRIBUTES or not isinstance(assign, nodes.Assign) \
                or node not in assign.targets or not _built_batchnorm(node.expr):
            return
        value = assign.value
        number = literal(value)
        if is_number(number) and abs(number - _BATCHNORM_DEFAULT_ATTRIBUTES[attribute]) < 1e-9:
            return  # what a layer built with the defaults already holds (0.1: PyTorch's default, MindSpore's 0.9)
        if attribute == "momentum":
            harm = "the running statistics keep the momentum it was built with"
            if is_number(number) and 0 <= number <= 1:
                fix = f"build it with momentum={1 - number:g} (the layer keeps 1 - momentum in .momentum)"
            else:
                fix = "build it with momentum=1 - that value (the layer keeps 1 - momentum in .momentum)"
        else:
            harm = "it still normalizes with the eps it was built with"
            fix = f"build it with eps={value.as_string()}" if is_number(number) else "build it with that eps instead"
        self.add_message("ms-batchnorm-set-after-build", node=assign,
                         args=(node.as_string(), value.as_string(), attribute, harm, fix))

    @only_required_for_messages(*_MESSAGES)
    def visit_call(self, node: nodes.Call) -> None:
        func = node.func
        short = func.name if isinstance(func, nodes.Name) else func.attrname if isinstance(func, nodes.Attribute) else None
        if short == "partial":
            bound = _partial_layer(node)  # partial(nn.BatchNorm2d, eps=0.001, momentum=0.01)
            if bound is not None and bound.api.momentum_meaning is not None:
                self._check_momentum(bound)
            if bound is not None and bound.api.family == "dropout" and not bound.api.follows_torch:
                self._check_dropout(bound)  # partial(nn.Dropout, keep_prob=0.3): every layer built from it
            return
        if short == "__init__":
            bound = _base_layer_init(node)  # class MyBN(nn.BatchNorm2d): super().__init__(c, momentum=momentum)
            if bound is None:
                return
            api = bound.api
        else:
            if short in _LIMIT_SHORT_NAMES and self._check_positional_count(node):
                return  # the call raises TypeError before anything else could matter
            if short not in _LAYER_SHORT_NAMES and short not in getattr(self, "_aliases", ()):
                if not (node.args or node.keywords) and not may_report(self.linter, "ms-layer-default-differs"):
                    return  # ``act_layer()``: no argument to judge, and its defaults are not asked about
                qname = _parameter_layer(func, getattr(self, "_parameter_layers", {}))  # ``batch_norm(256, momentum=0.1)``
                if qname is None:
                    return
            else:
                qname = resolve.qualified_name(func)
            # POSITIONAL_APIS: classes the generated mapping data adds, judged by
            # ms-torch-positional-args alone (their family matches no other check)
            api = (apis.LAYER_APIS.get(qname) or apis.POSITIONAL_APIS.get(qname)) if qname else None
            if api is None:
                if qname in apis.FUNCTIONAL_POOLS_STRIDE_ONE and may_report(self.linter, "ms-pool-implicit-stride"):
                    self._check_functional_pool_stride(node, apis.FUNCTIONAL_POOLS_STRIDE_ONE[qname])
                return
            bound = _bind(node, api)
            if bound is None:
                return
            if _built_from_inputs(bound):
                return  # nn.Conv3d(x, self.weight, ...): PyTorch's F.conv3d misread, no layer to judge
        if api.momentum_meaning is not None:
            self._check_momentum(bound)
        if api.follows_torch:
            return  # mindspore.mint.nn: PyTorch's meanings
        if api.family in ("conv", "conv_transpose"):
            padding_flagged = self._check_conv_padding(bound)
            if not padding_flagged and may_report(self.linter, "ms-conv-implicit-pad-mode"):
                self._check_conv_pad_mode(bound)
        elif api.family == "pool":
            self._check_pool_padding(bound)
            if may_report(self.linter, "ms-pool-implicit-stride"):
                self._check_pool_stride(bound)
        elif api.family == "dropout":
            self._check_dropout(bound)
        self._check_positional(bound)
        self._check_argument_types(bound)
        # off by default: judging every layer's defaults against the PyTorch
        # original was half of this checker's time, for findings then dropped
        if may_report(self.linter, "ms-layer-default-differs"):
            self._check_defaults(bound)

    # -- ms-conv-padding-ignored -------------------------------------------

    def _check_conv_padding(self, bound: _Bound) -> bool:
        """Flag padding without pad_mode="pad"; True when the call cannot construct
        because of it (flagged or not), so ms-conv-implicit-pad-mode stays quiet."""
        padding_node = bound.get("padding")
        if padding_node is None:
            return False
        pad_mode = bound.value("pad_mode")
        if not isinstance(pad_mode, str):
            return False  # a variable, or PyTorch's padding given positionally (ms-torch-positional-args)
        # the value the layer gets: a literal, a module constant, or computed from a
        # parameter's default (``patch_size // 2`` with ``patch_size=7``)
        padding = values.constant(padding_node)
        note = ""
        dims = bound.api.spatial_dims
        if padding is UNKNOWN and not astutil.is_binary_arithmetic(padding_node):
            # a padding the caller passes in (Block(3, 8, padding=1)), else a helper's default
            padding, note = _judged(padding_node, lambda value: _ints(value) is not None and (
                any(_ints(value)) or _torch_shaped(value, dims)))
            if padding is _NEVER_BUILT:
                return True
        if padding is UNKNOWN:
            padding = values.constant(padding_node, defaults=True)
        fixed = _CallText(bound.call)
        if isinstance(padding, str):
            # padding="same"/"SAME"/"valid" (PyTorch's, or TensorFlow's spelling): MindSpore
            # wants an int or tuple there, whatever pad_mode says (measured: TypeError).
            fixed.remove("padding")
            mode = padding.lower()
            if mode in ("same", "valid"):
                fixed.set(bound, "pad_mode", _quoted(mode))
                reason = f'padding must be an int or tuple; padding="{padding}" is pad_mode="{mode}" in MindSpore'
            else:
                reason = "padding must be an int or tuple"
            changes = _string_padding_edits(bound, padding) if mode in ("same", "valid") else None
            self._emit("ms-conv-padding-ignored", bound, (_CallText(bound.call), "TypeError", reason, fixed), changes)
            return True
        if padding is UNKNOWN and astutil.is_binary_arithmetic(padding_node) and pad_mode != "pad":
            padding = 1  # ``k // 2``: a padding computed from a size, not 0 for any kernel above 1
        ints = _ints(padding)
        # PyTorch's tuples give one value per dimension; MindSpore's one per side
        # (Conv1d: an int only). Measured: Conv2d(padding=(1, 2)) raises ValueError,
        # Conv1d(padding=(2,)) TypeError, whatever pad_mode says; Conv2d(padding=(0, 0))
        # too, though zeros need no pad_mode.
        torch_shaped = _torch_shaped(padding, dims)
        if ints is None or all(v == 0 for v in ints) and not torch_shaped:
            return False
        if pad_mode == "pad" and not torch_shaped:
            return False
        either_dims = _local_layer_dims(bound.call) if isinstance(padding, (tuple, list)) else []
        if len(either_dims) > 1:
            return self._report_padding_of_either_layer(bound, pad_mode, padding, note, either_dims)
        reasons = []
        if pad_mode != "pad" and any(ints):
            if "pad_mode" in bound:
                reasons.append(f'padding is only allowed with pad_mode="pad", not "{pad_mode}"')
            else:
                reasons.append('padding is only allowed with pad_mode="pad" (the default pad_mode is "same")')
        if torch_shaped:
            reasons.append(
                "a 1-D layer's padding is an int"
                if dims == 1
                else f"a padding tuple has {2 * dims} values, one per side"
            )
        if note:
            reasons[0] += f", and the padding is {padding}{note}"
        error = "TypeError" if torch_shaped and dims == 1 else "ValueError"
        needs_pad_mode = pad_mode != "pad" and any(ints)
        if needs_pad_mode:
            fixed.set(bound, "pad_mode", _quoted("pad"), before="padding")
        converted = _padding_for_mindspore(padding_node, dims)
        changes: list | None = [_set(bound, "pad_mode", _quoted("pad"), before="padding")] if needs_pad_mode else []
        if torch_shaped and converted == _text(padding_node):
            # a name holding PyTorch's tuple (a parameter's default, a caller's value):
            # the value to give, and no fix (the name is set elsewhere)
            per_side = _per_side(padding, dims)
            if per_side is None:  # Conv1d(padding=(1, 2)): unequal sides, which no int gives
                per_side = "0"
                reasons.append(f"pad unequal sides before the layer, ops.pad(x, {_text(padding_node)})")
            converted = per_side
            changes = None
        elif torch_shaped:
            changes.append(edits.replace(padding_node, converted))
        fixed.set(bound, "padding", converted)
        # a keyword neither the layer nor PyTorch's takes (``activation=act``): TypeError comes first, so
        # the suggestion leaves it out, and no fix is offered (the rewrite would still fail)
        # (PyTorch's own keywords, ``bias=``, are ms-torch-keyword-args' to rename)
        foreign = [name for name in bound.args if name not in bound.api.params
                   and name not in bound.api.torch_params and name not in bound.api.torch_to_ms]
        if foreign:
            for name in foreign:
                fixed.remove(name)
            taken = ", ".join(f"{name}=" for name in foreign)
            reasons.insert(0, f"{spelled(bound.call.func)} takes no {taken} (apply it after the layer)")
            error, changes = "TypeError", None
        self._emit("ms-conv-padding-ignored", bound, (_CallText(bound.call), error, "; ".join(reasons), fixed), changes)
        return True

    def _report_padding_of_either_layer(self, bound: _Bound, pad_mode: str, padding: tuple | list, note: str,
                                        dims: list[int]) -> bool:
        """``conv = nn.Conv2d if conv_2d else nn.Conv3d`` then ``conv(..., padding=(1, 7, 7))``:
        the tuple MindSpore wants has one value per side of whichever layer runs
        (``dims``: their spatial dimensions), so the message names both lengths and
        no edit is offered."""
        reasons = []
        if pad_mode != "pad" and any(_ints(padding) or ()):
            reasons.append('padding is only allowed with pad_mode="pad"')
        if note:
            given = f"the padding is {tuple(padding)}{note}"
            reasons = [f"{reasons[0]}, and {given}"] if reasons else [given]
        counts = " or ".join(str(2 * count) for count in dims)
        reasons.append(f"{spelled(bound.call.func)} is a {' or '.join(f'{count}-D' for count in dims)} layer here, "
                       f"and its padding tuple has one value per side ({counts} values)")
        fixed = _CallText(bound.call)
        if pad_mode != "pad":
            fixed.set(bound, "pad_mode", _quoted("pad"), before="padding")
        fixed.set(bound, "padding", "<one value per side>")
        self._emit("ms-conv-padding-ignored", bound, (_CallText(bound.call), "ValueError", "; ".join(reasons), fixed), None)
        return True

    def _check_pool_padding(self, bound: _Bound) -> None:
        """A pool given PyTorch's padding, ceil_mode=True, dilation or
        return_indices without pad_mode="pad": MindSpore refuses it at construction."""
        pad_mode = bound.value("pad_mode")
        if not isinstance(pad_mode, str) or pad_mode == "pad":
            return  # a variable, or PyTorch's padding given positionally (ms-torch-positional-args)
        reasons, first = [], None
        for name, allowed in bound.api.pad_mode_only.items():
            node = bound.get(name)
            if node is None:
                continue
            value, note = _judged(node, lambda given, allowed=allowed: _refused_without_pad(given, allowed))
            if not _refused_without_pad(value, allowed):
                continue
            first = first or name
            reasons.append(f"{name}={_text(node)}{note}" if note else f"{name}={_text(node)}")
        if not reasons:
            return
        where = f'not "{pad_mode}"' if "pad_mode" in bound else f'the default pad_mode is "{pad_mode}"'
        reason = f'{", ".join(reasons)} {"is" if len(reasons) == 1 else "are"} only allowed with pad_mode="pad" ({where})'
        fixed = _CallText(bound.call)
        fixed.set(bound, "pad_mode", _quoted("pad"), before=first)
        changes = [_set(bound, "pad_mode", _quoted("pad"), before=first)]
        self._emit("ms-conv-padding-ignored", bound, (_CallText(bound.call), "ValueError", reason, fixed), changes)

    # -- ms-conv-implicit-pad-mode -----------------------------------------

    def _check_conv_pad_mode(self, bound: _Bound) -> None:
        if "pad_mode" in bound or "kernel_size" not in bound:
            return
        api = bound.api
        kernel = _ints(bound.value("kernel_size"))
        if kernel is not None and all(k == 1 for k in kernel):
            if api.family == "conv":
                return  # a 1x1 kernel: "same" adds no padding, at any stride
            stride = _ints(bound.value("stride"))
            if stride is not None and all(s == 1 for s in stride):
                return
        if kernel is None and api.family == "conv" and _every_way_one(bound.args["kernel_size"]):
            return  # ConvBN(cin, cout, k) and every construction in sight passes k=1: no padding either
        stride_node = bound.get("stride")
        if stride_node is not None and _same_size(bound.args["kernel_size"], stride_node, api.spatial_dims):
            # kernel_size == stride (patch embeddings, stride-k downsampling, k x k
            # upsampling): "same" adds no padding when the input is a multiple of
            # the stride, and transposed, never (measured).
            return
        if _original_pads_like_same(bound, kernel):
            return  # the PyTorch original beside it pads (k - 1) // 2: "same" keeps its sizes
        torch_name = _short(api.torch)
        if api.family == "conv":
            effect = (
                f'pads its input (pad_mode defaults to "same": output size = ceil(input / stride)), '
                f"where PyTorch's {torch_name} does not pad"
            )
        else:
            effect = (
                f'gives an output of input size x stride (pad_mode defaults to "same"), where PyTorch\'s {torch_name} '
                "gives (input - 1) x stride + kernel_size"
            )
        fixed = _CallText(bound.call)
        padding_node = bound.get("padding")
        if padding_node is not None and not _all_zero(padding_node):
            # padding that is not visibly 0: "same" refuses it unless it is 0.
            fixed.set(bound, "pad_mode", _quoted("pad"), before="padding")
            changes = [_set(bound, "pad_mode", _quoted("pad"), before="padding")]
            effect = (
                f'has no pad_mode: the default "same" raises ValueError for any padding but 0, and with 0 '
                f"still pads, where PyTorch's {torch_name} would not"
            )
            suggestion = str(fixed)
        else:
            fixed.set(bound, "pad_mode", _quoted("valid"), before="padding")
            changes = [_set(bound, "pad_mode", _quoted("valid"), before="padding")]
            suggestion = f'{fixed} to match PyTorch, or pad_mode="same" to keep this'
        self._emit("ms-conv-implicit-pad-mode", bound, (_CallText(bound.call), effect, suggestion), changes)

    # -- ms-pool-implicit-stride -------------------------------------------

    def _check_pool_stride(self, bound: _Bound) -> None:
        if "stride" in bound or "kernel_size" not in bound:
            return
        kernel = _ints(bound.value("kernel_size"))
        if kernel is not None and all(k == 1 for k in kernel):
            return  # stride 1 is kernel_size: both frameworks agree
        if _wrong_rank_kernel(bound):
            return  # MaxPool2d(kernel_size=(1, 2, 2)): never pools at all, stride=(1, 2, 2) neither
        if _mentions_shape(bound.args["kernel_size"]):
            return  # global pooling sized from the input (kernel_size=x.shape[2:]): one output either way
        pad_mode = bound.value("pad_mode")
        if isinstance(pad_mode, str) and pad_mode.lower() == "same":
            return  # written for MindSpore: "same" with stride 1 keeps the size (SPP blocks)
        if _is_global_pool(bound.call):
            return  # its output is reduced to one value per channel: stride cannot matter
        fixed = _CallText(bound.call)
        fixed.set(bound, "stride", _text(bound.args["kernel_size"]), after="kernel_size")
        suggestion = f"{fixed} for PyTorch's default, or stride=1 to keep this"
        self._emit("ms-pool-implicit-stride", bound, (_CallText(bound.call), _short(bound.api.torch), suggestion), _stride_edits(bound))

    def _check_functional_pool_stride(self, node: nodes.Call, torch_function: str) -> None:
        """``ops.avg_pool2d(x, 2)``: the functional pool's stride defaults to 1 too."""
        if any(keyword.arg not in _FUNCTIONAL_POOL_PARAMETERS for keyword in node.keywords or ()):
            return  # strides=, pad_mode=: another release's signature (or **kwargs): not this default
        kernel_node = astutil.argument(node, 1, "kernel_size")
        if kernel_node is None or kernel_node is astutil.UNKNOWN or astutil.argument(node, 2, "stride") is not None:
            return  # no kernel given (1), or a stride given (or maybe, through *args)
        kernel = _ints(values.constant(kernel_node))
        if kernel is None or all(k == 1 for k in kernel):
            return  # a kernel mslint cannot read, or 1: both frameworks agree
        if _mentions_shape(kernel_node) or _output_flattened(node):
            return  # global pooling (kernel_size=x.shape[2:], or the output flattened): one output either way
        fixed = f"{spelled(node)[:-1]}, stride={_text(kernel_node)})"
        self.add_message("ms-pool-implicit-stride", node=node, args=(
            spelled(node), f"F.{_short(torch_function)}", f"{fixed} for PyTorch's default, or stride=1 to keep this"))

    # -- ms-dropout-keep-prob ----------------------------------------------

    def _check_dropout(self, bound: _Bound) -> None:
        if _built_in_construct(bound.call):
            # built in construct: a new Cell with training=False that drops nothing
            # whatever its argument (measured); ms-cell-in-construct reports it
            return
        if "p" in bound:
            self._check_complement_as_p(bound)  # p overrides keep_prob
            return
        if "keep_prob" not in bound:
            return  # the default 0.5 is the same either way
        node = bound.args["keep_prob"]
        if _one_minus(node):
            return  # 1 - rate is the conversion to a keep probability, whatever rate a caller picks
        reaching = values.reaching_value(node) if isinstance(node, nodes.Name) else None
        if reaching is not None and _one_minus(reaching):
            return  # ``rate = 1 - rate`` above the call: converted there
        # a literal, a constant above, what the sites pass (Block(drop=0.1)), a default
        value, note = _judged(node, lambda rate: is_number(rate) and rate < 0.5)
        if value is _NEVER_BUILT:
            return  # ``if drop > 0.: self.drop = nn.Dropout(drop)`` and every site passes 0
        positional = "keep_prob" in bound.positional
        fixed = _CallText(bound.call)
        if positional:
            fixed.items[bound.positional["keep_prob"]] = ("p", _text(node))
        if is_number(value):
            if value >= 0.5:
                return  # a keep probability (keep_prob=0.9, nn.Dropout(1 - 0.1))
            fails = value <= 0
            if fails:
                effect = f"fails at construction: keep_prob must be a float in (0, 1]{note}"
            else:
                effect = f"keeps only {_percent(value)} of the activations and drops {_percent(1 - value)}{note}"
            if positional:
                self._emit(
                    "ms-dropout-keep-prob",
                    bound,
                    (
                        _CallText(bound.call),
                        f"{effect} (the first argument is keep_prob, not PyTorch's p)",
                        f"{fixed} for PyTorch's p={_text(node)}",
                    ),
                    _rate_edits(bound, node),
                    fails=fails,
                )
            else:
                fixed.remove("keep_prob")
                fixed.set(bound, "p", _text(node))
                self._emit(
                    "ms-dropout-keep-prob",
                    bound,
                    (_CallText(bound.call), f"{effect}, and {_text(node)} looks like a drop rate", f"{fixed} if it is one"),
                    _rate_edits(bound, node),
                    fails=fails,
                )
            return
        if value is not UNKNOWN:
            return
        assigned = values.init_value(node)
        if assigned is not None and _identifier(assigned) is None and values.constant(assigned) is UNKNOWN:
            return  # ``self.p = 1.0 - drop_rate`` in __init__: converted there, as nn.Dropout(1 - rate) is
        every = values.local_constants(node)
        if every is not None and all(is_number(each) and each >= 0.5 for each in every):
            return  # ``ratio = 0.5`` or ``ratio = 1.0`` (no dropout): keep probabilities, whatever the name says
        name = _identifier(node)
        if name is None:
            return
        lowered = name.lower()
        if "keep" in lowered or _sites_pass_complements(node):
            return
        if _visible_keep_probabilities(node, assigned, bound.call):
            return  # every value the project writes for the name is a keep probability (or selects no Dropout)
        if _configured_keep_probabilities(node):
            return  # ``nn.Dropout(config.dropout)`` and the module's Config sets self.dropout = 0.5
        if not positional:
            # keep_prob= written out: the author chose the keyword, so only a name that
            # says "drop rate" in both words contradicts it (not dropout_prob)
            if all(word in lowered for word in _RATE_WORDS):
                fixed.remove("keep_prob")
                fixed.set(bound, "p", _text(node))
                effect = (
                    f"passes {spelled(node)} as keep_prob, and {name} reads like a drop rate: "
                    "a rate of 0.1 would keep only 10% of the activations"
                )
                self._emit("ms-dropout-keep-prob", bound, (_CallText(bound.call), effect, f"{fixed} if it is one"))
            return
        if lowered in _RATE_NAMES or any(word in lowered for word in _RATE_WORDS):
            effect = (
                f"passes {spelled(node)} as keep_prob (the first argument), and {name} reads like a drop rate: "
                "a rate of 0.1 would keep only 10% of the activations"
            )
            self._emit("ms-dropout-keep-prob", bound, (_CallText(bound.call), effect, str(fixed)), _rate_edits(bound, node))

    def _check_complement_as_p(self, bound: _Bound) -> None:
        """``nn.Dropout(p=1.0 - dropout)``: a drop rate converted to a keep probability
        (what keep_prob took) but passed as p, which is already the drop rate:
        with dropout=0.05 it drops 95% of the activations (measured)."""
        node = bound.args["p"]
        if not _is_complement(node):
            return
        rate = node.right
        value, note = _judged(rate, lambda given: is_number(given) and given < 0.5)
        if value is _NEVER_BUILT:
            return
        fixed = _CallText(bound.call)
        fixed.set(bound, "p", _text(rate))
        if is_number(value):
            if value >= 0.5:
                return  # 1 - 0.9: the author means to drop 10%, whatever the name says
            effect = (
                f"drops {_percent(1 - value)} of the activations and keeps only {_percent(value)}{note}: "
                f"p is already the drop rate, and {_text(node)} converts it to a keep probability"
            )
            self._emit("ms-dropout-keep-prob", bound, (_CallText(bound.call), effect, str(fixed)))
            return
        # a value mslint cannot read: writing ``1 - x`` as p is a deliberate conversion,
        # most often of a keep probability carried over from keep_prob (MindSpore 1.x
        # ports: ``keep_prob=dropout`` became ``p=1 - dropout``), whatever x is named;
        # configuration files out of sight decide it, so the rule stays silent

    # -- ms-batchnorm-momentum ---------------------------------------------

    def _check_momentum(self, bound: _Bound) -> None:
        node = bound.get("momentum")
        if node is None:
            return
        if _statistics_unused(bound):
            return  # a BatchNorm subclass whose construct never updates the moving statistics
        running = bound.api.momentum_meaning == "running"

        def harmful(momentum: object) -> bool:
            return is_number(momentum) and 0 <= momentum <= 1 and (momentum < 0.5 if running else momentum > 0.5)

        value, note = self._momentum_value(bound, node, harmful)
        if not harmful(value):
            return
        if _converted_from_comment(bound.call, value):
            return  # the PyTorch original kept as a comment beside it, with the complement
        converted = _number_text(1 - value)
        fixed = _CallText(bound.call)
        fixed.set(bound, "momentum", converted)
        if running:
            effect = (
                f"keeps only {_percent(value)} of the running statistics at each step{note} (MindSpore's momentum "
                f"weights the running average: PyTorch's momentum={_number_text(value)} is MindSpore's {converted})"
            )
        else:
            effect = (
                f"weights each new batch by {_percent(value)}{note} (mint follows PyTorch, where momentum weights "
                f"the new batch: MindSpore's nn.{_short(bound.api.torch)} momentum={_number_text(value)} is {converted} here)"
            )
        # the literal is edited where it is written: at the call, or a helper's default
        editable = not note or (values.received(node) is None and values.parameter_default(node) is not None)
        changes = [edits.replace(node, converted)] if editable else None
        if not editable:
            fixed = f"{converted} in place of that {_number_text(value)}"  # where the note says it is written
        self._emit("ms-batchnorm-momentum", bound, (_CallText(bound.call), effect, fixed), changes)

    @staticmethod
    def _momentum_value(bound: _Bound, node: nodes.NodeNG, harmful: Callable[[object], bool]) -> tuple[object, str]:
        """The momentum to judge and where it comes from. Judged with
        use_batch_statistics in each way the program builds the layer: where that is
        False the layer normalises with the moving statistics and never updates
        them, so momentum has no effect (measured); and with has_bn for a block
        that builds its BatchNorm only when it is True (Conv2dBnAct, DenseBnAct)."""
        usage = bound.get("use_batch_statistics")
        # nn.Conv2dBnAct(..., momentum=m) builds its BatchNorm only with has_bn=True (default False)
        needed = bound.get(bound.api.momentum_needs) if bound.api.momentum_needs else None
        if bound.api.momentum_needs and (needed is None or values.constant(needed) is False):
            return UNKNOWN, ""
        flags = [flag for flag in (usage, needed) if flag is not None]
        if usage is not None and values.constant(usage) in (False, True):
            # False: the moving statistics never move; True: they move, but the layer
            # normalises with the batch in evaluation too, and no output reads them
            return UNKNOWN, ""
        ways = values.received_together([node, *flags]) if flags else None
        if ways is None:
            if usage is not None:
                return _default_note(node)
            # no flag, or a has_bn whose ways mslint cannot read: it may be True
            value, note = _judged(node, harmful)
            return (UNKNOWN, "") if value is _NEVER_BUILT else (value, note)
        # the ways the program builds the layer where the moving statistics are read
        # (use_batch_statistics None or unknown) and every has_bn possibly True
        live = [way[0] for way in ways
                if (usage is None or way[1].value not in (False, True))
                and all(flag.value is not False for flag in way[1 + (usage is not None):])]
        value, note = _judged_flows(node, live, harmful)
        return (UNKNOWN, "") if value is _NEVER_BUILT else (value, note)

    # -- ms-torch-positional-args ------------------------------------------

    def _check_positional(self, bound: _Bound) -> None:
        api = bound.api
        call = bound.call
        for trap in api.positional_traps:
            if len(call.args) <= trap.index:
                continue
            node = call.args[trap.index]
            if not _looks_like(node, trap.looks_like):
                continue
            if _mindspore_ordered(bound, trap.index):
                return  # an earlier argument fits only MindSpore's order: the call is written in it
            value = literal(node)
            consequence = trap.consequence.get(repr(value), trap.consequence.get("*", ""))
            # the PyTorch arguments are renamed from the first slot whose parameter
            # moved (nn.TripletMarginLoss(1.0, 2): margin and p both moved)
            start = min(trap.index, _first_moved(api))
            if start < trap.index and "moved" in trap.consequence:
                consequence = trap.consequence["moved"]
            self._emit(
                "ms-torch-positional-args",
                bound,
                (
                    _CallText(call),
                    _ORDINALS[trap.index] if trap.index < len(_ORDINALS) else f"#{trap.index + 1}",
                    spelled(call.func),
                    trap.ms_param,
                    trap.torch_param,
                    consequence,
                    _torch_positionals_fixed(bound, start),
                ),
                # a padding held in a name may be PyTorch's two values, which MindSpore's
                # padding refuses too: the message shows the spelling, no edit is offered
                None if trap.looks_like == "padding" and isinstance(node, nodes.Name) else _torch_positional_edits(bound, start),
                # a trap the generated data found (not one measured to fail when the
                # call runs) may build and run: renaming then changes what it computes
                unsafe=not trap.fails,
            )
            return

    def _check_positional_count(self, call: nodes.Call) -> bool:
        """``nn.ReLU(True)``, ``nn.LeakyReLU(0.2, True)``, ``ops.transpose(x, 0, 1)``: more
        positional arguments than MindSpore's signature binds, where PyTorch's
        counterpart takes them (its inplace, dim1): the call raises TypeError
        (tests/oracle/test_layers.py, test_ms_torch_positional_args_one_too_many_raises_type_error). True when reported."""
        if not self.linter.is_message_enabled("ms-torch-positional-args"):
            return False
        if any(isinstance(argument, nodes.Starred) for argument in call.args):
            return False  # *args: how many it holds is not seen
        qname = resolve.call_name(call)
        limit = apis.POSITIONAL_LIMITS.get(qname) if qname else None
        if limit is None or not len(limit.params) < len(call.args) <= len(limit.torch_params):
            return False
        if versions.older_mindspore_only(call) or values.never_runs(call) or values.guarded_off(call):
            return False  # an older MindSpore's API chosen by a version check, or never built
        index = len(limit.params)
        name = spelled(call.func)
        takes = (f"{name} takes no positional argument" if not limit.params else
                 f"{name} takes {len(limit.params)} positional argument{'s' if len(limit.params) > 1 else ''}: "
                 + ", ".join(limit.params))
        extra = call.args[index:]
        extra_params = limit.torch_params[index:len(call.args)]
        keyword = apis.TORCH_KEYWORD_APIS.get(qname)
        fixes = [keyword.keywords.get(param) if keyword else None for param in extra_params]
        changes = None
        if all(fix is not None and fix.delete for fix in fixes):
            # PyTorch's inplace: deleted, as ms-torch-keyword-args deletes inplace=True
            kept = ", ".join(argument.as_string() for argument in call.args[:index])
            write = f"{name}({kept}): {fixes[0].instead}" if not call.keywords else fixes[0].instead
            edit = _delete_trailing(call, extra)
            changes = [edit] if edit else None
        else:
            write = f"the call in MindSpore's signature, {name}({', '.join(limit.params)})"
        edits.offer("ms-torch-positional-args", call, changes)
        self.add_message("ms-torch-positional-args", node=call, args=(
            _CallText(call), _ORDINALS[index] if index < len(_ORDINALS) else f"#{index + 1}", name,
            f"no parameter ({takes})", extra_params[0], f"{limit.call} raises TypeError", write))
        return True

    # -- ms-torch-argument-type --------------------------------------------

    def _check_argument_types(self, bound: _Bound) -> None:
        for argument, node, note in _refused_arguments(bound):
            fixed = _CallText(bound.call)
            fixed.set(bound, argument.param, _as_tuple(node))
            reason = f"{argument.param} must be {argument.wants}, not PyTorch's {argument.refused}{note}"
            changes = [edits.insert_before(node, "("), edits.insert_after(node, ",)")]
            self._emit("ms-torch-argument-type", bound, (_CallText(bound.call), argument.error, reason, fixed), changes)

    # -- ms-layer-default-differs ------------------------------------------

    def _check_defaults(self, bound: _Bound) -> None:
        if _built_in_construct(bound.call):
            # built in construct at every call (F.instance_norm written with the layer
            # class): its parameters are drawn anew each time and never trained, so
            # a trainable affine or a bias makes no difference; ms-cell-in-construct
            # reports the construction itself
            return
        original: port.OriginalLayer | None | bool = False  # looked up once, when needed
        for diff in bound.api.default_differs:
            if diff.ms_param in bound:
                continue
            if diff.torch_param in bound:
                continue  # written in PyTorch's name (bias=False): ms-torch-keyword-args says how to spell it
            if diff.removed_by_norm and _feeds_normalization(bound.call):
                continue  # Conv -> BatchNorm: the norm subtracts any per-channel bias again
            if diff.ms_param in _INITIALISED_PARAMETER and _weights_replaced(bound.call, _INITIALISED_PARAMETER[diff.ms_param]):
                continue  # net.embedding.embedding_table.set_data(glove): the drawn table is thrown away
            if diff.ms_param in _INITIALISED_PARAMETER and _reinitialised(bound.call, _INITIALISED_PARAMETER[diff.ms_param]):
                continue  # a PreTrainedModel's _init_weights draws every such table again
            if diff.training_only and _only_evaluated(bound.call):
                continue  # an initial draw, parameters that start as the identity: only training moves them
            if original is False:
                original = _original_of(bound)
            against = _against_original(bound, diff, original) if original is not None else _PYTORCH_DEFAULT
            if against is None:
                continue  # the original does what MindSpore's default does, or what it does cannot be read
            torch_name, torch_value, effect, equivalent = against
            name, _, value = (equivalent or diff.torch_equivalent).partition("=")
            fixed = _CallText(bound.call)
            for argument, node, _note in _refused_arguments(bound):
                fixed.set(bound, argument.param, _as_tuple(node))  # nn.LayerNorm((d_model,), ...): one that builds
            fixed.set(bound, name, value)
            self._emit(
                "ms-layer-default-differs",
                bound,
                (
                    _CallText(bound.call),
                    diff.ms_param,
                    diff.ms_default,
                    torch_name or _short(bound.api.torch),
                    diff.torch_param,
                    torch_value or diff.torch_default,
                    effect or diff.effect,
                    fixed,
                ),
            )

    def _emit(self, symbol: str, bound: _Bound, args: tuple, changes: list | None = None, *, unsafe: bool = False,
              fails: bool = False) -> None:
        """Report ``symbol`` at the layer; ``fails``: the harm is a failure at
        construction, which happens whether the layer is trained or not."""
        if values.never_runs(bound.call) or values.guarded_off(bound.call):
            # under a guard every construction in sight makes false, or that its own
            # constants make false (``mod_id = 0`` then ``if mod_id == 4:``): never built
            return
        if symbol in _HARMFUL_WHEN_RUN and _layer_never_read(bound.call):
            return
        if symbol in _HARMFUL_WHEN_TRAINED and not fails and _only_evaluated(bound.call):
            return
        edits.offer(symbol, bound.call, changes, unsafe=unsafe)
        self.add_message(symbol, node=bound.call, args=tuple(str(arg) for arg in args))


# What a global pool's output is fed to: it reduces the map to one value per
# channel, so the pool's stride cannot matter (ms-pool-implicit-stride).
_FLATTENING_NAMES = frozenset({
    "flatten", "Flatten", "squeeze", "Squeeze", "reshape", "Reshape", "view", "mean", "ReduceMean",
    "Dense", "Linear", "fc", "classifier", "head",
})


# Layers between a global pool and its flatten that keep one value per channel.
_ELEMENTWISE_WORDS = ("drop", "relu", "act", "sigmoid", "gelu", "silu", "swish")


def _original_pads_like_same(bound: _Bound, kernel: tuple[int, ...] | None) -> bool:
    """``self.conv = nn.Conv2d(...)`` in class C, where the project keeps the PyTorch
    original of C beside it and its ``self.conv`` pads each dimension by (k - 1) // 2
    of its own odd kernel (or with ``padding="same"``): the port means "same" there
    (the porter may have changed the kernel too), and MindSpore's default gives
    PyTorch's sizes."""
    statement = bound.call.parent
    if not (isinstance(statement, nodes.Assign) and len(statement.targets) == 1 and statement.value is bound.call):
        return False
    attr = astutil.self_attribute(statement.targets[0])
    cls = astutil.enclosing_class(bound.call)
    path = bound.call.root().file
    if attr is None or cls is None or not path or bound.api.family != "conv":
        return False
    padding = port.original_argument(path, cls.name, attr, "padding", 4)
    if padding == "same":
        return True
    size = port.original_argument(path, cls.name, attr, "kernel_size", 2)
    pads, sizes = _ints(padding), _ints(size)
    if pads is None or sizes is None:
        return False
    dims = bound.api.spatial_dims
    pads, sizes = (pads * dims if len(pads) == 1 else pads), (sizes * dims if len(sizes) == 1 else sizes)
    return len(pads) == len(sizes) and all(k % 2 == 1 and p == (k - 1) // 2 for p, k in zip(pads, sizes))


def _refused_without_pad(value: object, allowed: object) -> bool:
    """A pool argument that MindSpore refuses unless pad_mode="pad": a number or a
    tuple of numbers with one other than ``allowed`` (padding 1, dilation 2), or
    True where ``allowed`` is False (ceil_mode, return_indices)."""
    if isinstance(allowed, bool):
        return value is True
    ints = _ints(value)
    return ints is not None and any(v != allowed for v in ints)


def _is_int(value: object) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _refused_arguments(bound: _Bound) -> list[tuple[apis.ArgumentType, nodes.NodeNG, str]]:
    """The arguments of a type the layer refuses (apis.LayerApi.argument_types),
    with a note saying where the value comes from: an int written there, or one the
    program passes (``nn.LayerNorm(d_model)`` in a block built with
    ``Block(d_model=512)``), or a helper parameter's default."""
    refused = []
    for argument in bound.api.argument_types:
        node = bound.get(argument.param)
        if node is None or argument.refused != "int":
            continue
        value, note = _judged(node, _is_int)
        if value is UNKNOWN:  # ``width * 2``: computed from the parameters' defaults
            value = values.constant(node, defaults=True)
        if value is UNKNOWN:
            value, note = _int_by_use(node)
        if value is UNKNOWN:
            value, note = _int_by_use_at_sites(node)
        if _is_int(value):
            refused.append((argument, node, note))
    return refused


# Layer parameters that take a positive int only (MindSpore validates them at
# construction): a name passed there is an int wherever that layer builds.
_INT_ONLY_PARAMETERS = frozenset({"in_channels", "out_channels", "num_features", "vocab_size", "embedding_size"})


def _int_by_use(node: nodes.NodeNG) -> tuple[object, str]:
    """(1, a note) when ``node`` is a name its function never rebinds and also passes
    to a layer parameter that takes only an int (``nn.Dense(d_model, d_ff)`` beside
    ``nn.LayerNorm(d_model)``): if it held a tuple, that layer would refuse it, so
    in a program that builds both it is an int. (UNKNOWN, "") otherwise."""
    if not isinstance(node, nodes.Name):
        return UNKNOWN, ""
    function = node.frame()
    bound = function.locals.get(node.name, ()) if isinstance(function, nodes.FunctionDef) else ()
    if len(bound) != 1:
        return UNKNOWN, ""
    for call in function.nodes_of_class(nodes.Call):
        if call is node.parent or not isinstance(call.func, (nodes.Name, nodes.Attribute)):
            continue
        if not any(isinstance(arg, nodes.Name) and arg.name == node.name for arg in (*call.args, *(k.value for k in call.keywords or ()))):
            continue
        api = apis.LAYER_APIS.get(resolve.qualified_name(call.func) or "")
        args = astutil.bind_by_name(call, api.params) if api is not None and not api.follows_torch else None
        for param, value in (args or {}).items():
            if param in _INT_ONLY_PARAMETERS and isinstance(value, nodes.Name) and value.name == node.name:
                return 1, f" ({node.name} is an int: {spelled(call.func)} takes it as {param}, line {call.lineno})"
    return UNKNOWN, ""


def _int_by_use_at_sites(node: nodes.NodeNG) -> tuple[object, str]:
    """:func:`_int_by_use` one call up: a parameter some construction in sight fills
    with a name that its own function passes to an int-only layer parameter
    (``PreNorm(dim, ...)`` beside ``nn.Dense(dim, n)``, for ``nn.LayerNorm(dim)`` in
    PreNorm). (UNKNOWN, "") otherwise."""
    for found in values.received(node) or ():
        written = found.written
        if found.site is None or not isinstance(written, nodes.Name) or written is node:
            continue
        value, why = _int_by_use(written)
        if value is not UNKNOWN:
            return value, f"{_flow_note(node, found)[:-1]}; {why.strip()[1:]}"
    return UNKNOWN, ""


def _as_tuple(node: nodes.NodeNG) -> str:
    return f"({_text(node)},)"


# What ms-layer-default-differs compares with: PyTorch's default (the table's
# texts), or what the PyTorch original passes (:func:`_against_original`).
_PYTORCH_DEFAULT = (None, None, None, "")


def _original_of(bound: _Bound) -> port.OriginalLayer | None:
    """The layer of the PyTorch original (kept beside the port) that this call
    ports: in the same method of the same class, held by the same ``self.<attr>``,
    or of the same rank among that method's calls of the layer."""
    call = bound.call
    found = astutil.enclosing_method(call)
    path = call.root().file
    if found is None or not path or bound.subclass is not None or not isinstance(call.func, (nodes.Name, nodes.Attribute)):
        return None
    method, cls = found
    qname = resolve.qualified_name(call.func)
    same = sorted(
        (other for other in method.nodes_of_class(nodes.Call)
         if isinstance(other.func, (nodes.Name, nodes.Attribute)) and resolve.qualified_name(other.func) == qname),
        key=lambda other: (other.lineno or 0, other.col_offset or 0),
    )
    statement = call.parent
    attr = None
    if isinstance(statement, nodes.Assign) and len(statement.targets) == 1 and statement.value is call:
        attr = astutil.self_attribute(statement.targets[0])
    index = next((position for position, other in enumerate(same) if other is call), -1)
    return port.original_layer(path, cls.name, method.name, _short(bound.api.torch), index, len(same), attr)


def _against_original(
    bound: _Bound, diff: apis.DefaultDiff, original: port.OriginalLayer,
) -> tuple[str | None, str | None, str | None, str] | None:
    """What the hint compares the MindSpore default with, given the original's layer:
    PyTorch's default where the original leaves the argument out (or keeps the
    initial draw); the original's own value where it passes another (``eps=1e-6``,
    ``uniform_(-0.1, 0.1)`` on the weight), with the MindSpore argument that gives
    it; None where that is MindSpore's default already (``bias=False`` before a
    port whose has_bias defaults to False) or cannot be read or written."""
    where = f"{_short(bound.api.torch)} in its original ({_relative(original.path, bound.call)}:{original.line})"
    if diff.ms_value is None:  # the initial draw: what the original does to it after building it
        redraw = original.redraw()
        if redraw is None:
            return _PYTORCH_DEFAULT
        if redraw.distribution is None:
            return None  # a new table, or a draw MindSpore's initializers do not name
        kind, scale = redraw.distribution
        if kind == "normal" and scale == _EMBEDDING_SIGMA:
            return None
        initializer = f"{'Uniform' if kind == 'uniform' else 'Normal'}({_number_text(scale)})"
        effect = "a table drawn with standard deviation 0.01, not with the original's draw"
        return where, redraw.text, effect, f"{diff.ms_param}={initializer}"
    torch_params = bound.api.torch_params
    position = torch_params.index(diff.torch_param) if diff.torch_param in torch_params else None
    value = original.argument(diff.torch_param, position)
    if value is None:
        return _PYTORCH_DEFAULT
    if value is UNKNOWN or isinstance(value, (list, dict, set)):
        return None
    if value == bound.api.torch_defaults.get(diff.torch_param, UNKNOWN):
        return _PYTORCH_DEFAULT  # PyTorch's default, written out
    converted = diff.torch_values.get(value, UNKNOWN) if diff.torch_values is not None else value
    if converted is UNKNOWN or isinstance(converted, bool) != isinstance(diff.ms_value, bool) \
            or not isinstance(converted, type(diff.ms_value)) and not (is_number(converted) and is_number(diff.ms_value)):
        return None  # not a value the MindSpore parameter takes
    if converted == diff.ms_value:
        return None
    effect = diff.effect_against.format(value=repr(value)) if diff.effect_against else None
    return where, repr(value), effect, f"{diff.ms_param}={converted!r}"


# nn.Embedding's initial draw: N(0, 0.01) (measured)
_EMBEDDING_SIGMA = 0.01


def _relative(path: str, call: nodes.Call) -> str:
    return os.path.relpath(path, os.path.dirname(os.path.abspath(call.root().file)))


def _is_norm_call(node: nodes.NodeNG | None, through_factory: bool = True) -> bool:
    """A call that builds a BatchNorm/InstanceNorm: written as one, through a
    name whose every value is one (``norm_layer(c)`` in ``def block(c,
    norm_layer=nn.BatchNorm2d)`` where no call in sight passes another class), or
    through a function of the project that returns one and nothing else
    (``def _bn(channel): return nn.BatchNorm2d(channel, momentum=0.9)``, the
    model zoo's ResNet)."""
    attr = astutil.self_attribute(node) if isinstance(node, nodes.Attribute) else None
    if attr is not None and through_factory:
        # ``SequentialCell(conv, self.norm, act)``: every value the class gives self.norm
        cls = astutil.enclosing_class(node)
        stored = [assign.value for assign in cls.nodes_of_class(nodes.Assign)
                  if len(assign.targets) == 1 and astutil.self_attribute(assign.targets[0]) == attr] if cls else []
        return bool(stored) and all(_is_norm_call(value, through_factory=False) for value in stored)
    if not (isinstance(node, nodes.Call) and isinstance(node.func, (nodes.Name, nodes.Attribute))):
        return False
    named = values.classes_named(node.func)
    if named and all(qname in apis.MEAN_REMOVING_NORMS or _per_channel_group_norm(node, qname) for qname in named):
        return True
    subclass = resolve.user_class_of_call(node)
    if subclass is not None:
        return _norm_subclass(node, subclass)
    factory = resolve.project_callee(node.func) if through_factory else None
    if factory is None or isinstance(factory.parent, nodes.ClassDef):
        return False
    returned = _factory_returns(factory)
    return bool(returned) and all(_is_norm_call(value, through_factory=False) for value in returned)


def _per_channel_group_norm(call: nodes.Call, qname: str | None) -> bool:
    """``nn.GroupNorm(c, c)``: as many groups as channels, each group one channel,
    whose mean it subtracts (an instance norm): a per-channel bias before it
    cancels out. Read where both arguments are written the same way."""
    if qname not in apis.GROUP_NORMS:
        return False
    groups, channels = astutil.argument(call, 0, "num_groups"), astutil.argument(call, 1, "num_channels")
    return isinstance(groups, nodes.NodeNG) and isinstance(channels, nodes.NodeNG) \
        and groups.as_string() == channels.as_string()


def _norm_subclass(call: nodes.Call, cls: nodes.ClassDef) -> bool:
    """A project class deriving from a MindSpore norm (``class _GroupNorm(nn.GroupNorm)``)
    that passes its own arguments on to it unchanged (the same names, in its
    ``super().__init__(num_groups, num_channels, ...)``): judged as that norm, built
    with the call's arguments."""
    user, external = resolve.class_hierarchy(cls)
    if len(user) != 1 or len(external) != 1 or apis.CELL_FORWARD_METHOD in cls.locals:
        return False  # (a construct of its own may compute anything)
    (base,) = external
    if base in apis.MEAN_REMOVING_NORMS:
        return True
    return base in apis.GROUP_NORMS and _per_channel_group_norm(call, base) and _passes_on(cls, ("num_groups", "num_channels"))


def _passes_on(cls: nodes.ClassDef, names: tuple[str, ...]) -> bool:
    """The class's ``__init__`` hands its parameters ``names`` as they are, in that
    order, to its base's ``__init__`` first arguments."""
    init = astutil.own_method(cls, "__init__")
    if init is None:
        return True  # the base's own __init__
    params = [arg.name for arg in init.args.args[1:len(names) + 1]]
    if params != list(names):
        return False
    for call in init.nodes_of_class(nodes.Call):
        func = call.func
        if isinstance(func, nodes.Attribute) and func.attrname == "__init__" and resolve.is_super_call(func.expr):
            given = [arg.as_string() for arg in call.args[:len(names)]]
            return given == list(names)
    return False


def _parameter_layer(func: nodes.NodeNG, known: dict[tuple[nodes.FunctionDef, str], str | None]) -> str | None:
    """The layer class a parameter of the enclosing function names in every way
    the function is reached (``def __init__(self, ..., batch_norm=nn.BatchNorm1d)``
    then ``batch_norm(256, momentum=0.1)``, no construction in sight passing
    another class): what each call passes, the default where a call leaves it out
    or no call is in sight (values.classes_named); None otherwise. ``known``: the
    answers for the module's functions so far (every call of one parameter in one
    function gets the same answer)."""
    if not isinstance(func, nodes.Name):
        return None
    frame = func.frame()
    if not isinstance(frame, nodes.FunctionDef):
        return None
    if not any(param.name == func.name for param in astutil.all_params(frame)):
        return _local_layer(frame, func.name)  # (most calls: no name of the function holds a class)
    if len(frame.locals.get(func.name, ())) != 1:
        return _named_by_parameter(func)  # rebound in the function: each read has its own value
    key = (frame, func.name)
    if key not in known:
        known[key] = _named_by_parameter(func)
    return known[key]


def _built_in_construct(call: nodes.Call) -> bool:
    """The layer is built in a ``construct`` (a new Cell at every call)."""
    frame = call.frame()
    return isinstance(frame, nodes.FunctionDef) and frame.name == apis.CELL_FORWARD_METHOD


def _local_layer(frame: nodes.FunctionDef, name: str) -> str | None:
    """The layer class a local name of ``frame`` holds wherever it is called: every
    assignment of it names a layer class of one kind (``norm_layer = nn.BatchNorm2d``
    in one branch, ``nn.BatchNorm1d`` in the other), judged as the first; None when
    one assignment is anything else or the kinds differ."""
    found = _local_layer_classes(frame, name)
    if not found:
        return None
    kinds = {(api.family, api.momentum_meaning, api.follows_torch) for _, api in found}
    return found[0][0] if len(kinds) == 1 else None


def _local_layer_classes(frame: nodes.FunctionDef, name: str) -> list[tuple[str, apis.LayerApi]]:
    """The layer class each assignment of the local name ``name`` of ``frame``
    names, in order; empty when one of them is anything else."""
    found: list[tuple[str, apis.LayerApi]] = []
    for binding in frame.locals.get(name, ()):
        statement = binding.parent
        if not (isinstance(binding, nodes.AssignName) and isinstance(statement, nodes.Assign)
                and isinstance(statement.value, (nodes.Name, nodes.Attribute))):
            return []
        value = statement.value
        if (value.name if isinstance(value, nodes.Name) else value.attrname) not in _LAYER_SHORT_NAMES:
            return []  # (resolved only when the name is a layer's: no inference for the rest)
        qname = resolve.qualified_name(value)
        api = apis.LAYER_APIS.get(qname) if qname else None
        if api is None:
            return []
        found.append((qname, api))
    return found


def _local_layer_dims(call: nodes.Call) -> list[int]:
    """The spatial dimensions of the layer classes the local name called here holds
    (``conv = nn.Conv2d`` in one branch, ``nn.Conv3d`` in the other: [2, 3]);
    empty for anything else."""
    frame = call.func.frame() if isinstance(call.func, nodes.Name) else None
    if not isinstance(frame, nodes.FunctionDef):
        return []
    return sorted({api.spatial_dims for _, api in _local_layer_classes(frame, call.func.name)})


def _named_by_parameter(func: nodes.Name) -> str | None:
    bound = resolve.binding(func)
    if not (isinstance(bound, nodes.AssignName) and isinstance(bound.parent, nodes.Arguments)):
        return None
    named = values.classes_named(func)
    if not named or None in named or len(set(named)) != 1:
        return None
    qname = named[0]
    return qname if qname in apis.LAYER_APIS else None


def _factory_returns(func: nodes.FunctionDef) -> list[nodes.NodeNG] | None:
    """What a layer factory returns: the value of each ``return`` of its own body
    (nested functions left out); None when a ``return`` gives nothing, or when the
    body can end without one (it then returns None too)."""
    found = list(func.nodes_of_class(nodes.Return, skip_klass=SKIP_NESTED))
    if not found or any(ret.value is None for ret in found) or not isinstance(func.body[-1], (nodes.Return, nodes.Raise)):
        return None
    return [ret.value for ret in found]


def _factory_of(call: nodes.Call) -> nodes.FunctionDef | None:
    """The module-level function that returns ``call``'s layer as it is
    (``return nn.Conv2d(...)``, in any arm of its body), or None."""
    if not isinstance(call.parent, nodes.Return):
        return None
    func = call.frame()
    if not isinstance(func, nodes.FunctionDef) or not isinstance(func.parent, nodes.Module):
        return None
    return func if call in (_factory_returns(func) or ()) else None


def _feeds_normalization(call: nodes.Call, through_factory: bool = True) -> bool:
    """Whether a layer's output goes straight into a BatchNorm/InstanceNorm: the next
    layer of a sequence (``SequentialCell([conv, bn])``, ``SequentialCell(conv, bn)``,
    ``self.append(conv)`` then ``self.append(bn)`` in a SequentialCell), or, for
    ``self.conv =``, every ``self.conv(...)`` in the class is the input of
    ``self.<norm>(...)`` (directly, or through one local name: ``x = self.conv(x);
    x = self.bn(x)``)."""
    following = _next_in_sequence(call)
    if following is not None:
        return _is_norm_call(following)
    factory = _factory_of(call) if through_factory else None
    if factory is not None:
        # ``def _conv3x3(cin, cout): return nn.Conv2d(...)``: every layer the
        # project builds with it feeds a norm (``self.conv1 = _conv3x3(...)`` read
        # by ``self.bn1(self.conv1(x))``, ``SequentialCell([_conv1x1(...), _bn(...)])``)
        built = [site for site, _skips_self in sites.calls_of(factory)]
        return bool(built) and all(_feeds_normalization(site, through_factory=False) for site in built)
    statement = call.statement()
    if not (isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1):
        return False
    if isinstance(statement.targets[0], nodes.AssignName):
        return _local_feeds_normalization(statement.targets[0])
    attr = astutil.self_attribute(statement.targets[0])
    cls = astutil.enclosing_class(call)
    if attr is None or cls is None:
        return False
    uses = [use for use in cls.nodes_of_class(nodes.Call) if astutil.self_attribute(use.func) == attr]
    if not uses:
        return False
    readers = set()
    for use in uses:
        reader = use.parent if isinstance(use.parent, nodes.Call) and use in use.parent.args else None
        if reader is None:
            following = _next_read(use)
            reader = following.parent if following is not None and isinstance(following.parent, nodes.Call) else None
        reader_attr = astutil.self_attribute(reader.func) if reader is not None else None
        if reader_attr is None:
            return False
        readers.add(reader_attr)
    # the readers are looked up only now: what builds them may take a value flow to tell
    for reader_attr in readers:
        if not any(
            len(assign.targets) == 1 and astutil.self_attribute(assign.targets[0]) == reader_attr
            and _is_norm_call(assign.value)
            for assign in cls.nodes_of_class(nodes.Assign)
        ):
            return False
    return True


def _local_feeds_normalization(target: nodes.AssignName) -> bool:
    """``conv1 = nn.Conv2d(...)`` bound once in its function, and every read of
    ``conv1`` is a layer of a sequence whose next layer is a BatchNorm/InstanceNorm,
    written inline or held in a name bound once to one
    (``bn1 = nn.BatchNorm2d(64); nn.SequentialCell([conv1, bn1, relu])``)."""
    scope = target.scope()
    if not isinstance(scope, nodes.FunctionDef) or _bindings(scope, target.name) != 1:
        return False
    reads = [read for read in scope.nodes_of_class(nodes.Name) if read.name == target.name]
    if not reads:
        return False
    for read in reads:
        following = _next_in_sequence(read)
        if following is None:
            return False
        if isinstance(following, nodes.Name):
            following = _only_value(scope, following.name)
        if not _is_norm_call(following):
            return False
    return True


def _bindings(scope: nodes.FunctionDef, name: str) -> int:
    """How many times ``name`` is bound in ``scope`` (a parameter counts as one)."""
    count = sum(1 for node in scope.nodes_of_class(nodes.AssignName) if node.name == name)
    return count + sum(1 for node in scope.nodes_of_class((nodes.Global, nodes.Nonlocal)) if name in node.names)


def _only_value(scope: nodes.FunctionDef, name: str) -> nodes.NodeNG | None:
    """The value of ``name = <value>``, the name's only binding in ``scope``."""
    if _bindings(scope, name) != 1:
        return None
    for node in scope.nodes_of_class(nodes.AssignName):
        if node.name == name:
            assign = node.parent
            if isinstance(assign, nodes.Assign) and len(assign.targets) == 1 and assign.targets[0] is node:
                return assign.value
    return None


def _next_in_sequence(call: nodes.Call) -> nodes.NodeNG | None:
    """The layer that runs right after ``call``'s in a sequence of layers: the next
    entry of a list or tuple display, the next argument of ``SequentialCell(a, b, c)``,
    or the cell the next statement of the block appends to the same sequence
    (``self.append(conv)`` then ``self.append(bn)``); None when it has none."""
    parent = call.parent
    if isinstance(parent, (nodes.List, nodes.Tuple)):
        index = parent.elts.index(call)
        return parent.elts[index + 1] if index + 1 < len(parent.elts) else None
    if isinstance(parent, nodes.Call) and call in parent.args and isinstance(parent.func, (nodes.Name, nodes.Attribute)):
        if resolve.qualified_name(parent.func) in apis.SEQUENTIAL_CELLS_AS_PORTED or _sequential_super_init(parent):
            index = parent.args.index(call)
            following = parent.args[index + 1] if index + 1 < len(parent.args) else None
            return None if isinstance(following, nodes.Starred) else following
        if _added_cell(parent) is call:
            return _next_added(parent)
    return None


def _sequential_super_init(call: nodes.Call) -> bool:
    """``super().__init__(conv, bn, relu)`` (``super(C, self).__init__(...)``) in
    the ``__init__`` of a SequentialCell subclass: its arguments are the layers,
    in order, as for ``SequentialCell(conv, bn, relu)``, while the subclass keeps
    SequentialCell's ``construct``."""
    func = call.func
    if not (isinstance(func, nodes.Attribute) and func.attrname == "__init__" and resolve.is_super_call(func.expr)):
        return False
    method = astutil.enclosing_method(call)
    if method is None or method[0].name != "__init__":
        return False
    cls = method[1]
    return resolve.find_method(cls, apis.CELL_FORWARD_METHOD) is None and resolve.derives_from(
        cls, apis.SEQUENTIAL_CELLS_AS_PORTED)


def _added_cell(call: nodes.Call) -> nodes.NodeNG | None:
    """The cell ``<sequence>.append(cell)`` (or PyTorch's ``add_module(name, cell)``,
    which ms-torch-module-method reports: the port means the same order) adds to a
    sequence: ``self`` in a SequentialCell subclass, or a local name."""
    func = call.func
    if not (isinstance(func, nodes.Attribute) and func.attrname in apis.SEQUENCE_ADDERS and not call.keywords):
        return None
    position = apis.SEQUENCE_ADDERS[func.attrname]
    if len(call.args) != position + 1 or isinstance(call.args[position], nodes.Starred):
        return None
    receiver = func.expr
    if astutil.is_self(receiver):
        cls = astutil.enclosing_class(receiver)
        if cls is None or not resolve.derives_from(cls, apis.SEQUENTIAL_CELLS_AS_PORTED):
            return None
    elif not isinstance(receiver, nodes.Name):
        return None
    return call.args[position]


def _next_added(adding: nodes.Call) -> nodes.NodeNG | None:
    """The cell the next statement of the block adds to the sequence ``adding``
    adds to; None when a statement in between does anything else with it."""
    statement = adding.statement()
    if _adding_call(statement) is not adding:
        return None
    receiver = adding.func.expr.as_string()
    following = statement.next_sibling()
    while following is not None:
        added = _adding_call(following)
        if added is not None and added.func.expr.as_string() == receiver:
            return _added_cell(added)
        if any(name.as_string() == receiver for name in following.nodes_of_class((nodes.Name, nodes.Attribute))):
            return None  # ``if deep: layers.append(...)``: the next layer depends on it
        following = following.next_sibling()
    return None


def _adding_call(statement: nodes.NodeNG) -> nodes.Call | None:
    """``seq.append(cell)`` as a statement (also with a stray trailing comma,
    ``self.add_module("conv", conv),``, a one-element tuple)."""
    if not isinstance(statement, nodes.Expr):
        return None
    value = statement.value
    if isinstance(value, nodes.Tuple) and len(value.elts) == 1:
        value = value.elts[0]
    if isinstance(value, nodes.Call) and _added_cell(value) is not None:
        return value
    return None


def _callee_name(call: nodes.Call) -> str | None:
    func = call.func
    if isinstance(func, nodes.Call):  # ops.Squeeze(3)(x)
        func = func.func
    return func.attrname if isinstance(func, nodes.Attribute) else getattr(func, "name", None)


def _flattens(node: nodes.NodeNG, layer_kinds: dict[str, str]) -> bool:
    """Whether the value of ``node`` goes into a flatten, squeeze, reshape, mean or
    Dense (a call argument, or the receiver of ``.view``/``.squeeze``...), straight
    or through elementwise layers (``x = self.dropout(x)`` between them)."""
    for _ in range(4):
        parent = node.parent
        if isinstance(parent, nodes.Attribute) and isinstance(parent.parent, nodes.Call):
            return parent.attrname in _FLATTENING_NAMES  # pooled.squeeze(), pooled.view(n, -1)
        if not (isinstance(parent, nodes.Call) and node in parent.args):
            return False
        name = _callee_name(parent)
        attr = astutil.self_attribute(parent.func)
        kind = layer_kinds.get(attr, "") if attr is not None else ""
        if name in _FLATTENING_NAMES or kind in _FLATTENING_NAMES:
            return True
        if not any(word in f"{name} {kind}".lower() for word in _ELEMENTWISE_WORDS):
            return False
        following = _next_read(parent)
        if following is None:
            return isinstance(parent.parent, nodes.Call) and _flattens(parent, layer_kinds)
        node = following
    return False


def _output_flattened(pooled: nodes.Call) -> bool:
    """What the pooling call ``pooled`` gives is flattened: directly, or through the
    name it is assigned to (``pooled = ...`` then ``pooled.view(n, -1)``)."""
    if _flattens(pooled, {}):
        return True
    following = _next_read(pooled)
    return following is not None and _flattens(following, {})


def _next_read(value: nodes.NodeNG) -> nodes.Name | None:
    """``y = value``: the first read of ``y`` after it, in the same function."""
    target = astutil.local_target(value)
    if target is None:
        return None
    holder, name = value.parent, target.name
    reads = [
        read for read in holder.scope().nodes_of_class(nodes.Name)
        if read.name == name and (read.lineno or 0) > (holder.lineno or 0) and not _other_arm(holder, read)
    ]
    return min(reads, key=lambda read: (read.lineno, read.col_offset)) if reads else None


def _other_arm(first: nodes.NodeNG, later: nodes.NodeNG) -> bool:
    """Whether ``later`` sits in the other arm of an ``if`` whose one arm holds
    ``first``: it never runs after it (``if se: x = self.conv1_2(x) else: x =
    self.conv1(x)``, then ``x = self.bn1(x)`` is what reads the arm's x)."""
    arms = {}
    node = first
    while node.parent is not None:
        if isinstance(node.parent, nodes.If):
            arms[node.parent] = node in node.parent.body
        node = node.parent
    node = later
    while node.parent is not None:
        taken = arms.get(node.parent)
        if taken is not None:
            return taken != (node in node.parent.body) and node is not node.parent.test
        node = node.parent
    return False


def _wrong_rank_kernel(bound: _Bound) -> bool:
    """A pool whose kernel_size is a tuple of more numbers than it has spatial
    dimensions, or any tuple for a 1-d pool: MaxPool2d(kernel_size=(1, 2, 2)) raises
    ValueError at construction, AvgPool2d at its first call, MaxPool1d((2, 2)) TypeError
    (measured)."""
    if "kernel_size" not in bound:
        return False
    kernel = bound.value("kernel_size")
    if not isinstance(kernel, (tuple, list)):
        return False
    return bound.api.spatial_dims == 1 or len(kernel) > bound.api.spatial_dims


def _appended_next(call: nodes.Call) -> nodes.NodeNG | None:
    """For ``call`` the one argument of a statement ``<list>.append(call)``: what the
    next statement of the same block appends to the same list (``<list>.append(x)``:
    ``x``); None otherwise."""
    parent = call.parent
    if not (isinstance(parent, nodes.Call) and parent.args == [call] and not parent.keywords
            and isinstance(parent.func, nodes.Attribute) and parent.func.attrname == "append"
            and isinstance(parent.parent, nodes.Expr)):
        return None
    target = astutil.attribute_path(parent.func.expr)
    following = parent.parent.next_sibling()
    if target is None or not (isinstance(following, nodes.Expr) and isinstance(following.value, nodes.Call)):
        return None
    then = following.value
    if not (isinstance(then.func, nodes.Attribute) and then.func.attrname == "append" and len(then.args) == 1
            and not then.keywords and astutil.attribute_path(then.func.expr) == target):
        return None
    return then.args[0]


def _is_global_pool(call: nodes.Call) -> bool:
    """A pool whose output is flattened, squeezed, reshaped, averaged or fed to a Dense:
    the next entry of a layer list (written out, or appended by the next statement),
    what ``self.<attr>(x)`` returns in the class, or what a pool built and called
    inline returns."""
    parent = call.parent
    if isinstance(parent, nodes.Call) and parent.func is call:
        # built and called inline: ``pooled = nn.AvgPool2d(kernel_size=(h, h))(x)``,
        # then ``pooled.view(pooled.shape[0], -1)``
        return _output_flattened(parent)
    if isinstance(parent, (nodes.List, nodes.Tuple)):
        index = parent.elts.index(call)
        following = parent.elts[index + 1:index + 2]
        return bool(following) and isinstance(following[0], nodes.Call) and \
            _callee_name(following[0]) in _FLATTENING_NAMES
    appended = _appended_next(call)
    if appended is not None:
        # a layer list built by appends: ``layers.append(nn.AvgPool2d(...))``, then
        # ``layers.append(nn.Flatten())`` as the next statement
        return isinstance(appended, nodes.Call) and _callee_name(appended) in _FLATTENING_NAMES
    statement = call.statement()
    if not (isinstance(statement, nodes.Assign) and statement.value is call and len(statement.targets) == 1):
        return False
    attr = astutil.self_attribute(statement.targets[0])
    found = astutil.enclosing_method(call)
    if attr is None or found is None:
        return False
    cls = found[1]
    layer_kinds: dict[str, str] = {}
    for assign in cls.nodes_of_class(nodes.Assign):
        if len(assign.targets) == 1 and isinstance(assign.value, nodes.Call):
            target = astutil.self_attribute(assign.targets[0])
            if target is not None:
                layer_kinds[target] = _callee_name(assign.value) or ""
    uses = [
        use for use in cls.nodes_of_class(nodes.Call)
        if astutil.self_attribute(use.func) == attr
    ]
    if not uses:
        return False
    for use in uses:
        if _flattens(use, layer_kinds):
            continue
        # ``pooled = self.pool(x)`` and the next statement flattens ``pooled``
        following = _next_read(use)
        if following is None or not _flattens(following, layer_kinds):
            return False
    return True


# -- autofix edits (mslint.analysis.edits): each rule's fix is declared in mslint/knowledge/manifest.py

def _set(bound: _Bound, name: str, text: str, before: str | None = None) -> edits.Edit | None:
    return edits.set_argument(bound.call, bound.get(name), name, text, before)


def _string_padding_edits(bound: _Bound, padding: str) -> list | None:
    """padding="same" -> pad_mode="same" (the keyword renamed when the call has no
    pad_mode; else padding deleted and pad_mode set)."""
    keyword = edits.keyword_named(bound.call, "padding")
    if keyword is None or literal(keyword.value) != padding:
        return None  # positional, or a name whose value is the string
    mode = padding.lower()
    if "pad_mode" not in bound:
        return [edits.rename_keyword(keyword, "pad_mode") if mode == padding else edits.replace(keyword, f"pad_mode={_quoted(mode)}")]
    return [edits.delete_argument(bound.call, keyword), edits.replace(bound.args["pad_mode"], _quoted(mode))]


def _stride_edits(bound: _Bound) -> list | None:
    """stride=<kernel_size as written>, right after kernel_size; only for a kernel
    size that can be written twice (a literal or a name)."""
    kernel = bound.args["kernel_size"]
    text = _segment(kernel)
    if text is None or (literal(kernel) is UNKNOWN and not isinstance(kernel, (nodes.Name, nodes.Attribute))):
        return None
    after = edits.keyword_named(bound.call, "kernel_size") or kernel
    return [edits.insert_after(after, f", stride={text}")]


def _rate_edits(bound: _Bound, node: nodes.NodeNG) -> list | None:
    """The drop rate given as keep_prob becomes ``p=`` (a keyword renamed, or the
    positional value named)."""
    keyword = edits.keyword_named(bound.call, "keep_prob")
    if keyword is not None:
        return [edits.rename_keyword(keyword, "p")]
    if len(bound.call.args) != 1:
        return None  # a keyword before later positionals would not parse
    return [edits.insert_before(node, "p=")]


def _delete_trailing(call: nodes.Call, extra: list) -> edits.Edit | None:
    """Delete the last positional arguments ``extra`` with the comma before them
    (``nn.LeakyReLU(0.2, True)`` -> ``nn.LeakyReLU(0.2)``), or all of them when
    nothing else is passed (``nn.ReLU(True)`` -> ``nn.ReLU()``)."""
    first, last = extra[0], extra[-1]
    if first is not call.args[0]:
        before = call.args[call.args.index(first) - 1]
        return edits.Edit(before.end_lineno, before.end_col_offset, last.end_lineno, last.end_col_offset, "")
    if call.keywords:
        return None
    return edits.Edit(first.lineno, first.col_offset, last.end_lineno, last.end_col_offset, "")


def _torch_positional_edits(bound: _Bound, index: int) -> list | None:
    """The PyTorch positional arguments from ``index`` on, as MindSpore keywords
    (PyTorch's padding becomes pad_mode="pad", padding=...; a PyTorch default
    with no MindSpore counterpart is deleted); None when one has no counterpart."""
    api = bound.api
    call = bound.call
    changes: list = []
    for position in range(index, len(call.args)):
        node = call.args[position]
        torch_param = api.torch_params[position] if position < len(api.torch_params) else None
        ms_param = api.torch_to_ms.get(torch_param) if torch_param else None
        if ms_param is None and _droppable(api, torch_param, node):
            changes.append(edits.delete_argument(call, node))
        elif ms_param is None:
            return None
        elif torch_param == "padding" and ms_param == "padding":
            if _all_zero(node):
                changes.append(edits.replace(node, 'pad_mode="valid"'))
            else:
                converted = _padding_for_mindspore(node, _per_side_dims(api), displays=True)
                if converted is None:
                    return None  # no exact rewrite
                if converted == _segment(node):
                    changes.append(edits.insert_before(node, 'pad_mode="pad", padding='))
                else:
                    changes.append(edits.replace(node, f'pad_mode="pad", padding={converted}'))
        else:
            changes.append(edits.insert_before(node, f"{ms_param}="))
    if _given_twice(call, _torch_positional_keywords(bound, index)):
        return None  # a keyword the call already has: the fix would repeat it (SyntaxError)
    return changes


def _droppable(api: apis.LayerApi, torch_param: str | None, node: nodes.NodeNG) -> bool:
    """Whether a PyTorch argument without a MindSpore counterpart can go: it holds
    PyTorch's default, or it is PyTorch's ``inplace`` flag (MindSpore's layer
    computes out of place and returns the same values either way)."""
    if torch_param is None:
        return False
    return torch_param == "inplace" or literal(node) == api.torch_defaults.get(torch_param, UNKNOWN)


def _torch_positional_keywords(bound: _Bound, index: int) -> list[str]:
    """The keywords the PyTorch positional arguments from ``index`` on become."""
    names = []
    for position in range(index, len(bound.call.args)):
        torch_param = bound.api.torch_params[position] if position < len(bound.api.torch_params) else None
        ms_param = bound.api.torch_to_ms.get(torch_param) if torch_param else None
        if torch_param == "padding" and ms_param == "padding":
            names += ["pad_mode", "padding"]
        elif ms_param is not None:
            names.append(ms_param)
    return names


def _given_twice(call: nodes.Call, names: list[str]) -> str | None:
    """The first of ``names`` the call already passes as a keyword."""
    given = {keyword.arg for keyword in call.keywords or ()}
    return next((name for name in names if name in given), None)


def _torch_positionals_fixed(bound: _Bound, index: int) -> str:
    """The call with the PyTorch positional arguments from ``index`` on written as
    MindSpore keywords, or a hint when one of them has no MindSpore counterpart."""
    api = bound.api
    call = bound.call
    keywords: list[tuple[str, str]] = []
    for position in range(index, len(call.args)):
        node = call.args[position]
        torch_param = api.torch_params[position] if position < len(api.torch_params) else None
        ms_param = api.torch_to_ms.get(torch_param) if torch_param else None
        if ms_param is None and _droppable(api, torch_param, node):
            continue  # PyTorch's default (padding_mode="zeros"), or its inplace flag: nothing to write
        if ms_param is None:
            return f"keyword arguments (MindSpore's order is {', '.join(api.params[:len(call.args)])})"
        if torch_param == "padding" and ms_param == "padding":
            if _all_zero(node):
                keywords.append(("pad_mode", _quoted("valid")))
            else:
                converted = _padding_for_mindspore(node, _per_side_dims(api), displays=True)
                if converted is None:
                    return f"keyword arguments: pad_mode=\"pad\" and padding as an int or a tuple of {2 * api.spatial_dims}"
                keywords += [("pad_mode", _quoted("pad")), ("padding", converted)]
            continue
        keywords.append((ms_param, _text(node)))
    twice = _given_twice(call, [name for name, _ in keywords])
    if twice:
        return f"keyword arguments, each once ({twice} is already given)"
    fixed = _CallText(call)
    fixed.keywords_from(index, keywords)
    return str(fixed)


def register(linter: PyLinter) -> None:
    linter.register_checker(LayersChecker(linter))


# ops.avg_pool1d/2d/3d's keywords (MindSpore 2.10; tests/oracle/test_layers.py reads them)
_FUNCTIONAL_POOL_PARAMETERS = frozenset(
    {"input_x", "kernel_size", "stride", "padding", "ceil_mode", "count_include_pad", "divisor_override"})


def _torch_shaped(padding: object, dims: int) -> bool:
    """A padding tuple in PyTorch's shape, one value per spatial dimension
    (``(1, 1)`` for a 2-D layer), which MindSpore's Conv layers refuse: they want
    one per side, and a 1-D layer an int."""
    return isinstance(padding, tuple) and (len(padding) == dims or dims == 1)


def _per_side(padding: Sequence[object], dims: int) -> str | None:
    """PyTorch's padding, one value (or expression text) per dimension, as
    MindSpore's: an int for a 1-D layer, else one value per side; None for a 1-D
    tuple of unequal sides (no int says it)."""
    if dims == 1:
        return str(padding[0]) if len(set(padding)) == 1 else None
    return "(" + ", ".join(str(value) for value in padding for _ in range(2)) + ")"


# ---------------------------------------------------------------------------
# ms-batchnorm-set-after-build
# ---------------------------------------------------------------------------
# what a BatchNorm built with the defaults holds in each attribute (it keeps 1 - momentum)
_BATCHNORM_DEFAULT_ATTRIBUTES = {
    "momentum": 1 - apis.LAYER_APIS["mindspore.nn.BatchNorm2d"].defaults["momentum"],
    "eps": apis.LAYER_APIS["mindspore.nn.BatchNorm2d"].defaults["eps"],
}


def _batchnorm_classes(node: nodes.NodeNG) -> bool:
    """``node`` names mindspore.nn BatchNorm classes only (a class or a tuple of them)."""
    items = node.elts if isinstance(node, nodes.Tuple) else [node]
    return bool(items) and all(isinstance(item, (nodes.Name, nodes.Attribute))
                               and resolve.qualified_name(item) in apis.BATCHNORM_OPERATOR_CLASSES for item in items)


def _isinstance_of_batchnorm(test: nodes.NodeNG, name: str) -> bool:
    """``isinstance(name, nn.BatchNorm2d)`` is the test, or one operand of its ``and``."""
    operands = test.values if isinstance(test, nodes.BoolOp) and test.op == "and" else [test]
    return any(isinstance(operand, nodes.Call) and isinstance(operand.func, nodes.Name) and operand.func.name == "isinstance"
               and len(operand.args) == 2 and isinstance(operand.args[0], nodes.Name) and operand.args[0].name == name
               and _batchnorm_classes(operand.args[1]) for operand in operands)


def _builds_batchnorm(value: nodes.NodeNG) -> bool:
    return isinstance(value, nodes.Call) and isinstance(value.func, (nodes.Name, nodes.Attribute)) \
        and resolve.qualified_name(value.func) in apis.BATCHNORM_OPERATOR_CLASSES


def _built_batchnorm(receiver: nodes.NodeNG) -> bool:
    """Whether ``receiver`` is a mindspore.nn BatchNorm layer already built: a name
    tested by an enclosing ``if isinstance(m, nn.BatchNorm2d)`` (the assignment in
    its body), a local bound only to BatchNorm constructions, or ``self.bn`` that
    the class binds only to BatchNorm constructions."""
    if isinstance(receiver, nodes.Name):
        if any(_isinstance_of_batchnorm(test, receiver.name) for test in astutil.guarding_tests(receiver)):
            return True
        bound = receiver.frame().locals.get(receiver.name, ())
        return bool(bound) and all(isinstance(name, nodes.AssignName) and isinstance(name.parent, nodes.Assign)
                                   and _builds_batchnorm(name.parent.value) for name in bound)
    if isinstance(receiver, nodes.Attribute) and astutil.is_self(receiver.expr):
        frame = receiver.frame()
        owner = frame.parent if isinstance(frame, nodes.FunctionDef) else None
        if not isinstance(owner, nodes.ClassDef):
            return False
        # every ``self.<attr> = ...`` of the class (the command builds no instance_attrs)
        bound = values.self_assignments_of(owner, receiver.attrname)
        return bool(bound) and all(isinstance(name.parent, nodes.Assign) and _builds_batchnorm(name.parent.value)
                                   for name in bound)
    return False
