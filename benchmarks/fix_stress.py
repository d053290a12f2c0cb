"""Stress test of ``mslint --fix`` under concurrency (issue 22): two ``mslint
--fix`` runs at once on one tree, while an "editor" saves files of that tree
during the runs, repeated; no file may ever be corrupted.

    python benchmarks/fix_stress.py                  # 100 rounds, 12 files
    python benchmarks/fix_stress.py --rounds 20 --files 6 --jobs 2

Each round resets the tree, starts two ``mslint --fix`` processes (sharing one
result cache, as two terminals of one user do), and, from a thread, saves some
files as an editor would (in place, or by writing a new file and renaming it
over the old one; a new first line moves every offset, the way the issue's
``"dense_head_fhas_biasmagenet..."`` corruption came about) at random moments of
the run. Afterwards every file must be exactly one of: its original text or
the original fixed, when the editor did not save it; the editor's text or the
editor's text fixed, when it did (what one run of ``mslint --fix`` makes of
each is computed once before the rounds): a fix of the old text written over
the editor's save would be a lost save. No temporary file of mslint's may be
left in the tree. Every run must exit 0, 1 or
2 (2: a file changed under it and was left, which it says), never 3.

Not part of the test suite (it takes minutes); tests/test_fix_safety.py has
the deterministic versions. Exit status 1 when a file was corrupted.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

ORIGINAL = '''from mindspore import nn


class Head(nn.Cell):
    def __init__(self):
        super().__init__()
        self.dense = nn.Dense(16, 4, bias=False)
        self.norm = nn.LayerNorm((4,), eps=1e-5)
        self.conv = nn.Conv2d(3, 8, 3, padding=1)

    def construct(self, x):
        return self.norm(self.dense(self.conv(x)))
'''
EDITOR_LINE = 'CHECKPOINT = "dense_head_from_imagenet_bias_padding"  # saved by the editor\n'


def mslint(*args: str, cwd: Path, env: dict[str, str]) -> subprocess.Popen:
    return subprocess.Popen(  # noqa: S603 - our own interpreter and package
        [sys.executable, "-m", "mslint", *args], cwd=cwd, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
    )


def fixed(text: str, env: dict[str, str]) -> str:
    """What one ``mslint --fix`` run, alone, makes of ``text``."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "alone.py"
        path.write_text(text, encoding="utf-8")
        process = mslint("--fix", "--no-cache", str(path), cwd=Path(folder), env=env)
        process.communicate()
        return path.read_text(encoding="utf-8")


def save_as_editor(path: Path, text: str, rng: random.Random) -> None:
    if rng.random() < 0.5:
        with open(path, "r+", encoding="utf-8") as stream:  # in place: truncate, write
            stream.truncate(0)
            stream.write(text)
    else:  # a new file renamed over the old one (vim, VS Code, black)
        temporary = path.with_name(f".{path.name}.editor~")
        temporary.write_text(text, encoding="utf-8")
        os.replace(temporary, path)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=100)
    parser.add_argument("--files", type=int, default=12)
    parser.add_argument("--jobs", type=int, default=1, help="--jobs of each mslint run")
    parser.add_argument("--seed", type=int, default=22)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    work = Path(tempfile.mkdtemp(prefix="mslint-fix-stress-"))
    env = dict(os.environ, MSLINT_CACHE_DIR=str(work / "cache"))
    edited = EDITOR_LINE + ORIGINAL
    allowed = {"original": ORIGINAL, "fixed": fixed(ORIGINAL, env), "editor": edited, "editor fixed": fixed(edited, env)}
    assert allowed["fixed"] != ORIGINAL and allowed["editor fixed"] != edited, "the fixes did not apply"
    by_text = {text: name for name, text in allowed.items()}
    tree = work / "tree"
    outcomes: dict[str, int] = {}
    exits: dict[int, int] = {}
    corrupted: list[str] = []
    started = time.monotonic()
    try:
        for number in range(args.rounds):
            shutil.rmtree(tree, ignore_errors=True)
            tree.mkdir()
            files = [tree / f"head_{index}.py" for index in range(args.files)]
            for path in files:
                path.write_text(ORIGINAL, encoding="utf-8")
            runs = [mslint("--fix", f"--jobs={args.jobs}", ".", cwd=tree, env=env) for _ in range(2)]

            saved: set[Path] = set()

            def editor() -> None:
                for path in rng.sample(files, k=max(1, len(files) // 3)):
                    time.sleep(rng.uniform(0.0, 1.5))
                    save_as_editor(path, edited, rng)
                    saved.add(path)

            thread = threading.Thread(target=editor)
            thread.start()
            for run in runs:
                _, err = run.communicate()
                exits[run.returncode] = exits.get(run.returncode, 0) + 1
                if run.returncode not in (0, 1, 2):
                    corrupted.append(f"round {number}: mslint exited {run.returncode}: {err[-300:]}")
            thread.join()
            for path in files:
                text = path.read_text(encoding="utf-8")
                name = by_text.get(text)
                expected = ("editor", "editor fixed") if path in saved else ("original", "fixed")
                if name not in expected:
                    what = "corrupted" if name is None else f"{name}, where {' or '.join(expected)} was expected (a lost save?)"
                    corrupted.append(f"round {number}: {path.name} {what}:\n{text}")
                else:
                    outcomes[name] = outcomes.get(name, 0) + 1
            leftovers = sorted(path.name for path in tree.iterdir() if path.name.startswith(".mslint"))
            if leftovers:
                corrupted.append(f"round {number}: temporary files left in the tree: {leftovers}")
            if (number + 1) % 10 == 0:
                print(f"{number + 1} rounds, {len(corrupted)} corrupted, {time.monotonic() - started:.0f} s", file=sys.stderr)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    files_checked = args.rounds * args.files
    print(f"rounds: {args.rounds}, files checked: {files_checked}, corrupted: {len(corrupted)}")
    print("final file states: " + ", ".join(f"{name} {count}" for name, count in sorted(outcomes.items())))
    print("mslint exit statuses: " + ", ".join(f"{code}: {count}" for code, count in sorted(exits.items())))
    print(f"time: {time.monotonic() - started:.0f} s")
    for problem in corrupted[:5]:
        print(problem)
    return 1 if corrupted else 0


if __name__ == "__main__":
    sys.exit(main())
