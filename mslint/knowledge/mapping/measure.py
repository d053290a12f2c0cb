"""Measure the mapping against the installed frameworks (introspection only).

What the mapping pages say is checked with the frameworks themselves: every
MindSpore API they name must import; the parameters of both sides are read with
:func:`inspect.signature` (a class: its ``__init__``; MindSpore's optimizers
hide theirs behind a decorator, unwrapped here), or, for C functions and Tensor
methods without one, from the signature lines their docstrings open with
(``sum(input, *, dtype=None) -> Tensor``). Nothing is called.

Only ``generate.py`` and the ``frameworks`` tests import this module: it imports
torch and mindspore (lazily, in :func:`resolve`).
"""

from __future__ import annotations

import ast
import importlib
import inspect
import re
import warnings

# A parameter as stored: [name, kind, default text or None]. Kinds:
# "p" positional only, "pk" positional or keyword, "k" keyword only,
# "*" variadic positional, "**" variadic keyword.
_KINDS = {
    inspect.Parameter.POSITIONAL_ONLY: "p",
    inspect.Parameter.POSITIONAL_OR_KEYWORD: "pk",
    inspect.Parameter.KEYWORD_ONLY: "k",
    inspect.Parameter.VAR_POSITIONAL: "*",
    inspect.Parameter.VAR_KEYWORD: "**",
}
_MISSING = object()


def resolve(qname: str) -> object:
    """The object a dotted name names, importing the longest module prefix;
    ``_MISSING`` when it does not exist."""
    parts = qname.split(".")
    module = None
    for end in range(len(parts), 0, -1):
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                module = importlib.import_module(".".join(parts[:end]))
        except Exception:  # noqa: BLE001 - not a module (or one that fails to import)
            continue
        break
    if module is None:
        return _MISSING
    obj = module
    for part in parts[end:]:
        try:
            obj = getattr(obj, part)
        except Exception:  # noqa: BLE001 - a missing attribute, or a property that raises
            return _MISSING
    return obj


def exists(qname: str) -> bool:
    return resolve(qname) is not _MISSING


def _unwrapped_init(cls: type) -> object | None:
    """The ``__init__`` a class really runs, decorators unwrapped (MindSpore's
    optimizers register their arguments through a decorator whose wrapper takes
    ``*args, **kwargs``); None when only ``object.__init__`` is there."""
    for klass in cls.__mro__:
        init = klass.__dict__.get("__init__")
        if init is None or klass is object:
            continue
        return _unwrap(init, "__init__")
    return None


def _forwarded_params(cls: type) -> list[list] | None:
    """``def __init__(self, *args, **kwargs): super().__init__('LSTM', *args,
    **kwargs)`` (MindSpore's LSTM, GRU, RNN): the base's parameters after the
    ones the class passes itself."""
    init = cls.__dict__.get("__init__")
    try:
        source = inspect.getsource(init)
    except (OSError, TypeError):
        return None
    match = re.search(r"super\([^)]*\)\.__init__\(([^*()]*)\*args\s*,\s*\*\*kwargs\)", source)
    if match is None:
        return None
    passed = len([part for part in match.group(1).split(",") if part.strip()])
    for base in cls.__mro__[1:]:
        if "__init__" in base.__dict__:
            params = _from_inspect(_unwrap(base.__dict__["__init__"], "__init__"), drop_self=True)
            return params[passed:] if params is not None else None
    return None


def _unwrap(func: object, name: str | None = None, depth: int = 0) -> object:
    """The function a decorator wraps: ``__wrapped__``, or the function of that
    name the wrapper closes over (MindSpore's optimizers' ``__init__``)."""
    func = inspect.unwrap(func) if callable(func) else func
    name = name or getattr(func, "__name__", None)
    if depth > 3:
        return func
    for cell in getattr(func, "__closure__", None) or ():
        try:
            inner = cell.cell_contents
        except ValueError:
            continue
        if inspect.isfunction(inner) and inner.__name__ == name and inner is not func:
            return _unwrap(inner, name, depth + 1)
    return func


def _from_inspect(target: object, drop_self: bool) -> list[list] | None:
    try:
        signature = inspect.signature(target)
    except (TypeError, ValueError):
        return None
    params = []
    for index, param in enumerate(signature.parameters.values()):
        if drop_self and index == 0 and param.name in ("self", "cls"):
            continue
        default = None if param.default is inspect.Parameter.empty else _default_text(param.default)
        params.append([param.name, _KINDS[param.kind], default])
    return params


def _default_text(value: object) -> str:
    if isinstance(value, (int, float, str, bool, type(None), tuple, list)):
        return repr(value)
    name = getattr(value, "__name__", None)
    return name if isinstance(name, str) else repr(value)[:60]


def returns_tensor(obj: object, qname: str) -> bool | None:
    """Whether the API returns a tensor: its return annotation, or the ``-> Tensor``
    of its docstring's signature lines (``-> (Tensor, LongTensor)`` too); None
    when neither says."""
    try:
        annotation = inspect.signature(_unwrap(obj)).return_annotation
        if annotation is not inspect.Signature.empty:
            return "Tensor" in str(annotation)
    except (TypeError, ValueError):
        pass
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return None
    name = re.escape(qname.rsplit(".", 1)[-1])
    for line in doc.splitlines()[:400]:
        match = re.match(r"^\s*(?:\.\.\s+(?:function|method)::\s+)?(?:(?:torch|Tensor)\.)?%s\(.*\)\s*->\s*(.*)$" % name, line)
        if match:
            return "Tensor" in match.group(1)
    return None


def _from_docstring(obj: object, qname: str) -> list[list[list]] | None:
    """Signatures from the lines a docstring opens with, and ``.. function::``
    or ``.. method::`` lines (torch and MindSpore document overloads so)."""
    doc = getattr(obj, "__doc__", None)
    if not isinstance(doc, str):
        return None
    found = []
    pattern = re.compile(
        r"^\s*(?:\.\.\s+(?:function|method)::\s+)?(?:(?:torch|Tensor|mindspore|mint|ops)\.)?%s\((.*)\)\s*(?:->.*)?$"
        % re.escape(qname.rsplit(".", 1)[-1])
    )
    for line in doc.splitlines()[:400]:
        if ">>>" in line or "..." in line:
            continue  # an example, not a signature
        match = pattern.match(line)
        if match is None:
            continue
        params = parse_parameter_list(match.group(1).replace("\\*", "*"), method=".Tensor." in qname)
        if params is not None and params not in found:
            found.append(params)
    return found or None


def parse_parameter_list(text: str, method: bool = False) -> list[list] | None:
    """``input, dim=None, *, out=None`` as stored parameters (None if it does not parse)."""
    if method:
        text = text[len("self, "):] if text.startswith("self, ") else ("" if text == "self" else text)
    try:
        tree = ast.parse(f"def f({text}): pass")
    except SyntaxError:
        return _split_parameters(text)
    args = tree.body[0].args
    params: list[list] = []
    positional = args.posonlyargs + args.args
    defaults = [None] * (len(positional) - len(args.defaults)) + list(args.defaults)
    for index, (arg, default) in enumerate(zip(positional, defaults)):
        kind = "p" if index < len(args.posonlyargs) else "pk"
        params.append([arg.arg, kind, ast.unparse(default) if default is not None else None])
    if args.vararg:
        params.append([args.vararg.arg, "*", None])
    for arg, default in zip(args.kwonlyargs, args.kw_defaults):
        params.append([arg.arg, "k", ast.unparse(default) if default is not None else None])
    if args.kwarg:
        params.append([args.kwarg.arg, "**", None])
    return params


def _split_parameters(text: str) -> list[list] | None:
    """A parameter list that is not Python (``start=0, end, step=1``: torch
    documents overloads in one line): split at top-level commas."""
    params: list[list] = []
    kind = "pk"
    depth, current, parts = 0, [], []
    for char in text + ",":
        if char in "([{":
            depth += 1
        elif char in ")]}":
            depth -= 1
        if char == "," and depth == 0:
            parts.append("".join(current).strip())
            current = []
        else:
            current.append(char)
    for part in parts:
        if not part:
            continue
        if part == "*":
            kind = "k"
            continue
        if part == "/":
            params = [[n, "p", d] for n, _, d in params]
            continue
        name, _, default = part.partition("=")
        name = name.split(":")[0].strip()
        if name.startswith("**"):
            params.append([name[2:], "**", None])
        elif name.startswith("*"):
            params.append([name[1:], "*", None])
            kind = "k"
        elif name.isidentifier():
            params.append([name, kind, default.strip() or None if default else None])
        else:
            return None
    return params


def _schema_overloads(name: str, method: bool) -> list[list[list]]:
    """PyTorch's operator schemas for ``name`` as parameter lists, the way the
    Python binding names them (``self`` is ``input`` of a function, the receiver
    of a method), without the ``out=`` variants."""
    import torch  # noqa: PLC0415

    try:
        schemas = torch._C._jit_get_schemas_for_operator(f"aten::{name}")  # noqa: SLF001 - the binding's own
    except Exception:  # noqa: BLE001
        return []
    found = []
    for schema in schemas:
        arguments = list(schema.arguments)
        if "out" in schema.overload_name or any(a.name == "out" for a in arguments):
            continue
        if method:
            if not arguments or arguments[0].name != "self":
                continue
            arguments = arguments[1:]
        params = []
        for argument in arguments:
            name_ = "input" if argument.name == "self" else argument.name
            default = repr(argument.default_value) if argument.has_default_value() else None
            if default is not None and "ScalarType" in str(argument.type):
                default = "None"  # a dtype code (4 is int64): the binding's default dtype
            params.append([name_, "k" if argument.kwarg_only else "pk", default])
        if params not in found:
            found.append(params)
    return found


def _corrected(documented: list[list[list]], schemas: list[list[list]]) -> list[list[list]]:
    """Docstring overloads with the names and keyword-only marks of the schemas
    (torch documents ``Tensor.div(value)`` where the binding takes ``other``)."""
    if not schemas:
        return documented
    schema_names = {p[0] for params in schemas for p in params}
    keyword_only = {p[0] for params in schemas for p in params if p[1] == "k"} - {
        p[0] for params in schemas for p in params if p[1] == "pk"
    }
    corrected = []
    for params in documented:
        if not params:
            corrected.append(params)
            continue
        closest = max(schemas, key=lambda s: len({p[0] for p in s} & {p[0] for p in params}) - abs(len(s) - len(params)))
        fixed = []
        for index, (name, kind, default) in enumerate(params):
            if kind == "pk" and name not in schema_names and index < len(closest) and closest[index][1] == "pk":
                name = closest[index][0]
            if kind == "pk" and name in keyword_only:
                kind = "k"
            fixed.append([name, kind, default])
        corrected.append(fixed)
    if all(not params for params in corrected):
        corrected = [s for s in schemas if s] or corrected  # ``bitwise_and() -> Tensor``
    return corrected


def signatures(qname: str, obj: object | None = None) -> tuple[str, list[list[list]] | None, str | None]:
    """(kind, overloads, how): kind is "class", "function", "method" (a Tensor
    method), "value" (a dtype, a constant) or "module"; overloads is a list of
    parameter lists, None when neither inspect nor the docstring gives one; how
    says where they come from ("inspect", "docstring", "schema")."""
    if obj is None:
        obj = resolve(qname)
    if inspect.ismodule(obj):
        return "module", None, None
    if inspect.isclass(obj):
        init = _unwrapped_init(obj)
        params = _from_inspect(init, drop_self=True) if init is not None else None
        if params is not None and _only_variadic(params):
            params = _forwarded_params(obj) or params
        if params is None or _only_variadic(params):
            params = _from_inspect(obj, drop_self=False)
        if params is not None and _only_variadic(params) and qname.startswith("torch"):
            params = []  # torch.nn.ReLU-like classes: Module.__init__(*args, **kwargs) takes nothing of its own
        return "class", ([params] if params is not None else None), ("inspect" if params is not None else None)
    if not callable(obj):
        return "value", None, None
    is_method = ".Tensor." in qname
    target = _unwrap(obj)
    params = _from_inspect(target, drop_self=is_method)
    if params is not None and _only_variadic(params):
        inner = _wrapped_function(target)  # mint's view wrappers: mint_view(*args, **kwargs) around flatten
        if inner is not None:
            params = _from_inspect(inner, drop_self=is_method) or params
    kind = "method" if is_method else "function"
    if params is not None and not _only_variadic(params):
        return kind, [params], "inspect"
    documented = _from_docstring(obj, qname)
    how = "docstring" if documented else None
    builtin = inspect.isbuiltin(obj) or type(obj).__name__ == "method_descriptor"
    if qname.startswith("torch.") and builtin:
        corrected = _corrected(documented or [], _schema_overloads(qname.rsplit(".", 1)[-1], is_method))
        if corrected and corrected != documented:
            documented, how = corrected, "docstring+schema" if documented else "schema"
    if documented:
        return kind, documented, how
    return kind, ([params] if params is not None else None), ("inspect" if params is not None else None)


def _wrapped_function(wrapper: object) -> object | None:
    """The one function a ``(*args, **kwargs)`` wrapper closes over, if it is one."""
    inner = [cell.cell_contents for cell in getattr(wrapper, "__closure__", None) or ()
             if _cell_function(cell)]
    return inner[0] if len(inner) == 1 else None


def _cell_function(cell: object) -> bool:
    try:
        return inspect.isfunction(cell.cell_contents)
    except ValueError:
        return False


def _only_variadic(params: list[list]) -> bool:
    """``(*args, **kwargs)``: a wrapper that says nothing of the parameters."""
    return bool(params) and all(kind in ("*", "**") for _, kind, _ in params)


def versions() -> dict[str, str]:
    import mindspore  # noqa: PLC0415 - the measurement needs the frameworks
    import torch  # noqa: PLC0415

    return {"mindspore": mindspore.__version__, "torch": torch.__version__.split("+")[0]}


class Measurer:
    """The installed frameworks, as ``generate.build`` asks about them (cached)."""

    def __init__(self) -> None:
        self._cache: dict[str, dict] = {}

    def _side(self, qname: str) -> dict:
        known = self._cache.get(qname)
        if known is None:
            obj = resolve(qname)
            if obj is _MISSING:
                known = {"exists": False, "kind": None}
            else:
                kind, overloads, how = signatures(qname, obj)
                known = {"exists": True, "kind": kind, "overloads": overloads, "how": how,
                         "signature": overloads[0] if overloads and len(overloads) == 1 else None}
            self._cache[qname] = known
        return known

    def exists(self, qname: str) -> bool:
        return self._side(qname)["exists"]

    def torch_side(self, qname: str) -> dict:
        root = qname.split(".", 1)[0]
        info = dict(self._side(qname))
        if not info["exists"] and resolve(root) is _MISSING:
            info["exists"] = None  # the package is not installed: unknown
        if info["exists"] and info["kind"] in ("function", "method"):
            info["returns_tensor"] = returns_tensor(resolve(qname), qname)
        return info

    def tensor_attributes(self) -> list[str]:
        """Every public attribute of torch.Tensor (methods and properties): what a
        ``.name`` on a tensor can be."""
        import torch  # noqa: PLC0415

        return sorted(name for name in dir(torch.Tensor) if not name.startswith("_"))

    def torch_modules(self) -> list[str]:
        """PyTorch's modules reachable as attributes, two levels deep
        (``torch.nn``, ``torch.nn.functional``, ``torch.backends.cudnn``)."""
        found = set()
        for root in ("torch", "torchvision", "torchaudio", "torchtext"):
            module = resolve(root)
            if module is _MISSING:
                continue
            found.add(root)
            for name in dir(module):
                child = getattr(module, name, None)
                if inspect.ismodule(child) and not name.startswith("_") and child.__name__ == f"{root}.{name}":
                    found.add(f"{root}.{name}")
                    for inner in dir(child):
                        grandchild = getattr(child, inner, None)
                        if inspect.ismodule(grandchild) and not inner.startswith("_") and \
                                grandchild.__name__ == f"{root}.{name}.{inner}":
                            found.add(f"{root}.{name}.{inner}")
        return sorted(found)

    def mindspore_side(self, qname: str) -> dict:
        return self._side(qname)

    def public_torch_apis(self) -> list[str]:
        """Public names of the enumerated PyTorch modules: functions, classes,
        Tensor methods and properties, dtypes."""
        import torch  # noqa: PLC0415

        found = []
        for module_name in ENUMERATED_MODULES:
            module = resolve(module_name)
            if module is _MISSING:
                continue
            public = getattr(module, "__all__", None) if module_name != "torch.Tensor" else None
            names = public if public else [n for n in dir(module) if not n.startswith("_")]
            for name in names:
                try:
                    obj = getattr(module, name)
                except Exception:  # noqa: BLE001
                    continue
                if inspect.ismodule(obj):
                    continue
                qname = f"{module_name}.{name}"
                if module_name == "torch" and not (callable(obj) or isinstance(obj, torch.dtype)):
                    continue
                found.append(qname)
        return found

    def versions(self) -> dict[str, str]:
        return versions()


# The PyTorch modules whose public names are measured even where the pages do
# not list them (a namesake in mint is then the counterpart, by measurement).
ENUMERATED_MODULES: tuple[str, ...] = (
    "torch", "torch.nn", "torch.nn.functional", "torch.optim", "torch.optim.lr_scheduler",
    "torch.linalg", "torch.special", "torch.fft", "torch.Tensor", "torch.utils.data",
)
