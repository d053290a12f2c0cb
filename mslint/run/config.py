"""``[tool.mslint]`` in pyproject.toml.

    [tool.mslint]
    select = ["ms-numpy-on-tensor"]      # only these rules (default: every rule that is on by default)
    ignore = ["ms-cell-in-construct"]    # never these
    enable = ["ms-layer-default-differs"]  # rules that are off by default, or pylint messages, to add
    exclude = ["legacy/", "tools/*.py"]  # paths (globs) to skip, relative to this file's folder
    jit-syntax-level = "lax"             # or "strict": what the project compiles with
    format = "text"                      # text, json, sarif or github
    fail-on = "convention"               # error, warning, convention (any finding) or never
    jobs = 0                             # worker processes; 0 picks one per CPU (at most 8)
    timeout = 60                         # seconds per file; a file that takes longer is reported, not checked (0: no limit)
    cache = true                         # keep results between runs (see mslint/run/cache.py)
    baseline = "mslint-baseline.sarif"   # report only findings not in this log
    mode = "auto"                        # how the programs run: auto (read from the project's programs:
                                         # what each builds, in which mode; see mslint --explain), graph or pynative
    port-from = "pytorch"                # the code is ported from PyTorch: the port rules on everywhere
                                         # (without it they are on where the code shows it is a port)

    [tool.mslint.per-file-ignores]       # rules ignored in some files, as ruff's (globs relative to this file's folder)
    "tests/**" = ["ms-cell-in-construct"]

    [tool.mslint.confirm]                # options for `mslint --confirm`, passed through

The file used is the nearest pyproject.toml with a ``[tool.mslint]`` table, from the
current directory upwards (or ``--config FILE``); its folder is the project root,
against which excludes and report paths are relative. Without one, the project
root is the current directory.
"""

from __future__ import annotations

import difflib
import math
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

try:  # Python 3.11+
    import tomllib as _toml
except ImportError:  # pragma: no cover - Python < 3.11
    try:
        import tomli as _toml  # type: ignore[no-redef]
    except ImportError:
        _toml = None  # type: ignore[assignment]

FORMATS = ("text", "json", "sarif", "github")
FAIL_ON = ("error", "warning", "convention", "never")
JIT_SYNTAX_LEVELS = ("lax", "strict")
MODES = ("auto", "graph", "pynative")
PORT_FROM = ("pytorch",)  # mslint.analysis.port.PORT_FROM
DEFAULT_EXCLUDE = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".hg",
    ".history",  # VS Code's Local History: a timestamped copy of every file saved
    ".ipynb_checkpoints",
    ".mypy_cache",
    ".nox",
    ".pytest_cache",
    ".ruff_cache",
    ".svn",
    ".tox",
    ".venv",
    "__pycache__",
    "__pypackages__",
    "_build",
    "build",
    "dist",
    "node_modules",
    "site-packages",
    "venv",
)


class ConfigError(Exception):
    """A configuration problem the user must fix (exit code 2)."""


@dataclass
class Config:
    """Settings from ``[tool.mslint]``, before command-line overrides."""

    root: Path
    source: Path | None = None
    select: list[str] | None = None
    ignore: list[str] = field(default_factory=list)
    enable: list[str] = field(default_factory=list)
    exclude: list[str] = field(default_factory=list)
    jit_syntax_level: str = "lax"
    format: str = "text"
    fail_on: str = "convention"
    jobs: int = 0
    timeout: float = 60.0
    cache: bool = True
    baseline: str | None = None
    mode: str = "auto"
    confirm: dict[str, Any] = field(default_factory=dict)
    per_file_ignores: dict[str, list[str]] = field(default_factory=dict)  # glob -> rules (the command's only)
    port_from: str | None = None  # "pytorch": the port rules on everywhere (mslint.analysis.port)


_KEYS = {
    "select": "select",
    "ignore": "ignore",
    "enable": "enable",
    "exclude": "exclude",
    "jit-syntax-level": "jit_syntax_level",
    "format": "format",
    "fail-on": "fail_on",
    "jobs": "jobs",
    "timeout": "timeout",
    "cache": "cache",
    "baseline": "baseline",
    "mode": "mode",
    "confirm": "confirm",
    "per-file-ignores": "per_file_ignores",
    "port-from": "port_from",
}


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.mslint] table, from ``start`` up."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError) as error:
                # its [tool.mslint], if it has one, would be silently left out
                raise ConfigError(
                    f"cannot read {candidate} ({getattr(error, 'strerror', None) or error}), so whether it configures mslint is "
                    "unknown; make it readable UTF-8, or name the file to use with --config"
                ) from error
            if "tool.mslint" in text and "mslint" in _tool_table(candidate, text):
                return candidate
    return None


def _tool_table(path: Path, text: str) -> dict[str, Any]:
    if _toml is None:
        raise ConfigError(f"{path}: reading [tool.mslint] on Python < 3.11 needs the 'tomli' package")
    try:
        return _toml.loads(text).get("tool", {})
    except _toml.TOMLDecodeError as error:
        raise ConfigError(f"{path}: invalid TOML: {error}") from error
    except RecursionError as error:
        raise ConfigError(f"{path}: its TOML nests too deeply to be read") from error


def _string_list(value: Any, key: str, source: Path) -> list[str]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"{source}: [tool.mslint] {key} must be a list of strings")
    return [item.strip() for item in value if item.strip()]


def _choice(value: Any, key: str, choices: tuple[str, ...], source: Path) -> str:
    if not isinstance(value, str) or value.lower() not in choices:
        raise ConfigError(f"{source}: [tool.mslint] {key} must be one of {', '.join(choices)}, not {value!r}")
    return value.lower()


def load(config_file: Path | None = None, cwd: Path | None = None) -> Config:
    """Read ``config_file`` (or the nearest one) into a :class:`Config`."""
    cwd = (cwd or Path.cwd()).resolve()
    if config_file is None:
        config_file = find_config(cwd)
        if config_file is None:
            return Config(root=cwd)
    config_file = config_file.resolve()
    try:
        text = config_file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"cannot read {config_file}: {error}") from error
    table = _tool_table(config_file, text).get("mslint", {})
    if not isinstance(table, dict):
        raise ConfigError(f"{config_file}: [tool.mslint] must be a table")
    config = Config(root=config_file.parent, source=config_file)
    for key, value in table.items():
        attribute = _KEYS.get(key) or _KEYS.get(key.replace("_", "-"))
        if attribute is None:
            raise ConfigError(
                f"{config_file}: unknown key {key!r} in [tool.mslint] (known: {', '.join(sorted(_KEYS))})"
            )
        if attribute in ("select", "ignore", "enable", "exclude"):
            setattr(config, attribute, _string_list(value, key, config_file))
            if attribute == "select" and not config.select:
                raise ConfigError(f"{config_file}: [tool.mslint] select names no rule (it would check nothing); leave it out for the default rules")
        elif attribute == "jit_syntax_level":
            config.jit_syntax_level = _choice(value, key, JIT_SYNTAX_LEVELS, config_file)
        elif attribute == "mode":
            config.mode = _choice(value, key, MODES, config_file)
        elif attribute == "format":
            config.format = _choice(value, key, FORMATS, config_file)
        elif attribute == "fail_on":
            config.fail_on = _choice(value, key, FAIL_ON, config_file)
        elif attribute == "jobs":
            if not isinstance(value, int) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"{config_file}: [tool.mslint] jobs must be an integer >= 0")
            config.jobs = value
        elif attribute == "timeout":
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not math.isfinite(value) or value < 0:
                raise ConfigError(f"{config_file}: [tool.mslint] timeout must be a finite number of seconds >= 0 (0: no limit), not {value!r}")
            config.timeout = float(value)
        elif attribute == "cache":
            if not isinstance(value, bool):
                raise ConfigError(f"{config_file}: [tool.mslint] cache must be true or false")
            config.cache = value
        elif attribute == "baseline":
            if not isinstance(value, str):
                raise ConfigError(f"{config_file}: [tool.mslint] baseline must be a path")
            config.baseline = str((config.root / value))
        elif attribute == "confirm":
            config.confirm = _confirm_table(value, config_file)
        elif attribute == "per_file_ignores":
            config.per_file_ignores = _per_file_table(value, key, config_file)
        elif attribute == "port_from":
            config.port_from = _choice(value, key, PORT_FROM, config_file)
    return config


def _per_file_table(value: Any, key: str, source: Path) -> dict[str, list[str]]:
    """``per-file-ignores``: a table of glob -> list of rules (names are resolved by the command)."""
    if not isinstance(value, dict):
        raise ConfigError(f'{source}: [tool.mslint] {key} must be a table of "glob" = ["rule", ...]')
    table = {}
    for pattern, names in value.items():
        if not isinstance(names, list) or not all(isinstance(name, str) for name in names):
            raise ConfigError(f'{source}: [tool.mslint] {key} "{pattern}" must be a list of rules')
        table[pattern] = [name.strip() for name in names if name.strip()]
    return table


_TARGET = re.compile(r"^(?P<module>[A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)*):(?P<name>[A-Za-z_]\w*)$")
_DEFINITION = re.compile(r"^[ \t]*(?:class|def|async[ \t]+def)[ \t]+(?P<name>[A-Za-z_]\w*)|^(?P<assigned>[A-Za-z_]\w*)[ \t]*=", re.MULTILINE)


def _confirm_table(table: Any, source: Path) -> dict[str, Any]:
    """``[tool.mslint.confirm]``, checked: every key a ``"module:Name"`` target
    defined where the project has that module, every value a table of
    ``factory``/``inputs`` that parse (mistakes are errors, not "not run")."""
    where = f"{source}: [tool.mslint.confirm]"
    if not isinstance(table, dict):
        raise ConfigError(f"{where} must be a table")
    try:
        from mslint.confirm import specs  # noqa: PLC0415 - pure Python, no MindSpore
    except ImportError:  # an installation without the runtime mode: --confirm says so
        return table
    for key, value in table.items():
        match = _TARGET.match(key)
        if match is None:
            raise ConfigError(f"{where}: {key!r} is not a target \"module:Class\" (or \"module:function\")")
        if isinstance(value, dict):
            for unknown in sorted(set(value) - set(specs.HINT_KEYS)):
                close = difflib.get_close_matches(unknown, specs.HINT_KEYS, n=1)
                hint = f"; did you mean {close[0]!r}?" if close else f" (known: {', '.join(specs.HINT_KEYS)})"
                raise ConfigError(f"{where} {key!r}: unknown key {unknown!r}{hint}")
        try:
            specs.parse_config_entry(key, value)
        except specs.SpecError as error:
            raise ConfigError(f"{source}: {error}") from error
        _check_target(match["module"], match["name"], source.parent, where, key)
    return table


def _check_target(module: str, name: str, root: Path, where: str, key: str) -> None:
    """A target whose module is in the project must define ``name`` there
    (a module found elsewhere, installed or under another root, is not checked)."""
    parts = module.split(".")
    for base in (root, root / "src"):
        for candidate in (base.joinpath(*parts).with_suffix(".py"), base.joinpath(*parts, "__init__.py")):
            try:
                text = candidate.read_text(encoding="utf-8", errors="replace")
            except OSError:
                continue
            defined = {found["name"] or found["assigned"] for found in _DEFINITION.finditer(text)}
            if name in defined:
                return
            close = difflib.get_close_matches(name, sorted(defined), n=1)
            hint = f"; did you mean {module}:{close[0]}?" if close else ""
            raise ConfigError(f"{where} {key!r}: {candidate.relative_to(root).as_posix()} defines no {name!r}{hint}")


# [tool.mslint] keys the pylint plugin applies (the others are the command's:
# formats, jobs, the cache, baselines). ``select`` is not among them: pylint's
# own --disable/--enable choose what runs there.
PLUGIN_OPTIONS = ("jit_syntax_level", "mode")


def apply_to_pylint(linter: Any, cwd: Path | None = None) -> Config | None:
    """Apply ``[tool.mslint]`` of the nearest pyproject.toml to a pylint run
    (``pylint --load-plugins mslint``), so that it finds what ``mslint`` does:
    ``jit-syntax-level`` and ``mode`` unless given to pylint, then ``enable``
    and ``ignore``. A broken table is said in one line and left out."""
    import sys  # noqa: PLC0415

    try:
        config = load(None, cwd)
    except ConfigError as error:
        print(f"mslint: [tool.mslint] not applied: {error}", file=sys.stderr)
        return None
    if config.source is None:
        return config
    defaults = Config(root=config.root)
    for name in PLUGIN_OPTIONS:
        value = getattr(config, name, None)
        if value is None or value == getattr(defaults, name, None) or not hasattr(linter.config, name):
            continue
        if getattr(linter.config, name) == _pylint_default(linter, name):  # not set for pylint itself
            setattr(linter.config, name, value)
    if config.port_from:
        from mslint.knowledge.manifest import PORT_RULES  # noqa: PLC0415

        for name in PORT_RULES:  # the code is a port: the port rules everywhere
            linter.enable(name)
    _apply_names(linter, config.enable, "enable", linter.enable)
    _apply_names(linter, config.ignore, "ignore", linter.disable)
    return config


def _apply_names(linter: Any, names: list[str], key: str, apply: Any) -> None:
    """``enable``/``ignore`` on the pylint run; an unknown rule is said in one
    line, with the closest known one, and the others still apply."""
    import sys  # noqa: PLC0415

    from pylint.exceptions import UnknownMessageError  # noqa: PLC0415

    from mslint.report import catalog  # noqa: PLC0415

    for name in names:
        try:
            apply(name)
        except UnknownMessageError:
            print(f"mslint: [tool.mslint] {key}: {catalog.unknown_rule(name, catalog.rules_of(linter))}; left out", file=sys.stderr)


def _pylint_default(linter: Any, name: str) -> Any:
    for checker in linter.get_checkers():
        for option, settings in getattr(checker, "options", ()):
            if option.replace("-", "_") == name:
                return settings.get("default")
    return None
