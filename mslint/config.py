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
    cache = true                         # keep results between runs (see mslint/cache.py)
    baseline = "mslint-baseline.sarif"   # report only findings not in this log
    mode = "auto"                        # how the programs run: auto (read set_context from the entry
                                         # scripts; a module none imports is assumed graph), graph or pynative

    [tool.mslint.confirm]                # options for `mslint --confirm`, passed through

The file used is the nearest pyproject.toml with a ``[tool.mslint]`` table, from the
current directory upwards (or ``--config FILE``); its folder is the project root,
against which excludes and report paths are relative. Without one, the project
root is the current directory.
"""

from __future__ import annotations

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
DEFAULT_EXCLUDE = (
    ".bzr",
    ".direnv",
    ".eggs",
    ".git",
    ".hg",
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
}


def find_config(start: Path) -> Path | None:
    """The nearest pyproject.toml with a [tool.mslint] table, from ``start`` up."""
    for folder in (start, *start.parents):
        candidate = folder / "pyproject.toml"
        if candidate.is_file():
            try:
                text = candidate.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                continue
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
            if not isinstance(value, (int, float)) or isinstance(value, bool) or value < 0:
                raise ConfigError(f"{config_file}: [tool.mslint] timeout must be a number of seconds >= 0")
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
            if not isinstance(value, dict):
                raise ConfigError(f"{config_file}: [tool.mslint.confirm] must be a table")
            config.confirm = value
    return config
