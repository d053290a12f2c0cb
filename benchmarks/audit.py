"""Real-code audit: run mslint over whole repositories and sample its findings to judge.

    python benchmarks/audit.py [CORPUS] [--out DIR] [--sample 12] [--jobs 1] [--reuse]
    python benchmarks/audit.py --judged judged.json [--out DIR]

CORPUS is a folder of repositories (one sub-folder each, e.g. the `.py` files of
mindspore-ai/models, mindcv, mindnlp, mindformers, mindocr, mindyolo). Each repository is
linted as its user would lint it: `mslint --format json --no-cache REPO` from the
repository's root. The run writes to --out:

    raw/<repo>.json   mslint's report for that repository
    findings.json     every finding, with the repository and a stable key
    sample.md         findings per rule and repository, what each repository passes to
                      set_context(mode=...), then up to --sample findings per rule, spread
                      over the repositories and their programs, each with its source
                      context and the modes its program selects

A judgement file is a JSON list of {"rule", "key", "verdict": "right"|"wrong", "reason"}
(optionally "cause"); --judged prints rule | findings | sample judged | right | precision,
then the wrong verdicts counted by cause.
"""

from __future__ import annotations

import argparse
import ast
import collections
import functools
import json
import random
import re
import shutil
import subprocess
import sys
import time
from pathlib import Path

CONTEXT_LINES = 6  # lines shown before and after the flagged line
MODE_CALL = re.compile(r"set_context\([^)]*mode\s*=\s*([\w.\[\]'\"]+)")


def default_mslint() -> str:
    beside = Path(sys.executable).with_name("mslint")
    return str(beside) if beside.exists() else (shutil.which("mslint") or "mslint")


def lint_repository(repo: Path, mslint: str, jobs: int) -> tuple[dict, float]:
    """mslint's JSON report for one repository, run from its root, and the seconds it took."""
    command = [mslint, "--format", "json", "--no-cache", "--fail-on", "never",
               "--jobs", str(jobs), str(repo)]
    started = time.monotonic()
    done = subprocess.run(command, cwd=repo, capture_output=True, text=True, check=False)
    seconds = time.monotonic() - started
    if done.returncode not in (0, 1):
        raise SystemExit(f"mslint failed on {repo} (exit {done.returncode}):\n{done.stderr[-2000:]}")
    return json.loads(done.stdout), seconds


def finding_key(repo: str, finding: dict) -> str:
    span = f"{finding['line']}:{finding['column']}-{finding['endLine']}:{finding['endColumn']}"
    return f"{repo}/{finding['path']}:{span}:{finding['symbol']}"


def project_of(corpus: Path, repo: str, path: str) -> str:
    """The folder of the program a file belongs to: the outermost one (at most 3 levels
    down) holding a train or eval script; a model zoo has one per model, a library one."""
    parts = Path(path).parts[:-1]
    for depth in range(min(len(parts), 3) + 1):
        folder = corpus.joinpath(repo, *parts[:depth])
        if any(folder.glob("train*.py")) or any(folder.glob("eval*.py")):
            return "/".join((repo, *parts[:depth]))
    return repo


def collect(corpus: Path, out: Path, mslint: str, jobs: int, reuse: bool, only: list[str]) -> list[dict]:
    raw = out / "raw"
    raw.mkdir(parents=True, exist_ok=True)
    findings = []
    for repo in sorted(p for p in corpus.iterdir() if p.is_dir()):
        if only and repo.name not in only:
            continue
        report_file = raw / f"{repo.name}.json"
        if reuse and report_file.exists():
            report = json.loads(report_file.read_text(encoding="utf-8"))
        else:
            report, seconds = lint_repository(repo.resolve(), mslint, jobs)
            report["auditSeconds"] = round(seconds, 1)
            report_file.write_text(json.dumps(report, indent=1), encoding="utf-8")
        summary = report["summary"]
        print(f"{repo.name}: {summary['files']} files, {summary['findings']} findings, "
              f"{len(report['problems'])} problems, {report.get('auditSeconds', '?')} s", file=sys.stderr)
        for finding in report["findings"]:
            project = project_of(corpus, repo.name, finding["path"])
            findings.append({"repo": repo.name, "project": project,
                             "key": finding_key(repo.name, finding), **finding})
    (out / "findings.json").write_text(json.dumps(findings, indent=1), encoding="utf-8")
    return findings


def stratified_sample(findings: list[dict], per_rule: int, seed: int) -> dict[str, list[dict]]:
    """Up to per_rule findings of each rule, one line at most once, taken round-robin over
    the repositories and, within each, over its programs (projects) in random order."""
    rng = random.Random(seed)
    by_rule: dict[str, dict[str, dict[str, list[dict]]]] = collections.defaultdict(
        lambda: collections.defaultdict(lambda: collections.defaultdict(list)))
    for finding in findings:
        by_rule[finding["symbol"]][finding["repo"]][finding["project"]].append(finding)
    sample = {}
    for rule, by_repo in sorted(by_rule.items()):
        repo_queues = []
        for repo in sorted(by_repo):
            projects = [list(by_repo[repo][project]) for project in sorted(by_repo[repo])]
            for queue in projects:
                rng.shuffle(queue)
            rng.shuffle(projects)
            repo_queues.append(projects)
        chosen: list[dict] = []
        seen_lines: set[tuple[str, int]] = set()
        while len(chosen) < per_rule and any(any(p) for p in repo_queues):
            for projects in repo_queues:
                projects[:] = [queue for queue in projects if queue]
                if projects and len(chosen) < per_rule:
                    finding = projects[0].pop()
                    projects.append(projects.pop(0))  # next turn: the repository's next program
                    line = (finding["repo"] + "/" + finding["path"], finding["line"])
                    if line not in seen_lines:
                        seen_lines.add(line)
                        chosen.append(finding)
        sample[rule] = chosen
    return sample


def enclosing_headers(source: str, line: int) -> list[tuple[int, str]]:
    """(line, text) of the class and function definitions around `line`, outermost first."""
    lines = source.splitlines()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return []
    headers = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            if node.lineno <= line <= (node.end_lineno or node.lineno):
                headers.append((node.lineno, lines[node.lineno - 1]))
    return sorted(headers)


def context_block(corpus: Path, finding: dict) -> str:
    source = (corpus / finding["repo"] / finding["path"]).read_text(encoding="utf-8", errors="replace")
    lines = source.splitlines()
    line = finding["line"]
    first, last = max(1, line - CONTEXT_LINES), min(len(lines), line + CONTEXT_LINES)
    shown = [f"{n:5} | {text}" for n, text in enclosing_headers(source, line) if n < first]
    if shown:
        shown.append("  ... |")
    for n in range(first, last + 1):
        shown.append(f"{n:5}{'>' if n == line else ' '}| {lines[n - 1]}")
    return "\n".join(shown)


@functools.lru_cache(maxsize=None)
def mode_hints(corpus: Path, folder: str) -> collections.Counter:
    """What the code under folder passes to set_context(mode=...), counted."""
    counts: collections.Counter = collections.Counter()
    for path in (corpus / folder).rglob("*.py"):
        for match in MODE_CALL.finditer(path.read_text(encoding="utf-8", errors="replace")):
            counts[match.group(1)] += 1
    return counts


def count_table(findings: list[dict]) -> str:
    repos = sorted({f["repo"] for f in findings})
    counts = collections.Counter((f["symbol"], f["repo"]) for f in findings)
    rules = sorted({f["symbol"] for f in findings}, key=lambda r: -sum(counts[r, repo] for repo in repos))
    rows = ["| rule | " + " | ".join(repos) + " | total |", "|---" * (len(repos) + 2) + "|"]
    for rule in rules:
        cells = [str(counts[rule, repo]) for repo in repos]
        rows.append(f"| {rule} | " + " | ".join(cells) + f" | {sum(counts[rule, r] for r in repos)} |")
    return "\n".join(rows)


def write_sample(corpus: Path, out: Path, findings: list[dict], per_rule: int, seed: int) -> None:
    parts = ["# mslint audit sample", "", "## Findings per rule and repository", "", count_table(findings), "",
             "## set_context(mode=...) in each repository", ""]
    for repo in sorted({f["repo"] for f in findings}):
        hints = ", ".join(f"`{mode}` x{n}" for mode, n in mode_hints(corpus, repo).most_common(6))
        parts.append(f"- {repo}: {hints or 'none'}")
    for rule, chosen in stratified_sample(findings, per_rule, seed).items():
        parts += ["", f"## {rule} ({len(chosen)} of {sum(f['symbol'] == rule for f in findings)})"]
        for finding in chosen:
            modes = ", ".join(f"`{mode}` x{n}" for mode, n in mode_hints(corpus, finding["project"]).most_common(4))
            parts += ["", f"### `{finding['key']}`", "", f"{finding['obj']}: {finding['message']}", "",
                      f"program `{finding['project']}`, set_context(mode=...): {modes or 'none'}", "",
                      "```python", context_block(corpus, finding), "```"]
    (out / "sample.md").write_text("\n".join(parts) + "\n", encoding="utf-8")


def precision_table(findings: list[dict], judgements: list[dict]) -> str:
    totals = collections.Counter(f["symbol"] for f in findings)
    judged: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for judgement in judgements:
        judged[judgement["rule"]][judgement["verdict"]] += 1
    rows = ["| rule | findings | sample judged | right | precision |", "|---|---|---|---|---|"]
    for rule in sorted(set(totals) | set(judged), key=lambda r: -totals[r]):
        verdicts = judged[rule]
        n = verdicts["right"] + verdicts["wrong"]
        precision = f"{verdicts['right'] / n:.0%}" if n else "-"
        rows.append(f"| {rule} | {totals[rule]} | {n} | {verdicts['right']} | {precision} |")
    return "\n".join(rows)


def wrong_causes(judgements: list[dict]) -> str:
    """The wrong verdicts counted by their first (main) cause, with the rules it hit."""
    causes: dict[str, collections.Counter] = collections.defaultdict(collections.Counter)
    for judgement in judgements:
        if judgement["verdict"] == "wrong":
            main_cause = (judgement.get("cause") or "unspecified").split(";")[0].strip()
            causes[main_cause][judgement["rule"]] += 1
    rows = ["| cause of wrong findings | count | rules |", "|---|---|---|"]
    for cause, rules in sorted(causes.items(), key=lambda item: -sum(item[1].values())):
        listed = ", ".join(f"{rule} {n}" for rule, n in rules.most_common())
        rows.append(f"| {cause} | {sum(rules.values())} | {listed} |")
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("corpus", nargs="?", default="/work/audit/corpus", help="folder of repositories")
    parser.add_argument("--out", default="/work/audit/out", help="where reports and the sample go")
    parser.add_argument("--mslint", default=default_mslint(), help="the mslint command to run")
    parser.add_argument("--jobs", type=int, default=1, help="mslint --jobs (default 1)")
    parser.add_argument("--sample", type=int, default=12, help="findings per rule to sample")
    parser.add_argument("--seed", type=int, default=13, help="seed of the sample")
    parser.add_argument("--only", action="append", default=[], help="only this repository (repeatable)")
    parser.add_argument("--reuse", action="store_true", help="reuse raw/<repo>.json from an earlier run")
    parser.add_argument("--judged", metavar="FILE", help="print the precision table of a judgement file")
    args = parser.parse_args()
    corpus, out = Path(args.corpus), Path(args.out)
    if args.judged:
        findings = json.loads((out / "findings.json").read_text(encoding="utf-8"))
        judgements = json.loads(Path(args.judged).read_text(encoding="utf-8"))
        print(precision_table(findings, judgements) + "\n\n" + wrong_causes(judgements))
        return
    findings = collect(corpus, out, args.mslint, args.jobs, args.reuse, args.only)
    write_sample(corpus, out, findings, args.sample, args.seed)
    print(count_table(findings))
    print(f"\n{len(findings)} findings; sample in {out / 'sample.md'}", file=sys.stderr)


if __name__ == "__main__":
    main()
