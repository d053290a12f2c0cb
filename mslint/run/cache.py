"""The result cache of the ``mslint`` command.

Each checked file's findings are stored under a key made of

- the analysis: mslint's version and a hash of its own source files, the pylint,
  astroid and Python versions, and the settings that change findings (the
  enabled messages, ``jit-syntax-level``);
- the file: its absolute path, its module name and a hash of its content;
- its project dependencies: the content of every project module it imports,
  transitively.

Why the dependencies. A file's findings depend on more than its own text: whether
``class Net(Base)`` is an ``nn.Cell`` (so whether ``Net.construct`` is graph code)
is inferred from ``Base``, which may live in another module of the project, and
``Base``'s own bases in a third. astroid reaches another module only through an
import, so the modules a file can depend on are those in the transitive closure of
its imports. Imports are found with a deliberately generous scan of the source
text (an import inside a function, a ``try`` or a docstring counts: a module too
many costs a re-check, one too few would be unsound), and resolved against the
same roots pylint puts on ``sys.path`` for the run: the package root of every
checked file plus the non-library ``sys.path`` entries (PYTHONPATH). Every
existing candidate file counts (``pkg/mod.py`` and ``pkg/mod/__init__.py``, under
every root), so creating a module that an import would now find changes the key
as well. The closure is hashed bottom-up over the strongly connected components
of the import graph (a Merkle hash), so it costs one pass however tangled the
imports are. Installed libraries are not followed: mslint never infers into them,
and pylint's and astroid's versions are part of the key.

Editing one file therefore re-checks that file and the files that import it,
directly or through other project modules, and nothing else; a configuration
change re-checks everything (it is part of every key).

What: each file's findings (mslint.report.findings.Finding, anchors included, its path
left out: the key holds it). An entry that does not load, written by another
version or damaged (each value carries a checksum of its text), counts as a miss
and the file is checked again. A database SQLite reports damaged ("malformed",
"not a database") is deleted and built again, with a warning, never a crash.

The program model (mslint.analysis.programs) keeps two things here: the facts
of each file it read, by content hash, and per project its verdicts with
everything it read to reach them (each file's content hash, each file and folder
test, each configuration file it looked for, found or not, and the YAML files of
each configuration folder), under a key of mslint's code identity, the project's
root and its list of Python files. A run over an unchanged project takes the
verdicts as they are (mindone: 14 s of a warm run's CPU was building the model
again); editing any of those files, an entry's or a configuration's, builds the
model again.

When: a result is stored under the key of what was analysed. The engine checks
the bytes whose hash is in the key; the keys are taken again after the check,
and a result whose key moved meanwhile (a dependency edited during the run) is
not stored, so an old key never serves findings of a newer content.

Where: ``$MSLINT_CACHE_DIR`` if set, else the user cache folder
(``~/.cache/mslint`` on Linux, ``~/Library/Caches/mslint`` on macOS,
``%LOCALAPPDATA%\\mslint\\Cache`` on Windows), never inside the sources. One
SQLite file, safe for concurrent runs; entries unused for 30 days are pruned.
``mslint --no-cache`` neither reads nor writes it; ``mslint clean-cache`` deletes it.
"""

from __future__ import annotations

import errno
import hashlib
import importlib.util
import json
import os
import sqlite3
import sys
import sysconfig
import time
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

from mslint.knowledge.version import VERSION
from mslint.report import findings
from mslint.report.findings import Finding
from mslint.analysis.project import content_hash

SCHEMA_VERSION = 2  # 2: imports read with Python's parser, each value checksummed
DB_NAME = f"results-v{SCHEMA_VERSION}.sqlite3"
PRUNE_AFTER_DAYS = 30


def cache_dir() -> Path:
    """``$MSLINT_CACHE_DIR``, else the platform's user cache folder for mslint."""
    override = os.environ.get("MSLINT_CACHE_DIR")
    if override:
        return Path(override).expanduser()
    try:
        import platformdirs  # noqa: PLC0415 - a dependency of pylint

        return Path(platformdirs.user_cache_dir("mslint", appauthor=False))
    except ImportError:  # pragma: no cover
        base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
        return Path(base) / "mslint"


digest = content_hash  # a file's content hash, as the engine and the fix loop take it


def digest_text(*parts: str) -> str:
    return digest("\0".join(parts).encode("utf-8", "surrogatepass"))


# ---------------------------------------------------------------------------
# The analysis key
# ---------------------------------------------------------------------------


def _package_sources() -> list[Path]:
    checkers = importlib.util.find_spec("mslint.checkers")  # installed from the checkout's checkers/
    folders = {Path(__file__).resolve().parents[1]} | {Path(p) for p in (checkers.submodule_search_locations or ())}
    found: list[Path] = []
    for folder in sorted(folders):
        found.extend(sorted(folder.rglob("*.py")))
    return found


def _version(distribution: str) -> str:
    from importlib.metadata import PackageNotFoundError, version  # noqa: PLC0415

    try:
        return version(distribution)
    except PackageNotFoundError:
        return "?"


_CODE_IDENTITY: list[str] = []


def code_identity() -> str:
    """mslint's version and a hash of its own source files, the pylint, astroid
    and Python versions: what every result and the rule catalogue depend on."""
    if _CODE_IDENTITY:
        return _CODE_IDENTITY[0]
    hasher = hashlib.blake2b(digest_size=16)
    for path in _package_sources():
        try:
            hasher.update(path.as_posix().rsplit("/mslint/", 1)[-1].encode() + b"\0" + path.read_bytes() + b"\0")
        except OSError:
            continue
    identity = {
        "schema": SCHEMA_VERSION,
        "mslint": VERSION,
        "code": hasher.hexdigest(),
        "pylint": _version("pylint"),
        "astroid": _version("astroid"),
        "python": list(sys.version_info[:2]),
    }
    _CODE_IDENTITY.append(digest_text(json.dumps(identity, sort_keys=True)))
    return _CODE_IDENTITY[0]


def analysis_key(settings: dict[str, Any]) -> str:
    """The part of every file's key that is not the file: the code identity and
    the settings that change findings."""
    return digest_text(code_identity(), json.dumps(settings, sort_keys=True, default=str))


# ---------------------------------------------------------------------------
# Imports and the dependency closure
# ---------------------------------------------------------------------------

def _library_paths() -> set[str]:
    paths = set()
    for name in ("stdlib", "platstdlib", "purelib", "platlib"):
        try:
            paths.add(os.path.normcase(os.path.realpath(sysconfig.get_paths()[name])))
        except KeyError:
            continue
    return paths


def project_roots(files: Iterable[str], package_root) -> list[str]:
    """The folders imports resolve against: each file's package root (as pylint
    puts them on sys.path) and the sys.path entries that are not libraries."""
    roots = dict.fromkeys(package_root(path) for path in files)
    library = _library_paths()
    for entry in sys.path:
        if not entry or not os.path.isdir(entry):
            continue
        real = os.path.normcase(os.path.realpath(entry))
        if real in library or "site-packages" in real or "dist-packages" in real or entry.endswith(".zip"):
            continue
        roots.setdefault(os.path.abspath(entry), None)
    return list(roots)


def _imports_shape(value: Any) -> bool:
    """Whether ``value`` is what scan_imports returns."""
    return isinstance(value, list) and all(
        isinstance(item, list)
        and len(item) == 3
        and isinstance(item[0], int)
        and isinstance(item[1], str)
        and (item[2] is None or (isinstance(item[2], list) and all(isinstance(name, str) for name in item[2])))
        for item in value
    )


def _is(entry: os.DirEntry, kind: str) -> bool:
    """``entry.is_file()`` / ``entry.is_dir()``, False where the entry cannot be read."""
    try:
        return getattr(entry, kind)()
    except OSError:
        return False


class DependencyHasher:
    """Hashes each file's transitive project imports (see the module docstring)."""

    def __init__(self, roots: Sequence[str], read_imports) -> None:
        self.roots = list(roots)
        self._read_imports = read_imports  # path -> (content hash, imports) or None
        self._module_files: dict[tuple[str, ...], tuple[str, ...]] = {}
        self._candidate_files: dict[tuple[str, ...], list[str]] = {}
        self._listings: dict[str, tuple[frozenset[str], frozenset[str]]] = {}
        self._edges: dict[str, list[str]] = {}
        self._hash: dict[str, str] = {}
        self._closure: dict[str, str] = {}

    # -- resolution ------------------------------------------------------------
    def _candidates(self, folder: str, parts: Sequence[str]) -> list[str]:
        """The files a module can be: ``a/b.py`` and ``a/b/__init__.py`` under
        ``folder`` (just ``__init__.py`` for the folder's own package)."""
        key = (folder, *parts)
        found = self._candidate_files.get(key)
        if found is None:
            found = []
            current: str | None = folder
            for part in parts[:-1]:  # down through the folders that exist
                if part not in self._listing(current)[1]:
                    current = None
                    break
                current = os.path.join(current, part)
            if current is not None and parts:
                files, folders = self._listing(current)
                if parts[-1] + ".py" in files:
                    found.append(os.path.abspath(os.path.join(current, parts[-1] + ".py")))
                if parts[-1] in folders and "__init__.py" in self._listing(os.path.join(current, parts[-1]))[0]:
                    found.append(os.path.abspath(os.path.join(current, parts[-1], "__init__.py")))
            elif current is not None and "__init__.py" in self._listing(current)[0]:
                found.append(os.path.abspath(os.path.join(current, "__init__.py")))
            self._candidate_files[key] = found
        return found

    def _listing(self, folder: str) -> tuple[frozenset[str], frozenset[str]]:
        """The names of the files and of the folders in ``folder`` (links
        followed), listed once: asking the file system whether each candidate
        exists took a stat call per candidate, 470,000 of them on 3,300 files,
        most in folders that do not exist."""
        known = self._listings.get(folder)
        if known is None:
            files, folders = set(), set()
            try:
                with os.scandir(folder) as entries:
                    for entry in entries:
                        if _is(entry, "is_file"):
                            files.add(entry.name)
                        elif _is(entry, "is_dir"):
                            folders.add(entry.name)
            except OSError:  # missing, not a folder, unreadable
                pass
            known = self._listings[folder] = (frozenset(files), frozenset(folders))
        return known

    def _absolute(self, dotted: str) -> tuple[str, ...]:
        parts = tuple(part for part in dotted.split(".") if part)
        if not parts:
            return ()
        cached = self._module_files.get(parts)
        if cached is None:
            files: list[str] = []
            for root in self.roots:
                files.extend(self._candidates(root, parts))
            cached = tuple(dict.fromkeys(files))
            self._module_files[parts] = cached
        return cached

    @staticmethod
    def _package_folder(path: str, level: int) -> str | None:
        folder = os.path.dirname(path)
        for _ in range(level - 1):
            parent = os.path.dirname(folder)
            if parent == folder:
                return None
            folder = parent
        return folder

    def _direct(self, path: str, imports: list[list[Any]]) -> list[str]:
        targets: list[str] = []
        for level, module, names in imports:
            parts = [part for part in module.split(".") if part]
            if level:
                folder = self._package_folder(path, level)
                if folder is None:
                    continue
                targets.extend(self._candidates(folder, parts))
                for name in names or ():
                    targets.extend(self._candidates(folder, [*parts, *name.split(".")]))
                continue
            if names is None:  # import a.b.c binds a: a, a.b and a.b.c all count
                for end in range(1, len(parts) + 1):
                    targets.extend(self._absolute(".".join(parts[:end])))
            else:
                targets.extend(self._absolute(module))
                for name in names:
                    targets.extend(self._absolute(f"{module}.{name}"))
        return sorted(set(targets) - {path})

    def _node(self, path: str) -> bool:
        if path in self._hash:
            return True
        entry = self._read_imports(path)
        if entry is None:
            self._hash[path] = "missing"
            self._edges[path] = []
            return False
        content_hash, imports = entry
        self._hash[path] = content_hash
        self._edges[path] = self._direct(path, imports)
        return True

    # -- closure hashes (Tarjan's SCCs, iterative) ------------------------------
    def closure_hash(self, path: str) -> str:
        if path not in self._closure:
            self._visit(path)
        return self._closure[path]

    def _visit(self, start: str) -> None:
        index: dict[str, int] = {}
        low: dict[str, int] = {}
        on_stack: set[str] = set()
        stack: list[str] = []
        counter = 0
        self._node(start)
        work: list[tuple[str, int]] = [(start, 0)]
        while work:
            node, child = work.pop()
            if child == 0:
                index[node] = low[node] = counter
                counter += 1
                stack.append(node)
                on_stack.add(node)
            edges = self._edges[node]
            recursed = False
            while child < len(edges):
                target = edges[child]
                child += 1
                if target in self._closure:
                    continue
                self._node(target)
                if target not in index:
                    work.append((node, child))
                    work.append((target, 0))
                    recursed = True
                    break
                if target in on_stack:
                    low[node] = min(low[node], index[target])
            if recursed:
                continue
            if low[node] == index[node]:
                members = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    members.append(member)
                    if member == node:
                        break
                outside = set()
                for member in members:
                    for target in self._edges[member]:
                        if target not in members:
                            outside.add(self._closure[target])
                value = digest_text(
                    *sorted(f"{member}={self._hash[member]}" for member in members), "|", *sorted(outside)
                )
                for member in members:
                    self._closure[member] = value
            if work:
                parent = work[-1][0]
                low[parent] = min(low[parent], low[node])


# ---------------------------------------------------------------------------
# Storage
# ---------------------------------------------------------------------------


def _encoded(value: Any) -> str:
    """A stored value: the checksum of its JSON text, then the text."""
    text = json.dumps(value, separators=(",", ":"))
    return digest_text(text) + text


def _decoded(stored: Any) -> Any:
    """The value of a stored text; ValueError when it was damaged."""
    if not isinstance(stored, str) or len(stored) < 32 or digest_text(stored[32:]) != stored[:32]:
        raise ValueError("a damaged entry (its checksum does not match)")
    return json.loads(stored[32:])


def _damaged(error: Exception) -> bool:
    """Whether SQLite says the database file itself is damaged (rebuild it),
    rather than busy, locked or read-only (leave it, run without it)."""
    text = str(error).lower()
    return isinstance(error, sqlite3.DatabaseError) and any(
        word in text for word in ("malformed", "not a database", "corrupt", "file is encrypted")
    )


class ResultCache:
    """Findings per file key and imports per content hash, in one SQLite file.
    A damaged database is deleted and built again (one warning); any other
    error (a locked or read-only database) turns the cache off for the run with
    one warning. It never stops a run."""

    def __init__(self, folder: Path | None = None, warn=None) -> None:
        self.folder = folder or cache_dir()
        self._warn = warn or (lambda text: print(f"mslint: {text}", file=sys.stderr))
        self._db: sqlite3.Connection | None = None
        self._rebuilt = False
        self.today = int(time.time() // 86400)
        self._open()

    def reopened(self) -> ResultCache:
        """The same cache through a connection of its own: for a forked process,
        which must not use the one it inherited."""
        return ResultCache(self.folder, self._warn)

    def _open(self) -> None:
        try:
            self.folder.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(str(self.folder / DB_NAME), timeout=30, isolation_level=None)
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute("PRAGMA synchronous=NORMAL")
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS results (key TEXT PRIMARY KEY, findings TEXT NOT NULL, used INTEGER NOT NULL)"
            )
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS imports (hash TEXT PRIMARY KEY, imports TEXT NOT NULL, used INTEGER NOT NULL)"
            )
            self._db.execute("CREATE TABLE IF NOT EXISTS meta (key TEXT PRIMARY KEY, value TEXT NOT NULL)")
            # the facts of each file the program model read (mslint.analysis.programs), by content hash
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS facts (hash TEXT PRIMARY KEY, facts TEXT NOT NULL, used INTEGER NOT NULL)"
            )
            # the program model's verdicts of each project, with what it read (mslint.analysis.programs)
            self._db.execute(
                "CREATE TABLE IF NOT EXISTS models (hash TEXT PRIMARY KEY, model TEXT NOT NULL, used INTEGER NOT NULL)"
            )
        except (OSError, sqlite3.Error) as error:
            self._fail(error)

    @property
    def enabled(self) -> bool:
        return self._db is not None

    def _fail(self, error: Exception) -> None:
        self.close()
        if _damaged(error) and not self._rebuilt:
            self._rebuilt = True
            try:
                for suffix in ("", "-wal", "-shm"):
                    (self.folder / (DB_NAME + suffix)).unlink(missing_ok=True)
            except OSError:
                pass
            else:
                # said even where other warnings are not (the rule catalogue's store): it happens once
                print(f"mslint: the result cache was damaged ({self.folder / DB_NAME}: {error}); deleted it, building it again", file=sys.stderr)
                self._open()
                return
        self._warn(f"result cache disabled for this run ({self.folder / DB_NAME}: {error})")

    def _get_many(self, table: str, column: str, keys: Sequence[str]) -> dict[str, Any]:
        found: dict[str, Any] = {}
        if self._db is None or not keys:
            return found
        try:
            key_column = "key" if table == "results" else "hash"
            for start in range(0, len(keys), 500):
                chunk = list(keys[start : start + 500])
                marks = ",".join("?" * len(chunk))
                rows = self._db.execute(
                    f"SELECT {key_column}, {column} FROM {table} WHERE {key_column} IN ({marks})", chunk
                ).fetchall()
                for key, value in rows:
                    try:
                        found[key] = _decoded(value)
                    except ValueError:
                        continue  # damaged: a miss
                if rows:
                    self._db.execute(
                        f"UPDATE {table} SET used=? WHERE used<? AND {key_column} IN ({marks})",
                        [self.today, self.today, *chunk],
                    )
        except sqlite3.Error as error:
            self._fail(error)
        return found

    def _put_many(self, table: str, rows: Iterable[tuple[str, Any]]) -> None:
        if self._db is None:
            return
        try:
            with self._db:
                self._db.executemany(
                    f"INSERT OR REPLACE INTO {table} VALUES (?, ?, ?)",
                    [(key, _encoded(value), self.today) for key, value in rows],
                )
        except sqlite3.Error as error:
            self._fail(error)

    def get_findings(self, keys: dict[str, str]) -> dict[str, list[Finding]]:
        """The cached findings of the files ``keys`` maps to their cache keys;
        a file whose entry does not load (another version wrote it, or it is
        damaged) is left out: a miss."""
        rows = self._get_many("results", "findings", sorted(set(keys.values())))
        found = {}
        for path, key in keys.items():
            if key in rows:
                if not isinstance(rows[key], list):  # damaged: a miss, not "no findings"
                    continue
                try:
                    found[path] = [findings.from_row(row, path) for row in rows[key]]
                except (KeyError, TypeError, ValueError, AttributeError):
                    continue
        return found

    def put_findings(self, rows: Iterable[tuple[str, list[Finding]]]) -> None:
        """Store each key's findings (their paths are part of the key)."""
        self._put_many("results", ((key, [item.row() for item in items]) for key, items in rows))

    def get_imports(self, hashes: Sequence[str]) -> dict[str, Any]:
        """Stored import scans; a damaged one is left out (scanned again)."""
        return {key: value for key, value in self._get_many("imports", "imports", hashes).items() if _imports_shape(value)}

    def put_imports(self, rows: Iterable[tuple[str, Any]]) -> None:
        self._put_many("imports", rows)

    def get_facts(self, hashes: Sequence[str]) -> dict[str, Any]:
        """The program model's facts of files by content hash (mslint.analysis.programs)."""
        return self._get_many("facts", "facts", hashes)

    def put_facts(self, rows: Iterable[tuple[str, Any]]) -> None:
        self._put_many("facts", rows)

    def get_model(self, key: str) -> Any:
        """The program model's entry kept under ``key`` (mslint.analysis.programs.verdicts:
        its verdicts and everything it read), for this version of mslint's code only."""
        return self._get_many("models", "model", [digest_text(code_identity(), key)]).get(digest_text(code_identity(), key))

    def put_model(self, key: str, value: Any) -> None:
        self._put_many("models", [(digest_text(code_identity(), key), value)])

    def get_meta(self, key: str) -> Any:
        if self._db is None:
            return None
        try:
            row = self._db.execute("SELECT value FROM meta WHERE key=?", (key,)).fetchone()
        except sqlite3.Error as error:
            self._fail(error)
            return None
        try:
            return _decoded(row[0]) if row else None
        except ValueError:
            return None  # damaged: as if absent

    def put_meta(self, key: str, value: Any) -> None:
        if self._db is None:
            return
        try:
            with self._db:
                self._db.execute("INSERT OR REPLACE INTO meta VALUES (?, ?)", (key, _encoded(value)))
        except sqlite3.Error as error:
            self._fail(error)

    def prune(self) -> None:
        """Drop entries unused for PRUNE_AFTER_DAYS (at most once a day)."""
        if self._db is None:
            return
        try:
            if self.get_meta("pruned") == self.today or self._db is None:
                return
            with self._db:
                for table in ("results", "imports", "facts", "models"):
                    self._db.execute(f"DELETE FROM {table} WHERE used < ?", (self.today - PRUNE_AFTER_DAYS,))
            self.put_meta("pruned", self.today)
        except sqlite3.Error as error:
            self._fail(error)

    def close(self) -> None:
        if self._db is not None:
            try:
                self._db.close()
            except sqlite3.Error:
                pass
            self._db = None


def clean(folder: Path | None = None) -> tuple[Path, bool]:
    """Delete the cache database; returns the folder and whether anything was
    there. Raises OSError when it cannot be removed (a read-only folder; a file
    where the folder should be)."""
    folder = folder or cache_dir()
    if folder.exists() and not folder.is_dir():
        raise NotADirectoryError(errno.ENOTDIR, f"{folder} is not a folder")
    removed = False
    for suffix in ("", "-wal", "-shm"):
        try:
            (folder / (DB_NAME + suffix)).unlink()
            removed = True
        except FileNotFoundError:
            pass
    return folder, removed
