"""Which devices one file selects: the values its ``set_context(device_target=...)``
and ``set_device(...)`` calls may give, read statically for the program model
(mslint.analysis.programs), which asks whether a program may run on Ascend.

A value is read as a literal (``"Ascend"``, ``"GPU"``, ``"CPU"``, in any case),
both branches of ``a if c else b``, a name assigned in the same function or at
module level, a parameter default, a module constant, an argparse option of
the same file (its default and its choices: what it may select), an
environment switch read with a default (``os.getenv("DEVICE", "Ascend")``);
``args.device_target`` / ``cfg["device_target"]`` that the file cannot read are
kept by name (:attr:`DeviceCall.options`) for the program model, which reads
them from the program's argparse options and configuration files. Anything
else is UNKNOWN: the rules that ask stay silent when unsure.

Where each call runs is told as in mslint.analysis.mode (ContextCall.runs): on
import, only as a script, or when the named module-level function or class is
called. Files are parsed with the standard library's ``ast``; no user code runs.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from mslint.analysis.mode import AS_SCRIPT, ON_IMPORT, UNKNOWN, argparse_options, is_main_guard, last_name

ASCEND, GPU, CPU = "Ascend", "GPU", "CPU"
_DEVICES = {name.lower(): name for name in (ASCEND, GPU, CPU)}
# str methods that change a value's spelling, not the device it names
_SPELLINGS = frozenset({"lower", "upper", "strip", "capitalize", "title"})


@dataclass(frozen=True)
class DeviceCall:
    """One device setting of a file: what it may select and when it runs."""

    devices: frozenset[str]  # ASCEND, GPU, CPU, UNKNOWN
    runs: str = ON_IMPORT
    line: int = 0
    # options the value comes from that the file cannot read (``args.device_target``)
    options: tuple[str, ...] = ()


def constant_device(value: object) -> str:
    """The device a literal names, else UNKNOWN."""
    if isinstance(value, str):
        return _DEVICES.get(value.strip().strip("'\"").lower(), UNKNOWN)
    return UNKNOWN


def device_calls_of_tree(tree: ast.Module) -> tuple[DeviceCall, ...]:
    """The device settings of a parsed file, each with when it runs."""
    reader = _DeviceReader(tree)
    return tuple(
        DeviceCall(call.devices, ON_IMPORT, call.line, call.options) if call.runs in reader.called_on_import else call
        for call in reader.calls
    )


class _DeviceReader(ast.NodeVisitor):
    def __init__(self, tree: ast.Module) -> None:
        self.calls: list[DeviceCall] = []
        self.called_on_import: set[str] = set()  # names the module's top level calls
        self.arguments = argparse_options(tree)
        self._runs = ON_IMPORT
        self._functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        # the values each name is given in the module and in each function being visited
        self._assigned: list[dict[str, list[ast.expr]]] = [{}]
        self._options: list[str] = []
        # module-level values by name, wherever they are given (a function may read one given below it)
        self.constants: dict[str, list[ast.expr]] = {}
        for statement in tree.body:
            if isinstance(statement, ast.Assign):
                for target in statement.targets:
                    if isinstance(target, ast.Name):
                        self.constants.setdefault(target.id, []).append(statement.value)
        self.visit(tree)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self._functions.append(node)
        self._assigned.append({})
        self._visit_deferred(node)
        self._assigned.pop()
        self._functions.pop()

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._visit_deferred(node)

    def _visit_deferred(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        """Code in a definition runs when the module-level function or class holding it is called."""
        runs = self._runs
        if runs == ON_IMPORT:
            self._runs = node.name
        self.generic_visit(node)
        self._runs = runs

    def visit_If(self, node: ast.If) -> None:
        if self._runs == ON_IMPORT and is_main_guard(node.test):
            self._runs = AS_SCRIPT
            for statement in node.body:
                self.visit(statement)
            self._runs = ON_IMPORT
            for statement in node.orelse:
                self.visit(statement)
            return
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        for target in node.targets:
            if isinstance(target, ast.Name):
                # every value the name is given: a device chosen in branches may be any of them
                self._assigned[-1].setdefault(target.id, []).append(node.value)

    def visit_Call(self, node: ast.Call) -> None:
        name = last_name(node.func)
        if self._runs == ON_IMPORT and name:
            self.called_on_import.add(name)
        value = None
        if name == "set_context":
            value = next((keyword.value for keyword in node.keywords if keyword.arg == "device_target"), None)
        elif name == "set_device":
            value = node.args[0] if node.args else next(
                (keyword.value for keyword in node.keywords if keyword.arg == "device_target"), None)
        if value is not None:
            self._options = []
            devices = self.evaluate(value, 0)
            self.calls.append(DeviceCall(frozenset(devices), self._runs, node.lineno, tuple(dict.fromkeys(self._options))))
        self.generic_visit(node)

    def evaluate(self, node: ast.expr | None, depth: int) -> set[str]:  # noqa: PLR0911
        """The devices ``node`` may select."""
        if node is None or depth > 6:
            return {UNKNOWN}
        if isinstance(node, ast.Constant):
            return {constant_device(node.value)}
        if isinstance(node, ast.IfExp):
            return self.evaluate(node.body, depth + 1) | self.evaluate(node.orelse, depth + 1)
        if isinstance(node, ast.Call):
            return self._called(node, depth)
        if isinstance(node, ast.Subscript):
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):  # cfg["device_target"]
                self._options.append(key.value)
            return {UNKNOWN}
        if isinstance(node, ast.Name):
            return self._named(node, depth)
        if isinstance(node, ast.Attribute) and not (isinstance(node.value, ast.Name) and node.value.id in ("self", "cls")):
            # args.device_target, config.device_target: an argparse option of this file, else the program's
            option = self.arguments.get(node.attr)
            if option is not None:
                return self._option_devices(option, depth)
            self._options.append(node.attr)
        return {UNKNOWN}

    def _called(self, node: ast.Call, depth: int) -> set[str]:
        func = node.func
        # str(args.device), args.device.upper(): the spelling does not change the device
        if last_name(func) == "str" and len(node.args) == 1:
            return self.evaluate(node.args[0], depth + 1)
        if isinstance(func, ast.Attribute) and func.attr in _SPELLINGS and not node.args:
            return self.evaluate(func.value, depth + 1)
        # os.getenv("DEVICE", "Ascend"), os.environ.get("DEVICE", "GPU")
        if _reads_environment(func) and len(node.args) >= 2:
            return self.evaluate(node.args[1], depth + 1)
        return {UNKNOWN}

    def _named(self, node: ast.Name, depth: int) -> set[str]:
        """A name: the values the function being read gives it, else its parameter
        default, else the module's values (those given so far, else anywhere at its top level)."""
        assigned = self._assigned[-1].get(node.id, []) if len(self._assigned) > 1 else []
        if not assigned:
            default = self._parameter_default(node.id)
            if default is not None:
                return self.evaluate(default, depth + 1)
            if any(node.id in _params(function) for function in self._functions):
                return {UNKNOWN}  # a parameter without a default: whatever the caller passes
            assigned = self._assigned[0].get(node.id) or self.constants.get(node.id, [])
        found: set[str] = set()
        for value in assigned:
            if value is not node:
                found |= self.evaluate(value, depth + 1)
        return found or {UNKNOWN}

    def _parameter_default(self, name: str) -> ast.expr | None:
        for function in reversed(self._functions):
            arguments = function.args
            positional = arguments.posonlyargs + arguments.args
            defaults = dict(zip([arg.arg for arg in positional][len(positional) - len(arguments.defaults):], arguments.defaults))
            defaults.update({arg.arg: value for arg, value in zip(arguments.kwonlyargs, arguments.kw_defaults) if value is not None})
            if name in defaults:
                return defaults[name]
            if name in _params(function):
                return None
        return None

    def _option_devices(self, option: ast.Call, depth: int) -> set[str]:
        """What an argparse option may select: its default and its choices."""
        keywords = {keyword.arg: keyword.value for keyword in option.keywords if keyword.arg}
        found: set[str] = set()
        default = keywords.get("default")
        if default is not None and not (isinstance(default, ast.Constant) and default.value is None):
            found |= self.evaluate(default, depth + 1)
        choices = keywords.get("choices")
        if isinstance(choices, (ast.List, ast.Tuple, ast.Set)):
            for choice in choices.elts:
                found |= self.evaluate(choice, depth + 1)
        return found or {UNKNOWN}


def _params(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    arguments = function.args
    return {arg.arg for arg in arguments.posonlyargs + arguments.args + arguments.kwonlyargs}


def _reads_environment(func: ast.expr) -> bool:
    """``os.getenv``, ``getenv``, ``os.environ.get``, ``environ.get``."""
    if isinstance(func, ast.Name):
        return func.id == "getenv"
    if isinstance(func, ast.Attribute):
        return func.attr == "getenv" or (func.attr == "get" and last_name(func.value) == "environ")
    return False
