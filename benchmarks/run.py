#!/usr/bin/env python
"""mslint's speed and scale on real third-party MindSpore code.

Downloads pinned wheels of the MindSpore model libraries from PyPI (``pip download
--no-deps``), unpacks their Python files into ``benchmarks/.cache/src/<library>/``,
and times, side by side on the same files:

- ``floor``: pylint loading a do-nothing checker (``floor_plugin.py``: one enabled
  message, an empty ``visit_module``), so pylint parses and walks every module and
  does nothing else. (``pylint --disable=all`` alone skips every file.)
- ``floor_frozen``: the same with the collector policy the mslint plugin applies
  while pylint checks (``survivors_frozen``): what mslint's own work costs is the
  plugin's time over this one;
- ``plugin``: ``pylint --load-plugins mslint`` with only mslint's rules enabled;
- ``cold``: the ``mslint`` command, default settings, with an empty result cache
  (``MSLINT_CACHE_DIR`` points to a fresh temporary folder);
- ``warm``: ``mslint`` again over the unchanged files (results from the cache);
- ``jobs1``, ``jobs2``: ``mslint --no-cache --jobs 1`` and ``--jobs 2``;
- ``torchfix``: TorchFix (``torchfix --select=ALL``), the nearest peer linter,
  installed into its own virtual environment under the cache folder.

For each it prints wall time, CPU time (user + system of the process tree, from
``wait4``), peak memory (the largest resident set of the process tree, sampled from
/proc or with psutil, or the largest single process without either), lines per
second, each as a ratio to the floor, and the number of findings per rule.

Run from the repository root, with the project's environment::

    python benchmarks/run.py                  # everything (about 1.4 million lines)
    python benchmarks/run.py --only mindcv    # one library (repeat or comma-separate)
    python benchmarks/run.py --configs floor,plugin --only mindcv,mindyolo
    python benchmarks/run.py --configs jobs1,jobs2 --pairs 3   # median speed-up of --jobs 2

The benchmark is not part of the test suite.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import venv
import zipfile
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = HERE / ".cache"
WHEELS = CACHE / "wheels"
SOURCES = CACHE / "src"
TORCHFIX_VENV = CACHE / "torchfix-venv"

# Pinned: the figures in README were measured on exactly these.
LIBRARIES = {
    "mindcv": "0.3.0",
    "mindocr": "0.5.0",
    "mindyolo": "0.5.0",
    "mindnlp": "0.5.1",
    "mindformers": "2.1.0",
    "mindone": "0.5.0",
}
TORCHFIX_VERSION = "0.7.0"
CONFIGS = ("floor", "floor_frozen", "plugin", "cold", "warm", "jobs1", "jobs2", "torchfix")
# Messages pylint itself emits when a file cannot be parsed or a checker crashes:
# enabled in both pylint runs so that crashes show in the findings.
PYLINT_ERRORS = ("syntax-error", "astroid-error", "fatal", "parse-error")


# ---------------------------------------------------------------------------
# The corpus
# ---------------------------------------------------------------------------


def wheel_path(name: str) -> Path | None:
    version = LIBRARIES[name]
    found = sorted(WHEELS.glob(f"{name}-{version}-*.whl"))
    return found[0] if found else None


def download(names: list[str]) -> None:
    missing = [name for name in names if wheel_path(name) is None]
    if not missing:
        return
    WHEELS.mkdir(parents=True, exist_ok=True)
    specs = [f"{name}=={LIBRARIES[name]}" for name in missing]
    print(f"downloading {', '.join(specs)}", flush=True)
    subprocess.run(
        [sys.executable, "-m", "pip", "download", "--no-deps", "--only-binary=:all:", "-q", "-d", str(WHEELS), *specs],
        check=True,
    )


def unpack(name: str) -> Path:
    """The library's .py files under SOURCES/<name>/, unpacked once."""
    target = SOURCES / name
    marker = target / ".unpacked"
    wheel = wheel_path(name)
    assert wheel is not None, name
    if marker.exists() and marker.read_text() == wheel.name:
        return target
    shutil.rmtree(target, ignore_errors=True)
    target.mkdir(parents=True)
    with zipfile.ZipFile(wheel) as archive:
        for member in archive.namelist():
            if member.endswith(".py") and ".dist-info/" not in member:
                archive.extract(member, target)
    marker.write_text(wheel.name)
    return target


def python_files(root: Path) -> list[Path]:
    return sorted(path for path in root.rglob("*.py") if path.is_file())


def count_lines(files: list[Path]) -> int:
    total = 0
    for path in files:
        with open(path, "rb") as stream:
            total += sum(1 for _ in stream)
    return total


def ensure_torchfix() -> Path:
    executable = TORCHFIX_VENV / "bin" / "torchfix"
    if not executable.exists():
        print(f"installing torchfix=={TORCHFIX_VERSION} into {TORCHFIX_VENV}", flush=True)
        venv.EnvBuilder(with_pip=True, clear=True).create(TORCHFIX_VENV)
        subprocess.run(
            [str(TORCHFIX_VENV / "bin" / "python"), "-m", "pip", "install", "-q", f"torchfix=={TORCHFIX_VERSION}"],
            check=True,
        )
    return executable


# ---------------------------------------------------------------------------
# Measuring one command
# ---------------------------------------------------------------------------


@dataclass
class Result:
    config: str
    command: list[str]
    wall: float = 0.0
    cpu: float = 0.0
    peak_rss: int = 0  # bytes
    returncode: int = 0
    findings: Counter = field(default_factory=Counter)
    note: str = ""


PAGE_SIZE = os.sysconf("SC_PAGE_SIZE") if hasattr(os, "sysconf") else 4096
# Linux lists each task's children in /proc (kernels built with CONFIG_PROC_CHILDREN)
PROC_CHILDREN = os.path.exists(f"/proc/{os.getpid()}/task/{os.getpid()}/children")


def _proc_tree_rss(pid: int) -> int:
    """The resident size of ``pid`` and its descendants, read from /proc: about
    0.4 ms a sample, where psutil's children() scans every process of the machine
    (4 ms a sample, 7% of a core at 20 samples a second), time taken from the very
    processes measured when they use every core."""
    total = 0
    todo = [pid]
    while todo:
        current = todo.pop()
        try:
            with open(f"/proc/{current}/statm", "rb") as statm:
                total += int(statm.read().split()[1]) * PAGE_SIZE
            for task in os.listdir(f"/proc/{current}/task"):
                with open(f"/proc/{current}/task/{task}/children", "rb") as children:
                    todo.extend(int(child) for child in children.read().split())
        except (OSError, ValueError):
            continue  # it ended while it was read
    return total


def _tree_rss(pid: int) -> int:
    if PROC_CHILDREN:
        return _proc_tree_rss(pid)
    import psutil  # noqa: PLC0415 - optional

    try:
        process = psutil.Process(pid)
        total = process.memory_info().rss
        for child in process.children(recursive=True):
            try:
                total += child.memory_info().rss
            except psutil.Error:
                pass
        return total
    except psutil.Error:
        return 0


KEEP_OUTPUT: Path | None = None  # --keep-output: where each run's standard output is saved
# Every command runs in an empty folder outside the checkout: ``python -m`` must not
# pick packages up from it, and neither pylint nor mslint may read its configuration
# (the project's pyproject.toml excludes benchmarks/.cache from mslint's checks).
WORKDIR: Path = CACHE


def measure(config: str, command: list[str], env: dict[str, str] | None = None) -> tuple[Result, str]:
    """Run ``command`` in WORKDIR; return its figures and its standard output."""
    cwd = WORKDIR
    result = Result(config, command)
    with tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
        start = time.perf_counter()
        process = subprocess.Popen(command, stdout=out, stderr=err, env=env, cwd=cwd)
        sampled = [0]
        stop = threading.Event()
        try:
            if not PROC_CHILDREN:
                import psutil  # noqa: F401, PLC0415

            def poll() -> None:
                while not stop.is_set():
                    sampled[0] = max(sampled[0], _tree_rss(process.pid))
                    stop.wait(0.05)

            poller: threading.Thread | None = threading.Thread(target=poll, daemon=True)
            poller.start()
        except ImportError:
            poller = None
        _, status, usage = os.wait4(process.pid, 0)
        result.wall = time.perf_counter() - start
        process.returncode = os.waitstatus_to_exitcode(status)
        stop.set()
        if poller is not None:
            poller.join()
        # wait4's usage covers the child and every descendant it waited for.
        result.cpu = usage.ru_utime + usage.ru_stime
        result.peak_rss = max(sampled[0], usage.ru_maxrss * 1024)
        result.returncode = process.returncode
        out.seek(0)
        err.seek(0)
        stdout = out.read().decode("utf-8", "replace")
        stderr = err.read().decode("utf-8", "replace")
    if stderr.strip():
        result.note = stderr.strip().splitlines()[-1][:200]
    if KEEP_OUTPUT is not None:
        KEEP_OUTPUT.mkdir(parents=True, exist_ok=True)
        (KEEP_OUTPUT / f"{config}.out").write_text(stdout)
        (KEEP_OUTPUT / f"{config}.err").write_text(stderr)
    return result, stdout


# ---------------------------------------------------------------------------
# The configurations
# ---------------------------------------------------------------------------


def mslint_symbols() -> list[str]:
    """mslint's rules enabled by default (what the ``mslint`` command runs)."""
    from pylint.lint import PyLinter  # noqa: PLC0415

    import mslint  # noqa: PLC0415

    linter = PyLinter()
    mslint.register(linter)
    symbols = []
    for message in linter.msgs_store.messages:
        if message.checker_name != "main" and message.default_enabled:
            symbols.append(message.symbol)
    return sorted(symbols)


def pylint_command(extra: list[str], files: list[Path]) -> list[str]:
    # Every file by name: ``--recursive=y`` skips the .py files in folders without
    # an __init__.py below a package (43 of the 3,297 files here).
    return [
        sys.executable,
        "-m",
        "pylint",
        *extra,
        "--persistent=n",
        "--score=n",
        "--reports=n",
        "--output-format=json2",
        *map(str, files),
    ]


def pylint_findings(stdout: str) -> Counter:
    counts: Counter = Counter()
    try:
        messages = json.loads(stdout)["messages"]
    except (ValueError, KeyError, TypeError):
        return counts
    for message in messages:
        counts[message["symbol"]] += 1
    return counts


def run_floor(files: list[Path], frozen: bool = False) -> Result:
    """The floor; ``frozen``: with the mslint plugin's collector policy (floor_plugin.py)."""
    enable = ",".join(("benchmark-floor", *PYLINT_ERRORS))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [str(HERE), os.environ.get("PYTHONPATH", "")])))
    if frozen:
        env["BENCHMARK_FLOOR_FROZEN"] = "1"
    command = pylint_command(["--load-plugins=floor_plugin", "--disable=all", f"--enable={enable}"], files)
    result, stdout = measure("floor_frozen" if frozen else "floor", command, env=env)
    result.findings = pylint_findings(stdout)
    return result


def run_plugin(files: list[Path]) -> Result:
    enable = ",".join((*mslint_symbols(), *PYLINT_ERRORS))
    command = pylint_command(["--load-plugins=mslint", "--disable=all", f"--enable={enable}"], files)
    result, stdout = measure("plugin", command)
    result.findings = pylint_findings(stdout)
    return result


def mslint_executable() -> list[str] | None:
    try:
        import mslint.run.cli  # noqa: F401, PLC0415
    except ImportError:
        return None
    return [sys.executable, "-m", "mslint.run.cli"]


_MSLINT_LINE = re.compile(r"^.+?:\d+:\d+: [A-Z]\d{4}[: ].*\((?P<symbol>[a-z0-9-]+)\)\s*$")


def mslint_findings(stdout: str) -> Counter:
    counts: Counter = Counter()
    try:
        data = json.loads(stdout)
    except ValueError:
        data = None
    if isinstance(data, dict):
        data = data.get("messages", data.get("findings", []))
    if isinstance(data, list):
        for message in data:
            if isinstance(message, dict) and "symbol" in message:
                counts[message["symbol"]] += 1
        return counts
    for line in stdout.splitlines():
        match = _MSLINT_LINE.match(line)
        if match:
            counts[match.group("symbol")] += 1
    return counts


def run_mslint(config: str, roots: list[Path], cache_dir: Path, options: list[str]) -> Result:
    base = mslint_executable()
    if base is None:
        return Result(config, [], note="mslint/run/cli.py is not there yet")
    command = [*base, *options, "--format=json", "--verbose", *map(str, roots)]
    env = dict(os.environ, MSLINT_CACHE_DIR=str(cache_dir))
    result, stdout = measure(config, command, env=env)
    result.findings = mslint_findings(stdout)
    return result


_TORCHFIX_LINE = re.compile(r"^.+?:\d+:\d+:? (?P<code>TOR\d+)")


def run_jobs(config: str, roots: list[Path], tmp: Path) -> Result:
    """jobs1 or jobs2: ``mslint --no-cache --jobs N``."""
    return run_mslint(config, roots, tmp / config, ["--no-cache", f"--jobs={config[-1]}"])


def run_torchfix(roots: list[Path]) -> Result:
    executable = ensure_torchfix()
    command = [str(executable), "--select=ALL", *map(str, roots)]
    result, stdout = measure("torchfix", command)
    for line in stdout.splitlines():
        match = _TORCHFIX_LINE.match(line)
        if match:
            result.findings[match.group("code")] += 1
    return result


# ---------------------------------------------------------------------------
# Report
# ---------------------------------------------------------------------------


def _ratio(value: float, floor: float | None) -> str:
    if not floor:
        return ""
    return f" ({value / floor:.2f}x)"


def report(results: list[Result], lines: int, files: int) -> str:
    floor = next((r for r in results if r.config == "floor" and r.command), None)
    out = [f"{files} files, {lines} lines", ""]
    header = "| run | wall s | CPU s | peak MiB | lines/s |"
    out += [header, "| --- | ---: | ---: | ---: | ---: |"]
    for r in results:
        if not r.command:
            out.append(f"| {r.config} | - | - | - | - |")
            continue
        rate = lines / r.wall if r.wall else 0.0
        out.append(
            f"| {r.config} | {r.wall:.1f}{_ratio(r.wall, floor and floor.wall)}"
            f" | {r.cpu:.1f}{_ratio(r.cpu, floor and floor.cpu)}"
            f" | {r.peak_rss / 2**20:.0f}{_ratio(r.peak_rss, floor and floor.peak_rss)}"
            f" | {rate:,.0f}{_ratio(rate, floor and lines / floor.wall)} |"
        )
    out.append("")
    frozen = next((r for r in results if r.config == "floor_frozen" and r.command), None)
    plugin = next((r for r in results if r.config == "plugin" and r.command), None)
    if frozen and plugin and frozen.wall and frozen.cpu:
        # mslint's own work, apart from what its collector policy saves pylint itself
        out.append(f"plugin / floor_frozen: {plugin.wall / frozen.wall:.2f}x wall, {plugin.cpu / frozen.cpu:.2f}x CPU")
        out.append("")
    for r in results:
        detail = ", ".join(f"{symbol} {count}" for symbol, count in sorted(r.findings.items()))
        status = f"exit {r.returncode}" if r.command else "not run"
        note = f"; stderr: {r.note}" if r.note else ""
        out.append(f"{r.config}: {status}; findings: {detail or 'none'}{note}")
    return "\n".join(out)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--only", action="append", default=[], metavar="LIB",
        help=f"run on these libraries only (repeat or comma-separate; of {', '.join(LIBRARIES)})",
    )
    parser.add_argument(
        "--configs", default=",".join(CONFIGS),
        help=f"comma-separated configurations to run, in this order (default: {','.join(CONFIGS)})",
    )
    parser.add_argument(
        "--pairs", type=int, default=1, metavar="N",
        help="run jobs1 and jobs2 N times, one after the other, and report each pair's speed-up and the median"
        " (a shared machine's speed drifts by 10-20%% between runs; default: 1)",
    )
    parser.add_argument("--json", type=Path, help="also write the figures to this JSON file")
    parser.add_argument("--keep-output", type=Path, metavar="DIR", help="save each run's output (findings) in DIR")
    args = parser.parse_args(argv)
    global KEEP_OUTPUT  # noqa: PLW0603 - a command-line setting
    KEEP_OUTPUT = args.keep_output

    names = [n for chunk in args.only for n in chunk.split(",") if n] or list(LIBRARIES)
    unknown = [n for n in names if n not in LIBRARIES]
    if unknown:
        parser.error(f"unknown libraries: {', '.join(unknown)}")
    configs = [c for c in args.configs.split(",") if c]
    bad = [c for c in configs if c not in CONFIGS]
    if bad:
        parser.error(f"unknown configurations: {', '.join(bad)}")

    download(names)
    roots = [unpack(name) for name in names]
    files = [path for root in roots for path in python_files(root)]
    lines = count_lines(files)
    print(f"corpus: {', '.join(f'{n}=={LIBRARIES[n]}' for n in names)}: {len(files)} files, {lines} lines", flush=True)

    results: list[Result] = []
    global WORKDIR  # noqa: PLW0603 - set once per run
    with tempfile.TemporaryDirectory(prefix="mslint-bench-cache-") as tmp:
        WORKDIR = Path(tmp) / "cwd"
        WORKDIR.mkdir()
        cold_cache = Path(tmp) / "cold"
        for config in configs:
            print(f"running {config} ...", flush=True)
            if config == "floor":
                result = run_floor(files)
            elif config == "floor_frozen":
                result = run_floor(files, frozen=True)
            elif config == "plugin":
                result = run_plugin(files)
            elif config == "cold":
                shutil.rmtree(cold_cache, ignore_errors=True)
                result = run_mslint("cold", roots, cold_cache, [])
            elif config == "warm":
                if not cold_cache.exists():  # warm needs a filled cache
                    run_mslint("cold", roots, cold_cache, [])
                result = run_mslint("warm", roots, cold_cache, [])
            elif config in ("jobs1", "jobs2"):
                result = run_jobs(config, roots, Path(tmp))
            else:
                result = run_torchfix(roots)
            results.append(result)
            print(f"  {result.wall:.1f} s wall, {result.cpu:.1f} s CPU, {result.peak_rss / 2**20:.0f} MiB", flush=True)
        pairs = []
        if "jobs1" in configs and "jobs2" in configs:
            pairs.append((next(r for r in results if r.config == "jobs1"), next(r for r in results if r.config == "jobs2")))
            for _ in range(args.pairs - 1):
                pair = []
                for config in ("jobs1", "jobs2"):
                    print(f"running {config} again ...", flush=True)
                    pair.append(run_jobs(config, roots, Path(tmp)))
                    print(f"  {pair[-1].wall:.1f} s wall, {pair[-1].cpu:.1f} s CPU", flush=True)
                pairs.append((pair[0], pair[1]))

    text = report(results, lines, len(files))
    if pairs:
        speedups = [one.wall / two.wall for one, two in pairs if two.wall]
        each = ", ".join(f"{one.wall:.1f}/{two.wall:.1f} s = {one.wall / two.wall:.2f}x" for one, two in pairs if two.wall)
        text += f"\n\njobs2 speed-up over jobs1, per pair: {each}; median {statistics.median(speedups):.2f}x"
    print()
    print(text)
    if args.json:
        args.json.write_text(
            json.dumps(
                {
                    "libraries": {n: LIBRARIES[n] for n in names},
                    "files": len(files),
                    "lines": lines,
                    "cpus": os.cpu_count(),
                    "jobs_pairs": [{"jobs1_wall_s": one.wall, "jobs2_wall_s": two.wall} for one, two in pairs],
                    "results": [
                        {
                            "config": r.config,
                            "wall_s": r.wall,
                            "cpu_s": r.cpu,
                            "peak_rss_bytes": r.peak_rss,
                            "returncode": r.returncode,
                            "findings": dict(r.findings),
                        }
                        for r in results
                    ],
                },
                indent=2,
            )
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
