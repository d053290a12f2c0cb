"""What an argparse namespace holds where the program fixes its command line.

``parser.parse_args(args=[])`` (or ``parse_args([])``) parses an empty argument
list: a notebook's way of reusing a script's parser. There every option holds
its default, whatever the command line says, so ``args.device_num`` with
``add_argument("--device_num", type=int, default=1)`` is 1 and a guard
``if args.device_num > 1:`` never holds. A namespace parsed from the real
command line (``parse_args()``) holds whatever the user passes: unknown here.

Static and conservative: UNKNOWN (None) whenever a namespace may come from
elsewhere, the option is not found or defined twice with other defaults, the
module writes another value into it, or sets it in a way not read here
(``setattr``, ``vars(args).update``, ``args.__dict__``, ``set_defaults``).
"""

from __future__ import annotations

from astroid import nodes

from mslint.analysis import astutil, resolve

_MAX_DEPTH = 4
# converters argparse applies to a string default, that can be applied here
_CONVERTERS = {"int": int, "float": float, "str": str}
# actions whose default, when none is given, is not None
_ACTION_DEFAULTS = {"store_true": False, "store_false": True}


def option_value(attribute: nodes.Attribute) -> tuple[object, nodes.NodeNG | None] | None:
    """``(value, where it is written)`` of ``args.name`` when every namespace
    ``args`` may hold was parsed from an empty argument list and the option's
    default is known and never overwritten with another value; None else. The
    place is the ``default=`` expression (None for an action's own default)."""
    if not isinstance(attribute.expr, nodes.Name):
        return None
    parses = _parses(attribute.expr, 0, set())
    if not parses:
        return None
    found: list[tuple[object, nodes.NodeNG | None]] = []
    for parse in parses:
        default = _default(parse, attribute.attrname)
        if default is None:
            return None
        found.append(default)
    value = found[0][0]
    if any(other != value or type(other) is not type(value) for other, _ in found[1:]):
        return None
    modules = {attribute.root(), *(parse.root() for parse in parses)}
    if any(_may_write_another(module, attribute.attrname, value) for module in modules):
        return None
    return found[0]


def _parses(expr: nodes.NodeNG, depth: int, seen: set[nodes.NodeNG]) -> list[nodes.Call] | None:
    """The ``parse_args([])`` calls whose namespace ``expr`` may hold: through
    the names it is bound to and the functions that return it (``args =
    get_args()`` whose ``return args`` reads the module's parsed ``args``);
    None when one of its values may come from anything else."""
    if depth > _MAX_DEPTH:
        return None
    if isinstance(expr, nodes.Call):
        if _parses_empty_list(expr):
            return [expr]
        function = _called_function(expr)
        if function is None:
            return None
        returned = [ret.value for ret in function.nodes_of_class(nodes.Return, skip_klass=(nodes.FunctionDef, nodes.Lambda))]
        return _all([_parses(value, depth + 1, seen) if value is not None else None for value in returned])
    if isinstance(expr, nodes.Name):
        bindings = _bindings(expr)
        if not bindings:
            return None
        found: list[list[nodes.Call] | None] = []
        for bound in bindings:
            if bound in seen:
                continue  # a cycle (``args = get_args()`` returning ``args``) adds nothing new
            seen.add(bound)
            assign = bound.parent
            if not (isinstance(bound, nodes.AssignName) and isinstance(assign, nodes.Assign) and assign.targets == [bound]):
                return None  # a parameter, a loop variable, an unpacking: anything
            found.append(_parses(assign.value, depth + 1, seen))
        return _all(found)
    return None


def _all(found: list[list[nodes.Call] | None]) -> list[nodes.Call] | None:
    if any(part is None for part in found):
        return None
    return [call for part in found for call in part]


def _bindings(name: nodes.Name) -> list[nodes.NodeNG]:
    """Every binding of the name in the scope it reads: its function's when the
    function binds it, else the module's (each value a global may hold)."""
    frame = name.frame()
    bound = frame.locals.get(name.name, []) if not isinstance(frame, nodes.Module) else []
    return list(bound or name.root().locals.get(name.name, []))


def _called_function(call: nodes.Call) -> nodes.FunctionDef | None:
    if isinstance(call.func, nodes.Name):
        bound = resolve.binding(call.func)
        if isinstance(bound, nodes.FunctionDef):
            return bound
    if isinstance(call.func, (nodes.Name, nodes.Attribute)):
        return resolve.project_function(call.func)
    return None


def _parses_empty_list(call: nodes.Call) -> bool:
    """``X.parse_args([])`` or ``X.parse_args(args=[])``, nothing else passed."""
    if not (isinstance(call.func, nodes.Attribute) and call.func.attrname == "parse_args"):
        return False
    given = list(call.args) + [keyword.value for keyword in call.keywords or ()]
    if len(given) != 1 or any(keyword.arg not in (None, "args") for keyword in call.keywords or ()):
        return False
    argv = given[0]
    return isinstance(argv, (nodes.List, nodes.Tuple)) and not argv.elts


def _default(parse: nodes.Call, dest: str) -> tuple[object, nodes.NodeNG | None] | None:
    """The default of option ``dest`` among the ``add_argument`` calls of the
    parse's module (they must agree); None when unknown."""
    found: list[tuple[object, nodes.NodeNG | None]] = []
    for call in _argument_calls(parse.root()):
        option = _destination(call)
        if option is None:
            return None  # an option whose name cannot be read may be this one
        if option != dest:
            continue
        default = _option_default(call)
        if default is None:
            return None
        found.append(default)
    if not found or any(value != found[0][0] for value, _ in found[1:]):
        return None
    return found[0]


def _argument_calls(module: nodes.Module) -> list[nodes.Call]:
    return [
        call for call in astutil.module_nodes(module, nodes.Call)
        if isinstance(call.func, nodes.Attribute) and call.func.attrname == "add_argument"
    ]


def _destination(call: nodes.Call) -> str | None:
    """The namespace attribute an ``add_argument`` call fills (argparse's rule:
    ``dest=``, else the first long option, else the first short one)."""
    for keyword in call.keywords or ():
        if keyword.arg is None:
            return None
        if keyword.arg == "dest":
            return keyword.value.value if isinstance(keyword.value, nodes.Const) and isinstance(keyword.value.value, str) else None
    names = []
    for arg in call.args:
        if not (isinstance(arg, nodes.Const) and isinstance(arg.value, str)):
            return None
        names.append(arg.value)
    if not names:
        return None
    chosen = next((name for name in names if name.startswith("--")), names[0])
    return chosen.lstrip("-").replace("-", "_")


def _option_default(call: nodes.Call) -> tuple[object, nodes.NodeNG | None] | None:
    """What an option holds when the command line does not give it."""
    keywords = {keyword.arg: keyword.value for keyword in call.keywords or ()}
    if _constant(keywords.get("required")) is True:
        return None  # parsing [] fails
    if all(isinstance(arg, nodes.Const) and not str(arg.value).startswith("-") for arg in call.args):
        return None  # a positional argument: [] does not parse
    written = keywords.get("default")
    if written is None:
        action = _constant(keywords.get("action"))
        return (_ACTION_DEFAULTS.get(action), None) if action is None or action in _ACTION_DEFAULTS else None
    value = astutil.literal(written)
    if value is astutil.UNKNOWN:
        return None
    if isinstance(value, str) and "type" in keywords:
        converter = keywords["type"]
        convert = _CONVERTERS.get(converter.name) if isinstance(converter, nodes.Name) else None
        if convert is None:
            return None
        try:
            value = convert(value)
        except ValueError:
            return None
    return value, written


def _constant(node: nodes.NodeNG | None) -> object:
    return node.value if isinstance(node, nodes.Const) else None


def _may_write_another(module: nodes.Module, dest: str, value: object) -> bool:
    """Whether the module may give a namespace's ``dest`` another value than
    ``value``: an assignment of anything else (``args.device_num = 8``,
    ``x.device_num += 1``), ``setattr``, ``vars(args).update``, ``.__dict__``,
    or ``set_defaults``."""
    for node in astutil.module_nodes(module, (nodes.AssignAttr, nodes.Call, nodes.Attribute)):
        if isinstance(node, nodes.AssignAttr):
            if node.attrname != dest or isinstance(node.expr, nodes.Name) and node.expr.name == "self":
                continue  # another attribute, or an object's own (``self.device_num = args.device_num``)
            assign = node.parent
            if not (isinstance(assign, nodes.Assign) and assign.targets == [node]):
                return True
            written = astutil.literal(assign.value)
            if written is astutil.UNKNOWN or written != value:
                return True
        elif isinstance(node, nodes.Call):
            func = node.func
            if isinstance(func, nodes.Name) and func.name == "setattr":
                return True
            if isinstance(func, nodes.Attribute) and (func.attrname == "set_defaults" or func.attrname == "update" and (
                    isinstance(func.expr, nodes.Call) and isinstance(func.expr.func, nodes.Name) and func.expr.func.name == "vars")):
                return True
        elif node.attrname == "__dict__":
            return True
    return False
