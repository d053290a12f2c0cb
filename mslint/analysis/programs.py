"""The program model: the programs in sight, what each builds, in which mode,
and what the project does to the frameworks.

A finding is right when the harm it names happens in the way the program
really runs (DESIGN.md, "how does the program run?"). So every rule asks this
layer, not the module it sits in:

- **Programs** are the entry scripts in sight (mslint.analysis.mode.is_entry:
  a main guard, a module-level ``set_context``, a module-level
  ``value_and_grad``), outside packages (a package module's main guard is a
  self-test, unless the module imports a sibling by its bare name, which only
  works when it runs as a script from its folder). The files in sight are those of the project: the folder of the
  nearest ``.git``, ``pyproject.toml``, ``setup.py`` or ``setup.cfg`` above the
  file, whichever files were named on the command line (:func:`project_root`):
  ``mslint net.py``, standard input, the pre-commit hook and ``mslint .`` see
  the same programs. Where nothing marks the project (an unpacked archive), the
  outermost folder named on the command line that holds the file, else the
  folder above its top package.
- **What a program builds**: the code it reaches from its entry, following
  what runs: the entry's top level and main guard; the top level of every module
  imported (importing runs it, but builds nothing it only defines); the
  functions and classes the reached code calls or passes along (a class passed
  to a factory is built there), across modules (imports, ``from pkg import *``
  re-exports, aliases); for a reached class, all its methods (``__init__``
  builds the Cells it holds: attributes, ``CellList``/``SequentialCell``
  contents) and its project base classes. Factories and registries: a lookup
  ``REGISTRY[key]``, ``REGISTRY.get(key)``, ``getattr(module, key)`` in reached
  code reaches the candidates registered (a dict of classes, ``REGISTRY[k] =
  cls`` in a ``@register_model`` decorator, ``@REGISTRY.register_module()``,
  a registering call ``Registry.register_cls(cls, alias=k)``), all of them, or
  those the key can be: a literal, the parameter of a factory traced to its
  callers, an argparse option (its choices, else its default) and the
  YAML/JSON configuration files that set it; a key the program computes
  (a class attribute, a name built from strings) from none of its options,
  into more than 32 candidates, reaches none of them (one or a few are built,
  and which is out of sight). Registering is not building: a
  class passed to a registering call (``register*``, ``add*``) or stored into a
  table is built only by a lookup that returns it (a function registered, a
  hook, still runs when its owner calls it).
- **In which mode**: what the ``set_context`` calls the program reaches select
  (its own, those of the modules it imports at their top level, of the helper
  functions it calls; where the entry's own all run at its top level and its
  main path then calls a helper that selects the mode again, the helper's),
  with ``args.mode`` / ``cfg.mode`` read from the argparse
  options the program's code declares (those of the bodies it runs: not another
  script's ``main()`` in a module it imports for a helper) and the configuration files beside the
  entry (and in config/, configs/) or named in its code (nested keys by their
  path: ``cfg.system.context_mode``), also through a table of modes the code
  keys by the option (a dict, or branches comparing it with each name, or a
  conditional testing it with string operations: the arm each value takes);
  where the configuration files select both the mode and what a registry
  builds, what only configurations selecting PyNative select is PyNative code
  of the program (:attr:`Program.pynative_configs`), also where the key reaches
  the registry through a module-level table of literals and the values a
  project function returns (``_, name = info(cfg.model.name)``, ``name =
  TABLE[key][0]``: :meth:`Model._evaluate`; a value the table lacks raises
  there and selects nothing; every candidate stays reached, as for a key
  mslint cannot read); a ``set_context`` in a
  function of an imported module the program never reaches selects nothing
  for it (``main()`` of another script, a self-check nobody calls: importing a
  module runs its top level, not its functions). A Cell is graph code when a
  graph-mode program builds it (``@jit`` code is compiled in every mode:
  mslint.analysis.scope),
  unless the program's own code (the entry's top level, main guard and
  functions) builds it into a name it never calls nor hands on (``m = MoCo();
  load_param_into_net(m, ...); m.encoder_q(x)``: the sub-cell runs, MoCo's
  construct is not compiled), or only calls its construct directly where it
  runs as plain Python (``m.construct(x)``, ``Net().construct(x)``: a method
  call compiles nothing of the Cell's own, measured; in a function handed to
  ``ms.grad`` or ``jit`` it is compiled), or builds it only as a sub-cell an
  ``__init__`` holds (``self.loss = Loss()``) that nothing it runs reads (an
  exported network holding a loss it never calls: the loss compiles in no part,
  measured), and nothing else it runs builds it.
  What a program runs only past a guard that raises unless the mode is PyNative
  (``if get_context("mode") != PYNATIVE_MODE: raise ...``) runs PyNative in
  it, whatever it selects; a class whose ``__init__`` or ``construct``, or a
  function whose body, holds such a guard is PyNative code, whoever builds it.
  Code no program builds takes the mode of the programs that import its package,
  else of the programs beside it, else of the repository's (all PyNative, or
  some: PyNative; all compiling: graph, assumed). Only programs whose mode is
  known count there: one whose mode mslint cannot read is assumed to compile
  what it builds, but says nothing of code it does not build. Where no program
  of known mode is in sight, the code is assumed graph, and the findings say so.
- **On which devices**: whether a program may run on Ascend
  (:meth:`Model.ascend_setting`): its ``set_context(device_target=...)`` /
  ``set_device(...)`` settings (its entry's, else those of the modules it
  reaches), read by mslint.analysis.devices, with options read as for the mode;
  each decision names the first program that compiles the code and may
  (:attr:`Decision.ascend`), for the rules whose harm is Ascend's.
- **Trained or only evaluated**: a graph-mode Cell that every compiling program
  only evaluates or exports (``.predict``, ``.eval``, ``set_train(False)``,
  ``mindspore.export``, weights loaded and forward passes run, and nothing they
  reach trains: Model._may_train) loses no gradient under
  LAX (:attr:`Decision.trained`); ``mindspore.export`` compiles under STRICT
  (:attr:`Decision.exported_by`). One that every compiling program only trains
  (``set_train()``, ``Model.train``; nothing reached evaluates, exports or turns
  the flag off) compiles with ``self.training`` True (:attr:`Decision.evaluated`).
  Whatever the mode: code that programs build and none of them may train
  (nothing they reach steps an optimizer, differentiates, calls ``Model.train``
  or turns the training flag on), in a file no program that may train reaches,
  is only evaluated (:func:`trained_at`): a Dropout's rate, a BatchNorm's
  momentum never act there.
- **Overrides**: a project module that rebinds a framework name when it runs
  (``nn.Dropout = CustomDropout``, ``setattr(nn, "Dense", X)``,
  ``mindspore.nn.LayerNorm = ...``, ``Tensor.size = ...``) at its top level,
  or in a function its top level calls, changes that name for every module whose
  imports run it: the modules of its package when the package's ``__init__``
  imports it, and every module importing them. mslint.analysis.resolve then
  names the project's object instead (:func:`override`).
- **Reachability**: each top-level function and class knows whether a program
  reaches it (:func:`reached_at`); findings carry it. A file's main guard is
  reached only where the file is a program: importing the file does not run it
  (a package module's self-test other programs import stays no program, and its
  code unreached; whether it trains what it builds is still judged, from the
  training it shows when the file runs: Model._main_only_evaluates).

Each file is read once into its facts (mslint.analysis.facts: standard library
``ast``, no user code run; a dict the command caches by content hash), and only
the files the programs' imports reach are parsed. The links between files are
resolved lazily and memoized, so the model is linear in what the programs
reach. The command builds the model once per run (``python -m mslint
--explain PATH`` prints it) and gives each worker the verdicts of its files
(:func:`configure`); the plugin builds it once per project and process. The
command keeps each project's verdicts in its result cache with everything the
model read (:meth:`Model.dependencies`: the content of each file, each file and
folder test, each configuration file looked for, found or not, each
configuration folder's YAML files), and serves them again while all of it reads
the same (:func:`unchanged`).
"""

from __future__ import annotations

import functools
import io
import os
import re
import sys
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, replace
from typing import Any

from mslint.analysis import devices, forked, mode
from mslint.analysis.facts import FACTS_VERSION, MAIN, MODULE, PYNATIVE_PART, is_registering, read_facts, read_many
from mslint.analysis.imports import ANY_IMPORT_RE, LINE_START_IMPORT_RE, scan_imports
from mslint.analysis.mode import GRAPH, PYNATIVE, UNKNOWN, Decision
from mslint.analysis.project import available_cpus, content_hash, module_name, package_root, read_source, real_path
from mslint.knowledge import apis, guide, injections

# what reads a Cell's children without naming them (a held sub-cell may be called so;
# getattr and __dict__ in the holder's own file: facts._held_not_read)
_GENERIC_CHILD_ATTRIBUTES = frozenset({"cells", "name_cells", "cells_and_names", "_cells"})
SKIPPED_FOLDERS = frozenset({".git", ".venv", "venv", "__pycache__", "build", "dist", "node_modules", "site-packages"})
ROOT_MARKERS = (".git", "pyproject.toml", "setup.py", "setup.cfg")
FILE_LIMIT = 20_000
_MAX_CONFIG_FILES = 400


# the kinds of program, most compiling first: code built by programs of several
# kinds is graph code if any of them compiles it
SETS_GRAPH, UNREADABLE, RUNS_PYNATIVE = KINDS = ("graph", "unreadable", "pynative")
_COMPILING = (SETS_GRAPH, UNREADABLE)
# the kinds whose mode mslint knows: evidence for code their programs do not build
_KNOWN = (SETS_GRAPH, RUNS_PYNATIVE)

ANY = None  # a key that may be any string
# A lookup whose key no option of the program gives, into more candidates than
# this, reaches none of them (Model._lookup_candidates).
_UNTRACED_KEY_LIMIT = 32
THROUGH_TABLE = "<through a table>"  # (Model._evaluate) a key read through a table of literals
# the methods that change a dict in place
_CHANGING = frozenset({"update", "setdefault", "pop", "popitem", "clear", "__setitem__", "__delitem__"})

# a rebinding of an attribute at a line start, and setattr: the files that may override a framework name
_REBINDING = re.compile(rb"^[ \t]*(?!self\.|cls\.)[A-Za-z_]\w*(?:\.\w+)+[ \t]*=(?!=)|\bsetattr\s*\(", re.MULTILINE)
# a call at a file's top level (``net = Net()``, ``train(net)``): a script without a main guard may
_TOP_LEVEL_CALL = re.compile(rb"^(?:[A-Za-z_][\w.]*(?:[ \t]*,[ \t]*[A-Za-z_]\w*)*[ \t]*=[ \t]*)?[A-Za-z_][\w.]*\(", re.MULTILINE)
_JSON_KEY = re.compile(r'"(\w+)"\s*:\s*("[^"\n]*"|-?\d+)')


# ---------------------------------------------------------------------------
# The files in sight
# ---------------------------------------------------------------------------


def project_root(path: str, folders: Iterable[str] = ()) -> str:
    """The folder whose Python files are in sight for the file at ``path``: the
    nearest folder above it with ``.git``, ``pyproject.toml``, ``setup.py`` or
    ``setup.cfg``. Where nothing marks the project (an unpacked archive), the
    outermost of ``folders`` (the folders named on the command line) holding
    it, when that is above the folder above its top package: a sub-project's
    scripts and the models they build, in sibling folders without packages,
    are one project (``mslint .`` and ``mslint --explain .`` see the same
    programs); else the folder above its top package, as also when the file
    lies in a folder the project's files are not looked for in (a hidden
    folder, ``build``, ``site-packages``...) below the folders named."""
    real = _real(path)
    named = {_real(folder) for folder in folders}
    folder = os.path.dirname(real)
    outermost = ""
    while True:
        if any(os.path.exists(os.path.join(folder, marker)) for marker in ROOT_MARKERS):
            return folder
        if folder in named:
            outermost = folder
        parent = os.path.dirname(folder)
        name = os.path.basename(folder)
        if parent == folder or name in SKIPPED_FOLDERS or name.startswith("."):
            break
        folder = parent
    above_package = package_root(real)
    if outermost and len(outermost) < len(above_package):
        return outermost
    top = _top_package(real, above_package)
    if top is not None and _repository_top(top, above_package):
        return top  # a repository whose own top folder has an __init__.py: its siblings are not the project
    return above_package


# Files that mark a folder as a repository's top when it is also a package (model
# zoo copies ship an __init__.py beside train.py and requirements.txt).
_REPOSITORY_FILES = ("requirements", "readme", "license", ".gitignore")


def _top_package(real: str, above_package: str) -> str | None:
    """The top package folder holding ``real`` (the folder right below ``above_package``)."""
    relative = os.path.relpath(os.path.dirname(real), above_package)
    if relative in (".", "") or relative.startswith(".."):
        return None
    return os.path.join(above_package, relative.split(os.sep, 1)[0])


@functools.lru_cache(maxsize=256)
def _repository_top(top: str, above_package: str) -> bool:
    """The top package folder ``top`` is a repository's top folder (its requirements,
    README, LICENSE or .gitignore are there) and the folder above it has no Python
    file of its own: the folder above only holds it beside other checkouts."""
    try:
        inside = os.listdir(top)
        beside = os.listdir(above_package)
    except OSError:
        return False
    if any(name.endswith(".py") for name in beside):
        return False
    return any(name.lower().startswith(_REPOSITORY_FILES) for name in inside)


def python_files(root: str, extra: Iterable[str] = ()) -> list[str]:
    """The Python files under ``root`` (skipping hidden and build folders; at
    most FILE_LIMIT), and ``extra``."""
    found = [_real(path) for path in extra]
    count = 0
    for current, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(name for name in dirnames if name not in SKIPPED_FOLDERS and not name.startswith("."))
        for name in filenames:
            if name.endswith(".py"):
                path = os.path.join(current, name)
                # the walk follows no linked folder: only a linked file needs resolving
                found.append(_real(path) if os.path.islink(path) else path)
                count += 1
        if count > FILE_LIMIT:
            break
    return sorted(set(found))


_real = real_path  # (memoized realpath)


# ---------------------------------------------------------------------------
# The model
# ---------------------------------------------------------------------------


def _hashable(value: Any) -> Any:
    """``value`` with every list a tuple, all the way down: a key spec as the facts
    keep it (JSON lists, nested: ["table", name, ["opt", "model"], [0]]) made fit
    to sit in an edge that is a dict key."""
    return tuple(_hashable(item) for item in value) if isinstance(value, (list, tuple)) else value


class _Reached(set):
    """The (file, body) pairs a program reaches, with the order they were
    reached in, and indexes of them that grow with it (Model._index_reached):
    the files, the bodies reached per file, the files declaring each argparse
    option, the call sites of each project function or class. The questions
    asked while a program's reach grows (a lookup's key traced to a factory's
    callers, an option's values) read these instead of walking every reached
    node each time: on mindone that walk was most of the model's time."""

    def __init__(self) -> None:
        super().__init__()
        self.order: list[tuple[str, str]] = []
        self.files: set[str] = set()
        self.bodies: dict[str, set[str]] = {}  # file -> its bodies reached
        self.options: dict[str, list[str]] = {}  # option name -> the reached files declaring it
        self.sites: dict[tuple[str, str], list] = {}  # callee -> [(caller node, args, keywords)]
        # attribute -> [(file, class.__init__, value)]: the ``self.<attribute> = <literal>`` of each reached __init__
        self.init_sets: dict[str, list[tuple[str, str, Any]]] = {}
        self.indexed = 0  # how much of order the indexes hold


@dataclass
class Program:
    """One entry script: its kind (KINDS), why, and what it reaches."""

    path: str
    kind: str = RUNS_PYNATIVE
    evidence: str = ""  # why: "sets GRAPH_MODE (utils.py:12)", "sets no mode: PyNative"
    syntax_level: str = ""
    trains: bool = True
    exports: bool = False
    only_trains: bool = False  # turns the training flag on, and never evaluates (Decision.evaluated)
    reached: set[tuple[str, str]] | None = None  # (path, body)
    parents: dict[tuple[str, str], tuple] | None = None  # how each node was reached (for --explain)
    # the nodes it runs PyNative whatever it selects -> how: "only past a guard that raises
    # unless PyNative (file:line)", "only with the configurations that select PYNATIVE_MODE (...)"
    pynative_only: dict[tuple[str, str], str] | None = None
    guard: str = ""  # a view of the program for code it runs PyNative that way: how
    # the configuration files that select PYNATIVE_MODE alone (where the mode is theirs to choose),
    # and whether a registry lookup builds what only some configurations select
    pynative_configs: frozenset[str] = frozenset()
    config_selected: bool = False


class Model:  # pylint: disable=too-many-instance-attributes
    """The program model of one project: ``root`` and the Python files in sight."""

    def __init__(  # noqa: PLR0913
        self,
        root: str,
        files: Iterable[str],
        read: Callable[[str], bytes | None] | None = None,
        facts_store: Any = None,
        explain: bool = False,
        always_programs: Iterable[str] = (),
        jobs: int = 1,
    ) -> None:
        self.root = _real(root)
        self._jobs = jobs  # processes that may read the facts of files not in the store
        self.files = sorted({path if path.startswith(self.root + os.sep) and not os.path.islink(path) else _real(path)
                             for path in files})
        self._in_sight = set(self.files)
        self._read = read or read_source
        self._store = facts_store  # get_facts(hashes) -> {hash: facts}, put_facts(rows): the command's cache
        self._explain = explain
        self._always_programs = {_real(path) for path in always_programs}  # notebooks run top to bottom
        self._nothing_trains: bool | None = None
        self._documented_decision: Decision | None = None  # _documented: a project with no program
        self._data: dict[str, bytes | None] = {}
        self._facts: dict[str, dict] = {}
        self._late_facts: list[tuple[str, dict]] = []  # read after _load: kept by keep_late_facts
        self._isfile: dict[str, bool] = {}
        self._module_files: dict[tuple, str | None] = {}
        self._resolved: dict[tuple, Any] = {}
        self._lookups: dict[tuple, Any] = {}
        self._namespaces: dict[str, dict[str, tuple[str, str]]] = {}
        self._edges: dict[tuple[str, str], list] = {}
        self._calls_of: dict[tuple[str, str], list] = {}  # node -> its calls of project code (_node_calls)
        self._isdir: dict[str, bool] = {}
        self._search_paths: dict[str, list[str]] = {}  # folder -> where its absolute imports are found
        self._targets: dict[tuple, list[str]] = {}  # (folder, level, module, names) -> the files an import loads
        self._cells: dict[tuple[str, str], bool] = {}
        self._registries: dict[tuple[str, str], list] | None = None
        self._tables: dict[tuple, dict[str, Any]] = {}  # ("obj", file, name) -> its literal entries ({}: none)
        self._folder_configs: dict[str, dict[str, list]] = {}
        self._named_configs: dict[str, dict[str, list]] = {}
        # what the model read, for its cache (Model.dependencies): each file's content hash
        # (None: missing or unreadable), each configuration's fingerprint, each folder's YAML files
        self._hashes: dict[str, str | None] = {}
        self._seen_configs: dict[str, str | None] = {}
        self._config_listings: dict[str, list[str]] = {}
        self._imported_packages: dict[str, bool] = {}
        self._by_lookup: set[tuple[str, str]] = set()  # built by a registry or getattr lookup
        self._scans: dict[str, list[str]] = {}  # path -> the files its imports load
        self._importers: set[str] | None = None  # the files some file in sight imports
        self._program_configs: dict[tuple[str, int], dict[str, dict[str, list]]] = {}
        self._ascend: dict[str, tuple[str, int, str] | None] = {}  # program path -> ascend_setting
        self._constructions: dict[tuple[str, str], dict] | None = None
        self._training_files: set[str] | None = None  # the files a program that may train reaches
        self._components: dict[str, str] | None = None  # path -> connected_folder(path)
        self.parsed = 0
        self._load()
        self.programs = [Program(path) for path in self.files if self._is_program(path)]
        for program in self.programs:
            self._reach(program)
        for program in self.programs:
            self._mode(program)
            if program.pynative_configs and program.config_selected:
                # a registry builds what the configurations select, and they select the
                # mode too: what only PyNative ones select is reached apart
                self._reach(program)
        self._decide()
        self.overrides = self._find_overrides()
        self._data.clear()  # the sources are read again if ever needed: the facts stay

    # -- reading -------------------------------------------------------------
    def data(self, path: str) -> bytes | None:
        if path not in self._data:
            data = self._data[path] = self._read(path)
            if path not in self._hashes:
                self._hashes[path] = content_hash(data) if data is not None else None
        return self._data[path]

    def dependencies(self) -> dict[str, Any]:
        """Everything the model read so far, as :func:`unchanged` checks it
        again: the content hash of each file (None: missing or unreadable), what
        each file or folder test found, each configuration file's fingerprint
        (None: looked for and missing), each configuration folder's YAML files."""
        return {
            "sources": sorted([path, digest] for path, digest in self._hashes.items()),
            "isfile": sorted([path, found] for path, found in self._isfile.items()),
            "isdir": sorted([path, found] for path, found in self._isdir.items()),
            "configs": sorted([path, digest] for path, digest in self._seen_configs.items()),
            "folders": sorted([folder, paths] for folder, paths in self._config_listings.items()),
        }

    def _load(self) -> None:
        """Read the files: the facts of the entries and of what their imports reach."""
        entries = [path for path in self.files if self._entry_text(path) or self._script_candidate(path)]
        order = list(entries)
        seen = set(order)
        position = 0
        imports: dict[str, list[str]] = {}
        while position < len(order):
            current = order[position]
            position += 1
            found = self._scanned_targets(current)
            imports[current] = found
            for target in found:
                if target not in seen:
                    seen.add(target)
                    order.append(target)
        wanted = order + [path for path in self.files if path not in seen and self._may_rebind(path)]
        hashes = {}
        for path in wanted:
            if self.data(path) is not None:
                hashes[path] = self._hashes[path]
        stored = {}
        if self._store is not None:
            try:
                stored = self._store.get_facts(sorted(set(hashes.values())))
            except Exception:  # noqa: BLE001 - a cache problem never stops a run
                stored = {}
        unread = [path for path, digest in hashes.items()
                  if not isinstance(stored.get(digest), dict) or stored[digest].get("v") != FACTS_VERSION]
        # the imports too where a store keeps them (the command's result cache)
        keeps_imports = hasattr(self._store, "put_imports")
        read_with_imports = read_many([(self.data(path) or b"", path) for path in unread], self._jobs, keeps_imports)
        read = {path: facts for path, (facts, _) in zip(unread, read_with_imports)}
        new = [(hashes[path], facts) for path, facts in read.items()]
        # the imports of the files parsed here, for the command's result cache,
        # which would otherwise parse each file again for them
        scanned = [(hashes[path], imports) for path, (_, imports) in zip(unread, read_with_imports) if imports is not None]
        self.parsed += len(read)
        for path, digest in hashes.items():
            self._facts[path] = read[path] if path in read else stored[digest]
        if new and self._store is not None:
            try:
                self._store.put_facts(new)
                if scanned and keeps_imports:
                    self._store.put_imports(scanned)
            except Exception:  # noqa: BLE001
                pass

    def _scanned_targets(self, path: str) -> list[str]:
        """The project files the import statements of ``path`` load (its text
        scanned, not parsed: the imports inside functions too)."""
        known = self._scans.get(path)
        if known is None:
            data = self.data(path)
            known = []
            for level, module, names in scan_imports(data, LINE_START_IMPORT_RE) if data else ():
                known.extend(self._import_targets(path, level, module, names))
            self._scans[path] = known
        return known

    def _entry_text(self, path: str) -> bool:
        if path in self._always_programs:
            return True
        data = self.data(path)
        return data is not None and mode.is_entry(data)

    def _may_rebind(self, path: str) -> bool:
        data = self.data(path)
        return data is not None and b"mindspore" in data and _REBINDING.search(data) is not None

    def facts(self, path: str) -> dict:
        known = self._facts.get(path)
        if known is None:
            data = self.data(path)
            # data() hashed it when it read it (the model's dependencies keep that hash)
            digest = self._hashes.get(path) if data is not None and self._store is not None else None
            known = self._stored_facts(digest) if digest is not None else None
            if known is None:
                known = read_facts(data, path) if data is not None else read_facts(b"", path)
                self.parsed += 1
                if digest is not None:  # a file the first reading did not foresee: for the next run too
                    self._late_facts.append((digest, known))
            self._facts[path] = known
        return known

    def read_facts_of(self, paths: Iterable[str]) -> None:
        """Read now the facts of those of ``paths`` not read yet, with the model's
        forked readers: each would be read alone, in this process, when first
        asked (Model.facts; on mindone, the verdicts of its files read 1.4 s of
        late facts one after another)."""
        missing = [path for path in dict.fromkeys(paths) if path not in self._facts]
        if self._jobs <= 1 or len(missing) < forked.PARALLEL_AT_LEAST:
            return  # (read one by one when asked, as without this)
        sources = {path: data for path in missing if (data := self.data(path)) is not None}
        digests = {path: self._hashes[path] for path in sources}
        stored: dict[str, Any] = {}
        if self._store is not None:
            try:
                stored = self._store.get_facts(sorted(set(digests.values())))
            except Exception:  # noqa: BLE001 - a cache problem never stops a run
                stored = {}
        current = {path: stored.get(digest) for path, digest in digests.items()}
        unread = [path for path, known in current.items() if not (isinstance(known, dict) and known.get("v") == FACTS_VERSION)]
        for path, (known, _) in zip(unread, read_many([(sources[path], path) for path in unread], self._jobs)):
            current[path] = known
            self.parsed += 1
            if self._store is not None:  # for the next run too (keep_late_facts)
                self._late_facts.append((digests[path], known))
        self._facts.update(current)

    def release(self) -> None:
        """Drop everything the model holds, now: its tables refer to each other, and
        left to the collector they were a full collection of half a million objects
        (0.9 s of the command's main process, where nothing else runs). The model
        answers nothing after."""
        self.__dict__.clear()

    def read_verdict_facts(self, paths: Iterable[str]) -> None:
        """Read at once the facts the verdicts of ``paths`` will ask: where a
        project file imports a name by an import that does not resolve, each
        verdict reads the facts of its own file (_called_unresolved)."""
        if self._unresolved_calls():
            self.read_facts_of([path for path in paths if path in self._in_sight])

    def _stored_facts(self, digest: str) -> dict | None:
        """The facts the store keeps for this content, when current."""
        try:
            stored = self._store.get_facts([digest]).get(digest)
        except Exception:  # noqa: BLE001 - a cache problem never stops a run
            return None
        return stored if isinstance(stored, dict) and stored.get("v") == FACTS_VERSION else None

    def keep_late_facts(self) -> None:
        """Store the facts read after the first reading, in one write."""
        if self._late_facts and self._store is not None:
            try:
                self._store.put_facts(self._late_facts)
            except Exception:  # noqa: BLE001
                pass
        self._late_facts = []

    def _script_candidate(self, path: str) -> bool:
        """A file outside packages whose top level calls something: it may be a
        script without a main guard (course code: ``net = Net()`` and a training
        loop at the top level)."""
        if self._is_file(os.path.join(os.path.dirname(path), "__init__.py")):
            return False
        data = self.data(path)
        return data is not None and _TOP_LEVEL_CALL.search(data) is not None

    def _runs_project_code(self, path: str) -> bool:
        """Whether the top level of ``path`` calls a function or class of the project."""
        top_level = self.facts(path)["bodies"].get(MODULE) or {}
        return any(
            (self.resolve(path, dotted, top_level.get("locals")) or ("",))[0] == "sym"
            for dotted, *_ in top_level.get("calls", ())
        )

    def _imported(self, path: str) -> bool:
        """Whether a file in sight imports the module at ``path``."""
        if self._importers is None:
            self._importers = set()
            for source, targets in self._all_imports().items():
                self._importers.update(target for target in targets if target != source)
        return path in self._importers

    def _is_program(self, path: str) -> bool:
        """An entry script; in a package, only when no file in sight imports the
        package: a module of a library with a main guard is a self-test or demo,
        not one of its programs; a folder of scripts with an ``__init__.py`` (a
        model-zoo project) is no library; a module importing a sibling by its
        bare name runs as a script (_imports_by_own_folder), and one a file in
        sight names after ``-m`` runs as a module (_run_as_module). Outside packages, also a file nothing
        imports whose top level runs project code (a script without a main guard)."""
        if not self._entry_text(path):
            return (self._script_candidate(path) and self._runs_project_code(path) and not self._imported(path))
        folder = os.path.dirname(path)
        if not self._is_file(os.path.join(folder, "__init__.py")):
            return True
        top = folder
        while self._is_file(os.path.join(os.path.dirname(top), "__init__.py")):
            top = os.path.dirname(top)
        if self._imports_by_own_folder(path, top):
            return True  # run as a script from its folder (``python main.py``), whoever imports the package
        if self._run_as_module(path, top):
            return True  # ``python -m src.train``, as the project says, whoever imports the package
        if self._package_imported(top):
            return False
        if b"__main__" in (self.data(path) or b""):
            return True
        # without a main guard: a script that runs project code at its top level
        # (``run_model(...)`` after its set_context); a package module that only
        # sets the mode on import decides its own (mslint.analysis.scope)
        return self._runs_project_code(path)

    def _run_as_module(self, path: str, top: str) -> bool:
        """Whether the package module at ``path``, with a main guard, is named as
        a module to run by a Python file in sight (its own usage docstring, a
        launcher's command line, a message): ``-m src.train`` for
        ``src/train.py`` of the package at ``top`` (``-m src`` for
        ``src/__main__.py``). The project runs it as a program."""
        if b"__main__" not in (self.data(path) or b""):
            return False
        parts = os.path.relpath(os.path.splitext(path)[0], os.path.dirname(top)).split(os.sep)
        if parts[-1] == "__main__":
            parts.pop()
        if not parts or not all(part.isidentifier() for part in parts):
            return False
        dotted = ".".join(parts).encode()
        pattern = re.compile(rb"(?<![\w.-])-m[ \t]+" + re.escape(dotted) + rb"(?![\w.])")
        return any(dotted in (self.data(other) or b"") and pattern.search(self.data(other) or b"")
                   for other in [path, *sorted(set(self.files) - {path})])

    def _imports_by_own_folder(self, path: str, top: str) -> bool:
        """Whether a module of a package imports a sibling by its bare name
        (``from models.segformer import WeTr`` in ``pkg/main.py`` beside
        ``pkg/models/``) that no folder above the package holds: the import only
        works with the file's own folder first on sys.path, that is when the file
        runs as a script."""
        folder = os.path.dirname(path)
        above = self._folders_up(os.path.dirname(top)) if top != self.root else []
        for level, module, _names in scan_imports(self.data(path) or b"", LINE_START_IMPORT_RE):
            first = module.split(".")[0] if module and not level else ""
            if first and self._find_module(folder, [first]) is not None \
                    and not any(self._find_module(other, [first]) for other in above):
                return True
        return False

    def _package_imported(self, folder: str) -> bool:
        """Whether a file in sight outside the package at ``folder`` imports it by
        name: an import of that name that finds another project file (a sibling
        project's own ``src`` package, where each project of a repository has
        one) does not import this one."""
        known = self._imported_packages.get(folder)
        if known is None:
            name = os.path.basename(folder).encode()
            pattern = re.compile(rb"^[ \t]*(?:from|import)[ \t]+" + re.escape(name) + rb"\b", re.MULTILINE)
            inside = folder + os.sep
            known = any(
                not path.startswith(inside) and name in (self.data(path) or b"") and pattern.search(self.data(path) or b"")
                and self._imports_package(path, name.decode(), inside)
                for path in self.files
            )
            self._imported_packages[folder] = known
        return known

    def _imports_package(self, path: str, name: str, inside: str) -> bool:
        """Whether an absolute import of ``name`` (or below it) in ``path`` may load
        a file under ``inside``: it finds one there, or no project file at all."""
        for level, module, names in scan_imports(self.data(path) or b"", LINE_START_IMPORT_RE):
            if level:
                continue
            for item in module.split(",") if names is None else [module]:
                item = item.strip()
                if item.split(".", 1)[0] != name:
                    continue
                targets = self._import_targets(path, 0, item, names)
                if not targets or any(target.startswith(inside) for target in targets):
                    return True
        return False

    # -- files and modules -----------------------------------------------------
    def _is_file(self, path: str) -> bool:
        known = self._isfile.get(path)
        if known is None:
            known = self._isfile[path] = os.path.isfile(path)
        return known

    def _find_module(self, folder: str, parts: list[str]) -> str | None:
        key = (folder, *parts)
        if key in self._module_files:
            return self._module_files[key]
        base = os.path.join(folder, *parts)
        found = None
        options = (base + ".py", os.path.join(base, "__init__.py")) if parts else (os.path.join(base, "__init__.py"),)
        for option in options:
            if self._is_file(option):
                found = option
                break
        self._module_files[key] = found
        return found

    def _search_path(self, importer: str) -> list[str]:
        """The folders an absolute import of ``importer`` is found in, first match
        first: its own folder (Python puts the entry's first on sys.path), then
        the folders above it up to the root (memoized per folder; not to be changed)."""
        start = os.path.dirname(importer)
        known = self._search_paths.get(start)
        if known is None:
            known = self._search_paths[start] = self._folders_up(start)
        return known

    def _folders_up(self, folder: str) -> list[str]:
        folders = []
        while True:
            folders.append(folder)
            parent = os.path.dirname(folder)
            if folder == self.root or parent == folder or not folder.startswith(self.root):
                break
            folder = parent
        return folders

    def module_file(self, importer: str, level: int, dotted: str) -> str | None:
        """The project file of module ``dotted`` imported from ``importer``."""
        parts = [part for part in dotted.split(".") if part]
        if level:
            folder = os.path.dirname(importer)
            for _ in range(level - 1):
                folder = os.path.dirname(folder)
            return self._find_module(folder, parts)
        for folder in self._search_path(importer):
            found = self._find_module(folder, parts)
            if found is not None:
                return found
        return None

    def _import_targets(self, importer: str, level: int, module: str, names: list | None) -> list[str]:
        """Every project file an import statement loads (packages on the way
        included); memoized per importing folder (not to be changed)."""
        key = (os.path.dirname(importer), level, module, tuple(names) if names is not None else None)
        known = self._targets.get(key)
        if known is None:
            known = self._targets[key] = self._find_import_targets(importer, level, module, names)
        return known

    def _find_import_targets(self, importer: str, level: int, module: str, names: list | None) -> list[str]:
        found = []
        parts = [part for part in module.split(".") if part]
        if level:
            folder = os.path.dirname(importer)
            for _ in range(level - 1):
                folder = os.path.dirname(folder)
            base = self._find_module(folder, parts)
            if base is not None:
                found.append(base)
            for name in names or ():
                target = self._find_module(folder, [*parts, name])
                if target is not None:
                    found.append(target)
            return found
        for folder in self._search_path(importer):
            if self._find_module(folder, parts[:1]) is None and not self._in_namespace_package(folder, parts, names):
                continue
            for end in range(1, len(parts) + 1):
                target = self._find_module(folder, parts[:end])
                if target is not None:
                    found.append(target)
            for name in names or ():
                target = self._find_module(folder, [*parts, name])
                if target is not None:
                    found.append(target)
            break
        return found

    def _in_namespace_package(self, folder: str, parts: list[str], names: list | None) -> bool:
        """Whether ``folder`` holds what ``from a.b import c`` (``import a.b``)
        names under a top folder without ``__init__.py``, a namespace package
        (``from src.config import lr``, ``from src import config``)."""
        if not parts:
            return False
        where = os.path.join(folder, parts[0])
        is_folder = self._isdir.get(where)
        if is_folder is None:
            is_folder = self._isdir[where] = os.path.isdir(where)
        if not is_folder:
            return False
        if len(parts) > 1 and self._find_module(folder, parts) is not None:
            return True
        return any(self._find_module(folder, [*parts, name]) is not None for name in names or ())

    def _statement_targets(self, importer: str, level: int, module: str, names: list | None) -> list[str]:
        targets = []
        for item in module.split(",") if not level and names is None else [module]:
            targets.extend(self._import_targets(importer, level, item.strip(), names))
        return targets

    # -- what names mean -------------------------------------------------------
    def resolve(self, path: str, dotted: str, local: dict | None = None, depth: int = 0) -> tuple | None:
        """What ``dotted`` names in the file at ``path``: ("sym", file, name) a
        top-level function or class, ("mod", file), ("ext", qualified name) a
        name outside the project, ("obj", file, name) a module-level object (a
        registry candidate), or None."""
        first, _, rest = dotted.partition(".")
        binding = local.get(first) if local else None
        if binding is None:
            key = (path, dotted)
            if key in self._resolved:
                return self._resolved[key]
            self._resolved[key] = None  # a cycle resolves to nothing
            target = self._lookup(path, first, depth)
            found = self._descend(target, rest.split(".") if rest else [], depth)
            self._resolved[key] = found
            return found
        return self._descend(self._binding_target(path, first, binding, depth), rest.split(".") if rest else [], depth)

    def _binding_target(self, path: str, name: str, binding: list, depth: int) -> tuple | None:
        kind = binding[0]
        if depth > 12:
            return None
        if kind in ("def", "class"):
            return ("sym", path, name)
        if kind == "module":
            target = self.module_file(path, 0, binding[1])
            return ("mod", target) if target is not None else ("ext", binding[1])
        if kind == "from":
            _, level, module, imported = binding
            target = self.module_file(path, level, module) if (module or level) else None
            if target is None:
                # from src import models, src a folder without __init__.py (a namespace package)
                submodule = self.module_file(path, level, f"{module}.{imported}") if module else None
                if submodule is not None:
                    return ("mod", submodule)
                return ("ext", f"{module}.{imported}") if not level and module else None
            return self._lookup(target, imported, depth + 1)
        if kind == "alias":
            return self.resolve(path, binding[1], None, depth + 1)
        if kind in ("dict", "object"):
            return ("obj", path, name)
        return None

    def _lookup(self, path: str, name: str, depth: int) -> tuple | None:
        """``name`` looked up in the module at ``path``: its binding, a submodule
        of a package, or a name its star imports bring."""
        key = (path, name)
        if key in self._lookups:
            return self._lookups[key]
        self._lookups[key] = None
        facts = self.facts(path)
        binding = facts["bindings"].get(name)
        found = None
        if binding is not None:
            found = self._binding_target(path, name, binding, depth + 1)
        if found is None and path.endswith("__init__.py"):
            submodule = self._find_module(os.path.dirname(path), [name])
            if submodule is not None:
                found = ("mod", submodule)
        if found is None and depth < 12:
            for level, module in facts["stars"]:
                target = self.module_file(path, level, module)
                if target is not None and target != path:
                    found = self._lookup(target, name, depth + 1)
                    if found is not None:
                        break
        self._lookups[key] = found
        return found

    def _descend(self, target: tuple | None, rest: list[str], depth: int) -> tuple | None:
        for part in rest:
            if target is None:
                return None
            kind = target[0]
            if kind == "mod":
                target = self._lookup(target[1], part, depth + 1)
            elif kind == "ext":
                target = ("ext", f"{target[1]}.{part}")
            else:
                return target  # a class's method (C.from_pretrained builds C), a registry's method
        return target

    # -- reach -----------------------------------------------------------------
    def edges(self, node: tuple[str, str]) -> list[tuple]:
        """What running ``node`` (file, body) runs next: (file, body) pairs, and
        ("lookup", ...) entries resolved per program (their keys depend on it)."""
        known = self._edges.get(node)
        if known is not None:
            return known
        path, body_name = node
        facts = self.facts(path)
        body = facts["bodies"].get(body_name) or {}
        local = body.get("locals")
        out: list[tuple] = []
        if body_name == MODULE:
            # importing pkg.mod runs pkg/__init__.py first
            folder = os.path.dirname(path)
            init = os.path.join(folder, "__init__.py")
            if path != init and self._is_file(init):
                out.append((init, MODULE))
            elif path == init and self._is_file(os.path.join(os.path.dirname(folder), "__init__.py")):
                out.append((os.path.join(os.path.dirname(folder), "__init__.py"), MODULE))
        for level, module, names in body.get("imports", ()):
            for target in self._statement_targets(path, level, module, names):
                out.append((target, MODULE))
        choices = facts.get("choices") or {}
        for dotted, args, keywords, *_ in body.get("calls", ()):
            if choices and self._chosen_name(dotted, local, choices):
                out.append(("choice", dotted, None, path, body_name))
                continue
            target = self.resolve(path, dotted, local)
            out.extend(self._symbol_nodes(target))
            if target == ("ext", "fire.Fire") and not args and not keywords:
                # fire.Fire(): the command line runs any function or class of the module
                out.extend((path, name) for name in list(facts["functions"]) + list(facts["classes"]))
        if body_name != MODULE:
            for dotted in body.get("refs", ()):
                if choices and self._chosen_name(dotted, local, choices):
                    out.append(("choice", dotted, None, path, body_name))
                    continue
                out.extend(self._symbol_nodes(self.resolve(path, dotted, local)))
            # what it registers: a function runs when its owner calls it (a hook, a
            # factory), a class is built only by a lookup that returns it (_lookup_candidates)
            for _, dotted, _ in body.get("registers", ()):
                out.extend(node for node in self._symbol_nodes(self.resolve(path, dotted, local))
                           if node[1] not in self.facts(node[0])["classes"])
        if body_name in facts["classes"]:
            info = facts["classes"][body_name]
            for base in info["bases"]:
                out.extend(self._symbol_nodes(self.resolve(path, base)))
            # what building it runs: its special methods and construct (the others
            # run when reached code names them: Model._reach)
            for method in info.get("methods", ()):
                if method in _RUN_WHEN_BUILT or (method.startswith("__") and method.endswith("__")):
                    out.append((path, f"{body_name}.{method}"))
        for dotted, spec, kind in body.get("lookups", ()):
            target = self.resolve(path, dotted, local)
            if target is not None and (target[0] == "obj" or (kind == "getattr" and target[0] == "mod")):
                out.append(("lookup", target, _hashable(spec) if spec else None, path, body_name))
        for dotted, *_ in body.get("calls", ()):
            # REGISTRY.get(key), REGISTRY.build(cfg), Registry.get_instance(...): lookups too
            owner, _, method = dotted.rpartition(".")
            if owner and not is_registering(method):
                target = self.resolve(path, owner, local)
                if target is not None and (target[0] == "obj" or self._is_class(target)):
                    out.append(("call-lookup", target, dotted, path, body_name))
        if body.get("guard"):
            # past a guard that raises unless PyNative: followed apart (Model._reach)
            out.append(("guarded", (path, body_name + PYNATIVE_PART), body["guard"]))
        known = self._edges[node] = list(dict.fromkeys(out))
        return known

    @staticmethod
    def _chosen_name(dotted: str, local: dict | None, choices: dict) -> bool:
        """Whether ``dotted`` starts with a module-level name that ``if`` branches
        import differently (facts' choices), not shadowed by a local binding."""
        first = dotted.partition(".")[0]
        return first in choices and not (local and first in local)

    def _choice_candidates(self, edge: tuple, program: Program, reached: set) -> list[tuple[tuple[str, str], str, frozenset]]:
        """What a name that ``if`` branches import differently may be in
        ``program``: the imports whose branch its options select (the values its
        configuration files and argparse defaults give), every import where the
        option's values are not known, or none of them matches."""
        _, dotted, _, path, body_name = edge
        first, _, rest = dotted.partition(".")
        found: list[tuple[tuple[str, str], str, frozenset]] = []
        every: list[tuple[tuple[str, str], str, frozenset]] = []
        for binding, guards in self.facts(path).get("choices", {}).get(first, ()):
            target = self._descend(self._binding_target(path, first, binding, 0), rest.split(".") if rest else [], 0)
            nodes = self._symbol_nodes(target)
            every.extend((node, f"{first}, imported in a branch", frozenset()) for node in nodes)
            # the values of each option that reach the import, branch by branch
            remaining: dict[str, set[str]] = {}
            for spec, literals, otherwise in guards:
                keys = self._evaluate(spec, path, MODULE, program, reached, 0)
                if keys is ANY:
                    continue
                values = remaining.setdefault(spec[1], set(keys))
                values &= set(values) - set(literals) if otherwise else set(literals)
                if not values:
                    break
            else:
                shown = "; ".join(f"{option} {' / '.join(map(repr, sorted(values)))}" for option, values in remaining.items())
                why = f"{first}, imported in the branch for {shown}" if shown else f"{first}, imported in a branch"
                found.extend((node, why, frozenset()) for node in nodes)
        return found or every

    def _namespace(self, path: str, depth: int = 0) -> dict[str, tuple[str, str]]:
        """The project classes and functions the module at ``path`` holds by name,
        what ``getattr(module, key)`` and ``module.__dict__[key]`` may return:
        those it defines, and those it imports by name or with ``*`` (a package
        ``__init__`` re-exporting its models)."""
        known = self._namespaces.get(path)
        if known is not None:
            return known
        self._namespaces[path] = {}  # an import cycle adds nothing more
        facts = self.facts(path)
        found: dict[str, tuple[str, str]] = {}
        for level, module in facts["stars"] if depth < 12 else ():
            target = self.module_file(path, level, module)
            if target is not None and target != path:
                found.update((name, node) for name, node in self._namespace(target, depth + 1).items()
                             if not name.startswith("_"))
        for name, binding in facts["bindings"].items():
            if binding[0] in ("from", "alias"):
                found.update((name, node) for node in self._symbol_nodes(self.resolve(path, name)))
        found.update((name, (path, name)) for name in list(facts["classes"]) + list(facts["functions"]))
        self._namespaces[path] = found
        return found

    def _is_class(self, target: tuple | None) -> bool:
        """A project class named whole (``Registry``, not ``Registry.get``)."""
        return target is not None and target[0] == "sym" and target[2] in self.facts(target[1])["classes"]

    def _symbol_nodes(self, target: tuple | None) -> list[tuple[str, str]]:
        if target is None or target[0] != "sym":
            return []
        return [(target[1], target[2])]

    def _reach(self, program: Program) -> None:  # noqa: C901
        """Everything ``program`` reaches, registries included. A method of a
        reached class is reached when reached code names it (``x.name``,
        ``x.name(...)``): which object it is called on is not known, so any."""
        entry = program.path
        reached = _Reached()
        order = reached.order
        parents: dict[tuple[str, str], tuple] = {}
        queue: list[tuple[str, str]] = []
        names: set[str] = set()  # attribute names reached code uses
        waiting: dict[str, list[tuple[tuple[str, str], tuple[str, str]]]] = {}  # name -> methods of reached classes

        def add(node: tuple[str, str], parent: tuple) -> None:
            if node in reached:
                return
            facts = self.facts(node[0])
            body = facts["bodies"].get(node[1])
            if body is None:
                return
            reached.add(node)
            order.append(node)
            if self._explain:
                parents[node] = parent
            queue.append(node)
            for name in body.get("attrs", ()):
                if name not in names:
                    names.add(name)
                    for method, owner in waiting.pop(name, ()):
                        add(method, (owner, f".{name}"))
            info = facts["classes"].get(node[1])
            if info is not None:
                for method in info.get("methods", ()):
                    target = (node[0], f"{node[1]}.{method}")
                    if method in names:
                        add(target, (node, f".{method}"))
                    else:
                        waiting.setdefault(method, []).append((target, node))

        for node in [(entry, MODULE), (entry, MAIN)]:
            add(node, ())
        # the entry's own top level is the program: what it names, it uses
        facts = self.facts(entry)
        for dotted in facts["bodies"].get(MODULE, {}).get("refs", ()):
            for node in self._symbol_nodes(self.resolve(entry, dotted)):
                add(node, ((entry, MODULE), dotted))
        guarded: list[tuple] = []  # the code past guards that raise unless PyNative, and where

        def run() -> None:
            pending: list[tuple] = []
            for _ in range(4):  # lookups whose keys depend on what is reached: a few rounds
                while queue:
                    current = queue.pop()
                    for edge in self.edges(current):
                        if edge[0] in ("lookup", "call-lookup", "choice"):
                            pending.append(edge)
                        elif edge[0] == "guarded":
                            where = f"{os.path.relpath(edge[1][0], self.root)}:{edge[2]}"
                            guarded.append((edge[1], current, f"runs it only past a guard that raises unless PyNative ({where})", ""))
                        else:
                            add(edge, (current, ""))
                if not pending:
                    break
                done, pending = pending, []
                for edge in done:
                    candidates = self._choice_candidates(edge, program, reached) if edge[0] == "choice" \
                        else self._lookup_candidates(edge, program, reached)
                    for node, why, configs in candidates:
                        self._by_lookup.add(node)
                        program.config_selected |= bool(configs)
                        if configs and program.pynative_configs and configs <= program.pynative_configs:
                            # selected only by configurations that run PyNative: followed apart
                            shown = ", ".join(os.path.relpath(path, self.root) for path in sorted(configs)[:3])
                            more = f" and {len(configs) - 3} more" if len(configs) > 3 else ""
                            guarded.append((node, (edge[3], edge[4]),
                                            f"runs it only with the configurations that select PYNATIVE_MODE ({shown}{more})", why))
                        else:
                            add(node, ((edge[3], edge[4]), why))

        run()
        # then what runs only past such a guard: in PyNative mode, whatever mode the
        # program selects (a GRAPH_MODE program raises there), and what only the
        # configurations that select PYNATIVE_MODE build; the code it reaches that
        # way alone is PyNative code of this program (Model._decide)
        pynative_only: dict[tuple[str, str], str] = {}
        position = 0
        while position < len(guarded):
            node, parent, how, why = guarded[position]
            position += 1
            before = set(reached)
            add(node, (parent, why))
            run()
            for new in reached - before:
                pynative_only.setdefault(new, how)
        program.reached = reached
        program.parents = parents if self._explain else None
        program.pynative_only = pynative_only

    # -- registries ------------------------------------------------------------
    def _registry_entries(self, registry: tuple) -> list[tuple[str | None, tuple]]:
        """(key or None, (file, name)) registered in ``registry`` ("obj", file, name)."""
        if self._registries is None:
            self._registries = self._index_registries()
        return self._registries.get((registry[1], registry[2]), [])

    def _index_registries(self) -> dict[tuple[str, str], list]:  # noqa: C901
        found: dict[tuple[str, str], list] = {}
        registrars: dict[tuple[str, str], tuple[tuple[str, str], str]] = {}
        calls: list[tuple] = []  # (file, locals, callee, registered name, key spec): registering calls
        parsed = list(self._facts.items())
        for path, facts in parsed:
            for name, entries in facts["dicts"].items():
                for key, dotted in entries:
                    for node in self._symbol_nodes(self.resolve(path, dotted)):
                        found.setdefault((path, name), []).append((key, node))
            for body_name, body in facts["bodies"].items():
                for dotted, key, value in body.get("stores", ()):
                    target = self.resolve(path, dotted, body.get("locals"))
                    if target is None or target[0] != "obj":
                        continue
                    registry = (target[1], target[2])
                    if value and value[0] == "param":
                        # a decorator storing what it decorates: register(fn) / register(name)(cls)
                        kind = "dname" if key and key[0] == "dname" else "arg" if key and key[0] == "param" else "any"
                        registrars[(path, body_name)] = (registry, kind)
                    elif value and value[0] == "name":
                        for node in self._symbol_nodes(self.resolve(path, value[1], body.get("locals"))):
                            literal = str(key[1]) if key and key[0] == "lit" else None
                            found.setdefault(registry, []).append((literal, node))
                for callee, dotted, key in body.get("registers", ()):
                    if callee:
                        calls.append((path, body.get("locals"), callee, dotted, key))
        for path, facts in parsed:
            for table in ("classes", "functions"):
                for name, info in facts[table].items():
                    for dotted, argument, called in info["decorators"]:
                        if not dotted:
                            continue
                        target = self.resolve(path, dotted)
                        if target is None:
                            continue
                        if target[0] == "sym" and (target[1], target[2]) in registrars:
                            registry, kind = registrars[(target[1], target[2])]
                            key = name if kind == "dname" else argument if kind == "arg" and called else None
                            found.setdefault(registry, []).append((key, (path, name)))
                        elif target[0] == "obj" and "." in dotted:
                            # @REGISTRY.register_module(), @REGISTRY.register("key")
                            found.setdefault((target[1], target[2]), []).append((argument or name, (path, name)))
        for path, local, callee, dotted, key in calls:
            registry = self._registry_of_call(path, local, callee, registrars)
            if registry is not None:
                literal = str(key[1]) if key and key[0] == "lit" else None
                for node in self._symbol_nodes(self.resolve(path, dotted, local)):
                    found.setdefault(registry, []).append((literal, node))
        return found

    def _registry_of_call(self, path: str, local: dict | None, callee: str,
                          registrars: dict[tuple[str, str], tuple[tuple[str, str], str]]) -> tuple[str, str] | None:
        """The registry a registering call files into: that of a project function
        storing its argument into one (``register(Net)``), or the object or class
        whose method it is (``REGISTRY.register_module(Net)``,
        ``Registry.register_cls(Net)``); None for a registry out of sight."""
        target = self.resolve(path, callee, local)
        if target is not None and target[0] == "sym" and (target[1], target[2]) in registrars:
            return registrars[(target[1], target[2])][0]
        owner = callee.rpartition(".")[0]
        if not owner:
            return None
        target = self.resolve(path, owner, local)
        if target is not None and (target[0] == "obj" or self._is_class(target)):
            return (target[1], target[2])
        return None

    def _lookup_candidates(self, edge: tuple, program: Program, reached: set) -> list[tuple[tuple[str, str], str, frozenset]]:
        """The candidates a lookup builds: (node, how, the configuration files
        that alone select it: empty when anything else may, or mslint cannot tell)."""
        kind, target = edge[0], edge[1]
        if kind == "lookup" and target[0] == "mod":  # getattr(module, key), module.__dict__[key]
            entries = list(self._namespace(target[1]).items())
            spec = edge[2]
        else:
            entries = self._registry_entries(target)
            spec = edge[2] if kind == "lookup" else None
            if kind == "call-lookup":
                spec = self._call_key(edge)
        if not entries:
            return []
        read_from: list = []
        givers: dict[str, set[str]] = {}
        keys = self._evaluate(spec, edge[3], edge[4], program, reached, 0, read_from, givers)
        if keys is ANY and not read_from and len(entries) > _UNTRACED_KEY_LIMIT:
            # a key the program computes (a class attribute, a name built from
            # strings), read from none of its options: it picks one or a few of the
            # many, which is out of sight, and no user option makes it another
            # (ProcessorMixin's getattr(transformers_module, class_name) over 500
            # model classes made every model of the package graph code)
            return []
        # a key read from options alone: which configuration files select each value
        # (through the tables the code reads it through: the value each one maps to)
        given_by = givers if keys is not ANY and read_from and None not in read_from else {}
        shown = f"the names of {os.path.relpath(target[1], self.root)}" if target[0] == "mod" \
            else f"registry {os.path.basename(target[1])}:{target[2]}"
        if THROUGH_TABLE in read_from:
            # a key read through a table: all the candidates, as for a key mslint
            # cannot read (the program may be given files not in sight), and those
            # the table's values select with the files in sight selecting them
            return [(node, shown + (f"[{key!r}]" if key in given_by else ""),
                     frozenset(given_by[key]) if key in given_by and "" not in given_by[key] else frozenset())
                    for key, node in entries]
        chosen = []
        for key, node in entries:
            if keys is ANY or key is None or key in keys:
                configs = given_by.get(key, set()) if key is not None else set()
                chosen.append((node, shown + (f"[{key!r}]" if keys is not ANY and key else ""),
                               frozenset() if "" in configs else frozenset(configs)))
        if keys is not ANY and not chosen:
            return [(node, shown, frozenset()) for _, node in entries]  # a key mslint cannot match: all
        return chosen

    def _call_key(self, edge: tuple) -> tuple | None:
        _, _, dotted, path, body_name = edge
        body = self.facts(path)["bodies"].get(body_name) or {}
        for callee, args, keywords, *_ in body.get("calls", ()):
            if callee == dotted:
                spec = args[0] if args else next(iter(keywords.values()), None)
                return _hashable(spec) if spec else None
        return None

    def _evaluate(self, spec: tuple | list | None, path: str, body_name: str, program: Program, reached: set, depth: int,  # noqa: C901, PLR0911, PLR0912
                  options: list | None = None, givers: dict[str, set[str]] | None = None):
        """The strings a key spec may be in ``program``: a set, or ANY;
        ``options`` gets the options the values were read from (None where one
        was not read from an option), ``givers`` what gives each value read
        from an option (Model._option_sources: the configuration files, "" the
        program's argparse options), mapped through the tables it is read
        through."""
        if spec is None or depth > 4:
            return ANY
        kind = spec[0]
        if kind == "lit":
            if options is not None:
                options.append(None)
            return {str(spec[1])}
        if kind == "opt":
            values = self._option_values(program, spec[1], reached)
            if options is not None:
                options.append(spec[1])
            if givers is not None:
                for value, sources in self._option_sources(program, spec[1], reached).items():
                    givers.setdefault(value, set()).update(sources)
            return {str(value) for value in values} if values else ANY
        if kind == "ret":
            return self._returned(spec, path, body_name, program, reached, depth, options, givers)
        if kind == "table":
            table = self._literal_table(path, body_name, spec[1])
            if table is None:
                return ANY
            read: dict[str, set[str]] = {}
            keys = self._evaluate(spec[2], path, body_name, program, reached, depth + 1, options, read)
            if keys is ANY:
                return ANY
            found: set[str] = set()
            if options is not None:
                options.append(THROUGH_TABLE)
            for key in keys:
                if key not in table:
                    continue  # a KeyError there: that value builds nothing
                value = table[key]
                for index in spec[3]:
                    value = value[index] if isinstance(value, list) and -len(value) <= index < len(value) else None
                if value is None or isinstance(value, list):
                    return ANY
                found.add(str(value))
                if givers is not None:
                    givers.setdefault(str(value), set()).update(read.get(key, ()))
            return found or ANY
        if kind == "param":
            name, owner = spec[1], spec[2]
            callee = (path, body_name)
            cls = body_name[: -len(".__init__")] if body_name.endswith(".__init__") else None
            if owner == "__init__" and cls in self.facts(path)["classes"]:
                params = self.facts(path)["classes"][cls]["params"]
                callee = (path, cls)
            elif owner == body_name and body_name in self.facts(path)["functions"]:
                params = self.facts(path)["functions"][body_name]["params"]
            else:
                return ANY
            index = params.index(name) if name in params else -1
            found: set[str] = set()
            sites = 0
            for node, args, keywords in self._call_sites(reached, callee):
                sites += 1
                argument = keywords.get(name) if name in keywords else args[index] if 0 <= index < len(args) else None
                if argument is None and name not in keywords and not (0 <= index < len(args)):
                    continue  # the parameter's default: not a key we can read here
                values = self._evaluate(argument, node[0], node[1], program, reached, depth + 1, options, givers)
                if values is ANY:
                    return ANY
                found |= values
            return found if sites and found else ANY
        return ANY

    def _returned(self, spec: list, path: str, body_name: str, program: Program, reached: set, depth: int,  # noqa: PLR0913
                  options: list | None, givers: dict[str, set[str]] | None):
        """The strings what a project function returns may be (["ret", callee,
        index]: element ``index`` of the tuple it returns, -1 all of it), read
        in the function from its callers; ANY where a return is not read."""
        local = (self.facts(path)["bodies"].get(body_name) or {}).get("locals")
        target = self.resolve(path, spec[1], local)
        if target is None or target[0] != "sym" or target[2] not in self.facts(target[1])["functions"]:
            return ANY
        body = self.facts(target[1])["bodies"].get(target[2]) or {}
        returns = body.get("returns")
        if not returns or body.get("guard"):
            return ANY  # a generator, no return read, or returns past a PyNative guard
        found: set[str] = set()
        for value in returns:
            if spec[2] >= 0:
                if not value or value[0] != "tuple" or spec[2] >= len(value[1]):
                    return ANY
                value = value[1][spec[2]]
            values = self._evaluate(value, target[1], target[2], program, reached, depth + 1, options, givers)
            if values is ANY:
                return ANY
            found |= values
        return found or ANY

    def _literal_table(self, path: str, body_name: str, dotted: str) -> dict[str, Any] | None:
        """The module-level table of literals ``dotted`` names in the body
        (key -> value), when nothing in the files read changes it (an item
        stored, a method called on it: ``update``, ``setdefault``...); else None."""
        local = (self.facts(path)["bodies"].get(body_name) or {}).get("locals")
        target = self.resolve(path, dotted, local)
        if target is None or target[0] != "obj":
            return None
        known = self._tables.get(target)
        if known is None:
            entries = self.facts(target[1]).get("tables", {}).get(target[2])
            known = self._tables[target] = dict(entries) if entries and not self._changed(target) else {}
        return known or None

    def _changed(self, table: tuple) -> bool:
        """Whether code of the files read stores into ``table`` ("obj", file, name)
        or calls one of its methods."""
        for path, facts in list(self._facts.items()):
            for body in facts["bodies"].values():
                local = body.get("locals")
                for dotted, *_ in body.get("stores", ()):
                    if dotted.rsplit(".", 1)[-1] == table[2] and self.resolve(path, dotted, local) == table:
                        return True
                for dotted, *_ in body.get("calls", ()):
                    owner, _, method = dotted.rpartition(".")
                    if method in _CHANGING and owner.rsplit(".", 1)[-1] == table[2] \
                            and self.resolve(path, owner, local) == table:
                        return True
        return False

    def _node_calls(self, node: tuple[str, str]) -> list[tuple[tuple[str, str], Any, Any]]:
        """The calls of ``node``'s body to a project function or class:
        (callee node, args, keywords), in the body's order (the same for every program)."""
        known = self._calls_of.get(node)
        if known is None:
            body = self.facts(node[0])["bodies"].get(node[1]) or {}
            local = body.get("locals")
            known = []
            for dotted, args, keywords, *_ in body.get("calls", ()):
                target = self.resolve(node[0], dotted, local)
                if target is not None and target[0] == "sym":
                    known.append(((target[1], target[2]), args, keywords))
            self._calls_of[node] = known
        return known

    def _index_reached(self, reached: _Reached) -> None:
        """Bring ``reached``'s indexes up to what it holds now."""
        order = reached.order
        for position in range(reached.indexed, len(order)):
            node = order[position]
            path = node[0]
            if path not in reached.files:
                reached.files.add(path)
                for option in self.facts(path)["arguments"]:
                    reached.options.setdefault(option, []).append(path)
            reached.bodies.setdefault(path, set()).add(node[1])
            if node[1].endswith(".__init__"):
                for attribute, value in (self.facts(path)["bodies"].get(node[1]) or {}).get("sets", ()):
                    reached.init_sets.setdefault(attribute, []).append((path, node[1], value))
            for callee, args, keywords in self._node_calls(node):
                reached.sites.setdefault(callee, []).append((node, args, keywords))
        reached.indexed = len(order)

    def _call_sites(self, reached: set, callee: tuple[str, str]) -> list:
        """The calls of ``callee`` in the code of ``reached``: (caller node, args, keywords)."""
        if isinstance(reached, _Reached):
            self._index_reached(reached)
            return reached.sites.get(callee, [])
        return [(node, args, keywords) for node in reached for target, args, keywords in self._node_calls(node)
                if target == callee]

    # -- options and configuration files ----------------------------------------
    def _option_values(self, program: Program, key: str, reached: set | None = None, sources: list | None = None) -> list:
        """What option ``key`` may be in ``program``: its argparse choices (else its
        default), and the values configuration files give it; ``sources`` gets
        where each was read. A nested key (``model.name``) that nothing gives
        is read by its last name, as a top-level option."""
        values = self._option_values_of(program, key, reached, sources)
        if not values and "." in key:
            values = self._option_values_of(program, key.rsplit(".", 1)[1], reached, sources)
        return values

    def _option_sources(self, program: Program, key: str, reached: set | None = None) -> dict[str, set[str]]:
        """Each value option ``key`` may be in ``program`` (as a string) -> what
        gives it: the configuration files, "" for the program's argparse options."""
        found: dict[str, set[str]] = {}
        for name in dict.fromkeys([key, key.rsplit(".", 1)[-1]]):
            self._option_values_of(program, name, reached, None, found)
            if found:
                break
        return found

    def _option_values_of(self, program: Program, key: str, reached: set | None, sources: list | None,
                          given_by: dict[str, set[str]] | None = None) -> list:
        values: list = []
        nodes = reached if reached is not None else program.reached or set()
        if isinstance(nodes, _Reached):
            self._index_reached(nodes)
            files = nodes.files
            declaring = sorted(nodes.options.get(key, ()))
        else:
            files = {node[0] for node in nodes}
            declaring = sorted(path for path in files if key in self.facts(path)["arguments"])
        for path in declaring:
            option = self.facts(path)["arguments"].get(key)
            if option is None or not _runs_in(nodes, path, option[3]):
                continue  # an option of code the program never runs: another script's main()
            default, choices, line = option[:3]
            where = f"{os.path.relpath(path, self.root)}:{line}"
            if choices:
                if sources is not None:
                    sources.append(f"the choices of --{key} at {where}")
                if given_by is not None:
                    for value in choices:
                        given_by.setdefault(str(value), set()).add("")
                return list(choices)
            if default is not None:
                values.append(default[1])
                if sources is not None:
                    sources.append(f"the default of --{key} at {where}")
                if given_by is not None:
                    given_by.setdefault(str(default[1]), set()).add("")
        for config, config_values in self._configs(program, files).items():
            if key in config_values:
                values.extend(config_values[key])
                if sources is not None:
                    sources.append(os.path.relpath(config, self.root))
                if given_by is not None:
                    for value in config_values[key]:
                        given_by.setdefault(str(value), set()).add(config)
        if not values and "." not in key:
            found = self._class_settings(nodes, files, key)
            if found:
                where, value = found
                values.append(value)
                if sources is not None:
                    sources.append(f"the __init__ of {where}")
                if given_by is not None:
                    given_by.setdefault(str(value), set()).add(where)
        return values

    def _class_settings(self, nodes, files: set[str], key: str) -> tuple[str, Any] | None:
        """Where option ``key`` that no argparse option nor configuration file gives is
        given by a configuration class the program builds: the one ``__init__`` it
        reaches that sets ``self.<key> = <literal>`` in its own body (facts "sets")
        -> (where, the value), when that is the only store of ``<key>`` anywhere in
        the files it reaches (``cfg.<key> = ...`` elsewhere, ``setattr``, a second
        class setting it: None, unsure)."""
        if isinstance(nodes, _Reached):  # indexed as the reach grew (a walk of every node per key took minutes)
            self._index_reached(nodes)
            setting = nodes.init_sets.get(key, ())
        else:
            setting = [(path, body_name, value) for path, body_name in nodes if body_name.endswith(".__init__")
                       for attribute, value in (self.facts(path)["bodies"].get(body_name) or {}).get("sets", ())
                       if attribute == key]
        found = [(f"{body_name[:-len('.__init__')]} ({os.path.relpath(path, self.root)})", value)
                 for path, body_name, value in setting]
        if len(found) != 1:
            return None
        store = _attribute_store(key)
        stores = 0
        for path in files:
            data = self.data(path)
            if data is None:
                return None
            if key.encode() in data:
                if b"setattr" in data or b"__dict__" in data:
                    return None
                stores += len(store.findall(data))
        return found[0] if stores == 1 else None

    def _configs(self, program: Program, files: set[str]) -> dict[str, dict[str, list]]:
        """The configuration files of ``program``: YAML beside the entry (and in its
        config/, configs/, searched down), beside the project root and in its
        config/, configs/ (``tools/train.py -c configs/x.yaml``), and the files its
        modules name."""
        key = (program.path, len(files))
        known = self._program_configs.get(key)
        if known is None:
            known = self._program_configs[key] = self._read_configs(program, files)
        return known

    def _read_configs(self, program: Program, files: set[str]) -> dict[str, dict[str, list]]:
        found: dict[str, dict[str, list]] = {}
        folder = os.path.dirname(program.path)
        for where in dict.fromkeys((folder, self.root)):
            if where not in self._folder_configs:
                listing: dict[str, str | None] = {}
                self._folder_configs[where] = _config_folder(where, listing)
                self._config_listings[where] = list(listing)
                self._seen_configs.update(listing)
            found.update(self._folder_configs[where])
        for path in sorted(files):
            for name in self.facts(path)["configs"]:
                for base in (os.path.dirname(program.path), os.path.dirname(path), self.root):
                    candidate = os.path.normpath(os.path.join(base, name))
                    if candidate in found:
                        break
                    if candidate not in self._named_configs:
                        fingerprint, keys = _config_read(candidate) if os.path.isfile(candidate) else (None, {})
                        self._named_configs[candidate] = keys
                        self._seen_configs.setdefault(candidate, fingerprint)
                    if self._named_configs[candidate]:
                        found[candidate] = self._named_configs[candidate]
                        break
        return found

    # -- modes -----------------------------------------------------------------
    def _mode(self, program: Program) -> None:  # noqa: C901, PLR0912
        """The program's kind and its evidence (module docstring)."""
        entry = program.path
        reached = program.reached or set()
        files = {node[0] for node in reached}
        selected: set[str] = set()
        levels: set[str] = set()
        evidence: dict[str, str] = {}
        own = self.facts(entry)["contexts"]
        # one the entry's top-level code runs after its last call, in a program that
        # builds Cells, selects the mode of nothing it runs (mode.ContextCall.last): the
        # network was built and ran before it. A script that builds nothing and only
        # sets the mode still tells how the project's programs run.
        idle = [call for call in own if len(call) > 7 and call[7]]
        if idle and any(node[1] in self.facts(node[0])["classes"] and self.is_cell(*node) for node in reached):
            own = [call for call in own if not (len(call) > 7 and call[7])]
        else:
            idle = []
        sources = [(entry, call) for call in own]
        later = self._superseding(entry, own, files, reached)
        if later:
            sources = later
        elif not own:
            for path in sorted(files - {entry}):
                for call in self.facts(path)["contexts"]:
                    runs = call[1]
                    if runs == mode.AS_SCRIPT:
                        continue
                    # one in a function or class of the module counts when the
                    # program runs it (importing the module does not)
                    body = MODULE if runs == mode.ON_IMPORT else runs
                    if (path, body) in reached:
                        sources.append((path, call))
        by_config: dict[str, set[str]] | None = {}  # configuration file -> the modes it selects (None: not theirs)
        for path, call in sources:
            modes, _, line, options, call_levels, level_options, *rest = call
            tables = {option: (reading, dict(table)) for option, reading, table in (rest[0] if rest else ())}
            modes = set(modes)
            where = f"{os.path.relpath(path, self.root)}:{line}"
            how = ""
            if UNKNOWN in modes and options:
                read = self._modes_of_options(program, options, reached, tables=tables)
                if read:
                    modes = (modes - {UNKNOWN}) | read[0]
                    how = f", {read[1]}"
            if by_config is not None:
                by_config = self._modes_by_config(program, modes, options, tables, reached, by_config)
            selected |= modes
            for mode_name in modes:
                evidence.setdefault(mode_name, f"{where}{how}")
            call_levels = set(call_levels)
            if UNKNOWN in call_levels and level_options:
                read = self._modes_of_options(program, level_options, reached, levels=True)
                if read:
                    call_levels = (call_levels - {UNKNOWN}) | read[0]
            levels |= call_levels
        if GRAPH in selected:
            program.kind, program.evidence = SETS_GRAPH, f"sets GRAPH_MODE ({evidence[GRAPH]})"
        elif UNKNOWN in selected:
            program.kind, program.evidence = UNREADABLE, f"sets a mode mslint cannot read ({evidence[UNKNOWN]})"
        else:
            program.kind = RUNS_PYNATIVE
            program.evidence = f"sets PYNATIVE_MODE ({evidence[PYNATIVE]})" if PYNATIVE in selected \
                else f"sets a mode only after its last call ({os.path.relpath(entry, self.root)}:{idle[0][2]}): PyNative" \
                if idle and not sources else "sets no mode: PyNative"
        program.syntax_level = next(iter(levels)) if len(levels) == 1 and UNKNOWN not in levels else ""
        if by_config and GRAPH in selected:
            # the mode is the configuration's: what only PyNative ones select runs PyNative (Model._reach)
            program.pynative_configs = frozenset(config for config, modes in by_config.items() if modes == {PYNATIVE})
        program.trains = self._may_train(entry, files, program.reached)
        program.exports = self.facts(entry)["exports"]
        program.only_trains = self._only_trains(files | {entry})

    def _superseding(self, entry: str, own: list, files: set[str], reached: set) -> list[tuple[str, list]]:
        """The ``set_context`` calls that select the mode after the entry's own, when
        those all run on import (``context.set_context(mode=GRAPH_MODE)`` at its top
        level) and the program's main path then calls a function of a module it
        imports that selects the mode again (``init_env(cfg)`` ->
        ``set_context(mode=MODES[cfg.system.context_mode])``): what the program builds
        after it runs in the mode that call selects. [] otherwise."""
        if not own or any(call[1] != mode.ON_IMPORT for call in own) or not any(call[0] for call in own):
            return []
        return [(path, call) for path in sorted(files - {entry}) for call in self.facts(path)["contexts"]
                if call[0] and call[1] not in (mode.ON_IMPORT, mode.AS_SCRIPT) and (path, call[1]) in reached]

    def _may_train(self, entry: str, files: set[str], reached: set | None = None) -> bool:
        """Whether the program of ``entry``, reaching ``files``, may train what it
        builds: what it reaches shows training text (mslint.analysis.mode.TRAINS:
        an optimizer, a gradient, ``train(``, ``fit(``, ``set_train()``,
        TrainOneStepCell), or it shows no use of the network mslint can read,
        so it may hand it to code mslint cannot follow: its entry neither runs
        inference (INFERS), nor calls a Cell's ``construct`` itself, nor is a
        module's self-test (its top level runs classes of its own file forward and
        hands them on nowhere: ``Fusion(3, 1)(a, b)``, facts' calls_built), and nothing
        it reaches loads weights (LOADS_WEIGHTS). A program that loads a
        checkpoint, or runs forward passes only, and reaches no training text
        does not train: its Cells keep ``training=False`` (FACTS.md)."""
        if any(self._trains_in(path, reached) for path in files | {entry}):
            return True
        own = self.facts(entry)
        if own["infers"] or own.get("calls_construct"):
            return False
        run = own.get("calls_built")
        if run and all(name in own["classes"] for name in run):
            return False  # a module's self-test: it runs its own classes forward, and nothing else
        return not any(self.facts(path).get("loads_weights") for path in files | {entry})

    def _trains_in(self, path: str, reached: set | None) -> bool:
        """Whether the training text of file ``path`` is in code the program runs:
        its top-level code, or a function, class or method it reaches; not a
        ``TrainingWrapper`` class the module defines and the program never builds."""
        facts = self.facts(path)
        if not facts["trains"]:
            return False
        where = facts.get("trains_in")
        if where is None or reached is None:
            return True  # where is not known
        return any(body == MODULE or (path, body) in reached or (path, body.split(".")[0]) in reached
                   for body in where)

    def _only_trains(self, files: set[str]) -> bool:
        """Whether a program reaching ``files`` turns the Cells' training flag on
        (``set_train()``, ``Model.train``) and nothing it reaches may compile them
        with the flag off (inference, export, ``set_train(False)``, ``Model.fit``'s
        validation): graph mode then folds ``if self.training:`` to its first arm.
        Read from the files' text, for the program as a whole (a Cell it never
        calls set_train on keeps the flag off: ms-missing-set-train's case)."""
        read = [self.facts(path) for path in files]
        return any(facts["sets_training"] for facts in read) and not any(facts["may_evaluate"] for facts in read)

    def _modes_by_config(self, program: Program, modes: set[str], options, tables: dict, reached: set,
                         known: dict[str, set[str]]) -> dict[str, set[str]] | None:
        """``known`` with the modes each configuration file selects through one
        ``set_context`` call's options; None when the call's mode is not (only)
        the configuration files' choice: a literal, an argparse option, a value
        mslint cannot read."""
        if not options or not modes:
            return None
        for option in options:
            reading, table = tables.get(option, ("", None))
            for value, givers in self._option_sources(program, option, reached).items():
                if "" in givers:
                    return None
                if table is not None:
                    selected = mode.table_mode(table, mode.yaml_scalar(value), reading)
                    chosen = {selected} if selected else set()
                else:
                    chosen = mode.constant_mode(mode.yaml_scalar(value))
                if UNKNOWN in chosen:
                    return None
                for config in givers:
                    known.setdefault(config, set()).update(chosen)
        return known

    def _modes_of_options(self, program: Program, options, reached: set, levels: bool = False,
                          tables: dict[str, tuple[str, dict]] | None = None) -> tuple[set[str], str] | None:
        """The modes (``levels``: syntax levels) the options' values select, each
        read through its table of modes where the code has one (a value the
        table lacks selects nothing: the code fails, or keeps the mode; a
        conditional's test the program's values decide selects the arm each
        takes), and where they were read; None when an option has no value in
        sight (a conditional's: either arm)."""
        found: set[str] = set()
        sources: list[str] = []
        undecided = False
        for option in options:
            values = self._option_values(program, option, reached, sources)
            reading, table = (tables or {}).get(option, ("", None))
            if not values:
                if table is None or not mode.is_conditional(table):
                    return None
                found |= set(table.values())  # a test nothing in sight decides: either arm
                undecided = True
                continue
            for value in values:
                if table is not None:
                    selected = mode.table_mode(table, value, reading)
                    found |= {selected} if selected else set()
                else:
                    found |= mode.constant_level(value) if levels else mode.constant_mode(value)
        if not found:
            if sources and tables and not undecided:
                # every value read, and the code's table selects none of them (the
                # arm of ``if cfg.mode == "graph":`` a "pynative" value never takes)
                return found, f"{options[0]!r} from {', '.join(sources[:3])}, which selects no mode here"
            return None
        if not sources:
            return found, f"either arm of a test of {options[0]!r}, which no option in sight gives"
        shown = ", ".join(sources[:3]) + (f" and {len(sources) - 3} more" if len(sources) > 3 else "")
        return found, f"{options[0]!r} from {shown}" + (", either arm of a test of another" if undecided else "")

    # -- devices ---------------------------------------------------------------
    def _on_ascend(self, programs: list[Program], path: str) -> str:
        """The first of ``programs`` that may run on Ascend, with where it selects
        it, as the module at ``path`` reads it (Decision.ascend): "../train.py (line
        40)", "../train.py (src/env.py:12, 'device_target' from ...)"; "" when none may."""
        for program in programs:
            found = self.ascend_setting(program)
            if found is None:
                continue
            setting, line, how = found
            where = f"line {line}" if setting == program.path else f"{os.path.relpath(setting, self.root)}:{line}"
            return f"{_shown(program.path, path)} ({where}{', ' + how if how else ''})"
        return ""

    def ascend_setting(self, program: Program) -> tuple[str, int, str] | None:
        """Where ``program`` may select Ascend: (file, line, the options it was
        read from or "") of a device setting (``set_context(device_target=...)``,
        ``set_device(...)``) that may give it; None when none may (every setting
        is CPU or GPU, or one mslint cannot read, or there is none). Its entry's
        own settings, else those of the modules it reaches that run
        (mslint.analysis.devices); an option is read from the program's argparse
        options (their defaults and choices) and configuration files, as for the mode."""
        if program.path not in self._ascend:
            self._ascend[program.path] = self._read_ascend(program)
        return self._ascend[program.path]

    def _read_ascend(self, program: Program) -> tuple[str, int, str] | None:
        entry = program.path
        reached = program.reached or set()
        sources = [(entry, call) for call in self.facts(entry).get("devices", ())]
        if not sources:
            for path in sorted({node[0] for node in reached} - {entry}):
                for call in self.facts(path).get("devices", ()):
                    runs = call[1]
                    body = MODULE if runs == mode.ON_IMPORT else runs
                    if runs != mode.AS_SCRIPT and (path, body) in reached:
                        sources.append((path, call))
        for path, (selected, _, line, options) in sources:
            if devices.ASCEND in selected:
                return path, line, ""
            read: list[str] = []
            for option in options if UNKNOWN in selected else ():
                values = self._option_values(program, option, reached, read)
                if any(devices.constant_device(mode.yaml_scalar(str(value))) == devices.ASCEND for value in values):
                    return path, line, f"{option!r} from {', '.join(read[:2])}"
        return None

    # -- decisions -------------------------------------------------------------
    def _decide(self) -> None:
        """Each reached (file, body)'s decision, and each file's default."""
        order = {kind: index for index, kind in enumerate(KINDS)}
        self._by_node: dict[tuple[str, str], list[Program]] = {}
        views: dict[tuple[str, str], Program] = {}
        resort = set()
        for program in sorted(self.programs, key=lambda item: (order[item.kind], item.path)):
            past_guard = self._pynative_in(program) if program.kind != RUNS_PYNATIVE else {}
            for node in program.reached or ():
                where = past_guard.get(node)
                if where:
                    # code it runs only past a guard that raises unless PyNative, or
                    # only as PyNative configurations select, or builds and never calls
                    view = views.get((program.path, where))
                    if view is None:
                        view = views[(program.path, where)] = replace(program, kind=RUNS_PYNATIVE, guard=where)
                    self._by_node.setdefault(node, []).append(view)
                    resort.add(node)
                else:
                    self._by_node.setdefault(node, []).append(program)
        for node in resort:
            self._by_node[node].sort(key=lambda item: (order[item.kind], item.path))
        self._decisions: dict[tuple[str, str], Decision] = {}
        self._defaults: dict[str, Decision] = {}
        self._building: dict[str, bool] = {}
        self._beside: dict[str, list[Program]] = {}

    def _pynative_in(self, program: Program) -> dict[tuple[str, str], str]:
        """The nodes a compiling program reaches whose code it never compiles ->
        how: past a guard, as PyNative configurations select (Program.pynative_only),
        Cells it builds and never calls (:meth:`_uncalled`)."""
        return {**self._held_uncalled(program), **self._parked_uncalled(program), **self._uncalled(program),
                **(program.pynative_only or {})}

    def _uncalled(self, program: Program) -> dict[tuple[str, str], str]:
        """The Cells ``program``'s own code (the entry's top level, main guard and
        functions) builds into a name and never calls, nor hands on (``m =
        MoCo(); load_param_into_net(m, ...); m.encoder_q(x)``: the sub-cell runs,
        MoCo's construct is not compiled), or whose construct it calls directly
        in plain Python (``m.construct(x)``: a method call; the sub-cells it
        calls are compiled), when nothing else the program runs builds them:
        (file, class) -> how."""
        found: dict[tuple[str, str], str] = {}
        reached = program.reached or set()
        facts = self.facts(program.path)
        for body_name, body in facts["bodies"].items():
            if (program.path, body_name) not in reached:
                continue
            for dotted, line, attributes, *direct in body.get("uncalled", ()):
                target = self.resolve(program.path, dotted, body.get("locals"))
                if not self._is_class(target) or not self.is_cell(target[1], target[2]):
                    continue
                node = (target[1], target[2])
                if node in self._by_lookup or self._runs_methods(node, attributes):
                    continue
                how = "calls its construct directly, as plain Python" if direct and direct[0] else "builds it and never calls it"
                found[node] = f"{how} ({os.path.relpath(program.path, self.root)}:{line})"
        if found:
            for node in self._built_otherwise(program, found):
                del found[node]
        return found

    def _held_uncalled(self, program: Program) -> dict[tuple[str, str], str]:
        """The Cells ``program`` builds only as sub-cells that a reached ``__init__``
        holds (``self.loss = Loss()``) and nothing it runs reads: the attribute's name
        is read nowhere in the holder's file (facts "held", which has no ``getattr``
        nor ``__dict__``) nor in any other code the program reaches, and nothing
        reached reads children without naming them (``cells()``, ``name_cells()``). A Cell's construct compiles the
        children it calls, not those it holds (``mindspore.export(net, ...)`` of a net
        holding a loss it never calls does not compile the loss: measured,
        tests/oracle/test_graph.py), so such a Cell runs nowhere in this program; when
        nothing else the program runs builds it: (file, class) -> how."""
        reached = program.reached or set()
        held: list[tuple[tuple[str, str], str, str, int, str]] = []  # (class, attribute, holder file, line, holder)
        for path, body_name in reached:
            if not body_name.endswith(".__init__"):
                continue
            body = self.facts(path)["bodies"].get(body_name) or {}
            for attribute, dotted, line in body.get("held", ()):
                target = self.resolve(path, dotted, body.get("locals"))
                if self._is_class(target) and self.is_cell(target[1], target[2]):
                    held.append(((target[1], target[2]), attribute, path, line, body_name[:-len(".__init__")]))
        if not held:
            return {}
        read: set[str] = set()  # attribute names the code it reaches outside each holder's file uses
        generic = False
        files: dict[str, set[str]] = {}
        for path, body_name in reached:
            body = self.facts(path)["bodies"].get(body_name) or {}
            attrs = body.get("attrs", ())
            files.setdefault(path, set()).update(attrs)
            if _GENERIC_CHILD_ATTRIBUTES.intersection(attrs):
                generic = True
        if generic:
            return {}
        found: dict[tuple[str, str], str] = {}
        counts: dict[tuple[str, str], int] = {}
        for node, attribute, path, line, holder in held:
            if any(attribute in names for other, names in files.items() if other != path):
                found[node] = ""  # read elsewhere: may be called
                continue
            counts[node] = counts.get(node, 0) + 1
            if found.get(node, "x"):
                found[node] = f"holds it in {holder}.{attribute} and never calls it ({os.path.relpath(path, self.root)}:{line})"
        return self._built_nowhere_else(program, found, counts)

    def _built_nowhere_else(self, program: Program, found: dict[tuple[str, str], str],
                            counts: dict[tuple[str, str], int]) -> dict[tuple[str, str], str]:
        """Of ``found`` (class -> how it goes uncalled; "" where it may be called),
        those no lookup selects and nothing else ``program`` runs builds
        (:meth:`_built_otherwise`, given the constructions each was found at)."""
        found = {node: how for node, how in found.items() if how and node not in self._by_lookup}
        if found:
            for node in self._built_otherwise(program, found, counts):
                del found[node]
        return found

    def _parked_uncalled(self, program: Program) -> dict[tuple[str, str], str]:
        """The Cells ``program`` builds only inside a literal that a module's top level
        binds to a name its file never reads (facts "parked": ``encoder_params =
        [[...], [ConvCell(...)]]`` kept for classes nothing builds), when no other file
        the program reaches names it either (an import, a reference, an attribute):
        built at import, never called; when nothing else the program runs builds them:
        (file, class) -> how."""
        reached = program.reached or set()
        parked: list[tuple[tuple[str, str], str, str, int]] = []  # (class, name, file, line)
        for path, body_name in reached:
            if body_name != MODULE:
                continue
            body = self.facts(path)["bodies"].get(MODULE) or {}
            for name, dotted, line in body.get("parked", ()):
                target = self.resolve(path, dotted, body.get("locals"))
                if self._is_class(target) and self.is_cell(target[1], target[2]):
                    parked.append(((target[1], target[2]), name, path, line))
        if not parked:
            return {}
        named: dict[str, set[str]] = {}  # file -> the words its reached code names
        for path, body_name in reached:
            body = self.facts(path)["bodies"].get(body_name) or {}
            words = named.setdefault(path, set())
            words.update(body.get("attrs", ()))
            for dotted in body.get("refs", ()):
                words.update(dotted.split("."))
        for path, words in named.items():
            words.update(self.facts(path).get("bindings") or ())  # the names it binds (imports included)
        found: dict[tuple[str, str], str] = {}
        counts: dict[tuple[str, str], int] = {}  # the module bodies' call entries (facts "calls") of each class
        counted: set[str] = set()
        for node, name, path, line in parked:
            if any(name in words for other, words in named.items() if other != path):
                found[node] = ""  # named elsewhere: may be called
                continue
            if path not in counted:
                counted.add(path)
                body = self.facts(path)["bodies"].get(MODULE) or {}
                for dotted, *_ in body.get("calls", ()):
                    for built in self._symbol_nodes(self.resolve(path, dotted, body.get("locals"))):
                        counts[built] = counts.get(built, 0) + 1
            if found.get(node, "x"):
                found[node] = f"builds it at import into {name}, which nothing reads ({os.path.relpath(path, self.root)}:{line})"
        return self._built_nowhere_else(program, found, counts)

    def _runs_methods(self, node: tuple[str, str], attributes: list[str]) -> bool:
        """Whether an attribute used on an instance of the class may run its code:
        one of its (or its project bases') methods, or a framework method that
        runs construct."""
        if set(attributes) & _RUNS_CONSTRUCT:
            return True
        classes, seen = [node], set()
        while classes:
            current = classes.pop()
            if current in seen:
                continue
            seen.add(current)
            info = self.facts(current[0])["classes"].get(current[1]) or {}
            if set(attributes) & set(info.get("methods", ())):
                return True
            for base in info.get("bases", ()):
                classes.extend(self._symbol_nodes(self.resolve(current[0], base)))
        return False

    def _built_otherwise(self, program: Program, candidates: dict[tuple[str, str], str],
                         counts: dict[tuple[str, str], int] | None = None) -> set[tuple[str, str]]:
        """The candidates something else ``program`` runs may call: built at another
        site, passed along as a class, or a base of a class it reaches. ``counts``:
        the constructions each candidate was found at (else those the entry's
        "uncalled" facts give)."""
        sites: dict[tuple[str, str], int] = {}
        found: set[tuple[str, str]] = set()
        own = {node: (counts or {}).get(node, 0) for node in candidates}
        for path, name in program.reached or ():
            facts = self.facts(path)
            body = facts["bodies"].get(name) or {}
            local = body.get("locals")
            for dotted, *_ in body.get("calls", ()):
                if "." in dotted and self._is_class(self.resolve(path, dotted.rpartition(".")[0], local)):
                    continue  # C.method(...): no construction
                for node in self._symbol_nodes(self.resolve(path, dotted, local)):
                    if node in own:
                        sites[node] = sites.get(node, 0) + 1
            for dotted in body.get("refs", ()):
                # (the class's own code naming it: super(C, self), C.CONSTANT)
                found.update(node for node in self._symbol_nodes(self.resolve(path, dotted, local))
                             if node in own and not (path == node[0] and name.split(".", 1)[0] == node[1]))
            if path == program.path and counts is None:
                for dotted, *_ in body.get("uncalled", ()):
                    for node in self._symbol_nodes(self.resolve(path, dotted, local)):
                        if node in own:
                            own[node] += 1
            info = facts["classes"].get(name)
            for base in (info or {}).get("bases", ()):
                found.update(node for node in self._symbol_nodes(self.resolve(path, base)) if node in own)
        found.update(node for node, count in own.items() if sites.get(node, 0) != count)
        return found

    def decision(self, path: str, name: str) -> Decision:
        """The decision for top-level ``name`` (a class or function; MODULE for the
        top level) of the file at ``path``."""
        path = path if path in self._in_sight else _real(path)
        key = (path, name)
        known = self._decisions.get(key)
        if known is None:
            guard = self._own_guard(path, name)
            programs = self._by_node.get(key)
            if guard:
                known = Decision(PYNATIVE, f"it raises unless PyNative ({guard})")
            elif programs:
                known = self._built_decision(programs, path)
                # the programs that compile it: for graph code those that compile, for @jit code all
                compiling = [program for program in programs if program.kind in _COMPILING] if known.mode == GRAPH else programs
                known = replace(known, ascend=self._on_ascend(compiling, path))
            else:
                known = self.default(path)
            self._decisions[key] = known
        return known

    def _own_guard(self, path: str, name: str) -> str:
        """Where the top-level class (its ``__init__`` or ``construct``) or function
        ``name`` raises unless the program runs PyNative ("file:line"), else ""."""
        facts = self._facts.get(path)
        if facts is None:
            return ""
        # the guard its body's facts record (a class: that of __init__ or construct)
        owners = [f"{name}.__init__", f"{name}.construct"] if name in facts["classes"] else [name]
        line = next((facts["bodies"].get(owner, {}).get("guard") for owner in owners
                     if facts["bodies"].get(owner, {}).get("guard")), 0)
        return f"{os.path.basename(path)}:{line}" if line else ""

    def _built_decision(self, programs: list[Program], path: str) -> Decision:
        first = programs[0]
        shown = _shown(first.path, path)
        compiling = [program for program in programs if program.kind in _COMPILING]
        level = {program.syntax_level for program in compiling}
        syntax_level = level.pop() if len(level) == 1 else ""
        if first.kind == SETS_GRAPH:
            decision = Decision(GRAPH, f"{shown} sets GRAPH_MODE", syntax_level=syntax_level)
        elif first.kind == UNREADABLE:
            decision = Decision(GRAPH, f"the mode {shown} sets cannot be read", assumed=True, syntax_level=syntax_level)
        elif first.guard:
            return Decision(PYNATIVE, f"{shown} {first.guard}")
        else:
            return Decision(PYNATIVE, f"{shown} runs PyNative")
        if all(program.only_trains for program in compiling):
            decision = replace(decision, evaluated=False)
        if not any(program.trains for program in compiling):
            exporter = next((program for program in compiling if program.exports), None)
            decision = replace(
                decision,
                basis=f"{decision.basis}, and every program that compiles it runs inference only",
                trained=False,
                exported_by=_shown(exporter.path, path) if exporter else "",
            )
        return decision

    def default(self, path: str) -> Decision:
        """The decision for code of ``path`` that no program builds: that of the
        programs importing its package, else of the programs beside it."""
        path = path if path in self._in_sight else _real(path)
        known = self._defaults.get(path)
        if known is not None:
            return known
        known = self._defaults[path] = self._default(path)
        return known

    def _default(self, path: str) -> Decision:
        """Code no program builds takes the mode of the programs whose mode is
        known (they set GRAPH_MODE, or run PyNative): those importing its own
        package, else those beside it, else the repository's. A program whose
        mode mslint cannot read is assumed to compile what it builds, but it is
        no evidence for code it does not build: where only such programs are in
        sight, the code is assumed graph as a library's is, and the basis says so."""
        if not self.programs:
            return self._documented()
        # the programs that import its package (or it): the nearest package of it they import
        package, importing = self._importing(path)
        if importing:
            return self._unbuilt(importing, path, "which imports its package" if package != path else "which imports it")
        # the programs beside it: in the nearest folder above it that holds programs building Cells
        beside = self._programs_beside(os.path.dirname(path))
        if beside:
            near = any(os.path.dirname(program.path) == os.path.dirname(path) for program in beside)
            return self._unbuilt(beside, path, "which builds Cells beside it" if near else "which builds Cells in the project")
        # else the repository's programs, whatever they build
        order = {kind: index for index, kind in enumerate(KINDS)}
        known = sorted((program for program in self.programs if program.kind in _KNOWN), key=lambda item: (order[item.kind], item.path))
        if known:
            return self._unbuilt(known, path, "a program of the project")
        return Decision(GRAPH, "no program in sight builds it, and none sets a mode mslint can read", assumed=True)

    def _documented(self) -> Decision:
        """The decision for a project with no program in sight: the mode its
        README's usage examples run it in (mode.documented_mode), else assumed
        graph (mode.LIBRARY). Read once; each README looked for is a
        dependency of the cached model."""
        known = self._documented_decision
        if known is not None:
            return known
        examples: list[str] = []
        shown = ""
        for name in mode.README_NAMES:
            path = os.path.join(self.root, name)
            head = _config_head(path)
            self._seen_configs[path] = content_hash(head) if head is not None else None  # (_config_fingerprint)
            if head is None:
                continue
            found = mode.readme_examples(head.decode("utf-8", "replace"))
            if found and not shown:
                shown = name
            examples.extend(found)
        tops = frozenset(os.path.splitext(os.path.relpath(path, self.root).split(os.sep)[0])[0] for path in self.files)
        documented = mode.documented_mode(examples, tops)
        if documented is None:
            known = mode.LIBRARY
        else:
            selected, why, assumed = documented
            known = Decision(selected, f"no program in sight; the usage examples of {shown} {why}", assumed=assumed)
        self._documented_decision = known
        return known

    def _importing(self, path: str) -> tuple[str, list[Program]]:
        """The programs of known mode that import the top package of ``path``,
        else the file itself, and which of the two it is; ("", []) when none does."""
        package = path
        folder = os.path.dirname(path)
        while self._is_file(os.path.join(folder, "__init__.py")):
            package = os.path.join(folder, "__init__.py")
            parent = os.path.dirname(folder)
            if parent == folder:
                break
            folder = parent
        for importer in dict.fromkeys((package, path)):
            known = [program for program in self._by_node.get((importer, MODULE), ()) if program.kind in _KNOWN]
            if known:
                return package, known
        return "", []

    def _programs_beside(self, folder: str) -> list[Program]:
        """The programs building Cells under the nearest folder from ``folder`` up
        (to the root) that holds some, most compiling first."""
        known = self._beside.get(folder)
        if known is not None:
            return known
        found = [program for program in self.programs
                 if program.path.startswith(folder + os.sep) and program.kind in _KNOWN and self._builds_cells(program)]
        parent = os.path.dirname(folder)
        if not found and parent != folder and folder != self.root and folder.startswith(self.root):
            found = self._programs_beside(parent)
        order = {kind: index for index, kind in enumerate(KINDS)}
        found.sort(key=lambda item: (order[item.kind], item.path))
        self._beside[folder] = found
        return found

    def _unbuilt(self, programs: list[Program], path: str, relation: str) -> Decision:
        # (its @jit code, compiled in every mode, runs on the devices these programs select)
        ascend = self._on_ascend(programs, path)
        pynative = [program for program in programs if program.kind == RUNS_PYNATIVE]
        if pynative:
            shown = _shown(pynative[0].path, path)
            return Decision(PYNATIVE, f"no program in sight builds it, and {shown}, {relation}, runs PyNative", assumed=True,
                            ascend=ascend)
        shown = _shown(programs[0].path, path)
        return Decision(GRAPH, f"no program in sight builds it, and {shown}, {relation}, compiles", assumed=True, ascend=ascend)

    def _builds_cells(self, program: Program) -> bool:
        known = self._building.get(program.path)
        if known is None:
            known = self._building[program.path] = any(
                self.is_cell(node[0], node[1]) for node in program.reached or () if node[1] not in (MODULE, MAIN)
            )
        return known

    def is_cell(self, path: str, name: str, depth: int = 0) -> bool:
        """Whether the top-level class ``name`` of ``path`` derives from an nn.Cell."""
        key = (path, name)
        known = self._cells.get(key)
        if known is not None:
            return known
        self._cells[key] = False
        found = False
        info = self.facts(path)["classes"].get(name)
        if info is not None and depth < 20:
            for base in info["bases"]:
                target = self.resolve(path, base)
                if target is None:
                    continue
                if target[0] == "ext" and _is_cell_qname(target[1]):
                    found = True
                elif target[0] == "sym" and self.is_cell(target[1], target[2], depth + 1):
                    found = True
                if found:
                    break
        self._cells[key] = found
        return found

    def reached(self, path: str, name: str) -> bool:
        return (path if path in self._in_sight else _real(path), name) in self._by_node

    # -- overrides -------------------------------------------------------------
    def _find_overrides(self) -> list[dict[str, Any]]:
        """The framework names project modules rebind when they run: one group per
        rebinding module, with the files it applies to."""
        groups = []
        for path in sorted(self._facts):
            facts = self._facts[path]
            mapping: dict[str, str] = {}
            called = set(facts["called"])
            for target, value, runs in facts["rebinds"]:
                if runs != mode.ON_IMPORT and runs not in called:
                    continue
                resolved = self.resolve(path, target.rsplit(".", 1)[0])
                if resolved is None or resolved[0] != "ext" or resolved[1].split(".", 1)[0] not in _REBOUND_FRAMEWORKS:
                    continue
                if target.rsplit(".", 1)[1] in _NEVER_REBOUND:
                    continue
                name = f"{resolved[1]}.{target.rsplit('.', 1)[1]}"
                value_target = self.resolve(path, value) if value else None
                if value_target is not None and value_target[0] == "sym":
                    mapping[name] = f"{module_name(value_target[1])}.{value_target[2]}"
                elif value_target is not None and value_target[0] == "ext":
                    mapping[name] = value_target[1]
                else:
                    mapping[name] = f"{module_name(path)}.<{target.rsplit('.', 1)[1]}>"
            if mapping:
                # the modules whose imports run it, and every module a program that
                # imports it runs (the rebinding is on the framework's module object)
                files = self._importers_of(path)
                folder = os.path.dirname(path)
                beside = False  # a program in the rebinding module's folder imports it
                elsewhere: set[str] = set()  # what the programs that do not import it reach
                for program in self.programs:
                    if (path, MODULE) in (program.reached or ()):
                        beside = beside or os.path.dirname(program.path) == folder
                        files.update(node[0] for node in program.reached or ())
                    else:
                        elsewhere.update(node[0] for node in program.reached or ())
                if beside and any(_patches_a_method(name) for name in mapping):
                    # a method given to Tensor or Cell holds for everything the process
                    # runs after: the modules under the folder of the scripts that
                    # import it too, which they may load in ways not in sight (importlib
                    # from a log folder, sys.path edits); not those another program runs
                    prefix = folder + os.sep
                    files.update(file for file in self._in_sight if file.startswith(prefix) and file not in elsewhere)
                groups.append({"module": path, "mapping": mapping, "files": sorted(files), "file_set": files})
        # a project file that imports an injecting library (mindnlp 0.3's import rebinds
        # nn.Dropout, nn.LayerNorm...) rebinds those names for every module a program
        # importing that file runs, though those modules never name the library
        for path in sorted(self._facts):
            for library in self._injecting_imports(path):
                files = set()
                for program in self.programs:
                    if (path, MODULE) in (program.reached or ()):
                        files.update(node[0] for node in program.reached or ())
                files.discard(path)  # its own imports are read where it is checked
                if files:
                    groups.append({"module": path, "mapping": INJECTING_LIBRARIES[library], "files": sorted(files),
                                   "file_set": files})
        return groups

    def _injecting_imports(self, path: str) -> list[str]:
        """The injecting libraries (INJECTING_LIBRARIES) the file imports anywhere,
        whose injection may run for it."""
        found = set()
        for body in self._facts[path]["bodies"].values():
            for level, module, _names in body.get("imports", ()):
                if level:
                    continue
                for name in module.split(","):
                    top = name.strip().split(".", 1)[0]
                    if top in INJECTING_LIBRARIES:
                        found.add(top)
        return sorted(library for library in found if may_inject(path, library))

    def override_groups(self) -> list[dict[str, Any]]:
        """The override groups as the workers get them (JSON-able)."""
        return [{"module": group["module"], "mapping": group["mapping"]} for group in self.overrides]

    def _importers_of(self, path: str) -> set[str]:
        """The files in sight whose imports run the module at ``path``: its
        importers, transitively, and the modules of packages whose ``__init__`` does."""
        imports = self._all_imports()
        importers: dict[str, list[str]] = {}
        for source, targets in imports.items():
            for target in targets:
                importers.setdefault(target, []).append(source)
        found = {path}
        queue = [path]
        while queue:
            current = queue.pop()
            for source in importers.get(current, ()):
                if source not in found:
                    found.add(source)
                    queue.append(source)
        return found

    def connected_folder(self, path: str) -> str:
        """The folder holding the files in sight that import statements connect
        to the module at ``path`` (an import either way, directly or through
        other files: what may run in one process with it, and more)."""
        if self._components is None:
            parent: dict[str, str] = {}

            def find(item: str) -> str:
                while parent.setdefault(item, item) != item:
                    parent[item] = parent[parent[item]]
                    item = parent[item]
                return item

            for source in self.files:
                find(source)
                # the import statements only: a package's ``__init__`` beside each module
                # (what importing it as ``pkg.mod`` would run) joins sibling sub-projects
                # that their scripts, run from their own folders, never import as one package
                for target in self._scanned_targets(source):
                    if target in self._in_sight:
                        parent[find(source)] = find(target)
            groups: dict[str, list[str]] = {}
            for item in list(parent):
                groups.setdefault(find(item), []).append(item)
            self._components = {}
            for members in groups.values():
                folder = os.path.commonpath([os.path.dirname(each) for each in members])
                if not (folder == self.root or folder.startswith(self.root + os.sep)):
                    folder = self.root
                for member in members:
                    self._components[member] = folder
        return self._components.get(path, os.path.dirname(path))

    def _all_imports(self) -> dict[str, list[str]]:
        known = getattr(self, "_imports_of_all", None)
        if known is not None:
            return known
        found: dict[str, list[str]] = {}
        for path in self.files:
            targets = list(self._scanned_targets(path))
            folder = os.path.dirname(path)
            init = os.path.join(folder, "__init__.py")
            if path != init and self._is_file(init):
                targets.append(init)
            elif path == init and self._is_file(os.path.join(os.path.dirname(folder), "__init__.py")):
                targets.append(os.path.join(os.path.dirname(folder), "__init__.py"))
            found[path] = targets
        self._imports_of_all = found
        return found

    def _called_unresolved(self, path: str) -> list[str]:
        """The classes and functions of the file at ``path`` that another project
        file imports by name from a module named as this file
        (``from src.models.dualrec import DualRecModel``) where that import does
        not resolve (the folder is ``src/model``), and calls: a construction out of
        sight, whose arguments a default of theirs does not stand for."""
        if path not in self._in_sight:
            return []
        calls = self._unresolved_calls()
        if not calls:
            return []
        facts = self.facts(path)
        stem = os.path.splitext(os.path.basename(path))[0]
        return sorted(name for name in list(facts["classes"]) + list(facts["functions"])
                      if stem in calls.get(name, ()))

    def _unresolved_calls(self) -> dict[str, set[str]]:
        """name -> the last parts of the modules that files import it from, by an
        import of a project module (its first part a folder or file of the root)
        that does not resolve, and call it."""
        known = getattr(self, "_unresolved_of_all", None)
        if known is not None:
            return known
        found: dict[str, set[str]] = {}
        tops: dict[str, bool] = {}
        # (its facts are not worth a parse where every project import it makes resolves)
        wanted = [path for path in self.files if path in self._facts or self._may_import_unresolved(path, tops)]
        self.read_facts_of(wanted)
        for path in wanted:
            facts = self.facts(path)
            called = {callee.partition(".")[0] for body in facts["bodies"].values() for callee, *_ in body.get("calls", ())}
            for local, binding in facts["bindings"].items():
                if binding[0] != "from" or binding[1] or local not in called or not binding[2]:
                    continue
                if not self._is_top(binding[2].partition(".")[0], tops):
                    continue
                target = self._binding_target(path, local, binding, 0)
                if target is None or target[0] == "ext":
                    found.setdefault(binding[3], set()).add(binding[2].rpartition(".")[2])
        self._unresolved_of_all = found
        return found

    def _is_top(self, top: str, tops: dict[str, bool]) -> bool:
        """Whether ``top`` is a folder or a .py file of the root (memoized in ``tops``)."""
        if top not in tops:
            tops[top] = self._is_file(os.path.join(self.root, top + ".py")) or os.path.isdir(os.path.join(self.root, top))
        return tops[top]

    def _may_import_unresolved(self, path: str, tops: dict[str, bool]) -> bool:
        """Whether the text of ``path`` makes an absolute ``from`` import of a
        project module that may not resolve, as _unresolved_calls counts it: the
        module is not found, or a name it imports is not found in it or is not the
        project's. Scanned with the generous pattern (no import the parser finds is
        missed), so a file that fails this has no binding _unresolved_calls counts."""
        data = self.data(path)
        if not data:
            return False
        for level, module, names in scan_imports(data, ANY_IMPORT_RE):
            if level or names is None or not module or not self._is_top(module.partition(".")[0], tops):
                continue
            target = self.module_file(path, 0, module)
            if target is None:
                return True
            for name in names:
                found = self._lookup(target, name, 1)
                if found is None or found[0] == "ext":
                    return True
        return False

    # -- what the workers get --------------------------------------------------
    def verdict(self, path: str) -> dict[str, Any]:
        """What a worker needs of the file at ``path``: each reached top-level
        name's decision row, the default's, and the override groups that apply."""
        path = path if path in self._in_sight else _real(path)
        facts = self._facts.get(path)
        names = set()
        if facts is not None:
            names = set(facts["bodies"]) - {MAIN}
        symbols = {}
        rows: dict[tuple, list] = {}
        for name in sorted(names | {MODULE}):
            if (path, name) in self._by_node or self._own_guard(path, name):
                row = tuple(self.decision(path, name).row())
                symbols[name] = rows.setdefault(row, list(row))
        default = list(self.default(path).row())
        groups = [index for index, group in enumerate(self.overrides) if path in group["file_set"]]
        built = {}
        constructions = self.constructions() if self.programs else {}
        for name in sorted(facts["classes"]) if facts is not None else ():
            known = constructions.get((path, name))
            if known is not None:
                built[name] = {"params": facts["classes"][name]["params"], **known}
        entry = any(program.path == path for program in self.programs)
        # (top-level names: a method's or a guarded part's is its owner's)
        untrained = sorted(name for name in symbols if name != MODULE and "." not in name and PYNATIVE_PART not in name
                           and self._only_evaluated(path, name))
        if facts is not None and MAIN in facts["bodies"] and self._main_only_evaluates(path):
            untrained.append(MAIN)
        return {"default": default, "symbols": symbols, "overrides": groups, "programs": bool(self.programs), "built": built,
                "entry": entry, "untrained": untrained, "self_contained": entry and self._self_contained(path),
                "values_folder": self.connected_folder(path), "nothing_trains": self.nothing_trains(), "root": self.root,
                "unseen_callers": self._called_unresolved(path)}

    def nothing_trains(self) -> bool:
        """Whether no file in sight shows training text (mode.TRAINS: an optimizer,
        a gradient, ``train(``, ``fit(``): an inference engine, a serving
        package. Its @jit code is compiled, but nothing in sight differentiates it."""
        known = self._nothing_trains
        if known is None:
            known = self._nothing_trains = bool(self.files) and not any(map(self._shows_training, self.files))
        return known

    def _shows_training(self, path: str) -> bool:
        """The file's facts say it trains; for a file no program made the model
        read, its text matches mode.TRAINS (or cannot be read)."""
        facts = self._facts.get(path)
        if facts is not None:
            return bool(facts.get("trains"))
        data = self.data(path)
        return data is None or mode.TRAINS_FOUND.found(data)

    def _self_contained(self, path: str) -> bool:
        """Whether the program that the file at ``path`` is keeps to its own text
        whatever could train what it builds or load weights into it: no other file
        in sight imports the file (a notebook, a test, a demo script), and no other
        file its program reaches shows training text (mslint.analysis.mode.TRAINS: an
        optimizer, a gradient, ``train(``, ``fit(``) or loads weights. What the file
        itself does is for the rules to read (mslint.analysis.training_code)."""
        own = [program for program in self.programs if program.path == path]
        if len(own) != 1 or self._importers_of(path) - {path}:
            return False
        reached = own[0].reached or set()
        return not any(self._trains_in(file, reached) or self.facts(file).get("loads_weights")
                       for file in {node[0] for node in reached} - {path})

    def _main_only_evaluates(self, path: str) -> bool:
        """Whether the main guard of ``path``, the program the file is when it is
        run, may not train what it builds. A program in sight: nothing it reaches
        trains, and it shows a use of what it builds (Model._may_train). The
        self-test of a package module other programs import: nothing it reaches
        shows training (an optimizer, a gradient, ``train(``, ``set_train()``); a
        self-test that builds the network and only prints its size or output
        shape trains nothing, whatever use of it mslint cannot read."""
        own = [program for program in self.programs if program.path == path]
        if own:
            return not any(program.trains for program in own)
        alone = Program(path)
        before = set(self._by_lookup)
        try:
            self._reach(alone)
        finally:
            self._by_lookup.intersection_update(before)  # reaching it decides nothing for the programs
        reached = alone.reached or set()
        return not any(self._trains_in(file, reached) for file in {node[0] for node in reached} | {path})

    def _only_evaluated(self, path: str, name: str) -> bool:
        """Whether programs in sight build top-level ``name`` of ``path`` and none
        of them may train it, whatever its mode: none reaches code whose text
        trains (mslint.analysis.mode.TRAINS: an optimizer, a gradient, ``train(``,
        ``set_train()``; a program that shows no use of the network mslint can read
        either counts as training, Model._may_train), and no program that may train reaches the file
        at all (importing it: a factory mslint cannot follow may build the class
        there)."""
        programs = self._by_node.get((path, name))
        if not programs or any(program.trains for program in programs):
            return False
        if self._training_files is None:
            self._training_files = {node[0] for program in self.programs if program.trains for node in program.reached or ()}
        return path not in self._training_files

    def constructions(self) -> dict[tuple[str, str], dict]:
        """(file, class) -> how the programs in sight build each project class they
        reach: "sites", the calls ``C(...)`` in reached code ([file, line, args,
        keywords, unread]: argument specs as in the facts); "passed", whether it is
        also built where its arguments cannot be seen (the class passed along as a
        value, a registry or ``C.from_config(...)``); "subclasses", the reached
        classes deriving from it (their ``super().__init__(...)`` calls build it)."""
        if self._constructions is not None:
            return self._constructions
        found: dict[tuple[str, str], dict] = {}

        def entry(target: tuple) -> dict:
            return found.setdefault((target[1], target[2]), {"sites": [], "passed": False, "subclasses": []})

        entries = {program.path for program in self.programs}  # (a module's top-level names build nothing)
        # the entries whose own program runs PyNative: what their main guard builds and calls runs uncompiled
        plain = {program.path for program in self.programs if program.kind not in _COMPILING}

        def is_class(target: tuple | None) -> bool:
            return target is not None and target[0] == "sym" and target[2] in self.facts(target[1])["classes"]

        for path, name in sorted(self._by_node):
            facts = self.facts(path)
            body = facts["bodies"].get(name) or {}
            local = body.get("locals")
            for dotted, args, keywords, line, unread in body.get("calls", ()):
                target = self.resolve(path, dotted, local)
                if not is_class(target):
                    continue
                owner = dotted.rpartition(".")[0]
                if owner and self.resolve(path, owner, local) == target:
                    entry(target)["passed"] = True  # C.create(...): built with what the method passes
                else:
                    entry(target)["sites"].append([path, line, args, keywords, unread, name == MAIN and path in plain])
            for dotted in body.get("refs", ()) if name != MODULE or path in entries else ():
                target = self.resolve(path, dotted, local)
                # (the class's own code naming it, ``super(C, self)``, passes nothing on)
                if is_class(target) and target[1:] != (path, name.split(".", 1)[0]):
                    entry(target)["passed"] = True
            info = facts["classes"].get(name)
            if info is not None:
                if (path, name) in self._by_lookup:
                    entry(("sym", path, name))["passed"] = True
                for base in info["bases"]:
                    target = self.resolve(path, base)
                    if is_class(target):
                        entry(target)["subclasses"].append([path, name])
        self._constructions = found
        return found

    def module_decision(self, path: str) -> Decision:
        """The decision for the file's code as a whole (:func:`module_decision`)."""
        return _module_row(self.verdict(path))

    # -- explaining ------------------------------------------------------------
    def explain(self) -> str:  # noqa: C901
        """The programs, their modes with the evidence, and what each builds."""
        lines = [f"Project: {self.root} ({len(self.files)} Python files in sight, {len(self._facts)} read)"]
        if not self.programs:
            documented = self._documented()
            if documented.mode == PYNATIVE or not documented.assumed:
                lines.append(f"{documented.basis[0].upper()}{documented.basis[1:]}: its code runs {documented.mode}.")
            else:
                lines.append("No program in sight: code is assumed to be compiled (graph mode), and graph findings say so.")
        for program in self.programs:
            shown = os.path.relpath(program.path, self.root)
            lines.append("")
            lines.append(f"Program {shown}: {_KIND_TEXT[program.kind]}; {program.evidence}")
            if program.syntax_level:
                lines.append(f"  jit_syntax_level: {program.syntax_level.upper()}")
            ascend = self.ascend_setting(program)
            if ascend is not None:
                setting, line, how = ascend
                lines.append(f"  may run on Ascend ({os.path.relpath(setting, self.root)}:{line}{', ' + how if how else ''})")
            if program.kind in _COMPILING:
                does = "only trains (set_train)" if program.only_trains else "trains" if program.trains else "runs inference only"
                lines.append(f"  {does}"
                             + (", calls mindspore.export" if program.exports else ""))
            cells = sorted(node for node in program.reached or () if node[1] not in (MODULE, MAIN)
                           and node[1] in self.facts(node[0])["classes"] and self.is_cell(*node))
            lines.append(f"  builds {len(cells)} Cell{'s' * (len(cells) != 1)}:")
            for node in cells[:200]:
                why = self._why(program, node)
                how = self._pynative_in(program).get(node) if program.kind != RUNS_PYNATIVE else None
                pynative = f"  [not compiled there: it {how}]" if how else ""
                lines.append(f"    {os.path.relpath(node[0], self.root)}::{node[1]}{why}{pynative}")
            if len(cells) > 200:
                lines.append(f"    ... and {len(cells) - 200} more")
        if self.overrides:
            lines.append("")
            lines.append("Framework names the project rebinds:")
            for group in self.overrides:
                lines.append(f"  in {os.path.relpath(group['module'], self.root)} "
                             f"(applies to {len(group['files'])} files):")
                for name, value in sorted(group["mapping"].items()):
                    lines.append(f"    {name} -> {value}")
        return "\n".join(lines) + "\n"

    def _why(self, program: Program, node: tuple[str, str]) -> str:
        """How ``program`` reaches ``node``: the bodies on the way, nearest first."""
        parents = program.parents or {}
        chain: list[str] = []
        current = node
        for _ in range(8):
            parent = parents.get(current)
            if not parent:
                break
            source, how = parent
            if how and not how.startswith("."):
                chain.append(how)
            if source[1] == MAIN:
                chain.append("main guard")
            elif source[1] == MODULE:
                chain.append(f"top level of {os.path.relpath(source[0], self.root)}")
            elif not chain or chain[-1] != source[1]:
                chain.append(source[1])
            current = source
        return f"  (through {' <- '.join(chain)})" if chain else ""


# the frameworks whose names the rules judge: a project rebinding one of theirs changes findings
_REBOUND_FRAMEWORKS = frozenset({"mindspore"})

# a project's wrapper of these still does what the framework's does (mindnlp's
# set_context wrapper adjusts its own patches, then calls the original)
_NEVER_REBOUND = frozenset({"set_context"})

# framework methods of a Cell that run its construct
_RUNS_CONSTRUCT = frozenset({"construct", "compile", "compile_and_run", "run_construct", "__call__", "forward"})

# methods a built Cell runs without being named (special methods run implicitly too)
_RUN_WHEN_BUILT = frozenset({"construct", "bprop"})

_KIND_TEXT = {
    SETS_GRAPH: "GRAPH_MODE",
    UNREADABLE: "graph mode assumed",
    RUNS_PYNATIVE: "PyNative",
}


def _runs_in(reached: set, path: str, body: str) -> bool:
    """Whether the program that reaches ``reached`` runs ``body`` of ``path``:
    the body itself, or a method of the class it names."""
    if (path, body) in reached:
        return True
    prefix = body + "."
    if isinstance(reached, _Reached) and reached.indexed == len(reached.order):
        return any(name.startswith(prefix) for name in reached.bodies.get(path, ()))
    return any(node[0] == path and node[1].startswith(prefix) for node in reached)


def _is_cell_qname(qname: str) -> bool:
    if qname in apis.NON_CELL_CLASSES:
        return False
    for package in apis.CELL_PACKAGES:
        if qname.startswith(package + "."):
            return qname.rsplit(".", 1)[-1][:1].isupper()
    return False


def _shown(entry: str, module: str) -> str:
    """The entry script as the module's reader finds it: relative to the module's folder."""
    return _relative(entry, os.path.dirname(module))


@functools.lru_cache(maxsize=65_536)
def _relative(path: str, folder: str) -> str:
    try:
        return os.path.relpath(path, folder)
    except ValueError:
        return path


def _config_paths(folder: str) -> list[str]:
    """The YAML files beside an entry and under its config/, configs/ folders, in
    the order read (at most _MAX_CONFIG_FILES)."""
    found: list[str] = []
    for sub in mode.CONFIG_FOLDERS:
        where = os.path.join(folder, sub)
        if not os.path.isdir(where):
            continue
        walker = [(where, [], sorted(os.listdir(where)))] if not sub else os.walk(where)
        for current, dirnames, filenames in walker:
            dirnames[:] = sorted(name for name in dirnames if not name.startswith("."))
            for name in sorted(filenames):
                if not name.endswith((".yaml", ".yml")):
                    continue
                if len(found) >= _MAX_CONFIG_FILES:
                    return found
                found.append(os.path.join(current, name))
    return found


def _config_folder(folder: str, seen: dict[str, str | None] | None = None) -> dict[str, dict[str, list]]:
    """The YAML files beside an entry and under its config/, configs/ folders;
    ``seen`` gets each file's fingerprint (:func:`_config_read`)."""
    found: dict[str, dict[str, list]] = {}
    for path in _config_paths(folder):
        fingerprint, keys = _config_read(path)
        if seen is not None:
            seen[path] = fingerprint
        if keys:
            found[path] = keys
    return found


# the bytes of a configuration file that decide its keys: the first 50,000
# characters, each at most 4 bytes of UTF-8
_CONFIG_CHARS = 50_000
_CONFIG_BYTES = 4 * _CONFIG_CHARS


def _config_read(path: str) -> tuple[str | None, dict[str, list]]:
    """(its fingerprint: the hash of the bytes read, None where it cannot be
    read; its keys: :func:`_config_keys`)."""
    try:
        with open(path, "rb") as stream:
            head = stream.read(_CONFIG_BYTES)
    except OSError:
        return None, {}
    text = io.TextIOWrapper(io.BytesIO(head), encoding="utf-8", errors="replace").read(_CONFIG_CHARS)
    return content_hash(head), _config_keys(path, text)


def _config_fingerprint(path: str) -> str | None:
    """What the model keeps of a configuration file it looked for: the hash of
    the bytes that decide its keys, None when it is not a file or unreadable."""
    head = _config_head(path)
    return content_hash(head) if head is not None else None


def _config_head(path: str) -> bytes | None:
    """The bytes of a file the model reads (its first _CONFIG_BYTES), None when
    it is not a file or unreadable."""
    if not os.path.isfile(path):
        return None
    try:
        with open(path, "rb") as stream:
            return stream.read(_CONFIG_BYTES)
    except OSError:
        return None


def _config_keys(path: str, text: str) -> dict[str, list]:
    """The keys of a YAML file with their values: the top-level ones by name,
    the nested ones by their path (``system.context_mode`` for ``system:`` /
    ``  context_mode: ...``); every key of a JSON file."""
    found: dict[str, list] = {}
    if path.endswith(".json"):
        for key, value in _JSON_KEY.findall(text):
            found.setdefault(key, []).append(mode.yaml_scalar(value))
        return found
    above: list[tuple[int, str]] = []  # (indent, key) of the mappings the line is in
    for indent, key, value in _YAML_LINE.findall(text):
        while above and above[-1][0] >= len(indent):
            above.pop()
        if value:
            found.setdefault(".".join([*(name for _, name in above), key]), []).append(mode.yaml_scalar(value))
        else:
            above.append((len(indent), key))
    return found


# a YAML "key: value" line (value "" opens a nested mapping); list items and flow
# mappings are not followed
_YAML_LINE = re.compile(r"^([ ]*)(\w+)[ \t]*:(?:[ \t]+([^\s#][^#\n]*?))?[ \t]*(?:#.*)?$", re.MULTILINE)


# ---------------------------------------------------------------------------
# The decisions of this process (the command's engine configures them; the
# plugin builds a model per project)
# ---------------------------------------------------------------------------


class _State:
    setting = "auto"
    where = "--mindspore-mode"
    verdicts: dict[str, dict] = {}
    overrides: list[dict] = []
    models: dict[str, Model] = {}
    command = False  # the mslint command configured the process; the plugin option is its echo
    in_sight: bool = True  # False: a file alone, of no program (the functional fixtures)


def configure(setting: str = "auto", verdicts: dict[str, dict] | None = None, where: str = "[tool.mslint]",
              overrides: list[dict] | None = None, *, inherited: bool = False) -> None:
    """The command's settings for this process: the mode setting and the
    verdicts it computed (path -> Model.verdict()) before it shared the files out.
    ``inherited``: this process is a worker forked by the command for this run:
    the tables of what the files give names (_VISIBLE, _GIVEN: they depend only on
    the files) are the main process's, which holds what the workers before this
    one worked out (forked.carried), and are kept."""
    _State.setting = setting if setting in mode.MODES else "auto"
    _State.where = where
    _State.verdicts = dict(verdicts or {})
    _State.overrides = list(overrides or [])
    _State.models = {}
    _State.command = True
    _OVERRIDES.clear()
    _VERDICTS.clear()
    _PINS.clear()
    if not inherited:
        forget_given()


def forget_given() -> None:
    """Forget the numbers the files give names (a new run: the files may have changed)."""
    _VISIBLE.clear()
    _GIVEN.clear()


def release() -> None:
    """Forget the command's settings (after an in-process run): the plugin's own
    option decides again."""
    configure()
    _State.command = False
    _State.where = "--mindspore-mode"


def use_plugin_option(setting: str, in_sight: bool = True) -> None:
    """The plugin's ``--mindspore-mode`` (ignored when the command configured the
    process); ``in_sight`` False: every file is alone, of no program (tests)."""
    if _State.command:
        return
    if setting != _State.setting or in_sight != _State.in_sight:
        _State.models = {}
        _OVERRIDES.clear()
        _VERDICTS.clear()
    _State.setting = setting if setting in mode.MODES else "auto"
    _State.where = "--mindspore-mode"
    _State.in_sight = in_sight


def model_for(path: str) -> Model | None:
    """The plugin's model of the project of ``path`` (built once per project)."""
    if not _State.in_sight:
        return None
    root = project_root(path)
    model = _State.models.get(root)
    if model is None:
        # a file out of the walk (past FILE_LIMIT) is judged by the same model: no program of its own
        # pylint runs in one process: the facts are read in several
        model = _State.models[root] = Model(root, python_files(root, [path]), jobs=min(available_cpus(), 4))
    return model


def build_models_first(paths: Iterable[str]) -> None:
    """Build the plugin's model of the project of each path pylint was given (a
    file or a folder; a module name is left to :func:`model_for`) before pylint
    parses any file. The facts are read by forked readers, in parallel, only by
    a process still small enough to fork (mslint.analysis.forked.FORK_AT_MOST):
    once pylint holds every file's tree the process reads them itself, one file
    after another. The same models :func:`model_for` would build later; a
    project not named here (a sub-project with its own marker) is still built
    when its first file is checked."""
    if not _State.in_sight:
        return
    for raw in paths:
        path = os.path.abspath(raw)
        if os.path.isfile(path):
            model_for(path)
        elif os.path.isdir(path):
            # the project of the files directly in the folder
            root = project_root(os.path.join(path, "__init__.py"))
            if root not in _State.models:
                _State.models[root] = Model(root, python_files(root), jobs=min(available_cpus(), 4))


def verdict_for(path: str | None) -> dict | None:
    """The verdict of the file at ``path`` (Model.verdict); None when no model is in sight."""
    if not path:
        return None
    try:
        return _VERDICTS[path]
    except KeyError:
        pass
    real = os.path.realpath(path)
    known = _State.verdicts.get(real) or _State.verdicts.get(os.path.abspath(path))
    if known is None and not _State.command and os.path.isfile(real):  # (a module built from a string has no project)
        model = model_for(real)
        known = model.verdict(real) if model is not None else None
    if len(_VERDICTS) > 4096:
        _VERDICTS.clear()
    _VERDICTS[path] = known
    return known


# the verdicts asked for, by the path as asked (every checker asks, for every class)
_VERDICTS: dict[str, dict | None] = {}


def decision_for(path: str | None, name: str = MODULE) -> Decision:
    """The mode of top-level ``name`` (a class or function; MODULE: the file's
    top level and what is not reached) of the file at ``path``."""
    verdict = verdict_for(path)
    row = (verdict["symbols"].get(name) or verdict["default"]) if verdict is not None else None
    return _user_mode(Decision(*row) if row is not None else mode.LIBRARY)


def module_decision(path: str | None) -> Decision:
    """The decision for a file's code as a whole: the most compiling decision
    among the functions and classes programs reach in it, else its default
    (a program that only imports a module builds none of it)."""
    verdict = verdict_for(path)
    return _user_mode(_module_row(verdict) if verdict is not None else mode.LIBRARY)


def _user_mode(decision: Decision) -> Decision:
    """The programs' decision, or the mode the user set: the devices the
    programs may run the code on are still theirs."""
    if _State.setting in (GRAPH, PYNATIVE):
        return replace(mode.forced(_State.setting, _State.where), ascend=decision.ascend)
    return decision


def _module_row(verdict: dict) -> Decision:
    rows = [row for name, row in sorted(verdict["symbols"].items()) if name != MODULE]
    if not rows and verdict.get("entry") and MODULE in verdict["symbols"]:
        # a program's own file: its top level and main guard are what the program runs
        rows = [verdict["symbols"][MODULE]]
    graph = [row for row in rows if row[0] == GRAPH]
    return Decision(*(graph[0] if graph else rows[0] if rows else verdict["default"]))


def top_level_name(node: Any) -> str:
    """The top-level function or class an astroid node is in (MODULE: the top
    level itself, or no node), the name the decisions are kept under."""
    if node is None:
        return MODULE
    top = node
    try:
        while top.parent is not None and top.parent.parent is not None:
            top = top.parent
    except AttributeError:
        return MODULE
    name = getattr(top, "name", None)
    return name if isinstance(name, str) and type(top).__name__ in ("ClassDef", "FunctionDef", "AsyncFunctionDef") else MODULE


# reach_name of code in a top-level definition a later one of the same name
# rebinds before anything reads it (_shadowed): nothing can build or call it
SHADOWED = "<shadowed>"


def reach_name(node: Any) -> str:
    """The name reachability is kept under for an astroid node: ``C.m`` in a
    method of a top-level class, else its top-level name; SHADOWED in a
    top-level class or function that a later one of the same name replaces."""
    name = top_level_name(node)
    if name == MODULE:
        return MAIN if in_main_guard(node) else name
    if _shadowed(node):
        return SHADOWED
    inner = node
    try:
        while inner.parent is not None and inner.parent.parent is not None and inner.parent.parent.parent is not None:
            inner = inner.parent
    except AttributeError:
        return name
    # inner: the child of the top-level definition holding the node
    if type(inner).__name__ in ("FunctionDef", "AsyncFunctionDef") and type(inner.parent).__name__ == "ClassDef":
        return f"{name}.{inner.name}"
    return name


def _shadowed(node: Any) -> bool:
    """Whether the top-level class or function holding astroid ``node`` is
    replaced before anything can use it: the module's own top level later binds
    its name again (a class, a function, an assignment, an import, not under an
    ``if`` or ``try``), it has no decorator (one may register it), and no code
    from it to that rebinding names it (an alias, a subclass, a call): what
    imports or calls the name gets the later object, so this one is never built
    nor run."""
    top = node
    try:
        while top.parent is not None and top.parent.parent is not None:
            top = top.parent
        module, name = top.parent, top.name
        if type(top).__name__ not in ("ClassDef", "FunctionDef", "AsyncFunctionDef") or top.decorators is not None:
            return False
        body = list(module.body)
        start = next(index for index, statement in enumerate(body) if statement is top)
    except (AttributeError, StopIteration):
        return False
    end = next((index for index in range(start + 1, len(body)) if _binds(body[index], name)), None)
    if end is None:
        return False
    parts = [*body[start + 1:end], *_run_when_defined(body[end])]
    # read before the rebinding, or by it (``class C(C):``, ``C = wrap(C)``): the first one is used
    return not any(getattr(found, "name", None) == name for part in parts for found in _names_in(part))


def _binds(statement: Any, name: str) -> bool:
    """Whether a top-level astroid statement binds ``name`` unconditionally."""
    kind = type(statement).__name__
    if kind in ("ClassDef", "FunctionDef", "AsyncFunctionDef"):
        return statement.name == name
    if kind in ("Assign", "AnnAssign"):
        targets = statement.targets if kind == "Assign" else [statement.target]
        return any(type(target).__name__ == "AssignName" and target.name == name for target in targets) \
            and (kind == "Assign" or statement.value is not None)
    if kind in ("Import", "ImportFrom"):
        return any((alias or (module.split(".")[0] if kind == "Import" else module)) == name
                   for module, alias in statement.names)
    return False


def _run_when_defined(statement: Any) -> list:
    """The parts of a top-level astroid statement that run when it runs: all of
    it, except the bodies of functions (a class body's methods included), which
    run only when called, after the name is rebound."""
    kind = type(statement).__name__
    if kind in ("FunctionDef", "AsyncFunctionDef"):
        return [*(statement.decorators.nodes if statement.decorators else ()), *statement.args.defaults,
                *(default for default in statement.args.kw_defaults if default is not None)]
    if kind == "ClassDef":
        return [*(statement.decorators.nodes if statement.decorators else ()), *statement.bases,
                *(keyword.value for keyword in statement.keywords or ()),
                *(part for inner in statement.body for part in _run_when_defined(inner))]
    return [statement]


def _names_in(node: Any) -> Iterable:
    """The astroid Name nodes in ``node`` and below (``node`` itself included)."""
    if type(node).__name__ == "Name":
        yield node
    for child in node.get_children():
        yield from _names_in(child)


def in_main_guard(node: Any) -> bool:
    """Whether an astroid node sits in a top-level ``if __name__ == "__main__":``."""
    top = node
    try:
        while top.parent is not None and top.parent.parent is not None:
            top = top.parent
        test = top.test
        sides = [test.left, *(operand for _, operand in test.ops)]
    except AttributeError:
        return False
    return (type(top).__name__ == "If" and len(test.ops) == 1 and test.ops[0][0] == "=="
            and any(type(side).__name__ == "Name" and side.name == "__name__" for side in sides)
            and any(type(side).__name__ == "Const" and side.value == "__main__" for side in sides)
            and any(node is child or child.parent_of(node) for child in top.body))


def reached_at(path: str | None, name: str) -> bool | None:
    """Whether a program in sight reaches top-level ``name`` of the file at
    ``path`` (MODULE: the file is imported by one; MAIN: its main guard, which
    runs only where the file is a program: importing it, or a self-test of a
    package module other programs import, does not run it; SHADOWED: a
    definition a later one of its name replaces, never reached); None when no
    program is in sight."""
    verdict = verdict_for(path)
    if verdict is None or not verdict.get("programs"):
        return None
    if name == MAIN:
        return bool(verdict.get("entry"))
    return name in verdict["symbols"]


def nothing_trains(path: str | None) -> bool:
    """Whether the project of ``path`` has programs in sight and no file of it
    shows training text (Model.nothing_trains): an inference engine, a serving
    package. False when unknown, and for a library with no program in sight
    (the programs that use it, and may train it, are elsewhere)."""
    verdict = verdict_for(path)
    return bool(verdict is not None and verdict.get("programs") and verdict.get("nothing_trains"))


def self_contained(path: str | None) -> bool:
    """Whether the file at ``path`` is a program in sight that nothing else in sight
    imports, and whose program reaches no other file that trains or loads weights
    (Model._self_contained): whether what it builds is trained, or given trained
    weights, can be read from the file alone. False when unknown."""
    verdict = verdict_for(path)
    return bool(verdict is not None and verdict.get("self_contained"))


def trained_at(path: str | None, name: str) -> bool | None:
    """Whether a program in sight may train top-level ``name`` (a class or
    function) of the file at ``path``, in any mode: False when programs build it
    and none of them trains nor turns the training flag on (they load weights and
    evaluate, serve, export) and no program that may train imports the file
    (Model._only_evaluated); None when no program is in sight (a library: anyone
    may train it); True otherwise, also for code no program builds. MAIN: the
    file's main guard, False where the program it is when the file runs (a
    package module's self-test included) may not train (Model._main_only_evaluates).
    SHADOWED (reach_name): False, a definition a later one replaces is never built."""
    if name == SHADOWED:
        return False  # replaced by a later definition of its name: never built, never trained
    verdict = verdict_for(path)
    if verdict is None or not verdict.get("programs"):
        return None
    return name not in verdict.get("untrained", ())


DEFAULT = object()  # Construction.values: a site that leaves the parameter to its default


@dataclass(frozen=True)
class Site:
    """One call ``C(...)`` that builds a project class, in code a program in sight
    reaches: the argument specs as the facts keep them (``["lit", value]`` a
    literal; anything else mslint did not read)."""

    path: str
    line: int
    args: tuple
    keywords: dict
    unread: bool  # *args, **kwargs: more is passed than the specs say
    pynative_main: bool = False  # in the main guard of an entry whose program runs PyNative


@dataclass(frozen=True)
class Construction:
    """How the programs in sight build a project class (:func:`construction`)."""

    params: tuple[str, ...]  # its __init__'s parameters, self left out ((): no __init__ of its own)
    sites: tuple[Site, ...]
    passed_along: bool  # also built where its arguments cannot be seen (a reference passed on, a registry)
    subclasses: tuple[tuple[str, str], ...]  # (file, class) reached subclasses: their super().__init__ builds it

    def values(self, param: str) -> tuple[list, bool]:
        """The literal values the sites pass for ``param`` (DEFAULT where a site
        leaves it to its default), and whether they are all it is ever built with
        (every site read, nothing builds it out of sight, no subclass)."""
        found: list = []
        complete = not self.passed_along and not self.subclasses and bool(self.sites)
        index = self.params.index(param) if param in self.params else -1
        for site in self.sites:
            spec = site.keywords.get(param) if param in site.keywords else (
                site.args[index] if 0 <= index < len(site.args) else DEFAULT
            )
            if spec is DEFAULT:
                if site.unread:
                    complete = False
                    continue
                found.append(DEFAULT)
            elif spec and spec[0] == "lit":
                found.append(spec[1])
            else:
                complete = False
        return found, complete


def construction(path: str | None, cls: str) -> Construction | None:
    """How the programs in sight build the top-level class ``cls`` of the file at
    ``path`` (for the value rules: a constructor argument every program passes);
    None when no program in sight reaches it (or none is in sight)."""
    verdict = verdict_for(path)
    if verdict is None:
        return None
    known = verdict.get("built", {}).get(cls)
    if known is None:
        return None
    return Construction(
        params=tuple(known["params"]),
        sites=tuple(Site(site[0], site[1], tuple(site[2]), dict(site[3]), bool(site[4]), bool(site[5:6] and site[5]))
                    for site in known["sites"]),
        passed_along=bool(known["passed"]),
        subclasses=tuple((item[0], item[1]) for item in known["subclasses"]),
    )


# The override mappings per file (resolve asks for every name: once per file)
_OVERRIDES: dict[str, dict[str, str]] = {}


def _patches_a_method(name: str) -> bool:
    """``mindspore.Tensor.cuda``, ``mindspore.nn.Cell.half``: a method given to
    a framework class (not a class or function of a framework module)."""
    owner = name.rsplit(".", 1)[0]
    return owner.endswith((".Tensor", ".Parameter", ".Cell"))


def overrides_for(path: str | None) -> dict[str, str]:
    """The framework names rebound for the file at ``path``: qualified name ->
    the project's replacement (mslint.analysis.resolve applies them)."""
    if not path:
        return {}
    known = _OVERRIDES.get(path)
    if known is not None:
        return known
    found: dict[str, str] = {}
    verdict = verdict_for(path)
    if verdict is not None and verdict.get("overrides"):
        groups = _State.overrides
        if not _State.command:
            model = model_for(path)
            groups = model.overrides if model is not None else []
        for index in verdict["overrides"]:
            if index < len(groups):
                found.update(groups[index]["mapping"])
    if len(_OVERRIDES) > 4096:
        _OVERRIDES.clear()
    _OVERRIDES[path] = found
    return found


def verdicts(
    files: Iterable[str], stand_ins: dict[str, str] | None = None, facts_store: Any = None, jobs: int = 1,
    folders: Iterable[str] = (), when_building: Callable[[], None] | None = None,
) -> tuple[dict[str, dict], list[dict]]:
    """The verdict of each checked file (Model.verdict, keyed by the path as
    given) and the override groups they index, from the programs in sight of
    each file's project: every Python file of its project root, not only those
    checked. ``stand_ins``: a checked file that stands for another (standard
    input's copy, a notebook's shadow module) -> the path it stands for;
    ``folders``: the folders named on the command line (:func:`project_root`);
    ``when_building``: called once, before the first model not served by the
    store is built (a cold run)."""
    stand_ins = {os.path.abspath(path): _real(source) for path, source in (stand_ins or {}).items()}
    sources = {os.path.abspath(path): stand_ins.get(os.path.abspath(path)) or _real(path) for path in files}
    contents = {source: checked for checked, source in stand_ins.items()}
    by_root: dict[str, list[str]] = {}
    folders = tuple(folders)
    for source in sources.values():
        by_root.setdefault(project_root(source, folders) if folders else project_root(source), []).append(source)

    def read(path: str) -> bytes | None:
        return read_source(contents.get(path, path))

    found: dict[str, dict] = {}
    groups: list[dict] = []
    verdict_of: dict[str, dict] = {}
    keeps_models = hasattr(facts_store, "get_model") and hasattr(facts_store, "put_model")
    answers: dict[str, tuple[list, dict]] = {}
    plans: list[_Plan] = []
    for root, named in sorted(by_root.items()):
        files = python_files(root, named)
        always = {source for source in named if source.endswith(".ipynb")}
        key = _model_key(root, files, always)
        stored = _stored_model(facts_store, key, named, read) if keeps_models else None
        if stored is not None:
            answers[root] = stored
        else:
            plans.append(_Plan(root, named, files, always, key))
    if plans and when_building is not None:
        when_building()
    answers.update(_built_models(plans, read, facts_store, jobs, keeps_models))
    for root, named in sorted(by_root.items()):
        own_groups, own_verdicts = answers[root]
        offset = len(groups)
        groups.extend(own_groups)
        for source in named:
            verdict = dict(own_verdicts[source])
            verdict["overrides"] = [index + offset for index in verdict["overrides"]]
            verdict_of[source] = verdict
    for path, source in sources.items():
        found[path] = verdict_of[source]
    return found, groups


@dataclass(frozen=True)
class _Plan:
    """A project whose model a run builds: its root, the files checked in it, its
    Python files, those run as programs whatever they hold, its cache key."""

    root: str
    named: list[str]
    files: list[str]
    always: set[str]
    key: str


def _built_models(
    plans: list[_Plan], read: Callable[[str], bytes | None], facts_store: Any, jobs: int, keeps_models: bool,
) -> dict[str, tuple[list, dict]]:
    """(override groups, verdicts) of each planned project. Several projects of
    sizes that share out evenly are built side by side, one forked process per
    share, each reading its files itself: one model's reading is parallel, but
    its own steps before and after run alone (on the benchmark, six projects
    left a core idle 10 of the 31 s their models took)."""
    shares = _even_shares(plans, jobs)
    if shares is not None:
        def build_share(share: list[_Plan]) -> dict[str, tuple[list, dict]]:
            reopen = getattr(facts_store, "reopened", None)
            store = reopen() if callable(reopen) else None
            try:
                return {plan.root: _built_model(plan, read, store, jobs, keeps_models) for plan in share}
            finally:
                if store is not None:
                    store.close()

        built = forked.apart(build_share, shares, jobs)
        if built is not None:
            return {root: answer for share in built for root, answer in share.items()}
    return {plan.root: _built_model(plan, read, facts_store, jobs, keeps_models) for plan in plans}


def _even_shares(plans: list[_Plan], jobs: int) -> list[list[_Plan]] | None:
    """The projects dealt out to ``jobs`` shares, largest first to the lightest,
    when no share holds more than 60% of the files; else None (one project's own
    parallel reading does better)."""
    if jobs <= 1 or len(plans) < 2:
        return None
    count = min(jobs, len(plans))
    shares: list[list[_Plan]] = [[] for _ in range(count)]
    sizes = [0] * count
    for plan in sorted(plans, key=lambda item: (-len(item.files), item.root)):
        lightest = sizes.index(min(sizes))
        shares[lightest].append(plan)
        sizes[lightest] += len(plan.files)
    total = sum(sizes)
    if total < forked.PARALLEL_AT_LEAST or max(sizes) > 0.6 * total:
        return None
    return shares


def _built_model(
    plan: _Plan, read: Callable[[str], bytes | None], facts_store: Any, jobs: int, keeps_models: bool,
) -> tuple[list, dict]:
    model = Model(plan.root, plan.files, read, facts_store, always_programs=plan.always, jobs=jobs)
    own_groups = model.override_groups()
    model.read_verdict_facts(plan.named)
    own_verdicts = {source: model.verdict(source) for source in plan.named}
    model.keep_late_facts()
    if keeps_models:
        _store_model(facts_store, plan.key, model.dependencies(), own_groups, own_verdicts)
    model.release()
    return own_groups, own_verdicts


# The cache of the program model's verdicts (the command's result cache keeps them,
# with mslint's code identity in the key): what a project's model told the
# workers, stored with everything it read, and served again while all of that is
# unchanged. Bump when what a model reads or returns changes shape.
MODEL_CACHE_VERSION = 2


def _model_key(root: str, files: list[str], always: set[str]) -> str:
    """The model of ``root`` with these Python files in sight (and these files
    run as programs whatever they hold): the key its cached verdicts are kept under."""
    text = "\0".join([f"v{MODEL_CACHE_VERSION}", f"facts{FACTS_VERSION}", root, *files, "\0always", *sorted(always)])
    return content_hash(text.encode("utf-8", "surrogatepass"))


def unchanged(dependencies: dict[str, Any], read: Callable[[str], bytes | None]) -> bool:
    """Whether everything a model read (Model.dependencies) reads the same now:
    each file's content (through ``read``), each file and folder test, each
    configuration file looked for, and the YAML files of each configuration folder."""
    try:
        for folder, paths in dependencies["folders"]:
            if _config_paths(folder) != paths:
                return False
        for path, found in dependencies["isdir"]:
            if os.path.isdir(path) != found:
                return False
        for path, found in dependencies["isfile"]:
            if os.path.isfile(path) != found:
                return False
        for path, fingerprint in dependencies["configs"]:
            if _config_fingerprint(path) != fingerprint:
                return False
        for path, digest in dependencies["sources"]:
            data = read(path)
            if (content_hash(data) if data is not None else None) != digest:
                return False
    except (KeyError, TypeError, ValueError, OSError):
        return False  # an entry of another shape: a miss
    return True


def _stored_model(store: Any, key: str, named: list[str], read: Callable[[str], bytes | None]) -> tuple | None:
    """The override groups and the verdicts of ``named`` kept under ``key``,
    when the entry holds them all and nothing it read has changed; else None."""
    try:
        entry = store.get_model(key)
    except Exception:  # noqa: BLE001 - a cache problem never stops a run
        return None
    if not isinstance(entry, dict) or entry.get("v") != MODEL_CACHE_VERSION:
        return None
    verdicts_kept, groups = entry.get("verdicts"), entry.get("groups")
    if not isinstance(verdicts_kept, dict) or not isinstance(groups, list) \
            or any(not isinstance(verdicts_kept.get(source), dict) for source in named):
        return None
    if not unchanged(entry.get("dependencies") or {}, read):
        return None
    return groups, verdicts_kept


def _store_model(store: Any, key: str, dependencies: dict, groups: list, verdicts_found: dict) -> None:
    try:
        store.put_model(key, {"v": MODEL_CACHE_VERSION, "dependencies": dependencies, "groups": groups,
                              "verdicts": verdicts_found})
    except Exception:  # noqa: BLE001
        pass


def decide(
    files: Iterable[str], read: Callable[[str], bytes | None] | None = None, setting: str = "auto", where: str = "[tool.mslint]"
) -> dict[str, Decision]:
    """The decision for each of ``files`` as a whole (module_decision), with the
    programs among them; ``setting`` "graph" or "pynative" decides for all."""
    files = [_real(path) for path in files]
    if setting in (GRAPH, PYNATIVE):
        return dict.fromkeys(files, mode.forced(setting, where))
    top = os.path.commonpath(files) if files else ""
    if files and os.path.isfile(top):
        top = os.path.dirname(top)
    model = Model(top, files, read)
    return {path: model.module_decision(path) for path in files}


def main(argv: list[str] | None = None) -> int:
    """``python -m mslint.analysis.programs --explain PATH``."""
    import argparse  # noqa: PLC0415

    parser = argparse.ArgumentParser(prog="python -m mslint.analysis.programs",
                                     description="Print a project's programs, their modes with the evidence, and what each builds.")
    parser.add_argument("--explain", metavar="PATH", required=True, help="a file or folder of the project")
    args = parser.parse_args(argv)
    sys.stdout.write(explain(args.explain))
    return 0


def explain(path: str) -> str:
    """The model of the project of ``path`` (a file or a folder), in words."""
    real = os.path.realpath(path)
    if os.path.isdir(real):
        # the folder's own project, as a file in it checked by `mslint PATH` sees it
        root = project_root(os.path.join(real, "__init__.py"), [real])
        extra: list[str] = []
    else:
        root = project_root(real)
        extra = [real]
    model = Model(root, python_files(root, extra), explain=True)
    return model.explain()


# ---------------------------------------------------------------------------
# The values a name is given anywhere in the project (the name heuristics of the
# value rules: ``nn.Dropout(dropout)`` where every value in sight is a keep
# probability)
# ---------------------------------------------------------------------------

# (kept by the command's main process across its workers: forked.carried)
_VISIBLE: dict[tuple[str, str], list] = forked.carried("programs.visible", {})
_CONFIG_LIMIT = 300  # configuration files read per project
_NUMBER = r"-?(?:\d+\.?\d*|\.\d+)(?:[eE]-?\d+)?"


def _number(text: str) -> float | None:
    try:
        return float(text)
    except ValueError:
        return None


@functools.lru_cache(maxsize=64)
def _attribute_store(name: str) -> re.Pattern:
    """``<x>.name = ...`` (and ``+=``, an annotated store), not ``==``."""
    return re.compile(rb"\.\s*" + re.escape(name.encode()) + rb"\s*(?::[^=\n]*)?[-+*/|&]?=(?!=)")


def _values_in_source(data: bytes, name: str, path: str = "") -> list:
    """The numbers ``name`` is given in a Python file: a parameter's default
    (``def defaults(dropout=0.9)``), a keyword (``dict(dropout=0.9)``,
    ``Block(dropout=0.1)``), a dict literal's key (``{"dropout": 0.9}``). Kept
    per file and name (:data:`_GIVEN`): the rules ask several names of every
    file of a project."""
    if name.encode() not in data:
        return []  # (the plain test first: the pattern alone is slow on long files)
    lines = _match_lines(data, _gives_a_number(name))
    if not lines:
        return []
    given = _GIVEN.get((path, name)) if path else None
    if given is None:
        given = _numbers_given(data, name, lines)
        if path:
            if len(_GIVEN) > 20_000:
                _GIVEN.clear()
            _GIVEN[(path, name)] = given
    return list(given)


@functools.lru_cache(maxsize=256)
def _gives_a_number(name: str) -> re.Pattern:
    """Text that may give ``name`` a number literal: ``name=0.1``, ``name: float =
    .5``, ``"name": -1`` (also across lines, in parentheses), starting where the
    name is written. Only files it finds are parsed, and only the code around
    the lines it finds is read (_numbers_given finds a subset of these): most
    files mentioning ``dropout`` only use it (``self.dropout(x)``)."""
    key = re.escape(name.encode())
    number = rb"\s*[-(\s]*\.?[0-9]"
    if not re.match(rb"\w", key):
        return re.compile(rb"\b" + key + rb"\s*(?::[^=\n]*)?=" + number + rb"|[\"']" + key + rb"[\"']\s*:" + number)
    # the same, written to start with the name: a pattern starting with a literal is
    # searched for that literal first (25 to 50 times faster on large files than
    # one starting with \b or an alternation)
    return re.compile(mode.word_start(key) + rb"(?:\s*(?::[^=\n]*)?=" + number
                      + rb"|(?<=[\"']" + key + rb")[\"']\s*:" + number + rb")")


def _match_lines(data: bytes, pattern: re.Pattern) -> set[int]:
    """The line numbers (from 1) of ``pattern``'s matches in ``data``: newlines
    counted from one match to the next (counted from the start for each match,
    a long file with many matches took time quadratic in its length)."""
    lines: set[int] = set()
    line, counted = 1, 0
    for match in pattern.finditer(data):
        line += data.count(b"\n", counted, match.start())
        counted = match.start()
        lines.add(line)
    return lines


@functools.lru_cache(maxsize=16)
def _parsed(data: bytes) -> Any:
    """``ast.parse(data)``, None when it does not parse; the last few kept: the
    name heuristics ask several names of the same files, one parse each."""
    import ast  # noqa: PLC0415 - only where a name heuristic asks

    try:
        with forked.collector_paused():  # (the plugin's process holds every tree pylint built)
            return ast.parse(data)
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None


def _walk_spanning(tree: Any, lines: set[int]) -> Iterator[Any]:
    """``ast.walk(tree)`` (breadth first, the same order) entering only the nodes
    that span one of ``lines``: what is written on those lines, without a walk
    of the whole tree (most of the time of a name heuristic on long files)."""
    import ast  # noqa: PLC0415
    from collections import deque  # noqa: PLC0415

    def spans_a_line(node: ast.AST) -> bool:
        first = getattr(node, "lineno", None)
        if first is None:
            return True  # (arguments, operators: no position of their own)
        last = getattr(node, "end_lineno", None) or first
        return any(first <= line <= last for line in lines)

    todo = deque([tree])
    while todo:
        node = todo.popleft()
        todo.extend(child for child in ast.iter_child_nodes(node) if spans_a_line(child))
        yield node


# (path, name) -> the numbers its Python source gives that name, see _values_in_source
_GIVEN: dict[tuple[str, str], tuple[float, ...]] = forked.carried("programs.given", {})


def _numbers_given(data: bytes, name: str, lines: set[int]) -> tuple[float, ...]:
    """The numbers a source gives ``name`` as a default, a keyword or a dict key
    (a value that is no number literal is left out), in the order ``ast.walk``
    meets them. ``lines``: where _gives_a_number finds the name written so; the
    walk enters only the nodes that span one of them (every such name is on one:
    a walk of the whole tree took most of the time)."""
    import ast  # noqa: PLC0415 - only where a name heuristic asks

    tree = _parsed(data)
    if tree is None:
        return ()

    def number(node: ast.AST | None) -> float | None:
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            inner = number(node.operand)
            return -inner if inner is not None else None
        if isinstance(node, ast.Constant) and isinstance(node.value, (int, float)) and not isinstance(node.value, bool):
            return float(node.value)
        return None

    found: list[float] = []
    for node in _walk_spanning(tree, lines):
        pairs: list[tuple[str | None, ast.AST | None]] = []
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            arguments = node.args
            positional = arguments.posonlyargs + arguments.args
            defaults = [None] * (len(positional) - len(arguments.defaults)) + list(arguments.defaults)
            pairs += [(arg.arg, default) for arg, default in zip(positional, defaults) if default is not None]
            pairs += [(arg.arg, default) for arg, default in zip(arguments.kwonlyargs, arguments.kw_defaults)
                      if default is not None]
        elif isinstance(node, ast.Call):
            pairs += [(keyword.arg, keyword.value) for keyword in node.keywords]
        elif isinstance(node, ast.Dict):
            pairs += [(key.value, value) for key, value in zip(node.keys, node.values)
                      if isinstance(key, ast.Constant) and isinstance(key.value, str)]
        for key, value in pairs:
            given = number(value) if key == name else None
            if given is not None:
                found.append(given)
    return tuple(found)


def _values_in_config(text: str, name: str, json: bool) -> list:
    key = re.escape(name)
    pattern = rf'"{key}"\s*:\s*({_NUMBER})\b' if json else rf"^[ \t]*{key}[ \t]*:[ \t]*({_NUMBER})[ \t]*(?:#.*)?$"
    return [value for value in (_number(text) for text in re.findall(pattern, text, re.MULTILINE)) if value is not None]


def visible_values(path: str | None, name: str, whole: bool = False) -> list:
    """Every number the project of ``path`` gives ``name`` where it is written out:
    a parameter default, a keyword argument or a dict key of that name in its
    Python files, a key of that name in its JSON and YAML files, and the same for
    a name the project copies into ``name`` (``cfg.dropout1 = cfg.drop``, then
    ``drop: 0.9`` in a YAML file). Empty when the project shows none. A file alone
    (no project in sight) is read by itself.

    Where a model of the project is in sight, only the files under the folder
    holding the part of it that import statements connect to ``path`` are read
    (Model.connected_folder, the verdict's ``values_folder``): a sibling
    sub-project of the same repository, which no import connects, gives its own
    layers their values. When that folder writes no number for the name, the
    whole project is read, as without a model; ``whole``: the whole project at
    once (a function whose callers are out of sight: what import statements
    connect is not all that builds it)."""
    if not path:
        return []
    real = _real(path)
    if not _State.in_sight:
        data = read_source(real)
        found = _values_in_source(data, name) if data else []
        for alias in _copied_into([real], name):
            found += _values_in_source(data, alias) if data else []
        return found
    verdict = verdict_for(real)
    # the model's root: the folders named on the command line may hold more than the
    # package's (a file in a folder without __init__.py below the package, unimol's
    # model/blocks, is not a project of its own)
    root = verdict["root"] if verdict and isinstance(verdict.get("root"), str) else project_root(real)
    folder = verdict.get("values_folder") if verdict else None
    if isinstance(folder, str) and folder.startswith(root + os.sep) and not whole:
        found = _visible_in(folder, real, name)
        if found:
            return found
    return _visible_in(root, real, name)


def _visible_in(root: str, path: str, name: str) -> list:
    """The numbers the Python files under ``root`` (and the file at ``path``) and
    its configuration files give ``name`` and the names copied into it
    (visible_values), kept per (root, name)."""
    known = _VISIBLE.get((root, name))
    if known is not None:
        return known
    sources = python_files(root, [path])
    # the name's values and the names copied into it, from one parse of each file
    # (a file that writes both was parsed twice, one walk of the project apart)
    aliases: list[str] = []
    found: list = []
    for source in sources:
        data = read_source(source)
        if not data or name.encode() not in data:
            continue
        aliases += [alias for alias in _copies_in(data, name) if alias not in aliases]
        found += _values_in_source(data, name, source)
    for alias in aliases:
        for source in sources:
            data = read_source(source)
            if data:
                found += _values_in_source(data, alias, source)
    names = [name, *aliases]
    count = 0
    for current, dirnames, filenames in os.walk(root):
        dirnames[:] = sorted(folder for folder in dirnames if folder not in SKIPPED_FOLDERS and not folder.startswith("."))
        for filename in sorted(filenames):
            if not filename.endswith((".json", ".yaml", ".yml")):
                continue
            count += 1
            if count > _CONFIG_LIMIT:
                break
            try:
                with open(os.path.join(current, filename), encoding="utf-8", errors="replace") as stream:
                    text = stream.read(200_000)
            except OSError:
                continue
            for each in names:
                if each in text:
                    found += _values_in_config(text, each, filename.endswith(".json"))
        if count > _CONFIG_LIMIT:
            break
    if len(_VISIBLE) > 1024:
        _VISIBLE.clear()
    _VISIBLE[(root, name)] = found
    return found


def called_out_of_sight(path: str | None, name: str) -> bool:
    """Whether another file of the project of ``path`` calls ``name``, a class or
    function of ``path``, through an import of it that does not resolve
    (``from src.models.net import Net`` with the folder named ``src/model``:
    Model._called_unresolved). The value such a call passes is out of sight, so
    a parameter's default is not what reaches the code. A file alone (no
    project in sight): False."""
    verdict = verdict_for(path) if path and _State.in_sight else None
    return bool(verdict) and name in (verdict.get("unseen_callers") or ())


@functools.lru_cache(maxsize=64)
def _copy_pattern(name: str) -> re.Pattern:
    """A line ``name = other`` or ``x.name = x.other`` (a comment after it allowed),
    starting with the name where it is a word: searched for as a literal (see
    _gives_a_number)."""
    key = re.escape(name.encode())
    start = mode.word_start(key) if re.match(rb"\w", key) else rb"\b" + key
    return re.compile(start + rb"\s*=\s*[A-Za-z_][\w.]*\s*(?:#.*)?$", re.MULTILINE)


def _copied_into(sources: list[str], name: str) -> list[str]:
    """The names ``sources`` copy into ``name`` as they are: ``name = other``,
    ``cfg.name = cfg.other`` (the last part of the name copied), in the order
    met."""
    found: list[str] = []
    for source in sources:
        data = read_source(source)
        if data:
            found += [copied for copied in _copies_in(data, name) if copied not in found]
    return found


def _copies_in(data: bytes, name: str) -> list[str]:
    """The names one file's source copies into ``name`` (_copied_into), in order."""
    import ast  # noqa: PLC0415 - only where a name heuristic asks

    pattern = _copy_pattern(name)
    if name.encode() not in data or not pattern.search(data):
        return []
    tree = _parsed(data)
    if tree is None:
        return []
    found: list[str] = []
    for node in _walk_spanning(tree, _match_lines(data, pattern)):
        if not (isinstance(node, ast.Assign) and len(node.targets) == 1):
            continue
        target, value = node.targets[0], node.value
        named = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else None
        copied = value.id if isinstance(value, ast.Name) else value.attr if isinstance(value, ast.Attribute) else None
        if named == name and copied and copied != name and copied not in found:
            found.append(copied)
    return found


_PINS: dict[tuple[str, str], str | None] = {}


# The libraries whose import rebinds MindSpore names for the whole process
# (mslint.knowledge.injections): each rebound name -> the library's replacement
INJECTING_LIBRARIES: dict[str, dict[str, str]] = {
    "mindnlp": {name: "mindnlp.injection." + name.split(".", 1)[1] for name in injections.MINDNLP_PATCHED},
}
# the release series whose import does it (mindnlp 0.1.1 has no injection; 0.4 on replaced it)
_PATCHING_RELEASES = {"mindnlp": injections.MINDNLP_PATCHING_RELEASES}


def may_inject(path: str | None, library: str) -> bool:
    """The library's injection may run for the file at ``path``: its project
    pins no release of the library without one (``mindnlp==0.1.1``)."""
    pinned = pinned_version(path, library)
    if pinned is None:
        return True
    return any(pinned == release or pinned.startswith(release + ".") for release in _PATCHING_RELEASES[library])


def pinned_version(path: str | None, package: str) -> str | None:
    """The version of ``package`` the project of ``path`` pins exactly
    (``mindnlp==0.1.1`` in a requirements*.txt in the file's folder or one
    above it, up to the project root, or past it up to the repository's top: a
    folder holding .git, pyproject.toml, setup.py or setup.cfg); None when none
    does. Names compare as pip compares them: ``mindspore_gpu`` is ``mindspore-gpu``."""
    # ``mindspore-gpu=1.10.1``: pip refuses the single "=", but the release meant is plain
    pattern = re.compile(rf"^\s*{_pip_name(package)}\s*={{1,3}}\s*([\w.]+)", re.IGNORECASE | re.MULTILINE)
    return _found_above(path, package, [(_is_requirements, pattern)])


def _pip_name(package: str) -> str:
    """A pattern for ``package`` as pip compares names (``mindspore_gpu`` is
    ``mindspore-gpu``)."""
    return "[-_.]+".join(re.escape(part) for part in re.split(r"[-_.]+", package))


def _is_requirements(name: str, beside: Iterable[str] = ()) -> bool:  # noqa: ARG001 - a reader of _found_above
    return name.startswith("requirements") and name.endswith(".txt")


def _is_readme(name: str, beside: Iterable[str] = ()) -> bool:  # noqa: ARG001 - a reader of _found_above
    return name.lower().startswith("readme") and name.endswith(".md")


# A requirements file's pin of MindSpore, exact or compatible (``mindspore~=2.0.0a0``:
# 2.0's releases), under any of its distributions' names
_MINDSPORE_NAME = "(?:" + "|".join(_pip_name(name) for name in guide.MINDSPORE_DISTRIBUTIONS) + ")"
_MINDSPORE_PIN_RE = re.compile(r"^\s*" + _MINDSPORE_NAME + r"\s*(?:~=|={1,3})\s*v?(\d+\.\d+[\w.]*)",
                               re.IGNORECASE | re.MULTILINE)
# A README states the release the code was written for: the model zoo's performance
# table (``| MindSpore Version | 1.3.0 |``, ``| MindSpore版本 | 1.3.0 |``), an
# environment list (``- MindSpore 1.0.0``), an install step (``安装MindSpore 1.6.1版本``,
# ``pip install mindspore-gpu==1.8.1``, ``MindSpore version: 1.5``). A lower bound
# (``>= 1.8``, ``1.8及以上``, ``1.8 or later``) states no release.
_RELEASE = r"v?(\d+\.\d+(?:\.\d+)?)(?![\d.]*\s*(?:\+|及以上|以上|or (?:later|above|newer)|and (?:later|above|newer)))"
# Prose too: a list item (``- MindSpore == 1.9.0``, ``●Toolkit：mindspore1.9``), the
# code's basis (``based on MindSpore1.9``, ``implemented by [mindspore 2.0.0](...)``,
# ``**框架（Framework）**：MindSpore_1.3.0``).
_NAMED = r"MindSpore[\s_\\-]*"
_STATED_RELEASE_RE = re.compile(
    r"^\s*\|\s*MindSpore\s*(?:Version|版本)\s*\|\s*(?:" + _NAMED + ")?" + _RELEASE
    + r"|^\s*[-*●]\s*(?:\w+\s*[:：]\s*)?" + _NAMED + r"(?:={1,2}|[:：])?\s*" + _RELEASE
    + r"|安装\s*MindSpore\s*" + _RELEASE
    + r"|MindSpore\s*" + _RELEASE + r"\s*版本(?!\s*(?:及|或)?以上)"
    + r"|pip3? install\s+" + _MINDSPORE_NAME + "==" + _RELEASE
    + r"|(?:based?\s+on|implemented\s+(?:by|with|in)|Framework\W{0,4}\s*[:：])\s*\W{0,2}" + _NAMED + _RELEASE
    + r"|MindSpore\s*(?:version|版本)\s*[:：]\s*" + _RELEASE,
    re.IGNORECASE | re.MULTILINE)


def stated_mindspore_version(path: str | None) -> str | None:
    """The MindSpore release the project of ``path`` says it runs on: in the
    file's folder or the nearest one above it that says, what a requirements file
    pins (``mindspore==1.10.1``, ``mindspore-gpu~=2.0.0``), else what a README
    states (``| MindSpore Version | 1.3.0 |``, the model zoo's performance tables;
    ``安装MindSpore 1.6.1版本``), and first a copy of MindSpore's own source tree's
    version.txt; None when none says. A sub-project's own files
    come before a collection's README above it."""
    return _found_above(path, "<mindspore release>", [(_is_mindspore_tree_version, _VERSION_FILE_RE),
                                                      (_is_requirements, _MINDSPORE_PIN_RE),
                                                      (_is_readme, _STATED_RELEASE_RE)])


# MindSpore's own source tree (a copy inside a project: its tests and scripts are
# the release's code): version.txt beside the mindspore package folder
_VERSION_FILE_RE = re.compile(r"\A\s*v?(\d+\.\d+(?:\.\d+)?)\s*\Z")


def _is_mindspore_tree_version(name: str, beside: Iterable[str] = ()) -> bool:
    return name == "version.txt" and "mindspore" in beside and "setup.py" in beside


def _found_above(path: str | None, key_name: str,
                 readers: list[tuple[Callable[[str, list[str]], bool], re.Pattern]]) -> str | None:
    """The first matched group of the first of ``readers`` (which files, by name
    and the names beside it; the pattern searched in them) that matches a file in the folder of ``path`` or one
    above it, up to the project root, or past it up to the repository's top;
    None when none matches (cached per folder)."""
    if not path:
        return None
    real = _real(path)
    folder = os.path.dirname(real)
    key = (folder, key_name)
    if key in _PINS:
        return _PINS[key]
    root = project_root(real)
    found = None
    current = folder
    for _ in range(12):
        try:
            names = sorted(os.listdir(current))
        except OSError:
            names = []
        for wanted, pattern in readers:
            for name in names:
                if not wanted(name, names):
                    continue
                try:
                    with open(os.path.join(current, name), encoding="utf-8", errors="replace") as stream:
                        match = pattern.search(stream.read(100_000))
                except OSError:
                    continue
                if match:
                    found = next(group for group in match.groups() if group)
                    break
            if found is not None:
                break
        if found is not None:
            break
        if (current == root or len(current) <= len(root)) and any(name in ROOT_MARKERS for name in names):
            break  # the project root and the repository's top: nothing above is the project's
        parent = os.path.dirname(current)
        if parent == current:
            break
        current = parent
    if len(_PINS) > 1024:
        _PINS.clear()
    _PINS[key] = found
    return found


# last: run as a script, the module's every definition must be made before main() runs
if __name__ == "__main__":
    sys.exit(main())
