"""How one file selects the mode its program runs in: whether it is an entry
script, and what its ``set_context`` calls select, read statically.

MindSpore 2.x runs PyNative unless the program selects GRAPH_MODE (FACTS.md:
``get_context("mode")`` is 1 by default); ``@jit`` code is compiled in every
mode. The programs, what each builds and the mode of each Cell are
mslint.analysis.programs'; this module reads one file for it.

Entry scripts: files with ``if __name__ == "__main__":``, a ``set_context``
call at module level, or a ``grad``/``value_and_grad`` assigned at module level
(a training script). A ``set_context(mode=...)`` value is read as a literal,
``GRAPH_MODE`` / ``PYNATIVE_MODE`` in any spelling, a module constant, a
parameter default (``def init_env(cfg, mode=context.GRAPH_MODE)``), an argparse
default of the same file (or its choices, without one), an environment switch
read with a default (``os.getenv("MS_MODE", "0")``), the branch of ``a if c
else b`` the test takes with the options' defaults, through pure string
operations (``args.mode.upper().startswith("GRAPH")``, ``==``, ``in``, ``not``:
:func:`pure_values`; both when they do not decide it), every value a name may
hold after branches; ``args.mode`` / ``config.mode`` /
``cfg.system.context_mode`` that the file cannot read are kept by name
(:attr:`ContextCall.options`, a nested key by its path) for the program model,
which reads them from the program's argparse options and configuration files,
with the table of modes the code reads them through (``{"graph_mode":
GRAPH_MODE, ...}[cfg.mode]``, ``if kind == "graph_mode": mode = GRAPH_MODE
...``, the arms of ``GRAPH_MODE if env_args.mode.upper().startswith("GRAPH")
else PYNATIVE_MODE`` keyed by the test's answer: :attr:`ContextCall.mappings`,
:func:`table_mode`). With a path, the
top-level keys of the YAML files beside the file (and in config/, configs/)
answer too (:func:`selected_modes`). ``jit_syntax_level=`` is read the same way
(:attr:`ContextCall.levels`). A value read back from ``get_context`` (``saved =
get_context("mode")`` ... ``set_context(mode=saved)``) restores the setting in
force and selects nothing, as does one kept in ``self.<name>`` (a context
manager's ``__exit__``).

A guard that raises unless the program runs PyNative (``if get_context("mode")
!= PYNATIVE_MODE: raise ...``, :func:`is_pynative_guard`) means the code after
it runs only in PyNative mode, whatever the program selected.

Nothing here imports user code; files are parsed with the standard library's
``ast``.
"""

from __future__ import annotations

import ast
import bisect
import functools
import itertools
import os
import re
from collections import Counter
from collections.abc import Callable
from dataclasses import dataclass, replace

GRAPH = "graph"
PYNATIVE = "pynative"
UNKNOWN = "unknown"
MODES = ("auto", GRAPH, PYNATIVE)
STRICT, LAX = "strict", "lax"

_MAIN = re.compile(rb"^if\s+__name__\s*==\s*['\"]__main__['\"]", re.MULTILINE)
_TOP_SET_CONTEXT = re.compile(rb"^[\w.]*set_context\s*\(", re.MULTILINE)
# a training script without a main guard: it differentiates at module level
_TOP_GRAD = re.compile(rb"^[\w.]+\s*=\s*[\w.]*\b(?:value_and_grad|grad)\s*\(", re.MULTILINE)
# a program that differentiates what it runs (anywhere in its project import
# closure), and one that runs inference: export, evaluation, prediction
# (any call whose name holds "train" or "grad": ``train_one_epoch(...)``,
# ``set_train()``, ``value_and_grad(...)``, but not ``set_train(False)``; an optimizer).
# A name counts from its start or after an underscore (``set_train(``,
# ``value_and_grad(``, ``zero_grad(``), not inside a word (``degrad(``,
# ``constrain(``, ``upgrade(``); the names that stop or load rather than train
# do not count: ``stop_gradient(`` / ``StopGradient(`` (the port of
# ``torch.no_grad``), ``no_grad(``, ``from_pretrained(`` / ``load_pretrained(``.
# The patterns as written (what they mean); the rules read them through the
# equal patterns below them, which sre searches several times faster: each
# alternative starts with a literal, so the search skips, in C, every position
# whose character no alternative starts with, where a pattern opening with a
# lookbehind or ``\b`` tries every position of every file (the program model
# reads these on every file of a project: 7 s of the benchmark's 61 MB, 1.2 s
# now). ``\bname`` is ``name`` not preceded by a word character, checked behind
# it; tests/test_mode.py checks each pair agrees.
TRAINS_AS_WRITTEN = (
    rb"(?<![A-Za-z0-9])(?<!stop_)(?<!no_)"
    rb"(?:(?:pre|re)?[Tt]rain(?!ed\b|able_params\b)|[Gg]rad|jacfwd|jacrev|vjp|jvp)\w*\s*\((?!\s*(?:mode\s*=\s*)?False\b)"
    rb"|\bTrainOneStep\w*|\bTrainer\b|\bgrad_fn\b|\.fit\s*\("
    rb"|\b(?:Momentum|Adam\w*|SGD|Lamb|LARS|RMSProp|Optimizer)\s*\("
)
_OPTIMIZER_NAME = re.compile(r"(?:Momentum|Adam\w*|SGD|Lamb|LARS|RMSProp|Optimizer)")
_OPTIMIZER_AT = re.compile(rb"(?:Momentum|Adam|SGD|Lamb|LARS|RMSProp|Optimizer)")  # a TRAINS match that is one
# where a TRAINS match is only a definition's header (``def train_loop(``, ``def _get_train_data(``,
# ``class Momentum(Optimizer)``)
_DEFINED = re.compile(rb"\b(?:def|class)\s+\w*$")
# a TRAINS match naming the training split of the data, not a training step:
# ``get_train_data(``, ``create_train_dataset(``, ``train_loader(``: reading data trains nothing
_TRAINING_DATA = re.compile(
    rb"[Tt]rain(?:_?(?:data|dataset|datasets|dataloader|loader|set|sets|samples?|files?|list|split|"
    rb"transforms?|images?|labels?|ids))+\s*\("
)


def training_lines(data: bytes, tree: ast.AST | None) -> list[int] | None:
    """The lines where a source that TRAINS matches shows training, read past its
    comments and string literals (a commented-out ``# train_loop(...)``, a
    docstring's ``do_train(bool)``), past the headers of definitions (``def
    train_loop(``: the calls of it are what trains), past calls that name the
    training split of the data (``get_train_data(``, _TRAINING_DATA) and past an optimizer that is
    built and never used (``optimizer = nn.Adam(...)`` whose name nothing in its
    scope reads: nothing steps it, and no Model or TrainOneStepCell is given it).
    None when the source cannot be read so (no tree, a tokenizer error): then the
    plain text search answers, and where is not known."""
    if tree is None:
        return None
    masked = _code_only(data)
    if masked is None:
        return None
    starts = [0]
    for line in masked.split(b"\n"):
        starts.append(starts[-1] + len(line) + 1)
    matches = list(TRAINS.finditer(masked))
    # an idle optimizer's call holds the match of its own name (``Adam(``): without
    # one, there is none to look for
    idle = [(starts[call.lineno - 1] + call.col_offset, starts[call.end_lineno - 1] + call.end_col_offset)
            for call in _idle_optimizers(tree) if call.end_lineno is not None and call.lineno <= len(starts)
            and call.end_lineno <= len(starts)] \
        if any(_OPTIMIZER_AT.match(masked, found.start()) for found in matches) else []
    local: set[int] | None = None  # looked for at the first set_train matched
    lines: list[int] = []
    for found in matches:
        at = found.start()
        if any(start <= at < end for start, end in idle):
            continue
        line = bisect.bisect_right(starts, at)
        if masked[max(0, at - 4):at + 5] == b"set_train":
            if local is None:
                local = local_set_train_lines(tree)
            if line in local:
                continue  # a layer construct builds and sets itself: no network trains
        if _DEFINED.search(masked, max(0, masked.rfind(b"\n", 0, at) + 1), at):
            continue
        if _TRAINING_DATA.match(masked, at):
            continue
        lines.append(line)
    return lines


# A string literal (any prefix, triple-quoted first) or a comment, as the tokenizer
# reads them: outside both, a Python source has no quote and no ``#``, so a scan
# from the start finds each whole. A prefix counts only where no name runs into
# it (``if"x"`` is the keyword ``if`` and a string).
_STRING_OR_COMMENT = re.compile(
    rb"(?:(?<![A-Za-z0-9_])[rRbBuUfF]{1,2})?"
    rb"(?:'''[^'\\]*(?:(?:\\.|'(?!''))[^'\\]*)*'''"
    rb'|"""[^"\\]*(?:(?:\\.|"(?!""))[^"\\]*)*"""'
    rb"|'[^'\\\r\n]*(?:\\(?:\r\n|.)[^'\\\r\n]*)*'"
    rb'|"[^"\\\r\n]*(?:\\(?:\r\n|.)[^"\\\r\n]*)*")'
    rb"|#[^\r\n]*",
    re.DOTALL,
)
_NOT_LINE_END = re.compile(rb"[^\r\n]")


def _code_only(data: bytes) -> bytes | None:
    """The source with its comments and string literals blanked (same length, lines
    kept); None when it is not UTF-8. (The tokenizer did this five times slower;
    tests/test_mode.py checks the two agree.)"""
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return None
    pieces = []
    last = 0
    for found in _STRING_OR_COMMENT.finditer(data):
        pieces.append(data[last:found.start()])
        pieces.append(_NOT_LINE_END.sub(b" ", found.group()))
        last = found.end()
    pieces.append(data[last:])
    return b"".join(pieces)


def _idle_optimizers(tree: ast.AST) -> list[ast.Call]:
    """The optimizer constructions bound to a name (``opt = nn.Adam(...)``) that
    nothing in the scope binding it reads (nor its nested functions)."""
    found = []
    for scope, assignments in _optimizer_assignments(tree).items():
        # what the scope's own code and its nested functions read: every name read in its body
        reads = {node.id for statement in scope.body for node in ast.walk(statement)
                 if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store)}
        found.extend(node.value for node in assignments if node.targets[0].id not in reads)
    return found


def _optimizer_assignments(tree: ast.AST) -> dict[ast.AST, list[ast.Assign]]:
    """scope (the module, a function) -> the ``name = <optimizer>(...)`` statements
    of its own code (outside the functions and classes it defines; a class body is
    no such scope), in one walk of the tree."""
    found: dict[ast.AST, list[ast.Assign]] = {}
    stack: list[tuple[ast.AST, ast.AST | None]] = [(statement, tree) for statement in getattr(tree, "body", ())]
    while stack:
        node, scope = stack.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            stack.extend((statement, node) for statement in node.body)
            continue
        if isinstance(node, ast.ClassDef):
            stack.extend((statement, None) for statement in node.body)
            continue
        if isinstance(node, ast.Lambda):
            continue
        if scope is not None and isinstance(node, ast.Assign) and len(node.targets) == 1 \
                and isinstance(node.targets[0], ast.Name) and isinstance(node.value, ast.Call):
            func = node.value.func
            name = func.attr if isinstance(func, ast.Attribute) else func.id if isinstance(func, ast.Name) else ""
            if _OPTIMIZER_NAME.fullmatch(name):
                found.setdefault(scope, []).append(node)
        stack.extend((child, scope) for child in ast.iter_child_nodes(node))
    return found


def local_set_train_lines(tree: ast.AST) -> set[int]:
    """The lines of ``layer.set_train(...)`` calls in a ``construct`` method whose
    ``layer`` is a name that construct binds to a call (``layer = nn.Dropout(p=0.1)``):
    the flag of a layer built anew on each forward pass, which trains nothing and
    turns no flag of the program's network on."""
    found: set[int] = set()
    for function in ast.walk(tree):
        if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)) or function.name != "construct":
            continue
        own = [node for statement in function.body for node in _own_nodes(statement)]
        built = {target.id for node in own if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call)
                 for target in node.targets if isinstance(target, ast.Name)}
        other = {target.id for node in own if isinstance(node, ast.Assign) and not isinstance(node.value, ast.Call)
                 for target in node.targets if isinstance(target, ast.Name)}
        other |= {node.target.id for node in own if isinstance(node, (ast.AugAssign, ast.AnnAssign, ast.For))
                  and isinstance(node.target, ast.Name)}
        for node in own:
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr == "set_train" \
                    and isinstance(node.func.value, ast.Name) and node.func.value.id in built - other:
                found.add(node.lineno)
    return found


def _own_nodes(node: ast.AST):
    """The nodes of a statement outside the functions and classes it defines (those
    yielded themselves, not entered)."""
    yield node
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
        return
    for child in ast.iter_child_nodes(node):
        yield from _own_nodes(child)


INFERS_AS_WRITTEN = rb"\b(?:export|predict|eval|infer)\s*\(|\bset_train\s*\(\s*(?:mode\s*=\s*)?False\b"
# A program that uses trained weights (loads a checkpoint into a network, or
# pretrained ones), and one that calls a Cell's construct itself (a notebook
# checking shapes): with nothing it reaches training (TRAINS), it runs the
# network forward only (mslint.analysis.programs: Program.trains).
LOADS_WEIGHTS_AS_WRITTEN = (
    rb"\b(?:load_checkpoint|load_param_into_net|load_state_dict|from_pretrained|load_pretrained)\s*\("
)
CALLS_CONSTRUCT = re.compile(rb"\.construct\s*\(")
# A program that turns the training flag on (``Cell.training``, which graph mode
# folds as a constant: measured, tests/oracle/test_graph.py): ``set_train()``,
# ``set_train(True)``, or a ``Model(...)`` whose ``.train(...)`` calls set_train (FACTS.md;
# nn.TrainOneStepCell alone does not). Read per file: SETS_TRAINING, or both of
# BUILDS_MODEL and TRAINS_MODEL.
SETS_TRAINING_AS_WRITTEN = rb"\bset_train\s*\(\s*(?:(?:mode\s*=\s*)?True\s*)?\)"
BUILDS_MODEL_AS_WRITTEN = rb"\bModel\s*\("
TRAINS_MODEL = re.compile(rb"\.train\s*\(")
# A program that may compile a Cell with the flag off besides the default: any
# inference (INFERS), a set_train whose argument is not literally True
# (``set_train(is_training)``), ``Model.fit`` (it may evaluate a validation set), a
# program assigning the flag itself (``net.training = False``)
MAY_EVALUATE_AS_WRITTEN = (
    INFERS_AS_WRITTEN
    + rb"|\bset_train\s*\(\s*(?![\s)]|(?:mode\s*=\s*)?True\s*\))|\.fit\s*\(|\.training\s*=(?!=)"
)


def word_start(name: bytes) -> bytes:
    """``\bname`` for a name starting with a word character, as a pattern that
    starts with the name's first letter."""
    return name + rb"(?<!\w" + name + rb")"


def _name_start(name: bytes) -> bytes:
    """``(?<![A-Za-z0-9])(?<!stop_)(?<!no_)name``, starting with the name."""
    return name + rb"(?<![A-Za-z0-9]" + name + rb")(?<!stop_" + name + rb")(?<!no_" + name + rb")"


_TRAIN_NAMES = [
    _name_start(prefix + first + b"rain") + rb"(?!ed\b|able_params\b)" for prefix in (b"pre", b"re", b"") for first in (b"T", b"t")
] + [_name_start(name) for name in (b"Grad", b"grad", b"jacfwd", b"jacrev", b"vjp", b"jvp")]


class Alternatives:
    """Whether a text holds one of several patterns: ``a|b|c`` searched as its
    parts one by one. Each part starts with a literal (see word_start), which the
    regex engine finds with a fast scan; the alternation as one pattern starts
    with none and is tried at every position (a tenth of reading a large
    project's facts went to four such searches)."""

    def __init__(self, parts: list[bytes]) -> None:
        self.parts = [re.compile(part) for part in parts]

    def found(self, data: bytes) -> bool:
        return any(part.search(data) is not None for part in self.parts)

    def search(self, data: bytes) -> re.Match | None:
        """The first match of any part (where the alternation's search starts);
        ``found`` when only whether there is one matters."""
        matches = [match for match in (part.search(data) for part in self.parts) if match is not None]
        return min(matches, key=lambda match: match.start()) if matches else None


_TRAINS = [
    *(name + rb"\w*\s*\((?!\s*(?:mode\s*=\s*)?False\b)" for name in _TRAIN_NAMES),
    word_start(b"TrainOneStep") + rb"\w*", word_start(b"Trainer") + rb"\b", word_start(b"grad_fn") + rb"\b", rb"\.fit\s*\(",
    word_start(b"Adam") + rb"\w*\s*\(",
    *(word_start(name) + rb"\s*\(" for name in (b"Momentum", b"SGD", b"Lamb", b"LARS", b"RMSProp", b"Optimizer")),
]
TRAINS = re.compile(b"|".join(_TRAINS))  # where each match is wanted (training_lines)
TRAINS_FOUND = Alternatives(_TRAINS)
_INFERS = [
    *(word_start(name) + rb"\s*\(" for name in (b"export", b"predict", b"eval", b"infer")),
    word_start(b"set_train") + rb"\s*\(\s*(?:mode\s*=\s*)?False\b",
]
INFERS = Alternatives(_INFERS)
LOADS_WEIGHTS = Alternatives([
    word_start(name) + rb"\s*\("
    for name in (b"load_checkpoint", b"load_param_into_net", b"load_state_dict", b"from_pretrained", b"load_pretrained")
])
SETS_TRAINING = re.compile(word_start(b"set_train") + rb"\s*\(\s*(?:(?:mode\s*=\s*)?True\s*)?\)")
BUILDS_MODEL = re.compile(word_start(b"Model") + rb"\s*\(")
MAY_EVALUATE = Alternatives([
    *_INFERS,
    word_start(b"set_train") + rb"\s*\(\s*(?![\s)]|(?:mode\s*=\s*)?True\s*\))", rb"\.fit\s*\(", rb"\.training\s*=(?!=)",
])
# a program that calls mindspore.export (which compiles under STRICT)
EXPORTS = re.compile(
    rb"\b(?:ms|mindspore|serialization)\.export\s*\("
    rb"|^[ \t]*from[ \t]+mindspore[\w.]*[ \t]+import[ \t]+(?:\([^)]*|[^\n]*)\bexport\b(?![\w.])",
    re.MULTILINE,
)
_MODE_NAMES = {"GRAPH_MODE": GRAPH, "PYNATIVE_MODE": PYNATIVE}
_LEVEL_NAMES = {"STRICT": STRICT, "LAX": LAX, "COMPATIBLE": LAX}
_YAML_KEY = re.compile(r"^(\w+)\s*:\s*([^\s#]+)", re.MULTILINE)
# folders beside an entry script that hold its configuration files
CONFIG_FOLDERS = ("", "config", "configs")
# names under which code reads an environment switch with a default
_ENV_READERS = frozenset({"getenv", "get"})


@dataclass(frozen=True)
class Decision:
    """The mode code runs in, and why: ``basis`` is read by people."""

    mode: str  # GRAPH or PYNATIVE
    basis: str
    assumed: bool = False  # neither read from the project nor set by the user
    set_by_user: bool = False  # the mode setting, not the project
    # False: every program that compiles the code runs inference only (mslint.analysis.programs)
    trained: bool = True
    # when not trained: a program that compiles it for mindspore.export, which
    # compiles under STRICT (as the module's reader finds it: relative to its
    # folder); "" when none
    exported_by: str = ""
    # the jit_syntax_level the programs that compile it select ("" when none reads)
    syntax_level: str = ""
    # False: every program that compiles it turns the Cells' training flag on and
    # nothing it reaches evaluates, exports or turns the flag off: ``self.training``
    # is True whenever graph mode compiles the code (mslint.analysis.programs); the
    # mirror of ``trained`` (False: the flag is never turned on)
    evaluated: bool = True
    # a program that compiles it and may run on Ascend, and where it selects the
    # device (as the module's reader finds it); "" when no such program is in sight
    ascend: str = ""

    def row(self) -> tuple[str, str, bool, bool, bool, str, str, bool, str]:
        return (self.mode, self.basis, self.assumed, self.set_by_user, self.trained, self.exported_by,
                self.syntax_level, self.evaluated, self.ascend)

    def training_flag(self) -> bool | None:
        """What ``self.training`` is whenever the programs compile the code: True
        (they only train it), False (they only run inference and never turn the
        flag on), None (either, or unknown)."""
        if not self.evaluated:
            return True
        if not self.trained:
            return False
        return None


LIBRARY = Decision(GRAPH, "no entry script in sight sets the mode", assumed=True)


# A project with no program may still show how it runs: the usage examples of
# its README (a library: ``q = Quantizer(dim=256); q(x)``). Their set_context
# calls or @jit select the mode as a program's would; examples that use the
# code and select nothing run PyNative, MindSpore 2.x's default.
README_NAMES = ("README.md", "README.rst", "README_EN.md", "README_en.md", "readme.md", "Readme.md", "README")
_MARKDOWN_BLOCK = re.compile(r"^[ \t]*(```+|~~~+)[ \t]*\{?\.?([\w+-]*)[^\n]*\n(.*?)^[ \t]*\1", re.MULTILINE | re.DOTALL)
_RST_BLOCK = re.compile(r"^\.\.[ \t]+(?:code-block|code|sourcecode)::[ \t]*(?:python3?|py|ipython)[ \t]*\n((?:[ \t]*\n|[ \t]+[^\n]*\n)+)",
                        re.MULTILINE)
_PYTHON_LANGUAGES = frozenset({"", "python", "python3", "py", "ipython", "pycon"})
_EXAMPLE_IMPORT = re.compile(r"^[ \t>.]*(?:from[ \t]+([\w.]+)[ \t]+import|import[ \t]+([\w.]+))", re.MULTILINE)
_EXAMPLE_JIT = re.compile(r"(?:^[ \t]*@[\w.]*\bjit\b|\bjit[ \t]*\()", re.MULTILINE)


def readme_examples(text: str) -> list[str]:
    """The Python code blocks of a README (Markdown fences, reStructuredText
    code-block directives)."""
    found = [body for _fence, language, body in _MARKDOWN_BLOCK.findall(text) if language.lower() in _PYTHON_LANGUAGES]
    found.extend(_RST_BLOCK.findall(text))
    return [_PROMPT.sub("", body) for body in found]


# an interactive session's prompts (``>>> x = f()``, ``... ``), dropped to read the code
_PROMPT = re.compile(r"^[ \t]*(?:>>>|\.\.\.)[ ]?", re.MULTILINE)


def documented_mode(texts: list[str], packages: frozenset[str]) -> tuple[str, str, bool] | None:
    """The mode the README examples ``texts`` run the project's code in, with
    what shows it and whether that is an assumption: (GRAPH, why, False) when one
    sets GRAPH_MODE, (GRAPH, why, True) when one compiles something with jit
    (which code it compiles is not said), (PYNATIVE, why, False) when some import
    MindSpore or one of ``packages`` (the project's top-level modules) and none
    selects a mode; None when no example uses the code, or one selects a mode
    mslint cannot read."""
    using = False
    for text in texts:
        imported = {(match[0] or match[1]).split(".")[0] for match in _EXAMPLE_IMPORT.findall(text)}
        if not imported & (packages | {"mindspore"}):
            continue
        using = True
        if _EXAMPLE_JIT.search(text):
            return GRAPH, "compiles with jit", True
        source = text.encode("utf-8", "replace")
        modes = selected_modes(source) if b"set_context" in source and b"mode" in source else frozenset()
        if GRAPH in modes or (UNKNOWN in modes and "GRAPH_MODE" in text):
            return GRAPH, "sets GRAPH_MODE", False
        if UNKNOWN in modes:
            return None
    return (PYNATIVE, "use it without selecting a mode: PyNative, MindSpore's default", False) if using else None


def forced(mode: str, where: str) -> Decision:
    return Decision(mode, f"{where} mode = {mode!r}", set_by_user=True)


def setting_name() -> str:
    """Where the user sets the mode, for messages (the same text from the command
    and the plugin: their findings are equal)."""
    return "[tool.mslint] mode"


# ---------------------------------------------------------------------------
# Reading one file: is it an entry script, which modes does it select
# ---------------------------------------------------------------------------


def is_entry(source: bytes) -> bool:
    # substring tests first: the patterns are anchored at line starts and slow to miss
    return bool(
        (b"__main__" in source and _MAIN.search(source))
        or (b"set_context" in source and _TOP_SET_CONTEXT.search(source))
        or (b"grad" in source and _TOP_GRAD.search(source))
    )


# Where a set_context call runs (ContextCall.runs): when the module is imported,
# only when the module is run as a script, or when the named module-level
# function or class (ContextCall.runs is then its name) is called.
ON_IMPORT = ""
AS_SCRIPT = "__main__"


@dataclass(frozen=True)
class ContextCall:
    """One ``set_context`` call of a file that selects a mode or a syntax level:
    what it may select and when it runs."""

    modes: frozenset[str]
    runs: str = ON_IMPORT
    line: int = 0
    # names of options the value comes from that the file cannot read
    # (``args.mode``, ``cfg["mode"]``): the program's options and configs may
    options: tuple[str, ...] = ()
    levels: frozenset[str] = frozenset()  # jit_syntax_level: STRICT, LAX, UNKNOWN
    level_options: tuple[str, ...] = ()
    # an option read through a table of modes: (option, reading, ((value, mode), ...)), the
    # reading the pure string operations the value goes through first, an expression of
    # ``_`` ("" none: read_through): ``{"graph_mode": GRAPH_MODE, ...}[cfg.system.context_mode]``,
    # ``if mode == "pynative_mode": m = PYNATIVE_MODE ...``, and a conditional's arms keyed
    # by its test's answer, True and False (``GRAPH_MODE if env_args.mode.startswith("G") else
    # PYNATIVE_MODE``: ("mode", "_.startswith('G')", ((False, PYNATIVE), (True, GRAPH))))
    mappings: tuple[tuple[str, str, tuple[tuple[object, str], ...]], ...] = ()
    # a call in the module's top-level code (its main guard too) after which that code
    # calls nothing (_runs_last): run as the program's entry, it selects the mode of
    # nothing the program runs (a script that calls its network, then sets GRAPH_MODE)
    last: bool = False


def selected_modes(source: bytes, path: str = "") -> frozenset[str]:
    """The modes the file's ``set_context(mode=...)`` calls select (UNKNOWN for a
    value mslint cannot read); empty when it selects none."""
    found: frozenset[str] = frozenset()
    for call in context_calls(source, path):
        found |= call.modes
    return found


def context_calls(source: bytes, path: str = "") -> tuple[ContextCall, ...]:
    """The file's ``set_context`` calls that select a mode, each with when it runs."""
    if b"set_context" not in source:
        return ()
    try:
        tree = ast.parse(source)
    except (SyntaxError, ValueError):
        return (ContextCall(frozenset({UNKNOWN})),)
    return tuple(call for call in context_calls_of_tree(tree, path) if call.modes)


def context_calls_of_tree(tree: ast.Module, path: str = "") -> tuple[ContextCall, ...]:
    """The ``set_context`` calls of a parsed file that select a mode or a
    syntax level; ``path`` empty: no configuration file is read."""
    reader = _ModeReader(tree, path)
    # a helper the module itself calls at its top level runs on import too
    return tuple(
        replace(call, runs=ON_IMPORT) if call.runs in reader.called_on_import
        else replace(call, last=True) if call.runs in (ON_IMPORT, AS_SCRIPT) and _runs_last(tree.body, node)
        else call
        for call, node in zip(reader.calls, reader.nodes)
    )


# calls that run nothing of the program's after a set_context (printing, formatting,
# another set_context): the script's top-level code may still end with them
_INERT_CALLS = frozenset({"print", "format", "str", "int", "float", "set_context"})


def _runs_last(body: list[ast.stmt], call: ast.Call) -> bool:
    """Whether ``call``, a statement of the module's top-level code ``body`` or of
    an ``if`` (the main guard) or ``with`` there, is followed by no code that may
    run the program's network: every statement after it, at each level, calls
    nothing but _INERT_CALLS and imports nothing. False in a loop, a ``try``, a
    definition, or anywhere its position is not plain."""
    for index, statement in enumerate(body):
        if not statement.lineno <= call.lineno <= (statement.end_lineno or statement.lineno):
            continue
        if not all(_inert(after) for after in body[index + 1:]):
            return False
        if isinstance(statement, ast.Expr) and statement.value is call:
            return True
        if isinstance(statement, ast.If) and not any(node is call for node in ast.walk(statement.test)):
            return _runs_last(statement.body, call) or _runs_last(statement.orelse, call)
        if isinstance(statement, (ast.With, ast.AsyncWith)):
            return _runs_last(statement.body, call)
        return False
    return False


def _inert(statement: ast.stmt) -> bool:
    """Whether a statement calls nothing but _INERT_CALLS and imports nothing."""
    for node in ast.walk(statement):
        if isinstance(node, (ast.Import, ast.ImportFrom, ast.Await, ast.Yield, ast.YieldFrom, ast.Delete)):
            return False
        if isinstance(node, ast.Call) and last_name(node.func) not in _INERT_CALLS:
            return False
    return True


class _ModeReader(ast.NodeVisitor):
    def __init__(self, tree: ast.Module, path: str) -> None:
        self.path = path
        self.calls: list[ContextCall] = []
        self.nodes: list[ast.Call] = []  # the call of each of self.calls
        self.called_on_import: set[str] = set()  # names the module's top-level code calls
        self._runs = ON_IMPORT  # when the code being visited runs
        self.constants: dict[str, ast.expr] = {}
        # names assigned so far in the module (its main guard too) and in each
        # function being visited: ``ms_mode = GRAPH_MODE if ... else ...``, each
        # value with the tests it is assigned under (a name assigned in branches
        # has several: _Assignment)
        self._assigned: list[dict[str, list[_Assignment]]] = [{}]
        # the tests the statement being visited runs under, in each scope (None: a loop's or a try's body)
        self._conditions: list[list[tuple[ast.expr | None, bool]]] = [[]]
        self._mappings: list[tuple] = []  # tables of modes the value being read goes through
        self.arguments: dict[str, ast.Call] = argparse_options(tree)
        self._yaml: dict[str, list[str]] | None = None
        self.functions: list[ast.FunctionDef | ast.AsyncFunctionDef] = []
        self._options: list[str] = []  # options the value being read names
        for statement in tree.body:
            if isinstance(statement, ast.Assign) and len(statement.targets) == 1 and isinstance(statement.targets[0], ast.Name):
                self.constants[statement.targets[0].id] = statement.value
        # names the module binds exactly once (``mode = 0`` at its top): a test of
        # such a constant against a literal decides a branch of top-level code
        stores = Counter(node.id for node in ast.walk(tree) if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store))
        self._fixed = {
            name: value.value for name, value in self.constants.items()
            if stores[name] == 1 and isinstance(value, ast.Constant)
        }
        # self.<name> = get_context("mode"): attributes that keep the setting in force
        self.restored: set[str] = _saved_attributes(tree)
        self.visit(tree)

    def visit_FunctionDef(self, node: ast.FunctionDef | ast.AsyncFunctionDef) -> None:
        self.functions.append(node)
        self._assigned.append({})
        self._conditions.append([])
        self._visit_deferred(node)
        self._conditions.pop()
        self._assigned.pop()
        self.functions.pop()

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
            conditions = tuple(self._conditions[-1])
            known = self._assigned[-1].setdefault(node.targets[0].id, [])
            if not conditions:
                known.clear()  # assigned whatever happened before: the earlier values are gone
            known.append(_Assignment(node.value, conditions))

    def _visit_under(self, test: ast.expr | None, holds: bool, statements: list) -> None:
        self._conditions[-1].append((test, holds))
        for statement in statements:
            self.visit(statement)
        self._conditions[-1].pop()

    def visit_For(self, node: ast.For | ast.AsyncFor | ast.While) -> None:
        for field in ("target", "iter", "test"):
            if getattr(node, field, None) is not None:
                self.visit(getattr(node, field))
        self._visit_under(None, True, node.body)
        self._visit_under(None, True, node.orelse)

    visit_AsyncFor = visit_While = visit_For

    def visit_Try(self, node: ast.Try) -> None:
        self._visit_under(None, True, node.body)
        for handler in node.handlers:
            self._visit_under(None, True, handler.body)
        self._visit_under(None, True, node.orelse)
        for statement in node.finalbody:
            self.visit(statement)

    visit_TryStar = visit_Try

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        # counted as run when the class is used (``Env(cfg)``): a set_context in a
        # class body proper is too rare to tell apart from one in its methods
        self._visit_deferred(node)

    def visit_Lambda(self, node: ast.Lambda) -> None:
        self._visit_deferred(node)

    def _visit_deferred(self, node: ast.AST) -> None:
        """Visit a definition: code in it runs when the module-level function or
        class that holds it is called (its name), not when the module is imported."""
        runs = self._runs
        if runs == ON_IMPORT and isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            self._runs = node.name
        elif runs in (ON_IMPORT, AS_SCRIPT):
            self._runs = "<lambda>"
        self.generic_visit(node)
        self._runs = runs

    def visit_If(self, node: ast.If) -> None:
        if self._runs == ON_IMPORT and is_main_guard(node.test):
            self.visit(node.test)
            self._runs = AS_SCRIPT
            for statement in node.body:
                self.visit(statement)
            self._runs = ON_IMPORT
            for statement in node.orelse:
                self.visit(statement)
            return
        self.visit(node.test)
        self._visit_under(node.test, True, node.body)
        self._visit_under(node.test, False, node.orelse)

    def visit_Call(self, node: ast.Call) -> None:
        name = last_name(node.func)
        if self._runs == ON_IMPORT and name:
            self.called_on_import.add(name)
        if name == "set_context":
            self._read_set_context(node)
        self.generic_visit(node)

    def _never_runs(self) -> bool:
        """Whether the top-level statement being visited sits in a branch a module
        constant rules out: ``mode = 0`` then ``if mode == 0: ... else:
        set_context(mode=GRAPH_MODE)`` (the else never runs)."""
        if self.functions:
            return False  # a function may see another binding of the name (a parameter)
        for test, holds in self._conditions[-1]:
            compared = _equality(test) if test is not None else None
            if compared is None and isinstance(test, ast.Compare) and len(test.ops) == 1 \
                    and isinstance(test.ops[0], ast.NotEq):
                found = _equality(ast.Compare(test.left, [ast.Eq()], test.comparators))
                compared = (found[0], found[1], False) if found is not None else None
            elif compared is not None:
                compared = (*compared, True)
            if compared is None or not isinstance(compared[0], ast.Name) or compared[0].id not in self._fixed:
                continue
            value = self._fixed[compared[0].id]
            if type(value) is not type(compared[1]):
                continue  # 0 == False, 1 == 1.0: not read as a decision
            if (value == compared[1]) is not (holds if compared[2] else not holds):
                return True
        return False

    def _read_set_context(self, node: ast.Call) -> None:
        if self._never_runs():
            return  # a branch the module's own constant rules out
        selected: set[str] = set()
        levels: set[str] = set()
        options: list[str] = []
        level_options: list[str] = []
        mappings: tuple = ()
        for keyword in node.keywords:
            if keyword.arg == "mode":
                self._options = []
                self._mappings = []
                selected |= self.evaluate(keyword.value, 0)
                options += self._options
                mappings = tuple(self._mappings)
            elif keyword.arg == "jit_syntax_level":
                self._options = []
                levels |= self.evaluate(keyword.value, 0, levels=True)
                level_options += self._options
            elif keyword.arg == "jit_config" and isinstance(keyword.value, ast.Dict):
                for key, value in zip(keyword.value.keys, keyword.value.values):
                    if isinstance(key, ast.Constant) and key.value == "jit_syntax_level":
                        self._options = []
                        levels |= self.evaluate(value, 0, levels=True)
                        level_options += self._options
            elif keyword.arg is None:
                selected.add(UNKNOWN)  # set_context(**config)
        if len(selected) == 1 and UNKNOWN not in selected and not options:
            keyed = self._branch_keyed(next(iter(selected)))
            if keyed is not None:  # ``if configs.context_mode == "graph": set_context(mode=GRAPH_MODE)``
                selected, options, mappings = keyed
        if selected or levels:
            self.calls.append(ContextCall(
                frozenset(selected), self._runs, node.lineno, tuple(dict.fromkeys(options)),
                frozenset(levels), tuple(dict.fromkeys(level_options)), mappings,
            ))
            self.nodes.append(node)

    def _branch_keyed(self, selected: str) -> tuple[set[str], list[str], tuple] | None:
        """A ``set_context`` selecting one mode in an arm of an ``if`` whose test
        reads one option this file cannot read (``if configs.context_mode ==
        "graph":``, the configuration a class's ``__init__`` fills): kept for the
        program model as a table keyed by the test's answer, the arm this call is
        in (the program model reads the option's value; the other answer selects
        nothing here); None when the test decides by itself, or reads no such option."""
        conditions = [(test, holds) for test, holds in self._conditions[-1] if test is not None]
        if not conditions:
            return None
        test, holds = conditions[-1]
        if self.truth(test, 1) is not None:
            return None
        option = self._option_read(test, 1)
        if option is None or not option[1]:
            return None
        self._options = []
        self._mappings = []
        found = self._mapped(option, {holds: selected})
        return found, list(self._options), tuple(self._mappings)

    def evaluate(self, node: ast.expr | None, depth: int, levels: bool = False) -> set[str]:  # noqa: C901, PLR0911, PLR0912
        """The modes (``levels``: the syntax levels) ``node`` may select."""
        if node is None or depth > 6:
            return {UNKNOWN}
        if isinstance(node, ast.Constant):
            return constant_level(node.value) if levels else constant_mode(node.value)
        if isinstance(node, ast.IfExp):
            return self._conditional(node, depth, levels)
        if isinstance(node, ast.Subscript) and isinstance(node.value, ast.Dict):
            return self._table(node.value, node.slice, depth, levels)
        if isinstance(node, ast.Call):
            if last_name(node.func) == "get_context":
                # set_context(mode=saved), saved = get_context("mode"): a restore of
                # the setting in force, which selects no mode of its own
                return set()
            # int(os.getenv("MS_MODE", "0")), os.environ.get("MODE", "GRAPH")
            if last_name(node.func) in ("int", "str") and len(node.args) == 1:
                return self.evaluate(node.args[0], depth + 1, levels)
            # cfg.mode.lower(): the option's spelling does not change which mode it names
            if isinstance(node.func, ast.Attribute) and node.func.attr in _SPELLINGS and not node.args:
                return self.evaluate(node.func.value, depth + 1, levels)
            if last_name(node.func) in _ENV_READERS and _reads_environment(node.func) and len(node.args) >= 2:
                return self.evaluate(node.args[1], depth + 1, levels)
            return {UNKNOWN}
        if isinstance(node, ast.Subscript):
            key = node.slice
            if isinstance(key, ast.Constant) and isinstance(key.value, str):  # cfg["mode"]
                self._options.append(key.value)
            return {UNKNOWN}
        name = node.attr if isinstance(node, ast.Attribute) else node.id if isinstance(node, ast.Name) else None
        if name is None:
            return {UNKNOWN}
        names = _LEVEL_NAMES if levels else _MODE_NAMES
        if name in names:
            return {names[name]}
        if isinstance(node, ast.Name):
            assigned = [item for item in self._assignments(name, depth) if item.value is not node]
            if assigned:
                return self._assigned_modes(assigned, depth, levels)
            default = self._parameter_default(name)
            if default is not None:
                return self.evaluate(default, depth + 1, levels)
            cases = self._parametrized(name)
            if cases:  # @pytest.mark.parametrize("mode", [0, 1]): every case runs
                found = set()
                for case in cases:
                    found |= self.evaluate(case, depth + 1, levels)
                return found
            if name in self.constants:
                return self.evaluate(self.constants[name], depth + 1, levels)
            return {UNKNOWN}
        if isinstance(node, ast.Attribute) and _is_self(node.value) and name in self.restored:
            # set_context(mode=self._prev_mode), self._prev_mode = get_context("mode"):
            # a restore of the setting in force (a context manager's __exit__)
            return set()
        # args.mode, config.mode: an argparse option, else a YAML key
        option = self.arguments.get(name)
        if option is not None:
            return self._option_modes(option, depth, levels)
        values = self.yaml_values().get(name)
        if values:
            found = set()
            for value in values:
                found |= constant_level(yaml_scalar(value)) if levels else constant_mode(yaml_scalar(value))
            return found
        self._options.append(option_path(node) if isinstance(node, ast.Attribute) else name)
        return {UNKNOWN}

    def _conditional(self, node: ast.IfExp, depth: int, levels: bool) -> set[str]:
        """``GRAPH_MODE if args.mode.upper().startswith("GRAPH") else PYNATIVE_MODE``:
        the arm the test takes with the options' values; a test of one option
        this file cannot read (``env_args.mode`` in a helper the entry calls)
        is kept for the program model as a table of modes keyed by the test's
        answer; else either arm."""
        taken = self.truth(node.test, depth + 1)
        if taken is not None:
            return self.evaluate(node.body if taken else node.orelse, depth + 1, levels)
        arms = {branch: self.evaluate(arm, depth + 1, levels) for branch, arm in ((True, node.body), (False, node.orelse))}
        option = None if levels else self._option_read(node.test, depth)
        if option is not None and option[1]:
            return self._mapped(option, {branch: next(iter(modes)) if len(modes) == 1 else UNKNOWN
                                         for branch, modes in arms.items()})
        return arms[True] | arms[False]

    def truth(self, test: ast.expr, depth: int) -> bool | None:
        """Whether ``test`` holds when the program runs with its options' defaults
        (``args.mode == "py"``, ``args.graph``, ``not args.eager``,
        ``args.mode.upper().startswith("GRAPH")``); None when mslint cannot
        tell. An option without a default decides only when each of its
        choices gives the same answer."""
        if depth > 6:
            return None
        values = self.values_of(test, depth + 1)
        return None if values is None else _same_answer(bool(value) for value in values)

    def values_of(self, node: ast.expr, depth: int) -> list[object] | None:
        """The constant values ``node`` may have with the options' defaults: a
        literal, a tuple or list of literals (one value), a constant, a name
        assigned once in the function being read, an argparse option of this
        file, and what pure string operations make of them (pure_values);
        None when not known."""
        if depth > 6:
            return None
        return pure_values(node, lambda leaf: self._leaf_values(leaf, depth + 1))

    def _leaf_values(self, node: ast.expr, depth: int) -> list[object] | None:
        if isinstance(node, ast.Name):
            assigned = self._assignments(node.id, depth)
            if len(assigned) == 1 and not assigned[0].conditions:
                value = assigned[0].value
            else:
                value = None if assigned else self.constants.get(node.id)
            return self.values_of(value, depth + 1) if value is not None and value is not node else None
        if isinstance(node, ast.Attribute) and not _is_self(node.value):
            option = self.arguments.get(node.attr)
            return _option_values(option) if option is not None else None
        return None

    def _assignments(self, name: str, depth: int) -> list[_Assignment]:
        """The values ``name`` may hold at this point of the scope being read:
        the last one assigned whatever happened, and those assigned after it
        under tests mslint cannot decide (a test the options' defaults decide
        keeps, or drops, its value)."""
        live: list[_Assignment] = []
        for item in self._assigned[-1].get(name, ()):
            holds = self._hold(item.conditions, depth)
            if holds is False:
                continue
            if holds is True:
                live = [item]
            else:
                live.append(item)
        return live

    def _hold(self, conditions: tuple, depth: int) -> bool | None:
        answer: bool | None = True
        for test, branch in conditions:
            truth = None if test is None or depth > 4 else self.truth(test, depth + 1)
            if truth is None:
                answer = None
            elif truth != branch:
                return False
        return answer

    def _assigned_modes(self, assigned: list[_Assignment], depth: int, levels: bool) -> set[str]:
        """The modes a name assigned in branches may select: through a table keyed
        by the option the branches test (``if mode == "pynative_mode": m =
        PYNATIVE_MODE elif mode == "graph_mode": m = GRAPH_MODE``), else any value's."""
        keyed: dict[object, str] = {}
        read: tuple[str, str] | None = None
        for item in assigned if not levels else ():
            if not item.conditions:
                continue  # the value before the branches (m = None): no branch taken
            test, branch = item.conditions[-1]
            compared = _equality(test) if branch and test is not None else None
            option = self._option_read(compared[0], depth) if compared else None
            if option is None or (read is not None and option != read):
                keyed = {}
                break
            read = option
            modes = self.evaluate(item.value, depth + 1)
            keyed[compared[1]] = next(iter(modes)) if len(modes) == 1 else UNKNOWN  # type: ignore[index]
        if read is not None and keyed:
            return self._mapped(read, keyed)
        found: set[str] = set()
        for item in assigned:
            found |= self.evaluate(item.value, depth + 1, levels)
        return found

    def _table(self, table: ast.Dict, key: ast.expr, depth: int, levels: bool) -> set[str]:
        """``{"graph": GRAPH_MODE, "pynative": PYNATIVE_MODE}[key]``: the entry the
        key's known value selects, a table of the option the key reads, else any entry's."""
        entries = {item.value: value for item, value in zip(table.keys, table.values) if isinstance(item, ast.Constant)}
        values = self.values_of(key, depth + 1)
        if values is not None and all(value in entries for value in values):
            found: set[str] = set()
            for value in values:
                found |= self.evaluate(entries[value], depth + 1, levels)
            return found
        option = self._option_read(key, depth) if len(entries) == len(table.keys) and not levels else None
        if option is not None:
            keyed = {}
            for value, entry in entries.items():
                modes = self.evaluate(entry, depth + 1)
                keyed[value] = next(iter(modes)) if len(modes) == 1 else UNKNOWN
            return self._mapped(option, keyed)
        found = set()
        for value in table.values:
            found |= self.evaluate(value, depth + 1, levels)
        return found or {UNKNOWN}

    def _mapped(self, option: tuple[str, str], keyed: dict[object, str]) -> set[str]:
        """An option read through a table of modes: kept for the program model,
        which reads the option's values (its configuration files)."""
        self._options.append(option[0])
        self._mappings.append((option[0], option[1], tuple(sorted(keyed.items(), key=lambda item: str(item[0])))))
        return {UNKNOWN}

    def _option_read(self, node: ast.expr, depth: int) -> tuple[str, str] | None:
        """The option ``node`` reads, for an option this file cannot read, and
        the pure string operations it goes through (pure_values) as a reading:
        an expression of ``_`` (read_through), "" for the option itself
        (``cfg.system.context_mode.lower()``: ("system.context_mode",
        "_.lower()"), ``args.mode.startswith("G")``: ("mode",
        "_.startswith('G')")); None for anything else (two options, a value
        the file can read, a call of another kind)."""
        options: set[str] = set()
        reading = self._reading(node, depth, options)
        if reading is None or len(options) != 1:
            return None
        return options.pop(), "" if isinstance(reading, ast.Name) and reading.id == _READ else ast.unparse(reading)

    def _reading(self, node: ast.expr, depth: int, options: set[str]) -> ast.expr | None:
        """``node`` rebuilt with each option it reads replaced by ``_`` (their
        names into ``options``); None when it is not pure string operations of
        options and literals."""
        if depth > 6:
            return None
        if _literal(node) is not None:
            return node
        parts = _pure_parts(node)
        if parts is not None:
            rebuilt = [self._reading(part, depth + 1, options) for part in parts]
            return None if any(part is None for part in rebuilt) else _rebuilt(node, rebuilt)  # type: ignore[arg-type]
        if isinstance(node, ast.Attribute) and not _is_self(node.value):
            if node.attr in self.arguments:
                return None
            options.add(option_path(node))
            return ast.Name(id=_READ, ctx=ast.Load())
        if isinstance(node, ast.Subscript) and isinstance(node.slice, ast.Constant) and isinstance(node.slice.value, str):
            options.add(node.slice.value)
            return ast.Name(id=_READ, ctx=ast.Load())
        if isinstance(node, ast.Name):
            assigned = self._assignments(node.id, depth)
            if len(assigned) == 1 and not assigned[0].conditions and assigned[0].value is not node:
                return self._reading(assigned[0].value, depth + 1, options)
        return None

    def _parameter_default(self, name: str) -> ast.expr | None:
        for function in reversed(self.functions):
            arguments = function.args
            positional = arguments.posonlyargs + arguments.args
            defaults = dict(zip([arg.arg for arg in positional][len(positional) - len(arguments.defaults):], arguments.defaults))
            defaults.update({arg.arg: value for arg, value in zip(arguments.kwonlyargs, arguments.kw_defaults) if value is not None})
            if name in defaults:
                return defaults[name]
            if any(arg.arg == name for arg in positional + arguments.kwonlyargs):
                return None  # a parameter without a default: whatever the caller passes
        return None

    def _parametrized(self, name: str) -> list[ast.expr]:
        """The values ``@pytest.mark.parametrize`` gives parameter ``name`` of the
        function being visited."""
        for function in reversed(self.functions):
            for decorator in function.decorator_list:
                if not (isinstance(decorator, ast.Call) and last_name(decorator.func) == "parametrize" and len(decorator.args) >= 2):
                    continue
                names, cases = decorator.args[0], decorator.args[1]
                if not (isinstance(names, ast.Constant) and isinstance(names.value, str)
                        and isinstance(cases, (ast.List, ast.Tuple))):
                    continue
                argnames = [item.strip() for item in names.value.split(",")]
                if name not in argnames:
                    continue
                index = argnames.index(name)
                if len(argnames) == 1:
                    return list(cases.elts)
                return [case.elts[index] for case in cases.elts
                        if isinstance(case, (ast.Tuple, ast.List)) and index < len(case.elts)]
        return []

    def _option_modes(self, option: ast.Call, depth: int, levels: bool) -> set[str]:
        keywords = {keyword.arg: keyword.value for keyword in option.keywords if keyword.arg}
        default = keywords.get("default")
        if default is not None and not (isinstance(default, ast.Constant) and default.value is None):
            return self.evaluate(default, depth + 1, levels)
        choices = keywords.get("choices")
        if isinstance(choices, (ast.List, ast.Tuple, ast.Set)):
            found: set[str] = set()
            for choice in choices.elts:
                found |= self.evaluate(choice, depth + 1, levels)
            return found or {UNKNOWN}
        return {UNKNOWN}

    def yaml_values(self) -> dict[str, list[str]]:
        """Top-level keys of the YAML files beside the file (and in config/, configs/)."""
        if self._yaml is None:
            self._yaml = yaml_keys(os.path.dirname(self.path)) if self.path else {}
        return self._yaml


@dataclass(frozen=True)
class _Assignment:
    """A value assigned to a name, and the tests it is assigned under ((test,
    branch taken): the innermost last; test None: a loop's or a try's body)."""

    value: ast.expr
    conditions: tuple[tuple[ast.expr | None, bool], ...] = ()


def _equality(test: ast.expr) -> tuple[ast.expr, object] | None:
    """``x == "literal"`` (either way round): (x, literal)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return None
    left, right = test.left, test.comparators[0]
    if isinstance(right, ast.Constant) and not isinstance(left, ast.Constant):
        return left, right.value
    if isinstance(left, ast.Constant) and not isinstance(right, ast.Constant):
        return right, left.value
    return None


# str methods whose result depends on the string and literal arguments alone: an
# option's value through them is known wherever the value is
_PURE_METHODS = frozenset({"lower", "upper", "strip", "lstrip", "rstrip", "casefold", "startswith", "endswith"})
# string methods that change an option's spelling, not its meaning
_SPELLINGS = frozenset({"lower", "upper", "strip", "casefold"})
# the name standing for the option's value in a reading (read_through)
_READ = "_"
# the most combinations of values one operation is evaluated over
_MAX_COMBINATIONS = 64
# read_through's answer for a value the reading fails on (``.upper()`` of an int)
UNREAD = object()


def pure_values(node: ast.expr, leaf: Callable[[ast.expr], list[object] | None]) -> list[object] | None:
    """The values ``node`` may have, built from literals and from what ``leaf``
    says the other sub-expressions (names, options) may be, through pure
    string operations: ``lower``, ``upper``, ``strip``, ``startswith``,
    ``endswith``... with literal arguments, ``==``/``!=``/``in``/``not in``,
    ``not``, ``and``/``or``. None when one of them is not known, or fails."""
    literal = _literal(node)
    if literal is not None:
        return literal
    parts = _pure_parts(node)
    if parts is None:
        return leaf(node)
    values = []
    for part in parts:
        found = pure_values(part, leaf)
        if found is None:
            return None
        values.append(found)
    results: list[object] = []
    for combination in itertools.islice(itertools.product(*values), _MAX_COMBINATIONS + 1):
        result = _apply(node, combination)
        if result is UNREAD:
            return None
        results.append(result)
    return results if len(results) <= _MAX_COMBINATIONS else None


def read_through(value: object, reading: str) -> object:
    """``value`` through a reading (_ModeReader._option_read: "" the value
    itself, else an expression of ``_``); UNREAD when the reading fails on it."""
    if not reading:
        return value
    tree = _parsed_reading(reading)
    found = None if tree is None else pure_values(
        tree, lambda leaf: [value] if isinstance(leaf, ast.Name) and leaf.id == _READ else None)
    return found[0] if found is not None and len(found) == 1 else UNREAD


def table_mode(table: dict[object, str], value: object, reading: str) -> str | None:
    """The mode a table of modes keyed by an option read through ``reading``
    (ContextCall.mappings) selects when the option is ``value``: a
    conditional's (keys True and False) by the truth of the reading; None
    when it selects none (a value the table lacks, a reading that fails)."""
    read = read_through(value, reading)
    if read is UNREAD:
        return None
    if is_conditional(table):
        read = bool(read)
    return table.get(read)


def is_conditional(table: dict[object, str]) -> bool:
    """A table of modes keyed by a test's answer (``GRAPH_MODE if test else
    PYNATIVE_MODE``), not by the option's values."""
    return bool(table) and all(isinstance(key, bool) for key in table)


@functools.lru_cache(maxsize=256)
def _parsed_reading(reading: str) -> ast.expr | None:
    try:
        return ast.parse(reading, mode="eval").body
    except (SyntaxError, ValueError):
        return None


def _literal(node: ast.expr) -> list[object] | None:
    """A literal's value (a tuple, list or set of literals: one tuple), as a
    list of one; None for anything else."""
    if isinstance(node, ast.Constant):
        return [node.value]
    if isinstance(node, (ast.Tuple, ast.List, ast.Set)) and all(isinstance(item, ast.Constant) for item in node.elts):
        return [tuple(item.value for item in node.elts)]  # type: ignore[attr-defined]
    return None


def _pure_parts(node: ast.expr) -> list[ast.expr] | None:
    """The operands of a pure string operation (pure_values), in order; None
    when ``node`` is none."""
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute) and node.func.attr in _PURE_METHODS \
            and not node.keywords and not any(isinstance(arg, ast.Starred) for arg in node.args):
        return [node.func.value, *node.args]
    if isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], _COMPARISONS):
        return [node.left, node.comparators[0]]
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        return [node.operand]
    if isinstance(node, ast.BoolOp):
        return list(node.values)
    return None


def _apply(node: ast.expr, operands: tuple) -> object:
    """The pure operation ``node`` applied to ``operands`` (_pure_parts' order); UNREAD when it fails."""
    if isinstance(node, ast.Call):
        receiver, *arguments = operands
        if not isinstance(receiver, str):
            return UNREAD
        try:
            return getattr(receiver, node.func.attr)(*arguments)  # type: ignore[attr-defined]
        except (TypeError, ValueError):
            return UNREAD
    if isinstance(node, ast.Compare):
        answer = _compare(node.ops[0], operands[0], operands[1])
        return UNREAD if answer is None else answer
    if isinstance(node, ast.UnaryOp):
        return not operands[0]
    # and / or: the operand Python returns
    if isinstance(node.op, ast.And):  # type: ignore[attr-defined]
        return next((item for item in operands if not item), operands[-1])
    return next((item for item in operands if item), operands[-1])


def _rebuilt(node: ast.expr, parts: list[ast.expr]) -> ast.expr:
    """The pure operation ``node`` over other operands (_pure_parts' order)."""
    if isinstance(node, ast.Call):
        return ast.Call(func=ast.Attribute(value=parts[0], attr=node.func.attr, ctx=ast.Load()),  # type: ignore[attr-defined]
                        args=parts[1:], keywords=[])
    if isinstance(node, ast.Compare):
        return ast.Compare(left=parts[0], ops=node.ops, comparators=parts[1:])
    if isinstance(node, ast.UnaryOp):
        return ast.UnaryOp(op=node.op, operand=parts[0])
    return ast.BoolOp(op=node.op, values=parts)  # type: ignore[attr-defined]


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id in ("self", "cls")


def _saved_attributes(tree: ast.Module) -> set[str]:
    """``self.<name> = get_context(...)``: the attributes that hold the setting in force."""
    return {
        target.attr
        for node in ast.walk(tree)
        if isinstance(node, ast.Assign) and isinstance(node.value, ast.Call) and last_name(node.value.func) == "get_context"
        for target in node.targets
        if isinstance(target, ast.Attribute) and _is_self(target.value)
    }


def _option_values(option: ast.Call) -> list[object] | None:
    """The value of an argparse option when the flag is not given: its default
    (``store_true``: False, ``store_false``: True), else each of its literal
    choices; None when not known."""
    keywords = {keyword.arg: keyword.value for keyword in option.keywords if keyword.arg}
    default = keywords.get("default")
    if isinstance(default, ast.Constant):
        return [default.value]
    if default is not None:
        return None
    action = keywords.get("action")
    if isinstance(action, ast.Constant) and action.value in ("store_true", "store_false"):
        return [action.value == "store_false"]
    choices = keywords.get("choices")
    if isinstance(choices, (ast.List, ast.Tuple, ast.Set)) and choices.elts \
            and all(isinstance(item, ast.Constant) for item in choices.elts):
        return [item.value for item in choices.elts]  # type: ignore[attr-defined]
    return None


_COMPARISONS = (ast.Eq, ast.NotEq, ast.Is, ast.IsNot, ast.In, ast.NotIn)


def _compare(operator: ast.cmpop, left: object, right: object) -> bool | None:
    try:
        if isinstance(operator, (ast.Eq, ast.Is)):
            return left == right
        if isinstance(operator, (ast.NotEq, ast.IsNot)):
            return left != right
        if isinstance(operator, ast.In):
            return left in right  # type: ignore[operator]
        if isinstance(operator, ast.NotIn):
            return left not in right  # type: ignore[operator]
    except TypeError:
        return None
    return None


def _same_answer(answers) -> bool | None:
    """True or False when every answer is it; None otherwise (or when there is none)."""
    found = set()
    for answer in answers:
        if answer is None:
            return None
        found.add(answer)
    return found.pop() if len(found) == 1 else None


def yaml_keys(folder: str) -> dict[str, list[str]]:
    """Top-level keys of the YAML files in ``folder`` and its config/, configs/."""
    found: dict[str, list[str]] = {}
    for sub in CONFIG_FOLDERS:
        where = os.path.join(folder, sub)
        try:
            names = sorted(name for name in os.listdir(where) if name.endswith((".yaml", ".yml")))
        except OSError:
            continue
        for name in names[:20]:
            try:
                with open(os.path.join(where, name), encoding="utf-8", errors="replace") as stream:
                    text = stream.read(50_000)
            except OSError:
                continue
            for key, value in _YAML_KEY.findall(text):
                found.setdefault(key, []).append(value)
    return found


def argparse_options(tree: ast.AST) -> dict[str, ast.Call]:
    """The file's ``add_argument`` calls by destination."""
    found: dict[str, ast.Call] = {}
    for node in ast.walk(tree):
        if isinstance(node, ast.Call) and last_name(node.func) == "add_argument":
            for arg in node.args:
                if isinstance(arg, ast.Constant) and isinstance(arg.value, str) and arg.value.startswith("-"):
                    found.setdefault(arg.value.lstrip("-").replace("-", "_"), node)
            for keyword in node.keywords:
                if keyword.arg == "dest" and isinstance(keyword.value, ast.Constant):
                    found[str(keyword.value.value)] = node
    return found


def _reads_environment(func: ast.expr) -> bool:
    """``os.getenv``, ``getenv``, ``os.environ.get``, ``environ.get``."""
    if isinstance(func, ast.Name):
        return func.id == "getenv"
    if isinstance(func, ast.Attribute):
        if func.attr == "getenv":
            return True
        return func.attr == "get" and last_name(func.value) == "environ"
    return False


def yaml_scalar(text: str) -> object:
    text = text.strip().strip("'\"")
    try:
        return int(text)
    except ValueError:
        return text


def constant_mode(value: object) -> set[str]:
    if isinstance(value, bool):
        return {UNKNOWN}
    if value == 0:
        return {GRAPH}
    if value == 1:
        return {PYNATIVE}
    if isinstance(value, str):
        stripped = value.strip()
        if stripped in ("0", "1"):
            return constant_mode(int(stripped))
        lowered = stripped.lower()
        if "graph" in lowered:
            return {GRAPH}
        if "pynative" in lowered:
            return {PYNATIVE}
    return {UNKNOWN}


def constant_level(value: object) -> set[str]:
    if isinstance(value, str):
        return {_LEVEL_NAMES.get(value.strip().upper(), UNKNOWN)}
    if isinstance(value, int) and not isinstance(value, bool):
        # mindspore.STRICT == 0, COMPATIBLE == 1, LAX == 2
        return {STRICT} if value == 0 else {LAX} if value in (1, 2) else {UNKNOWN}
    return {UNKNOWN}


def is_main_guard(test: ast.expr) -> bool:
    """``__name__ == "__main__"`` (either way round)."""
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], ast.Eq)):
        return False
    sides = (test.left, test.comparators[0])
    return any(isinstance(side, ast.Name) and side.id == "__name__" for side in sides) and any(
        isinstance(side, ast.Constant) and side.value == "__main__" for side in sides
    )


def _reads_mode(node: ast.expr) -> bool:
    """``get_context("mode")`` in any spelling (``context.get_context(attr_key="mode")``)."""
    if not (isinstance(node, ast.Call) and last_name(node.func) == "get_context"):
        return False
    key = node.args[0] if node.args else next((item.value for item in node.keywords if item.arg == "attr_key"), None)
    return isinstance(key, ast.Constant) and key.value == "mode"


def _mode_constant(node: ast.expr) -> str | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, int) and not isinstance(node.value, bool):
        return {0: GRAPH, 1: PYNATIVE}.get(node.value)
    name = last_name(node)
    return _MODE_NAMES.get(name) if name else None


def requires_pynative(test: ast.expr) -> bool | None:
    """Whether ``test`` holds only in PyNative mode (True: ``get_context("mode")
    == PYNATIVE_MODE``, ``!= GRAPH_MODE``), only outside it (False: ``!=
    PYNATIVE_MODE``, ``== GRAPH_MODE``, ``== 0``), or says nothing about the mode (None)."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        inner = requires_pynative(test.operand)
        return None if inner is None else not inner
    if not (isinstance(test, ast.Compare) and len(test.ops) == 1):
        return None
    left, right = test.left, test.comparators[0]
    if _reads_mode(right):
        left, right = right, left
    selected = _mode_constant(right) if _reads_mode(left) else None
    if selected is None:
        return None
    operator = test.ops[0]
    if isinstance(operator, (ast.Eq, ast.Is)):
        return selected == PYNATIVE
    if isinstance(operator, (ast.NotEq, ast.IsNot)):
        return selected != PYNATIVE
    return None


def is_pynative_guard(statement: ast.stmt) -> bool:
    """A statement that raises unless the program runs PyNative: ``if
    get_context("mode") != PYNATIVE_MODE: raise ...`` (the ``if`` ending in a
    raise, without ``else``), ``assert get_context("mode") == PYNATIVE_MODE``.
    What follows it in the same block runs only in PyNative mode."""
    if isinstance(statement, ast.Assert):
        return requires_pynative(statement.test) is True
    return (
        isinstance(statement, ast.If) and not statement.orelse and bool(statement.body)
        and isinstance(statement.body[-1], ast.Raise) and requires_pynative(statement.test) is False
    )


def option_path(node: ast.Attribute) -> str:
    """The option an attribute chain reads: ``args.mode`` "mode",
    ``cfg.system.context_mode`` "system.context_mode" (a nested configuration
    key; the program model also tries its last name), ``self.cfg.mode`` "mode";
    the last name when the chain does not start at a name."""
    parts: list[str] = []
    current: ast.expr = node
    while isinstance(current, ast.Attribute):
        parts.insert(0, current.attr)
        current = current.value
    if not isinstance(current, ast.Name):
        return node.attr
    if current.id in ("self", "cls") and len(parts) > 1:
        parts = parts[1:]  # self.cfg.mode: the options are self.cfg
    return ".".join(parts)


def last_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    if isinstance(func, ast.Name):
        return func.id
    return None
